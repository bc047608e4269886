import JSON

/// A stack view's arrangement (API.md v1.1 "Stack views"), as UIStackView has it.
public struct StackSpec: Equatable, Sendable {
    public enum Distribution: String, Sendable { case fill, fillEqually, fillProportionally, equalSpacing, equalCentering }
    /// UIStackView's: `top` is `leading` and `bottom` is `trailing` (one value each).
    public enum Alignment: String, Sendable { case fill, leading, center, trailing, firstBaseline, lastBaseline }

    public var axis: Axis = .horizontal
    public var distribution: Distribution = .fill
    public var alignment: Alignment = .fill
    public var spacing = 0.0
    /// `"spacing": "standard"` (UIStackView.spacingUseSystem): each gap the system's space
    /// between its two views (StandardSpacing.swift); `spacing` is then unused.
    public var standardSpacing = false
    public var arranged: [String] = []
    public var marginsRelative = false
    /// Vertical stacks: a gap runs from a view's last baseline to the next one's first.
    public var baselineRelative = false

    static func decode(_ json: JSON, at p: Pointer) throws(LayoutError) -> StackSpec {
        guard let m = json.members else { throw p.fail("stack must be an object") }
        try ViewSpec.onlyKeys(
            m,
            [
                "axis", "distribution", "alignment", "spacing", "arrangedSubviews", "layoutMarginsRelativeArrangement",
                "baselineRelativeArrangement"
            ], at: p)
        var s = StackSpec()
        if let v = json["axis"], !v.isNull {
            guard let a = v.string.flatMap(Axis.init(rawValue:)) else { throw p("axis").fail("axis is \"horizontal\" or \"vertical\"") }
            s.axis = a
        }
        if let v = json["distribution"], !v.isNull {
            guard let d = v.string.flatMap(Distribution.init(rawValue:)) else {
                throw p("distribution").fail("distribution is fill, fillEqually, fillProportionally, equalSpacing or equalCentering")
            }
            s.distribution = d
        }
        if let v = json["alignment"], !v.isNull {
            let names = ["top": Alignment.leading, "bottom": .trailing]
            guard let name = v.string, let a = Alignment(rawValue: name) ?? names[name] else {
                throw p("alignment").fail("alignment is fill, leading, top, center, trailing, bottom, firstBaseline or lastBaseline")
            }
            if s.axis == .vertical && (a == .firstBaseline || a == .lastBaseline) {
                throw p("alignment").fail("baseline alignment is for horizontal stacks")
            }
            s.alignment = a
        }
        if let v = json["spacing"], !v.isNull {
            if v.string == "standard" { s.standardSpacing = true } else { s.spacing = try ViewSpec.number(v, at: p("spacing")) }
        }
        if let v = json["arrangedSubviews"], !v.isNull {
            guard let arr = v.array else { throw p("arrangedSubviews").fail("arrangedSubviews is an array of view ids") }
            // Seen ids in a set: a search of the list so far was quadratic (a 10,000-row feed).
            var seen = Set<String>(minimumCapacity: arr.count)
            s.arranged.reserveCapacity(arr.count)
            for (k, x) in arr.enumerated() {
                guard let id = x.string else { throw p("arrangedSubviews")(k).fail("an arranged view is a view id") }
                guard seen.insert(id).inserted else { throw p("arrangedSubviews")(k).fail("'\(id)' is arranged twice") }
                s.arranged.append(id)
            }
        }
        if let v = json["layoutMarginsRelativeArrangement"], !v.isNull {
            guard let b = v.bool else { throw p("layoutMarginsRelativeArrangement").fail("must be true or false") }
            s.marginsRelative = b
        }
        if let v = json["baselineRelativeArrangement"], !v.isNull {
            guard let b = v.bool else { throw p("baselineRelativeArrangement").fail("must be true or false") }
            s.baselineRelative = b
        }
        return s
    }

    var json: JSON {
        var m: [(key: String, value: JSON)] = [
            ("axis", .string(axis.rawValue)), ("distribution", .string(distribution.rawValue)),
            ("alignment", .string(alignment.rawValue)), ("spacing", standardSpacing ? .string("standard") : .number(spacing)),
            ("arrangedSubviews", .array(arranged.map { .string($0) }))
        ]
        if marginsRelative { m.append(("layoutMarginsRelativeArrangement", .bool(true))) }
        if baselineRelative { m.append(("baselineRelativeArrangement", .bool(true))) }
        return .object(m)
    }
}
