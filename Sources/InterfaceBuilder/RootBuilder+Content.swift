import JSON

/// What a view's content asks for: its intrinsic size (stored, or a label's text to measure),
/// hugging and compression resistance.
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

    /// A view showing an SF Symbol (`catalog="system"`: an image view's image, a button's
    /// image or background image for a state): its stored frame is the symbol's image rect,
    /// which its alignment insets set apart from the rect its constraints align. The insets are
    /// the symbol's glyph metrics, which the document does not carry; `symbolAlignmentInsets`
    /// estimates them from the image's proportions, within 0.5 pt for 19 of the 32 constrained
    /// ones of the IBCorpus development half. Such views are counted apart by the bench.
    static func showsSymbol(_ e: XMLElement) -> Bool {
        e["catalog"] == "system"
            || e.children.contains { c in
                c.name != "subviews" && (c["catalog"] == "system" || c.children.contains { $0["catalog"] == "system" })
            }
    }

    /// The alignment insets of a view drawing an SF Symbol stretched to its bounds: an image
    /// view's symbol, or a button's symbol background image (a button's foreground symbol is
    /// centred and leaves its alignment rect alone: 9 such buttons of 6 repositories agree with
    /// none). UIKit outsets the alignment rect by the image's own insets, in points at the
    /// symbol's point size whatever the view's size or content mode (`cloud.rain` 1.5 taller
    /// at 30 and 150 points, `circle.fill` 1.33 shorter at 291 and 405), and a symbol's
    /// alignment rect is the line box of its font, so the frame is taller than it by the symbol
    /// image's height less that box. The document does not carry that height, only the image's
    /// proportions (`<resources>`, its longer side 128): a flatter symbol is shorter, and
    /// `−0.5 − 12.8 × (1 − height ÷ width)` points, split evenly (fitted), puts 19 of the 32
    /// constrained symbol views of the IBCorpus development half within 0.5 pt of Xcode's frame
    /// (2 before; 8 repositories, 4 of them one course's app, Xcode 12–15); the rest are symbols
    /// that reach below the baseline (`cloud.rain`, `sun.max`), much flatter ones, or split
    /// unevenly. The validation half: 4,535 → 4,550 views, 132 → 134 documents. Only at the
    /// default configuration: a `preferredSymbolConfiguration` or `symbolScale` resizes the
    /// symbol by what the document does not say. The width has none (all 47 symbol views).
    func symbolAlignmentInsets(_ e: XMLElement) -> Device.Insets? {
        func symbol(_ c: XMLElement, _ attribute: String) -> String? { c["catalog"] == "system" ? c[attribute] : nil }
        let configured = e.children.contains { c in
            c.name != "subviews"
                && [c, c.child("preferredSymbolConfiguration"), c.child("imageSymbolConfiguration")].contains { s in
                    s.map { $0.name.hasSuffix("SymbolConfiguration") && $0.attributes.count > 1 || $0["symbolScale"] != nil } ?? false
                }
        }
        let name: String? =
            switch e.name {
            case "imageView": symbol(e, "image") ?? e.child("imageReference", key: "image").flatMap { symbol($0, "image") }
            case "button": e.children.first { $0.name == "state" && $0["key"] == "normal" }.flatMap { symbol($0, "backgroundImage") }
            default: nil
            }
        guard !configured, let name, let image = context.images[name], image.width > 0, image.height > 0 else { return nil }
        // Symbols whose overhang was measured: theirs, not the estimate.
        if e.name == "imageView", let known = Self.measuredSymbolOverhang(name, width: image.width, height: image.height) { return known }
        let flatness = max(0, 1 - image.height / image.width)
        let half = (-0.5 - 12.8 * flatness) / 2
        return Device.Insets(top: half, left: 0, bottom: half, right: 0)
    }

    /// Two symbols' overhang beyond their alignment rect at the default configuration, as
    /// Xcode's frames show it whatever the image view's size (UIKit outsets by the image's own
    /// insets): glyph metrics the document does not carry, so measured where two repositories
    /// agree. `sun.max` is stored 0.5 taller above (120 high constrained, 120.5 stored: 23ji/
    /// Clima-23G and AdmiralBizon/Clima, Xcode 13 and the template's 32700); `cloud.rain` and
    /// `cloud.rain.fill` drawn 126 × 128 (SF Symbols 3 on) 1 taller above and 0.5 below
    /// (AndreaRotunno/clima, Ammar478/Climer-iOS); drawn 128 × 125 (Xcode 12, one repository)
    /// `cloud.rain` splits 0 and 1.5, so only the newer drawing is listed. IBCorpus: development
    /// 10,096 → 10,100 views, 311 → 315 documents; validation 7,841 → 7,844, 248 → 251.
    static func measuredSymbolOverhang(_ name: String, width: Double, height: Double) -> Device.Insets? {
        switch name {
        case "sun.max":
            Device.Insets(top: 0.5, left: 0, bottom: 0, right: 0)
        case "cloud.rain" where width == 126 && height == 128, "cloud.rain.fill" where width == 126 && height == 128:
            Device.Insets(top: 1, left: 0, bottom: 0.5, right: 0)
        default: nil
        }
    }

    func content(_ e: XMLElement, frame: Frame, byFrame: Bool = false) -> [(String, JSON)] {
        var out: [(String, JSON)] = []
        // Controls whose frame is wider than the rect Auto Layout aligns: the intrinsic size
        // is the alignment rect's. A control positioned by its frame has the stored frame
        // whole (below).
        let insets = byFrame ? nil : Self.alignmentInsets(e) ?? symbolAlignmentInsets(e)
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
}
