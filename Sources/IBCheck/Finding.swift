public import InterfaceBuilder

/// Something wrong with an Interface Builder document, with its place: what `layoutd check`
/// reports and `POST /v1/ib/layout` answers beside each root's diagnostics.
public struct Finding: Sendable, Equatable {
    public enum Kind: String, CaseIterable, Sendable {
        /// Required constraints that cannot all hold: the one broken, and its conflicting set.
        case conflict
        /// A view more than one layout fits.
        case ambiguous
        /// A view whose stored frame is not where the layout puts it.
        case misplaced
        /// Something the importer left out or approximated (an attribute, a guide).
        case unsupported
        /// A document or root that could not be laid out at all.
        case refused
        /// A view that moved from its recorded snapshot (`layoutd check --compare`).
        case moved
    }

    public enum Severity: String, Sendable { case error, warning }

    public var kind: Kind
    public var severity: Severity
    public var message: String
    /// Where it is in the XML (1-based line and column of the element's start tag).
    public var place: SourcePlace
    /// The IB ids it concerns: the broken constraint then its conflicting set, the view, the element.
    public var ids: [String]
    /// The root's name (a controller's, cell's or view's IB id); nil for the whole document.
    public var root: String?
    /// The size it was found at (`layoutd check`); nil for the document's own.
    public var size: String?
    /// The document's path (`layoutd check`).
    public var file: String?

    public init(
        _ kind: Kind, _ message: String, at place: SourcePlace, ids: [String], root: String? = nil, size: String? = nil,
        severity: Severity? = nil
    ) {
        self.size = size
        self.kind = kind
        self.severity = severity ?? Severities.standard[kind] ?? .warning
        self.message = message
        self.place = place
        self.ids = ids
        self.root = root
    }
}
