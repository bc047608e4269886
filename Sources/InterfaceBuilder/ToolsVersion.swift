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

/// Rules of how the Xcode that wrote a document rounded the frames it stored.
extension ToolsVersion {
    /// The pixel grid a root is laid out on (the layoutd document's `scale`): the device's,
    /// but no finer than half points for a document of an Xcode before 10 (toolsVersion below
    /// 14200; Xcode 9.4 wrote 14113, Xcode 10.0 14313). Those Xcodes did not round a 3×
    /// device's frames to its thirds of a point: a view centred at a half point is stored at
    /// the half point, a whole point either side or a third, as the Mac that drew the canvas
    /// rounded, so laid out at thirds it lands up to 0.67 pt from the whole point Xcode stored.
    /// IBCorpus development half: every view centred at a half point in the two Xcode 8.3 and
    /// 9.2 documents for the 5.5-inch phone (2 repositories, 20 such views: 6 at a third, 14
    /// at a whole point) against the thirds of Xcode 10 on (14 views of 7 documents, 6
    /// repositories, every one at a third); the rule takes those two documents from 94 to 102
    /// and 303 to 313 agreeing views, and the validation half from 7,833 to 7,841 (stored;
    /// 6,474 to 6,488 measured), documents unchanged.
    func frameScale(device scale: Double) -> Double { isBefore(14200) ? min(scale, 2) : scale }
}
