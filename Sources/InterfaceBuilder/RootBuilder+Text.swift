import CheckedNumbers
import JSON

/// Text views' fonts as Xcode lays them out: a label's text to measure, the font of a label,
/// button or text field, and where a stored-size text view's baselines are.
extension RootBuilder {
    /// Dynamic Type's text styles at the default content size: point size and weight.
    static let textStyles: [String: (Double, Int)] = [
        "UICTFontTextStyleLargeTitle": (34, 400), "UICTFontTextStyleTitle1": (28, 400), "UICTFontTextStyleTitle2": (22, 400),
        "UICTFontTextStyleTitle3": (20, 400), "UICTFontTextStyleHeadline": (17, 600), "UICTFontTextStyleBody": (17, 400),
        "UICTFontTextStyleCallout": (16, 400), "UICTFontTextStyleSubhead": (15, 400), "UICTFontTextStyleFootnote": (13, 400),
        "UICTFontTextStyleCaption1": (12, 400), "UICTFontTextStyleCaption2": (11, 400)
    ]

    static let weights: [String: Int] = [
        "ultraLight": 100, "thin": 200, "light": 300, "regular": 400, "medium": 500, "semibold": 600, "bold": 700, "heavy": 800, "black": 900
    ]

    /// A label's text for the server to measure at the document's size and weight: a system
    /// font (no `name`) as the server's system font, which tracks as San Francisco does; a
    /// named one in the substitute family.
    func labelText(_ e: XMLElement) -> JSON? {
        var string = e["text"] ?? e.child("string", key: "text")?.text
        if string == nil, let attributed = e.child("attributedString", key: "attributedText") {
            string = attributed.children.filter { $0.name == "fragment" }.map { $0["content"] ?? $0.child("string", key: "content")?.text ?? "" }
                .joined()
        }
        guard let string, !string.isEmpty else { return nil }
        let (size, weight, italic) = font(e)
        var fontMembers: [(String, JSON)] = [("size", number(size)), ("weight", number(Double(weight)))]
        if e.child("fontDescription", key: "fontDescription")?["name"] != nil {
            fontMembers.insert(("family", .string(context.options.fontFamily)), at: 0)
        }
        if italic { fontMembers.append(("italic", .bool(true))) }
        let lines = e.integer("numberOfLines") ?? 1
        return object([("string", .string(string)), ("font", object(fontMembers)), ("numberOfLines", number(Double(max(lines, 0))))])
    }

    /// A text view's font: point size, weight, italic (UIKit's defaults: a label's 17, a
    /// button's title 15, a text field's 14).
    func font(_ e: XMLElement) -> (size: Double, weight: Int, italic: Bool) {
        var size = e.name == "button" ? 15.0 : e.name == "textField" ? 14 : 17, weight = 400, italic = false
        if let font = e.child("fontDescription", key: "fontDescription") {
            if let style = font["style"], let s = Self.textStyles[style] { (size, weight) = s }
            if let p = font.number("pointSize") { size = p > 0 ? p : zeroPointSize(e) }
            switch font["type"] {
            case "boldSystem": weight = 700
            case "italicSystem": italic = true
            default: break
            }
            if let w = font["weight"].flatMap({ Self.weights[$0] }) { weight = w }
            if let name = font["name"]?.lowercased() {
                if name.contains("bold") { weight = 700 }
                if name.contains("italic") || name.contains("oblique") { italic = true }
            }
        }
        return (size, weight, italic)
    }

    /// What Xcode lays out a `pointSize="0.0"` label at: by the Xcode that wrote the document
    /// and the table cell's style (`ToolsVersion.zeroPointFontSize`).
    func zeroPointSize(_ label: XMLElement) -> Double {
        let style = controller.flatMap { $0.name == "tableViewCell" ? $0["style"] : nil }
        let detail = label["id"] != nil && controller?["detailTextLabel"] == label["id"]
        return xcode.zeroPointFontSize(cellStyle: style, isDetailLabel: detail)
    }

    /// The system font's metrics per point of size (San Francisco: ascender 0.952, descender
    /// 0.241, no line gap): where a stored-size text view's baselines are. A label's stored
    /// height is its lines' (its intrinsic height, whatever the text style's size was where it
    /// was saved), each line's baseline at the ascender's share of it; a button's or a text
    /// field's one line is centred in its height.
    static let systemAscender = 0.952, systemDescender = 0.241

    func storedBaselines(_ e: XMLElement, height: Double) -> JSON? {
        guard e.name == "label" || e.name == "button" || e.name == "textField", height > 0 else { return nil }
        let size = font(e).size
        let fontLine = size * (Self.systemAscender + Self.systemDescender)
        let share = Self.systemAscender / (Self.systemAscender + Self.systemDescender)
        guard e.name == "label" else {
            let first = (height - fontLine) / 2 + size * Self.systemAscender
            return object([("first", number(first)), ("last", number(first))])
        }
        let most = e.integer("numberOfLines") ?? 1
        var lines = max(1, Int(checked: (height / fontLine).rounded()) ?? 1)
        if most > 0 { lines = min(lines, most) }
        let line = height / Double(lines)
        return object([("first", number(line * share)), ("last", number(height - line * (1 - share)))])
    }
}
