import LayoutModel
import XCTest

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

/// The root of a storyboard of one controller: layout guides `guides` (types), a root stored
/// at `frame` holding a `PinnedBox` for each (id, `edge`) of `boxes`, and `metrics`, the
/// controller's simulated-metrics elements. `device` is a `<device>` element or empty.
func guidedControllerRoot(
    tools: String, device: String = "", guides: [String], frame: (y: Int, width: Int, height: Int),
    boxes: [(id: String, edge: String)], metrics: String
) throws -> ImportedRoot {
    let xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            \(device)
            <scenes><scene sceneID="s"><objects>
                <viewController id="vc" sceneMemberID="viewController">
                    <layoutGuides>\(guides.map { #"<viewControllerLayoutGuide type="\#($0)" id="\#($0)"/>"# }.joined())</layoutGuides>
                    <view key="view" contentMode="scaleToFill" id="root">
                        <rect key="frame" x="0.0" y="\(frame.y)" width="\(frame.width)" height="\(frame.height)"/>
                        <subviews>\(boxes.map { PinnedBox.view($0.id) }.joined())</subviews>
                        <constraints>\(boxes.map { PinnedBox.constraints($0.id, edge: $0.edge) }.joined(separator: "\n"))</constraints>
                    </view>
                    \(metrics)
                </viewController>
            </objects></scene></scenes>
        </document>
        """
    return try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
}
