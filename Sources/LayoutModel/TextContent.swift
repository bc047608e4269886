import CheckedNumbers
import JSON
public import TextLayout

/// A label's text and how it is set (API.md, v1.1 "Text").
public struct TextContent: Equatable, Sendable {
    public var string: String
    public var style: TextStyle
    /// Set in the system font (no family given): the server's stand-in, with San Francisco's
    /// tracking where the stand-in is Inter.
    public var system = false
    /// The tracking asked for (points after each character), added to the system font's own.
    public var kern = 0.0

    /// The same text byte for byte: String's own `==` is canonical equivalence, under which
    /// a change from `가` to its two jamo (which a font sets apart) would not re-measure.
    public static func == (a: TextContent, b: TextContent) -> Bool {
        a.style == b.style && a.system == b.system && a.kern == b.kern && a.string.utf8.elementsEqual(b.string.utf8)
    }

    /// UILabel's font size when none is given.
    static let defaultSize = 17.0

    /// Decodes `text`, checking the font against the families the server has.
    static func decode(_ json: JSON, at p: Pointer) throws(LayoutError) -> TextContent {
        guard let m = json.members else { throw p.fail("text must be an object with string and font") }
        try ViewSpec.onlyKeys(m, ["string", "font", "numberOfLines", "lineBreak", "lineHeight"], at: p)
        guard let string = json["string"]?.string else { throw p("string").fail("text needs a string") }
        // A label without a font has the system font, as UIKit's: the server's default family
        // at 17 points (a missing family or size is the default's).
        let f = json["font"] ?? .object([])
        guard let fm = f.members else { throw p("font").fail("a font is an object: {family, size, weight, italic, tracking}") }
        try ViewSpec.onlyKeys(fm, ["family", "size", "weight", "italic", "tracking"], at: p("font"))
        let family: String
        if let given = f["family"], !given.isNull {
            guard let name = given.string else { throw p("font")("family").fail("a font's family is a string (GET /v1/fonts lists them)") }
            guard let known = TextMeasurer.shared.catalog.family(named: name) else {
                throw p("font")("family").fail("the server has no font family '\(name)' (GET /v1/fonts lists those it has)")
            }
            family = known
        } else {
            guard let fallback = TextMeasurer.shared.catalog.defaultFamily else { throw p("font")("family").fail("the server has no fonts") }
            family = fallback
        }
        var size = Self.defaultSize
        if let s = f["size"], !s.isNull { size = try ViewSpec.number(s, at: p("font")("size")) }
        guard size > 0 && size <= 10_000 else { throw p("font")("size").fail("a font size is more than 0 and at most 10000 points") }
        var weight = 400
        if let w = f["weight"], !w.isNull {
            guard let n = w.number, n == n.rounded(), n >= 100, n <= 900, let k = Int(checked: n) else {
                throw p("font")("weight").fail("a weight is an integer from 100 to 900")
            }
            weight = k
        }
        var italic = false
        if let i = f["italic"], !i.isNull {
            guard let b = i.bool else { throw p("font")("italic").fail("italic must be true or false") }
            italic = b
        }
        var lines = 1
        if let n = json["numberOfLines"], !n.isNull {
            guard let x = n.number, x == x.rounded(), x >= 0, x <= 1_000_000, let k = Int(checked: x) else {
                throw p("numberOfLines").fail("numberOfLines is a whole number, 0 for unlimited")
            }
            lines = k
        }
        var mode = LineBreakMode.word
        if let b = json["lineBreak"], !b.isNull {
            guard let s = b.string, let m = LineBreakMode(rawValue: s) else { throw p("lineBreak").fail("lineBreak is \"word\" or \"char\"") }
            mode = m
        }
        var lineHeight: Double? = nil
        if let h = json["lineHeight"], !h.isNull {
            let x = try ViewSpec.number(h, at: p("lineHeight"))
            guard x > 0 else { throw p("lineHeight").fail("lineHeight is more than 0") }
            lineHeight = x
        }
        var kern = 0.0
        if let t = f["tracking"], !t.isNull {
            kern = try ViewSpec.number(t, at: p("font")("tracking"))
            guard abs(kern) <= 1_000 else { throw p("font")("tracking").fail("tracking is from -1000 to 1000 points") }
        }
        let system = f["family"]?.isNull ?? true
        let tracking = kern + (system ? SystemFont.tracking(family: family, size: size, weight: weight) : 0)
        let font = Font(family: family, size: size, weight: weight, italic: italic, tracking: tracking)
        do { try TextMeasurer.shared.check(font) } catch {
            throw p("font").fail("the font cannot be read: \(error)")
        }
        return TextContent(
            string: string, style: TextStyle(font: font, numberOfLines: lines, lineBreak: mode, lineHeight: lineHeight), system: system,
            kern: kern)
    }

    var json: JSON {
        var font: [(key: String, value: JSON)] = [("size", .number(style.font.size))]
        if !system { font.insert(("family", .string(style.font.family)), at: 0) }
        if style.font.weight != 400 { font.append(("weight", .number(Double(style.font.weight)))) }
        if style.font.italic { font.append(("italic", .bool(true))) }
        if kern != 0 { font.append(("tracking", .number(kern))) }
        var m: [(key: String, value: JSON)] = [("string", .string(string)), ("font", .object(font))]
        if style.numberOfLines != 1 { m.append(("numberOfLines", .number(Double(style.numberOfLines)))) }
        if style.lineBreak != .word { m.append(("lineBreak", .string(style.lineBreak.rawValue))) }
        if let h = style.lineHeight { m.append(("lineHeight", .number(h))) }
        return .object(m)
    }

    /// Measured at `width` (nil: on its natural lines). The font was checked when decoded.
    func measure(width: Double?) -> TextMeasurement {
        (try? TextMeasurer.shared.measure(string, style: style, width: width))
            ?? TextMeasurement(width: 0, height: 0, lines: 0, ascender: 0, lineHeight: 0)
    }
}
