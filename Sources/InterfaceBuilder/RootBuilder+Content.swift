import CheckedNumbers
import JSON

/// What a view's content asks for: its intrinsic size (stored, or a label's text to measure),
/// hugging and compression resistance; and a stack view's arrangement.
extension RootBuilder {
    /// Controls with an intrinsic size in both axes, and those with only a height.
    static let sizedBoth: Set<String> = [
        "label", "button", "switch", "segmentedControl", "stepper", "activityIndicatorView", "pageControl", "pickerView", "datePicker",
        "textField"
    ]
    static let sizedHeight: Set<String> = ["slider", "progressView", "searchBar"]

    /// Alignment insets of controls, as Xcode's stored frames show them: a switch's frame is
    /// 2 points wider than its alignment rect on the trailing side, a slider's 2 on each side
    /// and 1 below, a segmented control's and a bar-style progress view's 1 below. Only where
    /// constraints place the control: one positioned by its frame (autoresizing, or a
    /// `fixedFrame` no constraint names) is stored at the frame UIKit gives it, insets and all
    /// (segmented controls of 7 repositories, switches of 6, sliders of 8 in the development
    /// half, every one of them; the constrained ones of 4, 6 and 5 repositories keep the insets).
    static func alignmentInsets(_ e: XMLElement) -> Device.Insets? {
        switch e.name {
        case "switch": Device.Insets(top: 0, left: 0, bottom: 0, right: 2)
        case "slider": Device.Insets(top: 0, left: 2, bottom: 1, right: 2)
        case "segmentedControl": Device.Insets(top: 0, left: 0, bottom: 1, right: 0)
        case "progressView" where e["progressViewStyle"] == "bar": Device.Insets(top: 0, left: 0, bottom: 1, right: 0)
        default: nil
        }
    }

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

    func content(_ e: XMLElement, frame: Frame, byFrame: Bool = false) -> [(String, JSON)] {
        var out: [(String, JSON)] = []
        // Controls whose frame is wider than the rect Auto Layout aligns: the intrinsic size
        // is the alignment rect's. A control positioned by its frame has the stored frame
        // whole (below).
        let insets = byFrame ? nil : Self.alignmentInsets(e)
        if let i = insets {
            out.append(
                (
                    "alignmentInsets",
                    object([("top", number(i.top)), ("left", number(i.left)), ("bottom", number(i.bottom)), ("right", number(i.right))])
                ))
        }
        let aligned = (width: frame.width - (insets.map { $0.left + $0.right } ?? 0), height: frame.height - (insets.map { $0.top + $0.bottom } ?? 0))
        // An image view with an image (named, or a symbol's `imageReference`); a text view that
        // does not scroll is as big as its text.
        let both =
            Self.sizedBoth.contains(e.name) || (e.name == "imageView" && (e["image"] != nil || e.child("imageReference", key: "image") != nil))
            || (e.name == "textView" && e["scrollEnabled"] == "NO")
        if e.name == "label" && context.options.contentSizes == .measured, let text = labelText(e) {
            out.append(("text", text))
        } else if let size = declaredIntrinsicSize(e) {
            out.append(("intrinsicSize", size))
        } else if e.name == "imageView" && context.options.contentSizes == .measured, let image = e["image"].flatMap({ context.images[$0] }) {
            // An image view's content is its image, at the size the document's resources give it.
            out.append(("intrinsicSize", object([("width", number(image.width)), ("height", number(image.height))])))
        } else if both || (context.options.contentSizes == .stored && e["customClass"] != nil && e.name == "view" && e.list("subviews").isEmpty) {
            // A custom view with no subviews draws its content: Xcode's canvas ran its
            // designable, and the size it stored is the one that content asked for.
            out.append(("intrinsicSize", object([("width", number(aligned.width)), ("height", number(aligned.height))])))
        } else if Self.sizedHeight.contains(e.name) {
            out.append(("intrinsicSize", object([("height", number(aligned.height))])))
        }
        // Text not measured here has its baselines where the system font puts them.
        if !out.contains(where: { $0.0 == "text" }), let b = storedBaselines(e, height: aligned.height) { out.append(("baseline", b)) }
        func priority(_ k: String) -> JSON? { e.number(k).map { number(min(max($0, 1), 1000)) } }
        let hugging = [("horizontal", priority("horizontalHuggingPriority")), ("vertical", priority("verticalHuggingPriority"))]
            .compactMap { k, v in v.map { (k, $0) } }
        if !hugging.isEmpty { out.append(("hugging", object(hugging))) }
        let resistance = [
            ("horizontal", priority("horizontalCompressionResistancePriority")), ("vertical", priority("verticalCompressionResistancePriority"))
        ].compactMap { k, v in v.map { (k, $0) } }
        if !resistance.isEmpty { out.append(("compressionResistance", object(resistance))) }
        return out
    }

    /// The intrinsic size IB states: `<size key="intrinsicContentSize">`, or the placeholder
    /// one set in its size inspector (`infinite`: none in that axis).
    private func declaredIntrinsicSize(_ e: XMLElement) -> JSON? {
        if let size = e.child("size", key: "intrinsicContentSize"), let w = size.number("width"),
            let h = size.number("height")
        {
            return object([("width", number(w)), ("height", number(h))])
        }
        let w = e.number("placeholderIntrinsicWidth"), h = e.number("placeholderIntrinsicHeight")
        guard w != nil || h != nil else { return nil }
        return object([("width", w.map(number)), ("height", h.map(number))].compactMap { k, v in v.map { (k, $0) } })
    }

    /// A label's text for the server to measure, in the substitute family at the document's size and weight.
    private func labelText(_ e: XMLElement) -> JSON? {
        var string = e["text"] ?? e.child("string", key: "text")?.text
        if string == nil, let attributed = e.child("attributedString", key: "attributedText") {
            string = attributed.children.filter { $0.name == "fragment" }.map { $0["content"] ?? $0.child("string", key: "content")?.text ?? "" }
                .joined()
        }
        guard let string, !string.isEmpty else { return nil }
        let (size, weight, italic) = font(e)
        var fontMembers: [(String, JSON)] = [
            ("family", .string(context.options.fontFamily)), ("size", number(size)), ("weight", number(Double(weight)))
        ]
        if italic { fontMembers.append(("italic", .bool(true))) }
        let lines = e.integer("numberOfLines") ?? 1
        return object([("string", .string(string)), ("font", object(fontMembers)), ("numberOfLines", number(Double(max(lines, 0))))])
    }

    /// A text view's font: point size, weight, italic (UIKit's defaults: a label's 17, a
    /// button's title 15, a text field's 14).
    private func font(_ e: XMLElement) -> (size: Double, weight: Int, italic: Bool) {
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

    func stackSpec(_ e: XMLElement, arranged: [String]) -> JSON {
        var members: [(String, JSON)] = [("axis", .string(e["axis"] == "vertical" ? "vertical" : "horizontal"))]
        if let d = e["distribution"] { members.append(("distribution", .string(d))) }
        if let a = e["alignment"] { members.append(("alignment", .string(a == "baseline" ? "lastBaseline" : a))) }
        if e["spacingType"] == "standard" {
            members.append(("spacing", .string("standard")))
        } else if let s = e.number("spacing") {
            members.append(("spacing", number(s)))
        }
        members.append(("arrangedSubviews", .array(arranged.map { .string($0) })))
        if e["layoutMarginsRelativeArrangement"] == "YES" || Self.arrangesInStoredMargins(e) {
            members.append(("layoutMarginsRelativeArrangement", .bool(true)))
        }
        if e["baselineRelativeArrangement"] == "YES" && e["axis"] == "vertical" {
            members.append(("baselineRelativeArrangement", .bool(true)))
        }
        return object(members)
    }

    /// A stack whose layout margins the document sets arranges its views inside them on
    /// Xcode's canvas, though IB writes no `layoutMarginsRelativeArrangement`: every such stack
    /// of the IBCorpus development half does (5 stacks of 3 documents, 2 repositories: arranged
    /// views 10 in from a stack's sides, 8 from a vertical stack's top and bottom).
    static func arrangesInStoredMargins(_ e: XMLElement) -> Bool {
        e.child("edgeInsets", key: "layoutMargins") != nil || e.child("directionalEdgeInsets", key: "directionalLayoutMargins") != nil
    }
}
