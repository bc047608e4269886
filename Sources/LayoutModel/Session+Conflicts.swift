import CheckedNumbers
import ConstraintSolver
import WorkBudget

/// Which required constraint a conflict breaks, as UIKit and Xcode choose it. The engines
/// break the newest constraint of a conflicting set; UIKit keeps the newest and breaks an
/// older one, and its order is the nib's: a document's constraints as listed, then what
/// UIKit makes at layout time (content sizes, stack arrangements, autoresizing frames).
/// Xcode's stored frames show it: of two explicit constraints the one listed later holds, and
/// a stack's or a content size's constraint holds against an explicit one, except a hidden
/// arranged view's collapse, which gives way to an explicit size, and a stack's constraint
/// between the same two anchors as an explicit one (`StackShadow`). Runs only when something
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
            let shadows = StackShadow(explicitIn: involved, of: document)
            for a in involved.sorted(by: { breakRank($0, shadows) > breakRank($1, shadows) }) {
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
                batch.breakOrder = breakOrders(out.map(\.atom), shadows)
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
        let others = conflicts.compactMap { atom(ofHandle: $0) }
        let shadows = StackShadow(explicitIn: others + [b], of: document)
        let rank = breakRank(b, shadows)
        return others.contains { a in
            a != b && document.atoms[Int(a)].priority >= Priority.required && breakRank(a, shadows) < rank
        }
    }

    /// Each atom's `breakOrder`, for the factored basis's batch (read in place: a copy of
    /// each record was most of its ~2 M instructions in the 1,000-cell feed).
    func breakOrders(_ atoms: [AtomRef], _ shadows: StackShadow? = nil) -> [Int64] {
        let shadows = shadows ?? StackShadow(explicitIn: atoms, of: document)
        return document.atoms.withUnsafeBufferPointer { records in atoms.map { breakOrder(records[Int($0)], shadows) } }
    }

    /// `a`'s place in the order, beside the explicit constraints of `shadows` (those of its
    /// conflicting set).
    func breakRank(_ a: AtomRef, _ shadows: StackShadow) -> Int64 { breakOrder(document.atoms[Int(a)], shadows) }

    /// The order UIKit breaks in, as one number: a hidden arranged view's collapse and a
    /// stack's constraint an explicit one shadows first, then a document's constraints as
    /// listed, then what UIKit makes at layout time: content sizes and frames by view (in the
    /// order the views came), then stack arrangements by stack. By view, not by when each was
    /// made: a content size an update gave a view later ranks where a new session of the
    /// document ranks it.
    private func breakOrder(_ x: Atom, _ shadows: StackShadow) -> Int64 {
        switch x.origin {
        case .entry, .member: return 1 << 60 | Int64(x.sequence)
        case .implicit(let v, let kind): return 2 << 60 | Int64(document.views[Int(v)].sequence) << 8 | Int64(kind.rawValue)
        case .stack(let s, let n):
            let collapse = x.second == .noRef && x.constant == 0 && x.firstAttribute.isDimension && document.views[Int(x.first)].spec.hidden
            // (In this order: most sets are empty, most stack constraints relate no pair of them.)
            let shadowed =
                !collapse && !shadows.isEmpty && shadows.contains(x) && !document.views[Int(x.first)].spec.hidden
                && !laterViewsTie(x, of: s)
            return collapse || shadowed ? Int64(x.sequence) : 3 << 60 | Int64(document.views[Int(s)].sequence) << 24 | Int64(n)
        }
    }
}

extension LayoutSession {
    /// Whether x ties an arranged view other than the first to the stack across: not a
    /// constraint of UIKit's (which ties it to the first view), so nothing shadows it.
    fileprivate func laterViewsTie(_ x: Atom, of s: ViewRef) -> Bool {
        guard x.second == s, let stack = document.views[Int(s)].spec.stack else { return false }
        guard x.firstAttribute.axis != stack.axis else { return false }
        return stack.arranged.first.flatMap(document.viewRef) != x.first
    }
}

/// A stack's constraint that an explicit required one relates the same two anchors as (an
/// arranged view's edge pinned to its stack's edge, or to the first arranged view's, at another
/// constant) breaks before it: Xcode's canvas keeps the document's. UIKit ties the first arranged
/// view to the stack across (`UISV-canvas-connection`) and the others to the first
/// (`UISV-alignment`), as `Document+Stacks` does, so the others follow the first wherever the
/// document puts it. IBCorpus development half: FarukAs/NaNoChat (an arranged view pinned 17 below
/// its top-aligned stack's top: all three arranged views stored 17 down, 4 views) and
/// OstaninAndrey/ChattyChat (a label pinned 10 in from its fill-aligned stack's sides: stored
/// there; that cell still disagrees by another of its conflicts); none the other way. Each
/// half gains 4 views of its conflicting roots, the development half a root and a document
/// (BENCHMARKS §15).
struct StackShadow {
    /// Two anchors an equal constraint relates (the set holds both ways round).
    private struct Pair: Hashable {
        var a: ViewRef, aa: Attribute, b: ViewRef, ba: Attribute
        init?(_ x: Atom) {
            // (A view's own aspect is never a stack's.)
            guard x.second != .noRef, x.second != x.first, x.relation == .equal, x.multiplier == 1 else { return nil }
            (a, aa, b, ba) = (x.first, x.firstAttribute, x.second, x.secondAttribute)
        }
        var swapped: Pair {
            var p = self
            (p.a, p.aa, p.b, p.ba) = (b, ba, a, aa)
            return p
        }
        /// By the two views only: an attribute (a `String` raw value) hashed its string, 46% of
        /// a 400-cell document's layout with a conflict a hidden view, each set a pass.
        func hash(into h: inout Hasher) {
            h.combine(a.raw)
            h.combine(b.raw)
        }
    }
    private var explicit: Set<Pair> = []
    /// A bit for each view the pairs name, by slot modulo 64: most stack constraints relate no
    /// view of them, told without hashing (a hash each cost a stack feed's layout 3%).
    private var named: UInt64 = 0

    /// The anchor pairs of the required explicit constraints among `atoms`; none in a document
    /// without stacks (nothing to shadow: no pass over its atoms).
    init(explicitIn atoms: some Sequence<AtomRef>, of document: LayoutDocument) {
        guard !document.stacks.isEmpty else { return }
        document.atoms.withUnsafeBufferPointer { records in
            for a in atoms {
                let x = records[Int(a)]
                guard x.priority >= Priority.required, let pair = Pair(x) else { continue }
                switch x.origin {
                case .entry, .member:
                    explicit.insert(pair)
                    explicit.insert(pair.swapped)
                    named |= Self.bit(x.first) | Self.bit(x.second)
                case .implicit, .stack: continue
                }
            }
        }
    }

    var isEmpty: Bool { explicit.isEmpty }

    /// Whether x relates the same anchors as an explicit one (breakOrder asks it of a stack's
    /// constraint on a view not hidden: a hidden view's place is the stack's).
    func contains(_ x: Atom) -> Bool {
        guard named & Self.bit(x.first) != 0, x.second != .noRef, named & Self.bit(x.second) != 0, let pair = Pair(x) else { return false }
        return explicit.contains(pair)
    }

    private static func bit(_ v: ViewRef) -> UInt64 { 1 << UInt64(UInt32(bitPattern: v.raw) & 63) }
}
