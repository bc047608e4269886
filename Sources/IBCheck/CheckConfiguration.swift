public import InterfaceBuilder
public import LayoutModel

/// What `layoutd check` was asked: the sizes, how content is sized, what counts as what,
/// and where snapshots and pictures go.
public struct CheckConfiguration: Sendable {
    public var sizes: [CheckSize] = [.own]
    /// Device, orientation and content sizes: the device and orientation come from `sizes`.
    public var importOptions = ImportOptions(contentSizes: .stored)
    public var limits: SessionLimits
    public var tolerance = RootLayout.defaultTolerance
    public var severities = Severities.standard
    /// Folder each root's frames at each size are written to.
    public var record: String?
    /// Folder of recorded frames the layouts are compared with.
    public var compare: String?
    /// Folder the pictures of roots that moved from their snapshot go to.
    public var changes: String?
    /// Folder each document's contact sheet goes to.
    public var pictures: String?

    public init(limits: SessionLimits) { self.limits = limits }
}

/// One document checked: its findings (file-level ones first, then root by root, size by
/// size) and what could not be written.
public struct DocumentResult: Sendable {
    public var file: String
    public var roots = 0
    /// Each root at each size, in the order checked: a JUnit report's test cases.
    public var layouts: [CheckedLayout] = []
    public var findings: [Finding] = []
    /// Files that could not be read or written: a usage or I/O error, not a finding.
    public var failures: [String] = []
}

/// One root laid out at one size.
public struct CheckedLayout: Sendable, Equatable {
    public var root: String
    public var size: String
}
