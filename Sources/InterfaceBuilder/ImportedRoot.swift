public import JSON

/// How a document is laid out: on which device and orientation (the document's own when
/// absent), and where content views' sizes come from.
public struct ImportOptions: Sendable {
    public enum ContentSizes: String, Sendable {
        /// Labels measured by the server's text engine; other content (images, buttons) as stored.
        case measured
        /// Every content view's size as Xcode stored it: how Xcode's canvas is reproduced.
        case stored
    }

    public var device: String?
    public var landscape: Bool?
    public var contentSizes = ContentSizes.measured
    /// Only the root of this scene, controller or view id.
    public var root: String?
    /// The family labels are measured in (`Importer.substituteFamily`, or one the server has).
    public var fontFamily = Importer.substituteFamily

    public init(device: String? = nil, landscape: Bool? = nil, contentSizes: ContentSizes = .measured, root: String? = nil) {
        (self.device, self.landscape, self.contentSizes, self.root) = (device, landscape, contentSizes, root)
    }
}

/// One thing IB lays out on its own: a controller's root view, a top-level view of a xib, or a
/// table or collection cell's content view; as a layoutd document, with Xcode's stored frames.
public struct ImportedRoot: Sendable {
    public enum Kind: String, Sendable { case scene, view, cell }

    public var kind: Kind
    /// The controller's id for a scene, the view's or cell's id otherwise.
    public var name: String
    public var rootID: String
    public var document: JSON
    /// Xcode's frame of each view, in its parent's coordinates (`<rect key="frame">`).
    public var storedFrames: [StoredFrame]
    /// Views Xcode marked `misplaced` or `ambiguous`: its stored frame is not its layout.
    public var unreconciled: Set<String>
    /// What the importer left out or approximated, one sentence each.
    public var notes: [ImportNote]
    /// Where the root starts in the XML: its controller's, cell's or view's start tag.
    public var place: SourcePlace
    /// Where each view, guide and constraint of `document` comes from, by its id there: its
    /// element's start tag (what the importer made for one, a guide's pins or a frame's
    /// autoresizing constraints, is placed at the element it was made for).
    public var places: [String: SourcePlace]
    /// Views whose stored frames break one of their own required constraints, given their
    /// neighbours' stored frames (`RootBuilder.storedStaleViews`): Xcode would show them
    /// misplaced though the document does not say so. Reported apart; the agreement figures
    /// still count them.
    public var staleViews: Set<String> = []
    /// Views showing an SF Symbol (`RootBuilder.showsSymbol`): stored at the symbol's image
    /// rect, whose insets the document does not give. Reported apart, counted as the others.
    public var symbolViews: Set<String> = []
}

extension ImportedRoot {
    /// The views Xcode marked misplaced or ambiguous and every view they hold: what a
    /// comparison with the stored frames sets aside (a held view's stored frame is relative
    /// to a parent Xcode did not lay out as stored).
    public var unreconciledSubtrees: Set<String> {
        guard !unreconciled.isEmpty else { return [] }
        var children: [String: [String]] = [:]
        for v in document["views"]?.array ?? [] {
            if let id = v["id"]?.string, let p = v["parent"]?.string { children[p, default: []].append(id) }
        }
        var out = Set<String>(), stack = Array(unreconciled)
        while let v = stack.popLast() { if out.insert(v).inserted { stack += children[v] ?? [] } }
        return out
    }
}

/// A place in the XML: 1-based line and column of an element's start tag.
public struct SourcePlace: Sendable, Equatable, Hashable {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) { (self.line, self.column) = (line, column) }
    init(_ e: XMLElement) { (line, column) = (e.line, e.column) }
}

/// Something the importer left out or approximated: the sentence, the IB id it concerns and
/// where its element is.
public struct ImportNote: Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var id: String?
    public var place: SourcePlace

    public init(_ message: String, id: String?, place: SourcePlace) { (self.message, self.id, self.place) = (message, id, place) }
    public var description: String { message }
}

/// A document's roots and the device they are laid out on.
public struct ImportedDocument: Sendable {
    public var device: Device?
    public var landscape: Bool
    public var roots: [ImportedRoot]
}

/// A document refused: what, and where (1-based line and column).
public struct ImportError: Error, Equatable, Sendable {
    /// Not XML, or XML past a limit (`malformed`); XML that is no layout to make (`unprocessable`).
    public enum Kind: Sendable { case malformed, unprocessable }

    public var kind: Kind
    public var message: String
    public var line: Int
    public var column: Int

    public init(_ kind: Kind = .unprocessable, message: String, line: Int, column: Int) {
        (self.kind, self.message, self.line, self.column) = (kind, message, line, column)
    }
    init(_ xml: XMLError) { self.init(.malformed, message: xml.message, line: xml.line, column: xml.column) }
}

/// A view's frame as Xcode stored it (`<rect key="frame">`), in its parent's coordinates.
public struct StoredFrame: Sendable, Equatable {
    public var id: String
    public var x: Double, y: Double, width: Double, height: Double

    public init(id: String, x: Double, y: Double, width: Double, height: Double) {
        (self.id, self.x, self.y, self.width, self.height) = (id, x, y, width, height)
    }
}
