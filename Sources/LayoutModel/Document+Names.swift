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
        if let e = entryNamed[name] { return entries[Int(e)].form == .visual ? nil : entries[Int(e)].atom }
        return derivedAtom(named: name)
    }

    /// An atom named from its origin (a group's member, a view's implicit constraint), not an entry.
    private func derivedAtom(named name: String) -> AtomRef? {
        let utf8 = name.utf8
        if let dot = utf8.lastIndex(of: UInt8(ascii: ".")), dot != utf8.startIndex {
            let tail = name[name.index(after: dot)...]
            if let k = Int(tail), String(k) == tail, k >= 0,
                let e = entryNamed[String(name[..<dot])], entries[Int(e)].form == .visual,
                k < entries[Int(e)].members.count, entries[Int(e)].members[k] != noRef
            {
                return entries[Int(e)].members[k]
            }
        }
        // View ids have no '.': the view is everything before the first one.
        if let dot = utf8.firstIndex(of: UInt8(ascii: ".")), name[name.index(after: dot)...].hasPrefix("stack."),
            let s = viewNamed[String(name[..<dot])], let state = stacks[s]
        {
            let tail = name[name.index(after: dot)...].dropFirst(6)
            if let n = Int(tail), String(n) == tail, n >= 0, n < state.atoms.count, state.atoms[n] != noRef { return state.atoms[n] }
            return nil
        }
        if let dot = utf8.firstIndex(of: UInt8(ascii: ".")),
            let kind = ImplicitKind.named(name[name.index(after: dot)...]),
            let v = viewNamed[String(name[..<dot])]
        {
            let a = views[Int(v)].implicit[kind.rawValue]
            return a == noRef ? nil : a
        }
        return nil
    }

    /// Whether `id` names a constraint already (an entry or an atom).
    func isTaken(_ id: String) -> Bool { entryNamed[id] != nil || derivedAtom(named: id) != nil }

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
    func members(ofEntry name: String) -> [String]? { entryNamed[name].map { entries[Int($0)].liveMembers.map(atomName) } }

    /// Live entries' ids, in document order.
    var entryOrder: [String] { liveEntries.map { entries[Int($0)].id } }

    var liveEntries: [EntryRef] {
        entries.indices.filter { entries[$0].live }.sorted { entries[$0].sequence < entries[$1].sequence }.map { EntryRef($0) }
    }
}
