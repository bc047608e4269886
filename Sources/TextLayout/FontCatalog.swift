import CFontconfig
import CheckedNumbers
import Synchronization

/// The fonts the system has, through fontconfig: the families (for `GET /v1/fonts` and
/// for checking a document's), and the file behind a family, weight and slant. fontconfig
/// is called under one lock; what it answers is kept.
public final class FontCatalog: Sendable {
    public struct Family: Sendable, Equatable {
        public var name: String
        /// OpenType weight classes available (100…900).
        public var weights: [Int]
        public var italic: Bool
    }

    /// A font file and the face in it.
    struct FileFace: Hashable, Sendable {
        var path: String
        var index: Int32
    }

    public static let shared = FontCatalog()

    public let families: [Family]
    private let byLowercasedName: [String: String]
    private let resolved = Mutex<[Font.Key: FileFace]>([:])
    /// fontconfig's calls, one at a time (nil config: its current one).
    private let lock = Mutex<Void>(())

    private init() {
        FcInit()
        var found: [String: (weights: Set<Int>, italic: Bool)] = [:]
        if let pattern = FcPatternCreate(), let objects = FcObjectSetCreate() {
            for o in [FC_FAMILY, FC_WEIGHT, FC_SLANT] { FcObjectSetAdd(objects, o) }
            if let list = FcFontList(nil, pattern, objects) {
                let fonts = list.pointee
                for i in 0..<Int(fonts.nfont) {
                    guard let font = fonts.fonts[i] else { continue }
                    var name: UnsafeMutablePointer<FcChar8>?
                    // The first family name is the font's own (later ones are localised aliases).
                    guard FcPatternGetString(font, FC_FAMILY, 0, &name) == FcResultMatch, let name else { continue }
                    let family = String(cString: name)
                    var weight: Int32 = 80, slant: Int32 = 0
                    _ = FcPatternGetInteger(font, FC_WEIGHT, 0, &weight)
                    _ = FcPatternGetInteger(font, FC_SLANT, 0, &slant)
                    found[family, default: ([], false)].weights.insert(Int(FcWeightToOpenType(weight)))
                    if slant > 0 { found[family]!.italic = true }
                }
                FcFontSetDestroy(list)
            }
            FcObjectSetDestroy(objects)
            FcPatternDestroy(pattern)
        }
        families = found.map { Family(name: $0.key, weights: $0.value.weights.sorted(), italic: $0.value.italic) }.sorted { $0.name < $1.name }
        byLowercasedName = Dictionary(families.map { ($0.name.lowercased(), $0.name) }, uniquingKeysWith: { a, _ in a })
    }

    /// The family's own spelling, if the system has it (case-insensitive).
    public func family(named name: String) -> String? { byLowercasedName[name.lowercased()] }

    /// The family a label without one is set in, as UIKit's labels take the system font:
    /// Inter (the closest to San Francisco a Debian server has), else DejaVu Sans, else the first.
    public var defaultFamily: String? { family(named: "Inter") ?? family(named: "DejaVu Sans") ?? families.first?.name }

    /// The file fontconfig picks for the family at that weight and slant (the nearest it has).
    func file(for font: Font) -> FileFace? {
        let key = font.key
        if let f = resolved.withLock({ $0[key] }) { return f }
        guard let family = family(named: font.family) else { return nil }
        let face: FileFace? = lock.withLock { _ in
            guard let pattern = FcPatternCreate() else { return nil }
            defer { FcPatternDestroy(pattern) }
            _ = family.withCString { FcPatternAddString(pattern, FC_FAMILY, UnsafeRawPointer($0).assumingMemoryBound(to: FcChar8.self)) }
            _ = FcPatternAddInteger(pattern, FC_WEIGHT, FcWeightFromOpenType(Int32(font.weight)))
            _ = FcPatternAddInteger(pattern, FC_SLANT, font.italic ? Int32(FC_SLANT_ITALIC) : Int32(FC_SLANT_ROMAN))
            FcConfigSubstitute(nil, pattern, FcMatchPattern)
            FcDefaultSubstitute(pattern)
            var result = FcResultNoMatch
            guard let match = FcFontMatch(nil, pattern, &result) else { return nil }
            defer { FcPatternDestroy(match) }
            var file: UnsafeMutablePointer<FcChar8>?
            var index: Int32 = 0
            guard FcPatternGetString(match, FC_FILE, 0, &file) == FcResultMatch, let file else { return nil }
            _ = FcPatternGetInteger(match, FC_INDEX, 0, &index)
            return FileFace(path: String(cString: file), index: index)
        }
        if let face { resolved.withLock { $0[key] = face } }
        return face
    }
}

extension Font {
    /// What picks a file: the size does not (faces are shaped at their design units).
    struct Key: Hashable, Sendable {
        var family: String
        var weight: Int
        var italic: Bool
    }

    var key: Key { Key(family: family.lowercased(), weight: weight, italic: italic) }
}
