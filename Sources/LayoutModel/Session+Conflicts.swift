import CheckedNumbers
import ConstraintSolver
import WorkBudget

/// Which required constraint a conflict breaks, as UIKit and Xcode choose it. The engines
/// break the newest constraint of a conflicting set; UIKit keeps the newest and breaks an
/// older one, and its order is the nib's: a document's constraints as listed, then what
/// UIKit makes at layout time (content sizes, stack arrangements, autoresizing frames).
/// Xcode's stored frames show it: of two explicit constraints the one listed later holds, and
/// a stack's or a content size's constraint holds against an explicit one, except a hidden
/// arranged view's collapse, which gives way to an explicit size. Runs only when something
/// is broken in the wrong order: the constraints of the conflicts leave the engine and come
/// back newest first, so each one breaks only against newer ones. A constraint that comes
/// back can meet another conflict (the engine names one set a break): its set joins the
/// ones taken out, and the next pass takes them all out again. The outcome is the
/// document's order alone, whatever the history (swapping one victim at a time cycled on
/// three constraints at odds, where the engine retried the broken ones in its own order).
extension LayoutSession {
    /// Passes at most: each one that does not settle the conflicts takes out more constraints
    /// than the one before.
    static let rebreakPasses = 16

    func breakAsUIKitDoes() {
        var involved = Set<AtomRef>()
        for _ in 0..<Self.rebreakPasses where !WorkBudget.exhausted() {
            // Only the conflicts broken the wrong way (and what joined them): the others stay
            // as they are, so a change pays for the conflicts it upset, not for every one.
            let wrong = solver.brokenConstraints.filter { misplaced($0.constraint, $0.conflicts) }
            guard !wrong.isEmpty else { return }
            let before = involved.count
            for (b, conflicts) in wrong {
                for h in [b] + conflicts {
                    if let a = atom(ofHandle: h), document.atoms[Int(a)].priority >= Priority.required { involved.insert(a) }
                }
            }
            // Nothing new to take out: another pass would end where this one starts.
            if involved.count == before && before > 0 { return }
            var out: [(atom: AtomRef, definition: ConstraintDefinition, link: EngineLink)] = []
            var handles: [ConstraintHandle] = []
            for a in involved.sorted(by: { breakRank($0) > breakRank($1) }) {
                guard let link = link(a), let h = link.handle, let definition = solver.definition(h) else { continue }
                handles.append(h)
                links.set(a, .none)
                out.append((a, definition, link))
            }
            // The factored basis takes them out and back in one batch that breaks in UIKit's
            // order: one at a time, each removal retried every broken constraint whose set it
            // was in, and a stack's sets run its length (n² solves; a fillProportionally feed of
            // 80 cells spent 0.9 of its 1 s here).
            if engineKind == .factored {
                var batch = ConstraintBatch(out.map(\.definition))
                batch.breakOrder = breakOrders(out.map(\.atom))
                for (x, h) in zip(out, solver.replace(handles, with: batch)) where h != .unmade {
                    links.set(x.atom, EngineLink(handle: h, mirrored: x.link.mirrored, base: x.link.base))
                }
                continue
            }
            solver.remove(all: handles)
            for x in out where !WorkBudget.exhausted() {
                links.set(x.atom, EngineLink(handle: solver.add(x.definition), mirrored: x.link.mirrored, base: x.link.base))
            }
        }
    }

    /// Whether a broken constraint's conflicting set holds one UIKit breaks first.
    private func misplaced(_ broken: ConstraintHandle, _ conflicts: [ConstraintHandle]) -> Bool {
        guard let b = atom(ofHandle: broken) else { return false }
        let rank = breakRank(b)
        return conflicts.contains { h in
            guard let a = atom(ofHandle: h), a != b else { return false }
            return document.atoms[Int(a)].priority >= Priority.required && breakRank(a) < rank
        }
    }

    /// Each atom's `breakOrder`, for the factored basis's batch (read in place: a copy of
    /// each record was most of its ~2 M instructions in the 1,000-cell feed).
    func breakOrders(_ atoms: [AtomRef]) -> [Int64] {
        document.atoms.withUnsafeBufferPointer { records in atoms.map { breakOrder(records[Int($0)]) } }
    }

    func breakRank(_ a: AtomRef) -> Int64 { breakOrder(document.atoms[Int(a)]) }

    /// The order UIKit breaks in, as one number: a hidden arranged view's collapse first, then
    /// a document's constraints as listed, then what UIKit makes at layout time: content sizes
    /// and frames by view (in the order the views came), then stack arrangements by stack. By
    /// view, not by when each was made: a content size an update gave a view later ranks where
    /// a new session of the document ranks it.
    private func breakOrder(_ x: Atom) -> Int64 {
        switch x.origin {
        case .entry, .member: return 1 << 60 | Int64(x.sequence)
        case .implicit(let v, let kind): return 2 << 60 | Int64(document.views[Int(v)].sequence) << 8 | Int64(kind.rawValue)
        case .stack(let s, let n):
            let collapse = x.second == .noRef && x.constant == 0 && x.firstAttribute.isDimension && document.views[Int(x.first)].spec.hidden
            return collapse ? Int64(x.sequence) : 3 << 60 | Int64(document.views[Int(s)].sequence) << 24 | Int64(n)
        }
    }
}
