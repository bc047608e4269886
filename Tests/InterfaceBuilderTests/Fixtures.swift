import LayoutModel

@testable import InterfaceBuilder

/// An imported root laid out one-shot: its frames by id, in parent coordinates.
func laidOut(_ root: ImportedRoot) throws -> [String: Rect] {
    let session = try LayoutSession.make(document: root.document, oneShot: true)
    var frames: [String: Rect] = [:]
    session.forEachFrame { id, frame, _ in frames[id] = frame }
    return frames
}

/// A 10 × 10 box placed by one constraint of the fixtures' storyboards: its element, and its
/// constraints (`edge`, the attributes of the one that places it vertically; its leading on
/// `root`; its size).
enum PinnedBox {
    static func view(_ id: String) -> String {
        #"<view translatesAutoresizingMaskIntoConstraints="NO" id="\#(id)"><rect key="frame" x="0" y="0" width="10" height="10"/></view>"#
    }

    /// `edge` a constraint's items and attributes; `leading` the second item and attribute the
    /// box's leading sits at.
    static func constraints(_ id: String, edge: String, leading: String = #"secondItem="root" secondAttribute="leading""#) -> String {
        """
        <constraint \(edge) id="\(id)-edge"/>
        <constraint firstItem="\(id)" firstAttribute="leading" \(leading) id="\(id)-leading"/>
        <constraint firstItem="\(id)" firstAttribute="width" constant="10" id="\(id)-width"/>
        <constraint firstItem="\(id)" firstAttribute="height" constant="10" id="\(id)-height"/>
        """
    }
}
