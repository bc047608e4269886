import JSON

/// IB's `<constraint>` as a layoutd constraint.
extension RootBuilder {
    /// IB's attribute names; `baseline` is the last baseline.
    static let attributes: [String: String] = [
        "left": "left", "right": "right", "top": "top", "bottom": "bottom", "leading": "leading", "trailing": "trailing",
        "width": "width", "height": "height", "centerX": "centerX", "centerY": "centerY", "baseline": "lastBaseline",
        "lastBaseline": "lastBaseline", "firstBaseline": "firstBaseline", "leftMargin": "leftMargin", "rightMargin": "rightMargin",
        "topMargin": "topMargin", "bottomMargin": "bottomMargin", "leadingMargin": "leadingMargin", "trailingMargin": "trailingMargin",
        "centerXWithinMargins": "centerXWithinMargins", "centerYWithinMargins": "centerYWithinMargins"
    ]

    static let relations = ["greaterThanOrEqual": ">=", "lessThanOrEqual": "<="]

    /// A scroll view's attributes that stay its frame's when what it holds relates to them.
    static let frameAttributes: Set<String> = ["width", "height", "centerX", "centerY", "centerXWithinMargins", "centerYWithinMargins"]

    /// A multiplier as IB writes it: `0.5`, or a ratio `9:16` or `1/3` (IB keeps a fraction
    /// as it was typed: 5 constraints of the IBCorpus); nil when it is not a finite number
    /// within ±1e6 (the constraint is then left out, with a note).
    static func multiplier(_ text: String?) -> Double? {
        guard let text else { return 1 }
        if let colon = text.firstIndex(where: { $0 == ":" || $0 == "/" }) {
            guard let a = Double(text[..<colon]), let b = Double(text[text.index(after: colon)...]), b != 0 else { return nil }
            return finite(a / b)
        }
        return Double(text).flatMap(finite)
    }

    /// The layoutd constraint, or nil (with a note) when it names something this root does
    /// not lay out.
    mutating func constraint(_ c: XMLElement, owner: String) -> JSON? {
        let id = c["id"] ?? "\(owner)-c\(emitted.constraints.count)"
        emitted.places[id] = SourcePlace(c)
        guard let firstAttribute = c["firstAttribute"].flatMap({ Self.attributes[$0] }) else {
            emitted.note("constraint \(id): attribute \(c["firstAttribute"] ?? "(none)") is not laid out", id: id, at: c)
            return nil
        }
        let secondAttribute = c["secondAttribute"].flatMap { Self.attributes[$0] }
        if c["secondItem"] != nil && secondAttribute == nil {
            emitted.note("constraint \(id): attribute \(c["secondAttribute"] ?? "(none)") is not laid out", id: id, at: c)
            return nil
        }
        var first = item(c["firstItem"] ?? owner, attribute: firstAttribute)
        var second = c["secondItem"].map { item($0, attribute: secondAttribute ?? "") }
        for item in [first, second].compactMap({ $0 }) where !tree.known.contains(item) {
            emitted.note("constraint \(id) names \(item), which is not a view of this root", id: id, at: c)
            return nil
        }
        guard let multiplier = Self.multiplier(c["multiplier"]) else {
            emitted.note("constraint \(id): multiplier \(c["multiplier"] ?? "") is not a number", id: id, at: c)
            return nil
        }
        // A scroll view's edges, related to what it scrolls, are its content area's.
        if let s = second, let sa = secondAttribute {
            first = contentArea(of: first, attribute: firstAttribute, facing: s)
            second = contentArea(of: s, attribute: sa, facing: first)
        }
        var members: [(String, JSON)] = [
            ("id", .string(id)), ("first", .string("\(first).\(firstAttribute)")),
            ("relation", .string(Self.relations[c["relation"] ?? ""] ?? "=="))
        ]
        if let second, let secondAttribute { members.append(("second", .string("\(second).\(secondAttribute)"))) }
        if multiplier != 1 { members.append(("multiplier", number(multiplier))) }
        // A constant or priority set for the layout's size classes replaces the constraint's own.
        let variation = c.children.last { [sizeClasses = context.sizeClasses] in $0.name == "variation" && sizeClasses.applies($0["key"] ?? "") }
        let constant = variation?.number("constant") ?? c.number("constant") ?? 0
        // Xcode's standard space, where the value it stored is the one layoutd resolves (8 between
        // views, 20 to a superview's edge; between baselines the fonts decide, so the number stays).
        var standard = false
        if c["symbolic"] == "YES", variation?["constant"] == nil, let s = second, let sa = secondAttribute,
            !firstAttribute.hasSuffix("aseline") || !sa.hasSuffix("aseline")
        {
            standard = constant == (tree.isInside(first, s) || tree.isInside(s, first) ? 20 : 8)
        }
        members.append(("constant", standard ? .string("standard") : number(constant)))
        if let p = variation?.number("priority") ?? c.number("priority"), p != 1000 {
            members.append(("priority", number(min(max(p, 1), 1000))))
        }
        return object(members)
    }

    /// `item` itself, or its content guide when it scrolls and `other` is inside it (UIKit:
    /// a scroll view's edges and margins, to what it holds, are its content's; its size and
    /// centre are its frame's, as the Auto Layout Guide's scroll view chapter says).
    private mutating func contentArea(of item: String, attribute: String, facing other: String) -> String {
        guard areas.scrollers.contains(item) || areas.contentGuide[item] != nil, !Self.frameAttributes.contains(attribute), tree.isInside(other, item)
        else { return item }
        if let guide = areas.contentGuide[item] { return guide }
        let guide = "\(item)-content"
        addGuide(guide, in: item, top: 0, left: 0, bottom: nil, right: nil)
        areas.contentGuide[item] = guide
        return guide
    }
}

private func finite(_ x: Double) -> Double? { x.isFinite && abs(x) <= 1e6 ? x : nil }
