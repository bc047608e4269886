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
