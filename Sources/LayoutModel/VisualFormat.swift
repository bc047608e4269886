import ConstraintSolver
/// Apple's Visual Format Language, the whole grammar:
///
///     (H|V:)? (|connection)? [view(predicates)?] (connection [view])* (connection|)?
///     connection := (empty) | - | -N- | -metric- | -(predicate,…)-
///     predicate  := (==|<=|>=)? (number | metric | view) (@ (number | metric))?
///
/// The standard space `-` is 8 between siblings and 20 to the parent's edge. Errors name
/// the character position in the format string.
public struct VisualFormat {
    public typealias Failure = SyntaxError

    public struct Parsed {
        public var axis: Axis
        public var constraints: [AtomicConstraint]
        public var views: [String]
        public var usesSuperview: Bool
        /// With `printing`, the format written back in one spelling (predicates explicit,
        /// metrics as their numbers): it parses, with the same options, to the same
        /// constraints. Nil when a number would need an exponent, which the grammar does not
        /// read, and without `printing` (it was 18 of a format's 41 K instructions).
        public var canonical: String?
    }

    static let siblingSpace = 8.0
    static let edgeSpace = 20.0
    public static let superviewToken = "|"

    /// An ASCII format is read as bytes, any other (or one with a CR) as Characters (positions
    /// stay in characters): reading every format as Characters was 7% of decoding a document.
    public static func parse(
        _ format: String, options: [String], metrics: [String: Double], superview: String, printing: Bool = false
    ) throws(Failure) -> Parsed {
        let bytes = Array(format.utf8)
        if bytesAreCharacters(bytes) {
            var p = Parser(c: bytes, metrics: metrics)
            return try p.run(options: options, superview: superview, printing: printing)
        }
        var p = Parser(c: Array(format), metrics: metrics)
        return try p.run(options: options, superview: superview, printing: printing)
    }

    static func alignment(_ option: String) -> Attribute? {
        switch option {
        case "alignAllLeft": return .left
        case "alignAllRight": return .right
        case "alignAllTop": return .top
        case "alignAllBottom": return .bottom
        case "alignAllLeading": return .leading
        case "alignAllTrailing": return .trailing
        case "alignAllCenterX": return .centerX
        case "alignAllCenterY": return .centerY
        case "alignAllFirstBaseline": return .firstBaseline
        case "alignAllLastBaseline", "alignAllBaseline": return .lastBaseline
        default: return nil
        }
    }
}

/// The parser, over ASCII bytes or Characters.
private struct Parser<U: TokenUnit> {
    typealias Failure = VisualFormat.Failure
    typealias Parsed = VisualFormat.Parsed
    private struct Predicate { var relation: Relation; var object: Object; var priority: Double; var position: Int }
    private enum Object { case constant(Double), view(String) }
    private enum Item { case superview, view(String, [Predicate]) }

    private let c: [U]
    private var i = 0
    private let metrics: [String: Double]

    init(c: [U], metrics: [String: Double]) { self.c = c; self.metrics = metrics }

    private func fail(_ m: String, at pos: Int? = nil) -> Failure { Failure(position: pos ?? i, message: m) }
    private var peek: U? { i < c.count ? c[i] : nil }

    mutating func expect(_ ch: Unicode.Scalar) throws(Failure) {
        guard peek == U.unit(ch) else { throw fail(peek == nil ? "expected '\(ch)' but the format ended" : "expected '\(ch)'") }
        i += 1
    }

    mutating func run(options: [String], superview sv: String, printing: Bool) throws(Failure) -> Parsed {
        var axis = Axis.horizontal
        if c.count >= 2 && c[1] == U.unit(":") {
            switch c[0] {
            case U.unit("H"): axis = .horizontal
            case U.unit("V"): axis = .vertical
            default: throw fail("the orientation is H: or V:", at: 0)
            }
            i = 2
        }
        // Items and the connections between them.
        // Room for the usual format at once: each array grown from empty was an allocation a
        // doubling (~1,900 instructions a format, 1,000 in the 1,000-cell feed).
        var items: [(Item, Int)] = []
        var connections: [[Predicate]?] = []  // nil: standard space; []: flush
        items.reserveCapacity(8)
        connections.reserveCapacity(8)
        if peek == U.unit("|") { items.append((.superview, i)); i += 1; connections.append(try connection()) }
        while true {
            let start = i
            guard peek == U.unit("[") else { throw fail(items.isEmpty ? "expected '[' or '|' to start the format" : "expected '[' to start a view") }
            items.append((try view(), start))
            if peek == nil { break }
            let conn = try connection()
            if peek == U.unit("|") {
                items.append((.superview, i)); i += 1
                connections.append(conn)
                guard peek == nil else { throw fail("nothing may follow the closing '|'") }
                break
            }
            connections.append(conn)
        }

        // Attributes along the axis.
        var leadingAttr: Attribute = axis == .horizontal ? .leading : .top
        var trailingAttr: Attribute = axis == .horizontal ? .trailing : .bottom
        let size: Attribute = axis == .horizontal ? .width : .height
        var alignments: [Attribute] = []
        for o in options {
            switch o {
            case "directionLeadingToTrailing": break
            case "directionLeftToRight": if axis == .horizontal { leadingAttr = .left; trailingAttr = .right }
            case "directionRightToLeft": if axis == .horizontal { leadingAttr = .right; trailingAttr = .left }
            default:
                guard let a = VisualFormat.alignment(o) else { throw fail("unknown option '\(o)'", at: 0) }
                guard a.axis != axis else { throw fail("\(o) aligns along the format's own axis (\(axis == .horizontal ? "H" : "V"):)", at: 0) }
                alignments.append(a)
            }
        }

        var out: [AtomicConstraint] = []
        var names: [String] = []
        out.reserveCapacity(items.count * (1 + alignments.count) + 2)
        names.reserveCapacity(items.count)
        for (k, (item, _)) in items.enumerated() {
            if case .view(let name, let preds) = item {
                names.append(name)
                for p in preds {
                    switch p.object {
                    case .constant(let v):
                        out.append(
                            AtomicConstraint(
                                first: Anchor(view: name, attribute: size), relation: p.relation, second: nil, multiplier: 1, constant: v,
                                priority: p.priority))
                    case .view(let other):
                        out.append(
                            AtomicConstraint(
                                first: Anchor(view: name, attribute: size), relation: p.relation, second: Anchor(view: other, attribute: size),
                                multiplier: 1, constant: 0, priority: p.priority))
                    }
                }
            }
            guard k + 1 < items.count else { break }
            let next = items[k + 1].0
            let conn = connections[k]
            let touchesEdge: Bool
            if case .superview = item { touchesEdge = true } else if case .superview = next { touchesEdge = true } else { touchesEdge = false }
            let preds =
                conn ?? [
                    Predicate(
                        relation: .equal, object: .constant(touchesEdge ? VisualFormat.edgeSpace : VisualFormat.siblingSpace),
                        priority: Priority.required, position: 0)
                ]
            let flush = conn?.isEmpty == true ? [Predicate(relation: .equal, object: .constant(0), priority: Priority.required, position: 0)] : preds
            for p in flush {
                guard case .constant(let space) = p.object else { throw fail("a connection's predicate is a number or a metric", at: p.position) }
                switch (item, next) {
                case (.superview, .view(let b, _)):
                    out.append(
                        AtomicConstraint(
                            first: Anchor(view: b, attribute: leadingAttr), relation: p.relation, second: Anchor(view: sv, attribute: leadingAttr),
                            constant: space, priority: p.priority))
                case (.view(let a, _), .superview):
                    out.append(
                        AtomicConstraint(
                            first: Anchor(view: sv, attribute: trailingAttr), relation: p.relation, second: Anchor(view: a, attribute: trailingAttr),
                            constant: space, priority: p.priority))
                case (.view(let a, _), .view(let b, _)):
                    out.append(
                        AtomicConstraint(
                            first: Anchor(view: b, attribute: leadingAttr), relation: p.relation, second: Anchor(view: a, attribute: trailingAttr),
                            constant: space, priority: p.priority))
                default:
                    break
                }
            }
        }
        for a in alignments {
            for k in 1..<max(1, names.count) {
                out.append(
                    AtomicConstraint(first: Anchor(view: names[k], attribute: a), relation: .equal, second: Anchor(view: names[k - 1], attribute: a)))
            }
        }
        let usesSuperview = items.contains {
            if case .superview = $0.0 { return true }; return false
        }
        return Parsed(
            axis: axis, constraints: out, views: names, usesSuperview: usesSuperview,
            canonical: printing ? Self.canonical(axis, items.map(\.0), connections) : nil)
    }

    private static func canonical(_ axis: Axis, _ items: [Item], _ connections: [[Predicate]?]) -> String? {
        func number(_ v: Double) -> String? {
            if v == v.rounded() && abs(v) < 1e15 { return String(Int64(v)) }
            let s = String(v)
            return s.contains("e") || !v.isFinite ? nil : s
        }
        func predicates(_ ps: [Predicate]) -> String? {
            var parts: [String] = []
            for p in ps {
                var s = p.relation.rawValue
                switch p.object {
                case .constant(let v): guard let n = number(v) else { return nil }; s += n
                case .view(let name): s += name
                }
                if p.priority != Priority.required { guard let n = number(p.priority) else { return nil }; s += "@" + n }
                parts.append(s)
            }
            return "(" + parts.joined(separator: ",") + ")"
        }
        var out = axis == .horizontal ? "H:" : "V:"
        for (k, item) in items.enumerated() {
            switch item {
            case .superview: out += "|"
            case .view(let name, let ps):
                out += "[" + name
                if !ps.isEmpty { guard let p = predicates(ps) else { return nil }; out += p }
                out += "]"
            }
            guard k < connections.count, k + 1 < items.count else { continue }
            switch connections[k] {
            case nil: out += "-"
            case let ps? where ps.isEmpty: break
            case let ps?: guard let p = predicates(ps) else { return nil }; out += "-" + p + "-"
            }
        }
        return out
    }

    /// `[name(predicates)?]`: the name runs to `(` or `]`, so ids with `-` work.
    private mutating func view() throws(Failure) -> Item {
        try expect("[")
        let start = i
        while let ch = peek, ch != U.unit("(") && ch != U.unit("]") { i += 1 }
        let name = U.string(c[start..<i])
        guard !name.isEmpty else { throw fail("a view needs a name", at: start) }
        var preds: [Predicate] = []
        if peek == U.unit("(") { preds = try predicateList(allowViews: true) }
        try expect("]")
        return .view(name, preds)
    }

    /// After a view or the leading `|`: nil for the standard space, [] for flush, else predicates.
    private mutating func connection() throws(Failure) -> [Predicate]? {
        guard peek == U.unit("-") else {
            guard peek == U.unit("[") || peek == U.unit("|") else {
                throw fail(peek == nil ? "the format ended where a view was expected" : "expected '-', '[' or '|'")
            }
            return []
        }
        i += 1
        if peek == U.unit("[") || peek == U.unit("|") { return nil }
        var preds: [Predicate]
        if peek == U.unit("(") {
            preds = try predicateList(allowViews: false)
        } else {
            let pos = i
            let v = try constantOrMetric(signed: false)
            preds = [Predicate(relation: .equal, object: .constant(v), priority: Priority.required, position: pos)]
        }
        try expect("-")
        return preds
    }

    private mutating func predicateList(allowViews: Bool) throws(Failure) -> [Predicate] {
        try expect("(")
        var out: [Predicate] = []
        while true {
            let pos = i
            var relation = Relation.equal
            if i + 1 < c.count, c[i + 1] == U.equal {
                switch c[i] {
                case U.equal: relation = .equal; i += 2
                case U.less: relation = .lessOrEqual; i += 2
                case U.greater: relation = .greaterOrEqual; i += 2
                default: break
                }
            }
            let object: Object
            if let ch = peek, ch.isDigit || ch == U.unit("-") || ch == U.unit("+") || ch == U.unit(".") {
                object = .constant(try number())
            } else {
                let nameStart = i
                let name = identifier(allowDash: allowViews)
                guard !name.isEmpty else { throw fail("expected a number, a metric or a view name") }
                if let m = metrics[name] {
                    object = .constant(m)
                } else if allowViews {
                    object = .view(name)
                } else {
                    throw fail("unknown metric '\(name)'", at: nameStart)
                }
            }
            var priority = Priority.required
            if peek == U.unit("@") {
                i += 1
                let ppos = i
                priority = try constantOrMetric(signed: false)
                guard priority >= 1 && priority <= Priority.required else { throw fail("a priority is from 1 to 1000", at: ppos) }
            }
            out.append(Predicate(relation: relation, object: object, priority: priority, position: pos))
            if peek == U.unit(",") { i += 1; continue }
            try expect(")")
            return out
        }
    }

    private mutating func constantOrMetric(signed: Bool) throws(Failure) -> Double {
        if let ch = peek, ch.isDigit || ch == U.unit(".") || (signed && ch == U.unit("-")) { return try number() }
        let start = i
        let name = identifier(allowDash: false)
        guard !name.isEmpty else { throw fail("expected a number or a metric name") }
        guard let m = metrics[name] else { throw fail("unknown metric '\(name)'", at: start) }
        return m
    }

    private mutating func identifier(allowDash: Bool) -> String {
        let start = i
        while let ch = peek, ch.isLetter || ch.isDigit || ch == U.unit("_") || (allowDash && ch == U.unit("-") && i > start) { i += 1 }
        return U.string(c[start..<i])
    }

    private mutating func number() throws(Failure) -> Double {
        let start = i
        if peek == U.unit("-") || peek == U.unit("+") { i += 1 }
        while let ch = peek, ch.isDigit || ch == U.unit(".") { i += 1 }
        // The usual number without a string and `Double(String)`, ~900 instructions a number.
        if let v = exactDecimal(c[start..<i]) { return v }
        guard let v = Double(U.string(c[start..<i])) else { throw fail("invalid number", at: start) }
        return v
    }
}
