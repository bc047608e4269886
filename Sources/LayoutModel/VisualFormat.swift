import CheckedNumbers
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
            return try VisualShape(bytes, options: options, metrics: metrics).parsed(bytes, superview: superview, printing: printing)
        }
        let characters = Array(format)
        return try VisualShape(characters, options: options, metrics: metrics).parsed(characters, superview: superview, printing: printing)
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

/// A format read once, each view it names kept as its name's place in the text (a slot):
/// its constraints name views by slot, which `parsed` turns into strings and a document into
/// its views' refs with no string made (`LayoutDocument.visual`). A string a name, an array a
/// predicate list and a second copy of the constraints to put the refs in were ~12 K
/// instructions a format (1,000 in the 1,000-cell feed). Not generic over the text's units
/// (the reader is): a generic shape was copied and destroyed through its type's metadata,
/// ~700 instructions each time.
struct VisualShape {
    typealias Failure = VisualFormat.Failure
    /// The slot `|` stands for: the views' shared parent.
    static let superview: Int32 = -1

    fileprivate(set) var axis = Axis.horizontal
    /// Every view named (laid out, or in a predicate), by slot: its name's place in the text.
    fileprivate(set) var names: [Range<Int>] = []
    /// The views laid out, in order, by slot.
    fileprivate(set) var views: [Int32] = []
    fileprivate(set) var usesSuperview = false
    /// The constraints, views by slot.
    fileprivate(set) var constraints: [ConstraintParts<Int32>] = []

    fileprivate struct Predicate { var relation: Relation; var object: Object; var priority: Double; var position: Int }
    fileprivate enum Object { case constant(Double), view(Int32) }
    /// A view: its slot and its predicates' range in `predicates`.
    fileprivate enum Item { case superview, view(Int32, Range<Int>) }
    /// Between two items: the standard space, flush, or spaced by predicates.
    fileprivate enum Connection { case standard, flush, spaced(Range<Int>) }
    fileprivate var items: [Item] = []
    fileprivate var connections: [Connection] = []
    fileprivate var predicates: [Predicate] = []
    /// The options' alignments, in order (kept, as the arrays above are).
    fileprivate var alignments: [Attribute] = []
    /// Room for a format's bytes, its views' refs by slot and its constraints on them, kept
    /// for the next (`LayoutDocument.visual`).
    var formatBytes: [UInt8] = []
    var refs: [ViewRef] = []
    var resolved: [ConstraintParts<ViewRef>] = []

    init() {}

    /// The format in `text` read (ASCII bytes, or Characters).
    init<U: TokenUnit>(_ text: [U], options: [String], metrics: [String: Double]) throws(Failure) {
        try read(text, options: options, metrics: metrics)
    }

    /// The format in `text` read into this shape's room: a document reads each of its formats
    /// into one kept shape (seven arrays made and freed a format were ~2.5 K instructions).
    mutating func read<U: TokenUnit>(_ text: [U], options: [String], metrics: [String: Double]) throws(Failure) {
        var reader = ShapeReader(text: text, metrics: metrics)
        swap(&reader.shape, &self)
        defer { swap(&reader.shape, &self) }
        try reader.run(options: options)
    }

    /// The name in a slot of the format read from `text`.
    func name<U: TokenUnit>(_ slot: Int32, in text: [U]) -> String { U.string(text[names[Int(slot)]]) }

    /// The constraints with their views' names, `|` called `superview`.
    func parsed<U: TokenUnit>(_ text: [U], superview sv: String, printing: Bool) -> VisualFormat.Parsed {
        func named(_ slot: Int32) -> String { slot == Self.superview ? sv : name(slot, in: text) }
        return VisualFormat.Parsed(
            axis: axis,
            constraints: constraints.map { c in
                AtomicConstraint(
                    first: Anchor(view: named(c.first), attribute: c.firstAttribute), relation: c.relation,
                    second: c.second.map { Anchor(view: named($0.view), attribute: $0.attribute) }, multiplier: c.multiplier,
                    constant: c.constant, priority: c.priority)
            },
            views: views.map { name($0, in: text) }, usesSuperview: usesSuperview, canonical: printing ? canonical(text) : nil)
    }

    private func canonical<U: TokenUnit>(_ text: [U]) -> String? {
        func number(_ v: Double) -> String? {
            if v == v.rounded() && abs(v) < 1e15, let n = Int64(checked: v) { return String(n) }
            let s = String(v)
            return s.contains("e") || !v.isFinite ? nil : s
        }
        func printed(_ ps: Range<Int>) -> String? {
            var parts: [String] = []
            for p in predicates[ps] {
                var s = p.relation.rawValue
                switch p.object {
                case .constant(let v): guard let n = number(v) else { return nil }; s += n
                case .view(let slot): s += name(slot, in: text)
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
            case .view(let slot, let ps):
                out += "[" + name(slot, in: text)
                if !ps.isEmpty { guard let p = printed(ps) else { return nil }; out += p }
                out += "]"
            }
            guard k < connections.count, k + 1 < items.count else { continue }
            switch connections[k] {
            case .standard: out += "-"
            case .flush: break
            case .spaced(let ps): guard let p = printed(ps) else { return nil }; out += "-" + p + "-"
            }
        }
        return out
    }
}

/// The parser, over ASCII bytes or Characters, into a shape.
private struct ShapeReader<U: TokenUnit> {
    typealias Failure = VisualFormat.Failure
    typealias Predicate = VisualShape.Predicate
    let text: [U]
    let metrics: [String: Double]
    var shape = VisualShape()
    private var i = 0

    init(text: [U], metrics: [String: Double]) { (self.text, self.metrics) = (text, metrics) }

    private func fail(_ m: String, at pos: Int? = nil) -> Failure { Failure(position: pos ?? i, message: m) }
    private var peek: U? { i < text.count ? text[i] : nil }

    private mutating func expect(_ ch: Unicode.Scalar) throws(Failure) {
        guard peek == U.unit(ch) else { throw fail(peek == nil ? "expected '\(ch)' but the format ended" : "expected '\(ch)'") }
        i += 1
    }

    mutating func run(options: [String]) throws(Failure) {
        let c = text
        shape.axis = .horizontal
        shape.usesSuperview = false
        if c.count >= 2 && c[1] == U.unit(":") {
            switch c[0] {
            case U.unit("H"): shape.axis = .horizontal
            case U.unit("V"): shape.axis = .vertical
            default: throw fail("the orientation is H: or V:", at: 0)
            }
            i = 2
        }
        let axis = shape.axis
        // Items and the connections between them, at the usual format's size at once (each
        // array grown from empty was an allocation a doubling).
        shape.items.removeAll(keepingCapacity: true)
        shape.connections.removeAll(keepingCapacity: true)
        shape.predicates.removeAll(keepingCapacity: true)
        shape.names.removeAll(keepingCapacity: true)
        shape.items.reserveCapacity(8)
        shape.connections.reserveCapacity(8)
        shape.predicates.reserveCapacity(8)
        shape.names.reserveCapacity(8)
        if peek == U.unit("|") { shape.items.append(.superview); i += 1; shape.connections.append(try connection()) }
        while true {
            guard peek == U.unit("[") else {
                throw fail(shape.items.isEmpty ? "expected '[' or '|' to start the format" : "expected '[' to start a view")
            }
            shape.items.append(try view())
            if peek == nil { break }
            let conn = try connection()
            if peek == U.unit("|") {
                shape.items.append(.superview); i += 1
                shape.connections.append(conn)
                guard peek == nil else { throw fail("nothing may follow the closing '|'") }
                break
            }
            shape.connections.append(conn)
        }

        // Attributes along the axis.
        var leadingAttr: Attribute = axis == .horizontal ? .leading : .top
        var trailingAttr: Attribute = axis == .horizontal ? .trailing : .bottom
        let size: Attribute = axis == .horizontal ? .width : .height
        shape.alignments.removeAll(keepingCapacity: true)
        for o in options {
            // Alignments first: most options are one (three direction compares each were ~70
            // instructions an option).
            if let a = VisualFormat.alignment(o) {
                guard a.axis != axis else { throw fail("\(o) aligns along the format's own axis (\(axis == .horizontal ? "H" : "V"):)", at: 0) }
                shape.alignments.append(a)
                continue
            }
            switch o {
            case "directionLeadingToTrailing": break
            case "directionLeftToRight": if axis == .horizontal { leadingAttr = .left; trailingAttr = .right }
            case "directionRightToLeft": if axis == .horizontal { leadingAttr = .right; trailingAttr = .left }
            default: throw fail("unknown option '\(o)'", at: 0)
            }
        }
        let alignments = shape.alignments

        func atom(_ first: Int32, _ a: Attribute, _ relation: Relation, _ second: (Int32, Attribute)?, _ constant: Double, _ priority: Double)
            -> ConstraintParts<Int32>
        {
            ConstraintParts(
                first: first, firstAttribute: a, relation: relation, second: second.map { (view: $0.0, attribute: $0.1) }, multiplier: 1,
                constant: constant, priority: priority)
        }
        shape.constraints.removeAll(keepingCapacity: true)
        shape.views.removeAll(keepingCapacity: true)
        shape.constraints.reserveCapacity(shape.items.count * (1 + alignments.count) + 2)
        shape.views.reserveCapacity(shape.items.count)
        let items = shape.items, connections = shape.connections, predicates = shape.predicates
        for k in items.indices {
            let item = items[k]
            if case .view(let slot, let preds) = item {
                shape.views.append(slot)
                for p in predicates[preds] {
                    switch p.object {
                    case .constant(let v): shape.constraints.append(atom(slot, size, p.relation, nil, v, p.priority))
                    case .view(let other): shape.constraints.append(atom(slot, size, p.relation, (other, size), 0, p.priority))
                    }
                }
            } else {
                shape.usesSuperview = true
            }
            guard k + 1 < items.count else { break }
            let next = items[k + 1]
            func space(_ p: Predicate) throws(Failure) {
                guard case .constant(let space) = p.object else { throw fail("a connection's predicate is a number or a metric", at: p.position) }
                switch (item, next) {
                case (.superview, .view(let b, _)):
                    shape.constraints.append(atom(b, leadingAttr, p.relation, (VisualShape.superview, leadingAttr), space, p.priority))
                case (.view(let a, _), .superview):
                    shape.constraints.append(atom(VisualShape.superview, trailingAttr, p.relation, (a, trailingAttr), space, p.priority))
                case (.view(let a, _), .view(let b, _)):
                    shape.constraints.append(atom(b, leadingAttr, p.relation, (a, trailingAttr), space, p.priority))
                default: break
                }
            }
            switch connections[k] {
            case .standard:
                let touchesEdge: Bool
                if case .superview = item { touchesEdge = true } else if case .superview = next { touchesEdge = true } else { touchesEdge = false }
                let gap = touchesEdge ? VisualFormat.edgeSpace : VisualFormat.siblingSpace
                try space(Predicate(relation: .equal, object: .constant(gap), priority: Priority.required, position: 0))
            case .flush: try space(Predicate(relation: .equal, object: .constant(0), priority: Priority.required, position: 0))
            case .spaced(let preds): for p in predicates[preds] { try space(p) }
            }
        }
        for a in alignments {
            let views = shape.views
            for k in 1..<max(1, views.count) { shape.constraints.append(atom(views[k], a, .equal, (views[k - 1], a), 0, Priority.required)) }
        }
    }

    /// A name's slot.
    private mutating func slot(_ r: Range<Int>) -> Int32 {
        shape.names.append(r)
        return Int32(shape.names.count - 1)
    }

    /// `[name(predicates)?]`: the name runs to `(` or `]`, so ids with `-` work.
    private mutating func view() throws(Failure) -> VisualShape.Item {
        try expect("[")
        let start = i
        while let ch = peek, ch != U.unit("(") && ch != U.unit("]") { i += 1 }
        guard i > start else { throw fail("a view needs a name", at: start) }
        let name = slot(start..<i)
        var preds = shape.predicates.count..<shape.predicates.count
        if peek == U.unit("(") { preds = try predicateList(allowViews: true) }
        try expect("]")
        return .view(name, preds)
    }

    /// After a view or the leading `|`: the standard space, flush, or predicates.
    private mutating func connection() throws(Failure) -> VisualShape.Connection {
        guard peek == U.unit("-") else {
            guard peek == U.unit("[") || peek == U.unit("|") else {
                throw fail(peek == nil ? "the format ended where a view was expected" : "expected '-', '[' or '|'")
            }
            return .flush
        }
        i += 1
        if peek == U.unit("[") || peek == U.unit("|") { return .standard }
        let preds: Range<Int>
        if peek == U.unit("(") {
            preds = try predicateList(allowViews: false)
        } else {
            let pos = i
            let v = try constantOrMetric(signed: false)
            shape.predicates.append(Predicate(relation: .equal, object: .constant(v), priority: Priority.required, position: pos))
            preds = shape.predicates.count - 1..<shape.predicates.count
        }
        try expect("-")
        return .spaced(preds)
    }

    private mutating func predicateList(allowViews: Bool) throws(Failure) -> Range<Int> {
        try expect("(")
        let first = shape.predicates.count
        while true {
            let pos = i
            var relation = Relation.equal
            if i + 1 < text.count, text[i + 1] == U.equal {
                switch text[i] {
                case U.equal: relation = .equal; i += 2
                case U.less: relation = .lessOrEqual; i += 2
                case U.greater: relation = .greaterOrEqual; i += 2
                default: break
                }
            }
            let object: VisualShape.Object
            if let ch = peek, ch.isDigit || ch == U.unit("-") || ch == U.unit("+") || ch == U.unit(".") {
                object = .constant(try number())
            } else {
                let nameStart = i
                let name = identifier(allowDash: allowViews)
                guard !name.isEmpty else { throw fail("expected a number, a metric or a view name") }
                if let m = metric(name) {
                    object = .constant(m)
                } else if allowViews {
                    object = .view(slot(name))
                } else {
                    throw fail("unknown metric '\(U.string(text[name]))'", at: nameStart)
                }
            }
            var priority = Priority.required
            if peek == U.unit("@") {
                i += 1
                let ppos = i
                priority = try constantOrMetric(signed: false)
                guard priority >= 1 && priority <= Priority.required else { throw fail("a priority is from 1 to 1000", at: ppos) }
            }
            shape.predicates.append(Predicate(relation: relation, object: object, priority: priority, position: pos))
            if peek == U.unit(",") { i += 1; continue }
            try expect(")")
            return first..<shape.predicates.count
        }
    }

    /// The metric a name is, if any (no string made when there are no metrics).
    private func metric(_ name: Range<Int>) -> Double? { metrics.isEmpty ? nil : metrics[U.string(text[name])] }

    private mutating func constantOrMetric(signed: Bool) throws(Failure) -> Double {
        if let ch = peek, ch.isDigit || ch == U.unit(".") || (signed && ch == U.unit("-")) { return try number() }
        let start = i
        let name = identifier(allowDash: false)
        guard !name.isEmpty else { throw fail("expected a number or a metric name") }
        guard let m = metric(name) else { throw fail("unknown metric '\(U.string(text[name]))'", at: start) }
        return m
    }

    private mutating func identifier(allowDash: Bool) -> Range<Int> {
        let start = i
        while let ch = peek, ch.isLetter || ch.isDigit || ch == U.unit("_") || (allowDash && ch == U.unit("-") && i > start) { i += 1 }
        return start..<i
    }

    private mutating func number() throws(Failure) -> Double {
        let start = i
        if peek == U.unit("-") || peek == U.unit("+") { i += 1 }
        while let ch = peek, ch.isDigit || ch == U.unit(".") { i += 1 }
        // The usual number without a string and `Double(String)`, ~900 instructions a number.
        if let v = exactDecimal(text[start..<i]) { return v }
        guard let v = Double(U.string(text[start..<i])) else { throw fail("invalid number", at: start) }
        return v
    }
}
