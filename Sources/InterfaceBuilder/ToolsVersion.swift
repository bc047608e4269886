/// The Xcode that wrote a document, from its `toolsVersion` (`16097.3`: its leading number):
/// canvas rules changed with it. Xcode's project templates write `32700.99.1234`, which names
/// no Xcode: such a document is laid out as a recent one, but not as Xcode 26 draws
/// (documents of 3 repositories of the corpus's development half made from a template store
/// 48 and 59 for the status bars, not 96 and 118).
public struct ToolsVersion: Sendable, Equatable {
    /// The leading number; 0 when the document does not say.
    public var number: Double
    public var isTemplate: Bool

    public init(_ attribute: String?) {
        isTemplate = attribute == "32700.99.1234"
        number = attribute.flatMap { Double($0.prefix { $0 != "." }) }.flatMap { $0.isFinite && $0 > 0 ? $0 : nil } ?? 0
    }

    /// Written by an Xcode older than the one that first wrote `tools`; an unknown Xcode or a
    /// template counts as a recent one.
    func isBefore(_ tools: Double) -> Bool { number > 0 && !isTemplate && number < tools }

    /// Written by an Xcode from the one that first wrote `tools` on (an unknown Xcode is not).
    func isFrom(_ tools: Double) -> Bool { number > 0 && !isTemplate && number >= tools }

    /// Xcode 26 (toolsVersion 24000 on).
    var isXcode26OrLater: Bool { isFrom(24000) }
}

/// Rules of how the Xcode that wrote a document drew text: one function per rule, each with
/// its evidence.
extension ToolsVersion {
    /// What Xcode lays out a `pointSize="0.0"` label at (it writes 0 for its built-in cell
    /// styles' labels; `cellStyle` is the table cell's style, nil outside one). From Xcode 12
    /// on, 12 pt whatever the style and role (CoreText's size for a font of size 0): stored
    /// frames of 14.5 pt tall labels in every zero-size Subtitle and Right Detail cell of 1 and
    /// 3 documents at toolsVersion 18122–24128, and one document whose frames grew to 20.5 when
    /// a commit set the size to 17. Before, the style's own size (Xcode 5–8 documents,
    /// toolsVersion 5056–11762, 17 for both Right Detail labels, 17 and 12 for Subtitle's; 3
    /// documents of 2 repositories). Xcode 9–11 documents have zero sizes only in Basic cells,
    /// whose frames fill the cell: the style's size there too. An unknown Xcode counts as a
    /// recent one.
    func zeroPointFontSize(cellStyle: String?, isDetailLabel: Bool) -> Double {
        guard isBefore(17000) else { return 12 }
        switch cellStyle {
        case "IBUITableViewCellStyleSubtitle": return isDetailLabel ? 12 : 17
        case "IBUITableViewCellStyleValue2": return 12
        default: return 17
        }
    }
}
