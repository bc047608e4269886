import CheckedNumbers

/// The numbers the importer reads from attributes, checked for the whole document before any
/// rule reads one: each a finite decimal within what a document can mean, or the one word IB
/// writes in its place. A value past them (NaN, `inf`, 1e308, `abc`) is refused with its
/// element's line and column, rather than divided by, converted or carried into a layout.
enum NumericAttributes {
    struct Rule {
        var range: ClosedRange<Double>
        var whole = false
        var words: Set<String> = []
    }

    /// Coordinates, lengths and constants: far past any screen, far below where sums of them
    /// lose the hundredths a frame is compared at.
    static let length = Rule(range: -10_000_000...10_000_000)
    static let priority = Rule(range: 0...1000)

    /// By element name, then attribute; `"*"`: on any element.
    static let rules: [String: [String: Rule]] = [
        "rect": ["x": length, "y": length, "width": length, "height": length],
        "frame": ["minX": length, "maxX": length, "minY": length, "maxY": length, "width": length, "height": length],
        "size": ["width": length, "height": length],
        "constraint": ["constant": length, "priority": priority],
        // A constraint's constant or priority in some size classes.
        "variation": ["constant": length, "priority": priority],
        "fontDescription": ["pointSize": Rule(range: 0...10_000)],
        "stackView": ["spacing": length],
        "edgeInsets": ["top": length, "left": length, "bottom": length, "right": length],
        "directionalEdgeInsets": ["top": length, "leading": length, "bottom": length, "trailing": length],
        "image": ["width": Rule(range: 0...10_000_000), "height": Rule(range: 0...10_000_000)],
        "*": [
            "numberOfLines": Rule(range: 0...1_000_000, whole: true),
            "horizontalHuggingPriority": priority, "verticalHuggingPriority": priority,
            "horizontalCompressionResistancePriority": priority, "verticalCompressionResistancePriority": priority,
            "placeholderIntrinsicWidth": Rule(range: 0...10_000_000, words: ["infinite"]),
            "placeholderIntrinsicHeight": Rule(range: 0...10_000_000, words: ["infinite"])
        ]
    ]

    /// Every element of the tree, depth first (the parser bounds the depth).
    static func check(_ e: XMLElement) throws(ImportError) {
        let own = rules[e.name]
        for (name, value) in e.attributes {
            guard let rule = own?[name] ?? rules["*"]?[name], !rule.words.contains(value) else { continue }
            guard let x = Double(value), x.isFinite, rule.range.contains(x), !rule.whole || x == x.rounded() else {
                let bounds = "\(Int(saturating: rule.range.lowerBound))…\(Int(saturating: rule.range.upperBound))"
                throw ImportError(
                    .malformed,
                    message: "<\(e.name)> \(name)=\"\(value.prefix(40))\" is not \(rule.whole ? "a whole number" : "a number") in \(bounds)",
                    line: e.line, column: e.column)
            }
        }
        for child in e.children { try check(child) }
    }
}

extension XMLElement {
    /// A numeric attribute the importer reads (nil when absent, or one of its rule's words);
    /// `NumericAttributes.check` has refused the document before when it is not a number.
    func number(_ attribute: String) -> Double? {
        guard let x = self[attribute].flatMap(Double.init), x.isFinite else { return nil }
        return x
    }

    /// A whole-number attribute (`numberOfLines`), checked the same way.
    func integer(_ attribute: String) -> Int? { number(attribute).flatMap { Int(checked: $0) } }
}
