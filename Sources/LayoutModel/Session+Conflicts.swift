import ConstraintSolver

/// Which required constraint a conflict breaks, as UIKit and Xcode choose it. The engines
/// break the newest constraint of a conflicting set; UIKit keeps the newest and breaks an
/// older one, and its order is the nib's: a document's constraints as listed, then what
/// UIKit makes at layout time (content sizes, stack arrangements, autoresizing frames).
/// Xcode's stored frames show it: of two explicit constraints the one listed later holds, and
/// a stack's or a content size's constraint holds against an explicit one, except a hidden
/// arranged view's collapse, which gives way to an explicit size. Runs only when something
/// is broken: the chosen constraint leaves the engine (what it broke is retried) and comes
/// back as the newest, to be broken with its conflicting set.
extension LayoutSession {
    /// Passes over the broken constraints a change makes: one settles every conflict whose
    /// set shrinks by one removal (a second catches a conflict a swap uncovered).
    static let rebreakPasses = 3

    func breakAsUIKitDoes() {
        for _ in 0..<Self.rebreakPasses {
            let victims = misplacedBreaks()
            guard !victims.isEmpty else { return }
            for (victim, link) in victims {
                guard let h = link.handle, let definition = solver.definition(h) else { continue }
                solver.remove(h)
                links.set(victim, EngineLink(handle: solver.add(definition), mirrored: link.mirrored, base: link.base))
            }
        }
    }

    /// For each broken constraint whose conflicting set holds one UIKit breaks first: that one
    /// (each once, in one pass over what is broken).
    private func misplacedBreaks() -> [(AtomRef, EngineLink)] {
        var out: [(AtomRef, EngineLink)] = []
        var chosen = Set<AtomRef>()
        for (broken, conflicts) in solver.brokenConstraints {
            guard let b = atom(ofHandle: broken) else { continue }
            var victim = b
            for h in conflicts {
                guard let a = atom(ofHandle: h), document.atoms[Int(a)].priority >= Priority.required,
                    breakRank(a) < breakRank(victim)
                else { continue }
                victim = a
            }
            if victim != b, chosen.insert(victim).inserted, let link = link(victim) { out.append((victim, link)) }
        }
        return out
    }

    /// Each atom's `breakOrder`, for the factored basis's batch (read in place: a copy of
    /// each record was most of its ~2 M instructions in the 1,000-cell feed).
    func breakOrders(_ atoms: [AtomRef]) -> [Int64] {
        document.atoms.withUnsafeBufferPointer { records in atoms.map { breakOrder(records[Int($0)]) } }
    }

    private func breakRank(_ a: AtomRef) -> Int64 { breakOrder(document.atoms[Int(a)]) }

    /// The order UIKit breaks in, as one number (group, then creation order): a hidden arranged
    /// view's collapse first, then a document's constraints as listed, then what UIKit makes at
    /// layout time.
    private func breakOrder(_ x: Atom) -> Int64 {
        let group: Int64
        switch x.origin {
        case .entry, .member: group = 1
        case .implicit: group = 2
        case .stack:
            let collapse = x.second == .noRef && x.constant == 0 && x.firstAttribute.isDimension && document.views[Int(x.first)].spec.hidden
            group = collapse ? 0 : 2
        }
        return group << 32 | Int64(x.sequence)
    }
}
