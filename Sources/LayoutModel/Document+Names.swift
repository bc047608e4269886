import CheckedNumbers
/// Ids in and out: an atom's name follows from where it comes from (`entry`, `group.k`,
/// `view.hugging.h`), so none is stored, and a name is parsed back the same way.
extension LayoutDocument {
    func viewName(_ v: ViewRef) -> String { views[Int(v)].spec.id }

    func atomName(_ a: AtomRef) -> String {
        switch atoms[Int(a)].origin {
        case .entry(let e): return entries[Int(e)].id
        case .member(let e, let k): return "\(entries[Int(e)].id).\(k)"
        case .implicit(let v, let kind): return "\(viewName(v)).\(kind.suffix)"
        case .stack(let s, let n): return "\(viewName(s)).stack.\(n)"
        }
    }

    /// The live atom named `name`: an explicit or `expr` entry's, a VFL group's member
    /// (`group.k`) or a view's implicit one (`view.frame.x`); entries first.
    func atomNamed(_ name: String) -> AtomRef? {
        if let e = entryRef(name) { return entries[Int(e)].form == .visual ? nil : entries[Int(e)].atom }
        return derivedAtom(named: name)
    }

    /// `prefix` and n's decimal digits, written straight into the string's storage:
    /// interpolation and `String(n)` go through generic formatting (~650 instructions an auto
    /// id, 10,000 in the 1,000-cell feed), a temporary buffer then a copy ~400.
    static func numbered(_ prefix: String, _ n: Int) -> String {
        var digits = 0, m = n.magnitude
        repeat { digits += 1; m /= 10 } while m > 0
        let sign = n < 0 ? 1 : 0
        let count = prefix.utf8.count + sign + digits
        return String(unsafeUninitializedCapacity: count) { buf in
            var i = 0
            for c in prefix.utf8 { buf[i] = c; i += 1 }
            if sign == 1 { buf[i] = UInt8(ascii: "-") }
            var k = count
            m = n.magnitude
            repeat { k -= 1; buf[k] = UInt8(ascii: "0") + UInt8(m % 10); m /= 10 } while m > 0
            return count
        }
    }

    /// An atom named from its origin (a group's member, a view's implicit constraint), not an entry.
    private func derivedAtom(named name: String, shape: IDShape? = nil) -> AtomRef? {
        let shape = shape ?? IDShape(name)
        let (firstDot, lastDot, afterFirst, digitsAfterLast) = (shape.firstDot, shape.lastDot, shape.afterFirst, shape.digitsAfterLast)
        guard firstDot >= 0 else { return nil }
        let utf8 = name.utf8
        if lastDot > 0 && digitsAfterLast {
            let dot = utf8.index(utf8.startIndex, offsetBy: lastDot)
            let tail = name[utf8.index(after: dot)...]
            if let k = Int(tail), String(k) == tail, k >= 0,
                let e = entryRef(String(name[..<dot])), entries[Int(e)].form == .visual,
                k < Int(entries[Int(e)].memberCount), case let a = groupMembers[memberIndex(k, of: e)], a != .noRef
            {
                return a
            }
        }
        switch afterFirst {
        case UInt8(ascii: "s"), UInt8(ascii: "f"), UInt8(ascii: "h"), UInt8(ascii: "c"): break
        default: return nil
        }
        // View ids have no '.': the view is everything before the first one.
        let dot = utf8.index(utf8.startIndex, offsetBy: firstDot)
        let rest = name[utf8.index(after: dot)...]
        if rest.hasPrefix("stack."), let s = viewRef(String(name[..<dot])), let state = stacks[s] {
            let tail = rest.dropFirst(6)
            if let n = Int(tail), String(n) == tail, n >= 0, n < state.atoms.count, state.atoms[n] != .noRef { return state.atoms[n] }
            return nil
        }
        if let kind = ImplicitKind.named(rest), let v = viewRef(String(name[..<dot])) {
            let a = views[Int(v)].implicit[kind.rawValue]
            return a == .noRef ? nil : a
        }
        return nil
    }

    /// Whether `id` names a constraint already (an entry or an atom).
    func isTaken(_ id: String, shape: IDShape? = nil) -> Bool { entryRef(id) != nil || derivedAtom(named: id, shape: shape) != nil }

    func anchor(_ v: ViewRef, _ attribute: Attribute) -> Anchor { Anchor(view: viewName(v), attribute: attribute) }

    /// An atom in layout terms, with its views' ids.
    func constraint(_ a: AtomRef) -> AtomicConstraint {
        let x = atoms[Int(a)]
        return AtomicConstraint(
            first: anchor(x.first, x.firstAttribute), relation: x.relation,
            second: x.hasSecond ? anchor(x.second, x.secondAttribute) : nil,
            multiplier: x.multiplier, constant: x.constant, priority: x.priority)
    }

    /// How explain and the diagnostics word an atom: a fixed frame's part as `view.frame.x == 10`.
    func describe(_ a: AtomRef) -> String {
        let x = atoms[Int(a)]
        if case .implicit(let v, let kind) = x.origin, kind.frameComponent != nil {
            return "\(viewName(v)).\(kind.suffix) == \(fmt(x.constant))"
        }
        return constraint(a).description
    }

    // MARK: By name (inspection and tests)

    /// The constraint named `name`, explicit, a member or implicit.
    func constraint(named name: String) -> AtomicConstraint? { atomNamed(name).map(constraint) }

    /// The names of an entry's live atoms.
    func members(ofEntry name: String) -> [String]? { entryRef(name).map { liveMembers(of: $0).map(atomName) } }

    /// Live entries' ids, in document order.
    var entryOrder: [String] { liveEntries.map { entries[Int($0)].id } }

    var liveEntries: [EntryRef] {
        entries.indices.filter { entries[$0].live }.sorted { entries[$0].sequence < entries[$1].sequence }.map { EntryRef($0) }
    }
}

/// A document's views by the bytes of their ids, for the quick `expr` parse: a view's ref
/// with no string made.
struct ViewNames: QuickNames {
    /// The ids table and the document's records, lent for one parse (an array here was
    /// retained at each name).
    let table: NameTable<ViewRef>.Lookup
    let views: UnsafeBufferPointer<ViewRecord>
    /// The reader's memo of names looked up last, if it keeps one.
    var memo: NameMemo? = nil

    @inline(__always) func view(_ name: UnsafeBufferPointer<UInt8>) -> ViewRef? {
        guard let memo else { return table.find(bytes: name) { views[Int($0)].spec.id } }
        return memo.view(name) { b in table.find(bytes: b) { views[Int($0)].spec.id } }
    }

    /// The document's names lent to `body`.
    static func lending<R>(_ document: LayoutDocument, memo: NameMemo? = nil, _ body: (ViewNames) -> R) -> R {
        document.viewNamed.withLookup { table in document.views.withUnsafeBufferPointer { body(ViewNames(table: table, views: $0, memo: memo)) } }
    }
}

/// What an id's bytes say, read in one pass: every derived name has a dot, so its first and
/// last dots, whether digits alone follow the last (a VFL member, `row.0`), the byte after the
/// first (an implicit or stack name starts `frame.`, `hugging.`, `compression.` or `stack.`),
/// and whether it starts as a server-given id does (`c` and a digit). A client's own dotted id
/// (`cell0.top`) is refused as derived without building a string (~2,800 instructions an id
/// through `Int(tail)` and `ImplicitKind.named`); read once for the three questions a sent id
/// asks, where each read the bytes again (~300 instructions of the 1,000-cell feed's 2,000).
struct IDShape {
    var firstDot = -1, lastDot = -1
    var afterFirst: UInt8 = 0
    var digitsAfterLast = false
    var autoShaped = false

    init(_ id: String) {
        var bytes = id
        bytes.withUTF8 { b in
            autoShaped = b.count >= 2 && b[0] == UInt8(ascii: "c") && b[1] &- 48 < 10
            // The dots found from either end (a loop keeping all four facts a byte was ~30
            // instructions a byte).
            guard let first = b.firstIndex(of: UInt8(ascii: ".")), let last = b.lastIndex(of: UInt8(ascii: ".")) else { return }
            (firstDot, lastDot) = (first, last)
            if first + 1 < b.count { afterFirst = b[first + 1] }
            digitsAfterLast = last + 1 < b.count && b[(last + 1)...].allSatisfy { $0 &- 48 < 10 }
        }
    }

    /// Whether it could name a VFL group's member (`row.0`): digits after its last dot.
    var memberShaped: Bool { digitsAfterLast }
}
