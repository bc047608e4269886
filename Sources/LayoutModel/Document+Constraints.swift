import CheckedNumbers
import ConstraintSolver
import JSON

/// Constraints: added from JSON (explicit, `expr` or VFL), removed, and changed in place.
extension LayoutDocument {
    /// A fresh server-given id (`c1`, `c2`…), never reused. Only an entry can hold such a
    /// name (derived ones have a dot), and only one given as shaped like it (`autoShapedIDs`):
    /// until one is, nothing is looked up (~600 instructions an id, 10,000 in the 1,000-cell feed).
    mutating func autoID() -> EntryID {
        while true {
            let n = nextAuto
            nextAuto += 1
            if !reservedAuto.isEmpty, reservedAuto.contains(n) { continue }
            // Found by number, it needs no string (an entry spells it when asked).
            if !autoShapedIDs && n <= Entry.maxNumber { return EntryID(name: "", number: n) }
            let id = Self.serverID(n)
            if !autoShapedIDs || !isTaken(id) { return EntryID(name: id, number: nil) }
        }
    }

    /// Keeps the server-shaped ids these constraints are sent with from `autoID`, so that one
    /// sent without an id before them does not take one.
    mutating func reserveAutoIDs(sentIn constraints: [JSON]) {
        for x in constraints {
            if let id = x["id"]?.string, let n = Self.autoNumber(id), n >= nextAuto { reservedAuto.insert(n) }
        }
    }

    /// The same for every `addConstraints` op of a change, before any is applied.
    mutating func reserveAutoIDs(sentInOps ops: [JSON]) {
        for op in ops where op["op"]?.string == "addConstraints" { reserveAutoIDs(sentIn: op["constraints"]?.array ?? []) }
    }

    /// The first letters after a view's id of the names the server derives (`stack.0`,
    /// `frame.x`, `hugging.h`, `compression.v`): any other dotted id (`cell3.top`) is told
    /// apart by one byte.
    static func isDerivedInitial(_ b: UInt8) -> Bool {
        b == UInt8(ascii: "s") || b == UInt8(ascii: "f") || b == UInt8(ascii: "h") || b == UInt8(ascii: "c")
    }

    /// Whether `id` is a view's id, a dot and what the server names that view's own
    /// constraints by (`stack.0`, `frame.x`, `hugging.h`…), or `view.stack` (a VFL group so
    /// named would name its members as the stack's).
    static func isDerivedShaped(_ id: String, firstDot: Int) -> Bool {
        let rest = id.utf8.dropFirst(firstDot + 1)
        let tail = Substring(rest)
        if tail == "stack" { return true }
        if tail.hasPrefix("stack.") {
            let n = tail.dropFirst(6)
            return !n.isEmpty && n.utf8.allSatisfy { $0 &- 48 < 10 }
        }
        return ImplicitKind.named(tail) != nil
    }

    /// Whether `id` could name a VFL group's member (`row.0`): digits after its last dot.
    static func isMemberShaped(_ id: String) -> Bool { IDShape(id).memberShaped }

    /// Whether `id` could be a server-given id: `c` and a digit first.
    static func isAutoShaped(_ id: String) -> Bool { IDShape(id).autoShaped }

    /// A constraint's fields, numbered for the bit set `addConstraint` keeps of those that
    /// came (eight `json[key]` scans a constraint were 5% of decoding a document).
    static let fieldOrder = [
        "id", "first", "relation", "second", "multiplier", "constant", "priority", "active",
        "expr", "visual", "options", "metrics"
    ]
    /// A field's place in `fieldOrder`, from its length and first byte, then one comparison (a
    /// scan of the list compared nine strings for `expr`: 107,000 comparisons in the 1,000-cell feed).
    static func field(_ k: String) -> Int? {
        let first = k.utf8.first ?? 0
        let f: Int
        switch k.utf8.count {
        case 2: f = 0
        case 4: f = 8
        case 5: f = 1
        case 6: f = first == UInt8(ascii: "s") ? 3 : first == UInt8(ascii: "a") ? 7 : 9
        case 7: f = first == UInt8(ascii: "o") ? 10 : 11
        case 8: f = first == UInt8(ascii: "r") ? 2 : first == UInt8(ascii: "c") ? 5 : 6
        case 10: f = 4
        default: return nil
        }
        return fieldOrder[f] == k ? f : nil
    }

    private static func bits(_ keys: [String]) -> UInt16 { keys.reduce(0) { $0 | 1 << fieldOrder.firstIndex(of: $1)! } }
    static let notWithFirst = bits(["expr", "visual", "options", "metrics"])
    static let notWithExpr = bits(["first", "relation", "second", "multiplier", "constant", "priority", "options", "metrics"])
    static let notWithVisual = bits(["first", "relation", "second", "multiplier", "constant", "priority"])

    /// Adds a `constraints` array, each id onto `added`: the one path of a document's
    /// constraints and the addConstraints op.
    mutating func addConstraints(_ json: JSON, at p: Pointer, added: inout [String]) throws(LayoutError) {
        guard let arr = json.array else { throw p.fail("constraints must be an array") }
        added.reserveCapacity(added.count + arr.count)
        for (i, x) in arr.enumerated() { added.append(try addConstraint(x, at: p(i))) }
    }

    /// Its pointer is made only for an error (one a constraint was an allocation and a free).
    mutating func addConstraint(_ json: JSON, at pointer: @autoclosure () -> Pointer) throws(LayoutError) -> String {
        var p: Pointer { pointer() }
        guard let members = json.members else { throw p.fail("a constraint must be an object") }
        var idValue: JSON? = nil, activeValue: JSON? = nil, first: JSON? = nil, expr: JSON? = nil, visual: JSON? = nil
        var present: UInt16 = 0  // which fields came, by their place in `fieldOrder`
        for (k, v) in members {
            guard let f = Self.field(k) else { throw p(k).fail("unknown constraint field '\(k)'") }
            guard present & (1 << f) == 0 else { continue }  // the first of a repeated key counts, as `json[key]` reads it
            present |= 1 << f
            switch f {
            case 0: idValue = v
            case 1: first = v
            case 7: activeValue = v
            case 8: expr = v
            case 9: visual = v
            default: break
            }
        }
        /// The first of `keys` that came, in the order given (what the error names).
        func firstPresent(_ keys: [String]) -> String? { keys.first { present & (1 << Self.fieldOrder.firstIndex(of: $0)!) != 0 } }
        // A sent id that is not a string is refused as the empty one is.
        let id = try claimID(idValue.flatMap { $0.isNull ? nil : $0.string ?? "" }, at: p)
        var active = true
        if let a = activeValue {
            guard let b = a.bool else { throw p("active").fail("active must be true or false") }
            active = b
        }
        guard (first != nil ? 1 : 0) + (expr != nil ? 1 : 0) + (visual != nil ? 1 : 0) == 1 else {
            throw p.fail("a constraint has exactly one of first, expr or visual")
        }
        // An explicit or `expr` entry makes one constraint, a VFL entry a group: no array and
        // no pointer a constraint unless it fails (they were 13 M of the 1,000-cell feed's 141 M).
        if first != nil {
            if present & Self.notWithFirst != 0, let k = firstPresent(["expr", "visual", "options", "metrics"]) {
                throw p(k).fail("'\(k)' does not go with 'first'")
            }
            let (atom, standard) = try Self.explicit(json, at: p)
            var parts = try checked(atom, at: p)
            if standard { parts.constant = try standardConstant(parts, at: p("constant")) }
            let e = newEntry(Entry(id: id, form: .explicit, sequence: newEntrySequence()))
            entries[Int(e)].atom = addAtom(parts, active: active, origin: .entry(e))
        } else if let expr {
            if present & Self.notWithExpr != 0,
                let k = firstPresent(["first", "relation", "second", "multiplier", "constant", "priority", "options", "metrics"])
            {
                throw p(k).fail("'\(k)' does not go with 'expr': write it into the expression")
            }
            guard let expr = expr.string else { throw p("expr").fail("expr must be a string") }
            try addExpression(expr, id: id, active: active, at: p)
        } else {
            if present & Self.notWithVisual != 0, let k = firstPresent(["first", "relation", "second", "multiplier", "constant", "priority"]) {
                throw p(k).fail("'\(k)' does not go with 'visual'")
            }
            let v = try Self.visualFields(json, at: p)
            try addVisual(.string(v.format), options: v.options, metrics: v.metrics, extras: v.extras, id: id, active: active, at: p)
        }
        return id.string
    }

    /// A VFL format as sent: a string, or a body's own plain ASCII bytes (read in place, no
    /// string made unless the document keeps its text: ~1 K instructions a format).
    enum FormatText {
        case string(String)
        case ascii(UnsafeBufferPointer<UInt8>)

        var string: String {
            switch self {
            case .string(let s): s
            case .ascii(let b): String(decoding: b, as: UTF8.self)
            }
        }
    }

    /// A VFL entry, its id taken: its group of constraints, each checked, under one entry.
    mutating func addVisual(
        _ format: FormatText, options: [String], metrics: [String: Double], extras: GroupExtras.Pair, id: EntryID, active: Bool,
        memo: NameMemo? = nil, at p: @autoclosure () -> Pointer
    ) throws(LayoutError) {
        // The kept shape taken out while it is read into (so its arrays are not shared).
        var shape = VisualShape()
        swap(&shape, &formatScratch)
        defer { swap(&shape, &formatScratch) }
        let broken = try visual(format, options: options, metrics: metrics, into: &shape, memo: memo, at: p())
        let resolved = shape.resolved
        // A member's id taken already is named before any later member's broken rule. (Checked
        // here, not by a closure given to `visual`: one that read the document copied it whole
        // for the call, ~1,400 instructions a format.)
        if memberShapedIDs {
            let memberPrefix = id.string + "."
            for k in resolved.indices where entryRef(Self.numbered(memberPrefix, k)) != nil {
                throw p()("visual").fail("a constraint '\(id.string).\(k)' exists already")
            }
        }
        if let broken { throw broken }
        var entry = Entry(id: id, form: .visual, sequence: newEntrySequence())
        if keepsSentText { entry.text = texts.add(format.string) }
        let e = newEntry(entry)
        if keepsSentText && (extras.options != nil || extras.metrics != nil) { groupExtras[e] = extras }
        guard !resolved.isEmpty else { return }
        // Made whole, then stored: appended in place, the list grew by doubling.
        let first = groupMembers.count
        for (k, parts) in resolved.enumerated() { groupMembers.append(addAtom(parts, active: active, origin: .member(e, Int32(k)))) }
        setMembers(from: first, of: e)
    }

    /// A constraint's id: the one sent (nil: none), checked and taken, or a fresh server-given one.
    mutating func claimID(_ sent: String?, at p: @autoclosure () -> Pointer) throws(LayoutError) -> EntryID {
        guard let s = sent else { return autoID() }
        // Counted in Unicode scalars, as JSON Schema's maxLength counts (utf8.count is O(1) and decides most).
        guard !s.isEmpty, s.utf8.count <= 160 || s.unicodeScalars.count <= 160 else {
            throw p()("id").fail("a constraint id is a string of 1…160 characters")
        }
        let shape = IDShape(s)
        // Refused whether or not that view has one yet: a stack's constraints are made after
        // the document's, so a taken-yet check would pass on one path and not another.
        if shape.firstDot > 0, Self.isDerivedInitial(shape.afterFirst), Self.isDerivedShaped(s, firstDot: shape.firstDot) {
            throw p()("id").fail("'\(s)' is shaped like a name the server gives ('view.stack.0', 'view.frame.x'…): choose another id")
        }
        guard !isTaken(s, shape: shape) else { throw p()("id").fail("a constraint '\(s)' exists already") }
        // A server-shaped id the server has given already is never given again: kept by its
        // number like the server's own, it leaves the quick ids on (a document sent whole
        // keeps an unnamed constraint's id this way when it replaces the constraint).
        if shape.autoShaped, let n = Self.autoNumber(s), n > 0, n < nextAuto, n <= Entry.maxNumber { return EntryID(name: "", number: n) }
        if shape.autoShaped { autoShapedIDs = true }
        if shape.memberShaped { memberShapedIDs = true }
        return EntryID(name: s, number: nil)
    }

    /// An `expr` entry, its id taken: read on the quick path straight into the views' refs,
    /// else parsed whole (which names any error's place in the expression).
    mutating func addExpression(_ expr: String, id: EntryID, active: Bool, at p: @autoclosure () -> Pointer) throws(LayoutError) {
        let parts: ConstraintParts<ViewRef>
        if let quick = quickExpression(expr) { parts = quick } else { parts = try parsedExpression(expr, at: p()) }
        let e = addExpressionEntry(parts, id: id, active: active)
        if keepsSentText { entries[Int(e)].text = keep(expr: expr, of: entries[Int(e)].atom) }
    }

    /// The same from a body's bytes (plain ASCII, read in place): the quick path takes them
    /// without a `String` (one an entry, allocated and freed: 1,000-cell feed, 11,000).
    mutating func addExpression(
        bytes expr: UnsafeBufferPointer<UInt8>, id: EntryID, active: Bool, memo: NameMemo? = nil,
        at p: @autoclosure () -> Pointer
    ) throws(LayoutError) {
        let parts: ConstraintParts<ViewRef>
        if let quick = quickExpression(bytes: expr, memo: memo) {
            parts = quick
        } else {
            parts = try parsedExpression(String(decoding: expr, as: UTF8.self), at: p())
        }
        let e = addExpressionEntry(parts, id: id, active: active)
        if keepsSentText { entries[Int(e)].text = keep(expr: expr, of: entries[Int(e)].atom) }
    }

    /// An expression the quick path does not take, tokenized: its error names its place in the text.
    private func parsedExpression(_ expr: String, at p: @autoclosure () -> Pointer) throws(LayoutError) -> ConstraintParts<ViewRef> {
        let single: AtomicConstraint
        do { single = try ExpressionSyntax.parse(expr) } catch {
            throw p()("expr").fail("\(error.message) at position \(error.position) of the expression")
        }
        return try checked(single, at: p()("expr"))
    }

    /// An `expr` entry and its atom, its text not yet kept (`.rendered`).
    /// Inlined: outlined, it was ~35 instructions more an entry (the parts passed by copy).
    @inline(__always) private mutating func addExpressionEntry(_ parts: ConstraintParts<ViewRef>, id: EntryID, active: Bool) -> EntryRef {
        let e = newEntry(Entry(id: id, form: .expression, sequence: newEntrySequence()))
        entries[Int(e)].atom = addAtom(parts, active: active, origin: .entry(e))
        return e
    }

    /// The constraint, and whether its constant is `"standard"` (resolved once its views are known).
    private static func explicit(_ json: JSON, at p: Pointer) throws(LayoutError) -> (AtomicConstraint, standard: Bool) {
        guard let f = json["first"]?.string else { throw p("first").fail("first must be \"view.attribute\"") }
        let first: Anchor
        switch Anchor.parse(f) {
        case .success(let a): first = a;
        case .failure(let m): throw p("first").fail(m.message)
        }
        var relation = Relation.equal
        if let r = json["relation"] {
            guard let s = r.string, let rel = Relation(rawValue: s) else { throw p("relation").fail("relation is ==, <= or >=") }
            relation = rel
        }
        var second: Anchor? = nil
        if let s = json["second"], !s.isNull {
            guard let str = s.string else { throw p("second").fail("second must be \"view.attribute\" or null") }
            switch Anchor.parse(str) {
            case .success(let a): second = a;
            case .failure(let m): throw p("second").fail(m.message)
            }
        }
        let multiplier =
            try json["multiplier"].map { (v) throws(LayoutError) in try ViewSpec.number(v, at: p("multiplier"), limit: ViewSpec.maxMultiplier) } ?? 1
        let sentConstant = json["constant"]
        let standard = sentConstant?.string == "standard"
        let constant = standard ? 0 : try sentConstant.map { (v) throws(LayoutError) in try ViewSpec.number(v, at: p("constant")) } ?? 0
        let priority = try json["priority"].map { (v) throws(LayoutError) in try ViewSpec.priority(v, at: p("priority")) } ?? Priority.required
        let atom = AtomicConstraint(first: first, relation: relation, second: second, multiplier: multiplier, constant: constant, priority: priority)
        return (atom, standard)
    }

    /// `"constant": "standard"`: the system's space between two locations (StandardSpacing.swift).
    private func standardConstant(_ parts: ConstraintParts<ViewRef>, at p: @autoclosure () -> Pointer) throws(LayoutError) -> Double {
        guard let second = parts.second, !parts.firstAttribute.isDimension else {
            throw p().fail("a standard space is between two locations: give a second item, not a size")
        }
        return standardSpace(parts.first, parts.firstAttribute, second.view, second.attribute)
    }

    /// A VFL entry's constraints, its parent standing for `|`; its options and metrics go into `extras`.
    /// A VFL entry's format, options and metrics from its tree, and the options and metrics as
    /// sent (kept to write the document back).
    private static func visualFields(_ json: JSON, at p: Pointer) throws(LayoutError)
        -> (format: String, options: [String], metrics: [String: Double], extras: GroupExtras.Pair)
    {
        guard let format = json["visual"]?.string else { throw p("visual").fail("visual must be a string") }
        var extras: GroupExtras.Pair = (nil, nil)
        var options: [String] = []
        if let o = json["options"], !o.isNull {
            guard let arr = o.array else { throw p("options").fail("options must be an array of strings") }
            options.reserveCapacity(arr.count)
            for (k, x) in arr.enumerated() {
                guard let s = x.string else { throw p("options")(k).fail("an option is a string") }
                options.append(s)
            }
            extras.options = o
        }
        var metrics: [String: Double] = [:]
        if let m = json["metrics"], !m.isNull {
            guard let members = m.members else { throw p("metrics").fail("metrics must be an object of numbers") }
            for (k, v) in members {
                guard let n = v.number else { throw p("metrics")(k).fail("a metric is a number") }
                metrics[k] = n
            }
            extras.metrics = m
        }
        return (format, options, metrics, extras)
    }

    /// A format's constraints on the views' refs, `|` made the views' shared parent, each
    /// checked in turn: those before the first that breaks a rule, and that one's error. The names are
    /// looked up from the format's bytes, once a slot (an ASCII format; another is read as
    /// Characters, its names as strings).
    private func visual(
        _ format: FormatText, options: [String], metrics: [String: Double], into shape: inout VisualShape, memo: NameMemo?,
        at pointer: @autoclosure () -> Pointer
    ) throws(LayoutError) -> LayoutError? {
        func failing(_ error: SyntaxError) -> LayoutError {
            pointer()("visual").fail("\(error.message) at position \(error.position) of the format")
        }
        // The format's bytes in the shape's kept room (an array made a format was ~1 K instructions).
        var bytes: [UInt8] = []
        swap(&bytes, &shape.formatBytes)
        defer { swap(&bytes, &shape.formatBytes) }
        bytes.removeAll(keepingCapacity: true)
        switch format {
        case .string(let s): bytes.append(contentsOf: s.utf8)
        case .ascii(let b): bytes.append(contentsOf: b)
        }
        guard bytesAreCharacters(bytes) else {
            let characters = Array(format.string)
            do { try shape.read(characters, options: options, metrics: metrics) } catch { throw failing(error) }
            shape.refs = shape.names.indices.map { viewRef(shape.name(Int32($0), in: characters)) ?? .noRef }
            return try visual(&shape, characters, at: pointer())
        }
        do { try shape.read(bytes, options: options, metrics: metrics) } catch { throw failing(error) }
        var refs: [ViewRef] = []  // the shape's kept room, filled
        swap(&refs, &shape.refs)
        refs.removeAll(keepingCapacity: true)
        bytes.withUnsafeBufferPointer { b in
            ViewNames.lending(self, memo: memo) { names in
                for name in shape.names { refs.append(names.view(UnsafeBufferPointer(rebasing: b[name])) ?? .noRef) }
            }
        }
        swap(&refs, &shape.refs)
        return try visual(&shape, bytes, at: pointer())
    }

    /// A format's constraints into `shape.resolved`, its views' refs by slot (`noRef`: no
    /// such view) in `shape.refs`: those before the first that breaks a rule, and that one's
    /// error. (Both lists are the shape's kept room: two arrays made a format were ~1.5 K
    /// instructions.)
    private func visual<U: TokenUnit>(
        _ shape: inout VisualShape, _ text: [U], at pointer: @autoclosure () -> Pointer
    ) throws(LayoutError) -> LayoutError? {
        let refs = shape.refs
        var p: Pointer { pointer()("visual") }
        // The views share one parent, which `|` stands for.
        var shared: ViewRef? = nil
        for slot in shape.views {
            let r = refs[Int(slot)]
            guard r != .noRef else { throw p.fail("unknown view '\(shape.name(slot, in: text))' in the format") }
            let up = views[Int(r)].parent
            if let shared, shared != up { throw p.fail("the views of a format must share one parent ('\(shape.name(slot, in: text))' does not)") }
            shared = up
        }
        let parent = shared ?? .noRef
        if shape.usesSuperview && parent == .noRef { throw p.fail("'|' stands for the views' parent, but they have none") }
        func ref(_ slot: Int32) -> ViewRef { slot == VisualShape.superview ? parent : refs[Int(slot)] }
        var out: [ConstraintParts<ViewRef>] = []
        swap(&out, &shape.resolved)
        defer { swap(&out, &shape.resolved) }
        out.removeAll(keepingCapacity: true)
        out.reserveCapacity(shape.constraints.count)
        for c in shape.constraints {
            let parts = ConstraintParts(
                first: ref(c.first), firstAttribute: c.firstAttribute, relation: c.relation,
                second: c.second.map { (view: ref($0.view), attribute: $0.attribute) }, multiplier: c.multiplier, constant: c.constant,
                priority: c.priority)
            if parts.first == .noRef || parts.second?.view == .noRef || Self.brokenRule(parts) != nil {
                // The error, worded by the checks every atom goes through.
                func named(_ slot: Int32) -> String { slot == VisualShape.superview ? viewName(parent) : shape.name(slot, in: text) }
                let atom = AtomicConstraint(
                    first: Anchor(view: named(c.first), attribute: c.firstAttribute), relation: c.relation,
                    second: c.second.map { Anchor(view: named($0.view), attribute: $0.attribute) }, multiplier: c.multiplier,
                    constant: c.constant, priority: c.priority)
                do { out.append(try checked(atom, at: p)) } catch { return error }
            } else {
                out.append(parts)
            }
        }
        return nil
    }

    /// The rules every atom obeys, and the views it names (`p` is built only for an error).
    private func checked(_ atom: AtomicConstraint, at p: @autoclosure () -> Pointer) throws(LayoutError) -> ConstraintParts<ViewRef> {
        guard let first = viewRef(atom.first.view) else { throw p().fail("unknown view '\(atom.first.view)'") }
        var second: (view: ViewRef, attribute: Attribute)? = nil
        if let s = atom.second {
            guard let r = viewRef(s.view) else { throw p().fail("unknown view '\(s.view)'") }
            second = (r, s.attribute)
        }
        let parts = ConstraintParts(
            first: first, firstAttribute: atom.first.attribute, relation: atom.relation, second: second,
            multiplier: atom.multiplier, constant: atom.constant, priority: atom.priority)
        switch Self.brokenRule(parts) {
        case nil: return parts
        case .anchor?: throw p().fail(atom.anchorRuleViolation()!)  // the same AnchorRule said so
        case .constant?: throw p().fail("the constant \(atom.constant) is outside ±\(fmt(ViewSpec.maxMagnitude))")
        case .multiplier?: throw p().fail("the multiplier \(atom.multiplier) is outside ±\(fmt(ViewSpec.maxMultiplier))")
        case .priority?: throw p().fail("a priority is from 1 to 1000")
        }
    }

    private enum BrokenRule { case anchor, constant, multiplier, priority }

    /// The first rule a constraint breaks, in the order its error names them: the anchor rules,
    /// then the limits of its constant, multiplier and priority (a NaN breaks its limit).
    private static func brokenRule(_ c: ConstraintParts<ViewRef>) -> BrokenRule? {
        if AnchorRule.broken(c.firstAttribute, c.second?.attribute, multiplier: c.multiplier) != nil { return .anchor }
        if !(abs(c.constant) <= ViewSpec.maxMagnitude) { return .constant }
        if !(abs(c.multiplier) <= ViewSpec.maxMultiplier) { return .multiplier }
        if !(c.priority >= 1 && c.priority <= Priority.required) { return .priority }
        return nil
    }

    /// An `expr` read straight into the views' refs, when the quick parse reads it and it keeps
    /// every rule; else nil, and the whole way (tokens, names, `checked`) gives the constraint
    /// or its error. No string a view and no copy of a named constraint: ~450 instructions an
    /// expression (11,000 in the 1,000-cell feed).
    private func quickExpression(_ text: String) -> ConstraintParts<ViewRef>? {
        var text = text
        return text.withUTF8 { quickExpression(bytes: $0) }
    }

    private func quickExpression(bytes: UnsafeBufferPointer<UInt8>, memo: NameMemo? = nil) -> ConstraintParts<ViewRef>? {
        let parts = ViewNames.lending(self, memo: memo) { ExpressionSyntax.parts(bytes: bytes, names: $0) }
        guard let c = parts, Self.brokenRule(c) == nil else { return nil }
        return c
    }

    /// A checked constraint of a new entry into the atoms, dirty (and, when active, counted for churn).
    private mutating func addAtom(_ c: ConstraintParts<ViewRef>, active: Bool, origin: AtomOrigin) -> AtomRef {
        let a = newAtom(
            Atom(
                first: c.first, second: c.second?.view ?? .noRef, firstAttribute: c.firstAttribute,
                secondAttribute: c.second?.attribute ?? .left, relation: c.relation, active: active,
                origin: origin, multiplier: c.multiplier, constant: c.constant, priority: c.priority))
        markDirty(atom: a)
        if active && isBuilt { changes.churnAdded.append((a, atoms[Int(a)].shape)) }
        // A document's constraint may change a fitting size a proportional stack shares by.
        if proportionalStacks, isBuilt { markProportionalStacks(above: c.first) }
        if isBuilt, !stacks.isEmpty { markStackOfPinnedView(atoms[Int(a)]) }
        return a
    }

    // MARK: Removing

    mutating func removeAtom(_ a: AtomRef) {
        guard atoms[Int(a)].live else { return }
        freeAtom(a)
        markDirty(atom: a)
        if case .stack(let s, let n) = atoms[Int(a)].origin {
            // A stack's constraint is its own: no churn, and its slot in the stack is empty.
            if stacks[s] != nil, Int(n) < stacks[s]!.atoms.count { stacks[s]!.atoms[Int(n)] = .noRef }
            return
        }
        if atoms[Int(a)].active { changes.churnRemoved.append((a, atoms[Int(a)].shape)) }
        if proportionalStacks { markProportionalStacks(above: atoms[Int(a)].first) }
        switch atoms[Int(a)].origin {
        case .entry, .member: if !stacks.isEmpty { markStackOfPinnedView(atoms[Int(a)]) }
        case .implicit, .stack: break
        }
        switch atoms[Int(a)].origin {
        case .entry(let e):
            freeEntry(e)
        case .member(let e, let k):
            groupMembers[memberIndex(Int(k), of: e)] = .noRef
            entries[Int(e)].edited = true
            if members(of: e).allSatisfy({ $0 == .noRef }) { freeEntry(e) }
        case .implicit(let v, let kind):
            views[Int(v)].implicit[kind.rawValue] = .noRef
        case .stack:
            break
        }
    }

    mutating func removeConstraints(_ ids: [String], at p: Pointer) throws(LayoutError) {
        for (k, id) in ids.enumerated() {
            for a in try resolve(id, at: p(k)) { removeAtom(a) }
        }
    }

    // MARK: Naming what an op changes

    /// The atoms an op names: an entry (all its members) or a single atom.
    private func resolve(_ id: String, at p: Pointer) throws(LayoutError) -> [AtomRef] {
        if let e = entryRef(id) { return liveMembers(of: e) }
        return [try atomID(id, at: p)]
    }

    /// The atom named `id`; an implicit one is refused.
    private func atomID(_ id: String, at p: Pointer) throws(LayoutError) -> AtomRef {
        guard let a = atomNamed(id) else { throw p.fail("unknown constraint '\(id)'") }
        switch atoms[Int(a)].origin {
        case .implicit: throw p.fail("'\(id)' is implicit: change the view's frame or intrinsicSize instead")
        case .stack: throw p.fail("'\(id)' is made by its stack view: change the stack (updateView) instead")
        default: return a
        }
    }

    /// The single atom an op changes (a group id is refused: name a member).
    func single(_ id: String, at p: Pointer) throws(LayoutError) -> AtomRef {
        guard let e = entryRef(id) else { return try atomID(id, at: p) }
        let members = liveMembers(of: e)
        guard members.count == 1 else {
            throw p.fail("'\(id)' is a group of \(members.count) constraints: name one of them (\(members.first.map(atomName) ?? id))")
        }
        return members[0]
    }

    // MARK: Changing in place

    mutating func setConstant(_ id: String, _ value: Double, at p: Pointer) throws(LayoutError) {
        guard abs(value) <= ViewSpec.maxMagnitude else { throw p.fail("the constant \(value) is outside ±\(fmt(ViewSpec.maxMagnitude))") }
        let a = try single(id, at: p)
        guard atoms[Int(a)].constant != value else { return }
        atoms[Int(a)].constant = value
        markDirty(atom: a)
        noteEdited(a, field: "constant", .number(value))
    }

    mutating func setPriority(_ id: String, _ value: Double, at p: Pointer) throws(LayoutError) {
        let a = try single(id, at: p)
        guard atoms[Int(a)].priority != value else { return }
        atoms[Int(a)].priority = value
        markDirty(atom: a)
        noteEdited(a, field: "priority", .number(value))
    }

    /// The body of a set-constant (`{"id": constant, ...}`): every id and number is checked
    /// before anything changes, then the constants are set and `moved` hears of each atom
    /// whose constant changed. Mutating, so the document is changed in place, never copied;
    /// `earlier` gets what puts it back (`restore`), for a set-constant stopped half way.
    mutating func setConstants(
        _ members: [(key: String, value: JSON)], at p: Pointer, earlier: inout [EarlierConstant],
        moved: (_ atom: AtomRef, _ value: Double) -> Void
    ) throws(LayoutError) {
        if members.count == 1 {  // a drag: no list needed
            let (a, v) = try resolveConstant(members[0].key, members[0].value, at: p)
            apply(a, v, &earlier, moved)
            return
        }
        var resolved: [(AtomRef, Double)] = []
        resolved.reserveCapacity(members.count)
        for (id, v) in members { resolved.append(try resolveConstant(id, v, at: p)) }
        for (a, v) in resolved { apply(a, v, &earlier, moved) }
    }

    /// An atom's constant before a set-constant, and how its entry was listed then.
    struct EarlierConstant {
        let atom: AtomRef
        let constant: Double
        let stale: Bool
        let edited: Bool
    }

    /// Puts back what `setConstants` changed, newest first (an id named twice ends as it began).
    mutating func restore(_ earlier: [EarlierConstant]) {
        for x in earlier.reversed() {
            atoms[Int(x.atom)].constant = x.constant
            guard let e = entry(of: x.atom) else { continue }
            entries[Int(e)].stale = x.stale
            entries[Int(e)].edited = x.edited
        }
    }

    /// A set-constant member, checked. The usual case (a number, a named single
    /// constraint) is one hash and builds no pointer.
    private func resolveConstant(_ id: String, _ v: JSON, at p: Pointer) throws(LayoutError) -> (AtomRef, Double) {
        if let n = v.number, abs(n) <= ViewSpec.maxMagnitude, let e = entryRef(id), entries[Int(e)].form != .visual {
            return (entries[Int(e)].atom, n)
        }
        let n = try ViewSpec.number(v, at: p(id))
        return (try single(id, at: p(id)), n)
    }

    private mutating func apply(_ a: AtomRef, _ value: Double, _ earlier: inout [EarlierConstant], _ moved: (AtomRef, Double) -> Void) {
        guard atoms[Int(a)].constant != value else { return }
        let e = entry(of: a)
        earlier.append(
            EarlierConstant(
                atom: a, constant: atoms[Int(a)].constant, stale: e.map { entries[Int($0)].stale } ?? false,
                edited: e.map { entries[Int($0)].edited } ?? false))
        atoms[Int(a)].constant = value
        noteEdited(a, field: "constant", .number(value))
        moved(a, value)
    }

    mutating func setActive(_ ids: [String], _ active: Bool, at p: Pointer) throws(LayoutError) {
        for (k, id) in ids.enumerated() {
            let flipped = try resolve(id, at: p(k)).filter { atoms[Int($0)].active != active }
            for a in flipped {
                atoms[Int(a)].active = active
                markDirty(atom: a)
                if active { changes.churnAdded.append((a, atoms[Int(a)].shape)) } else { changes.churnRemoved.append((a, atoms[Int(a)].shape)) }
            }
            // Once all are flipped: a group (de)activated whole still agrees, and stays a group.
            for a in flipped { noteEdited(a, field: "active", .bool(active)) }
        }
    }

    /// Keeps what the document lists for an entry in step with a change to one of its atoms:
    /// an `expr` whose numbers changed is listed in the explicit form; a VFL group whose
    /// members no longer agree is listed as its members.
    private mutating func noteEdited(_ a: AtomRef, field: String, _ value: JSON) {
        guard let e = entry(of: a) else { return }
        guard entries[Int(e)].form == .visual else {
            // An `expr` written the usual way is written again from its atom, and stays an
            // `expr` while its numbers still write that way (a document sent whole again
            // changes its constants in place and gives back what it sent).
            if field != "active", !(entries[Int(e)].text == .rendered && rendersUsually(a)) { entries[Int(e)].stale = true }
            return
        }
        if field != "active" || liveMembers(of: e).contains(where: { atoms[Int($0)].active != (value.bool ?? true) }) {
            entries[Int(e)].edited = true
        }
    }

    /// The entry an atom was listed as (none: one UIKit makes, or a stack's).
    private func entry(of a: AtomRef) -> EntryRef? {
        switch atoms[Int(a)].origin {
        case .entry(let x): return x
        case .member(let x, _): return x
        case .implicit, .stack: return nil
        }
    }
}
