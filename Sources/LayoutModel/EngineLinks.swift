import CheckedNumbers
import ConstraintSolver

/// An atom's constraint in the engine. The engine constant is `base + sign × constant`,
/// so a set-constant needs no re-translation.
struct EngineLink {
    var handle: ConstraintHandle?
    /// An rtl-mirrored constraint: the sign is +1 (else -1).
    var mirrored: Bool
    var base: Double
    var sign: Double { mirrored ? 1 : -1 }
    static let none = EngineLink(handle: nil, mirrored: false, base: 0)
    init(handle: ConstraintHandle?, mirrored: Bool, base: Double) { self.handle = handle; self.mirrored = mirrored; self.base = base }
}

/// The links by `AtomRef`, in 4 bytes an atom: the handle with the mirrored flag in its top
/// bit, and the rare nonzero bases (insets, margins, baselines) beside them. As an array of
/// `EngineLink`s, 16 bytes an atom were 96 bytes a view of a 1,000-cell session.
///
/// The inverse (the atom of each handle, for diagnostics) is made when first asked for,
/// kept up to date from then on, and dropped by `compact`: a build that breaks nothing
/// never makes it (24 bytes a view, 3 M instructions of the 1,000-cell feed's build).
struct EngineLinks {
    private var raw: [UInt32] = []
    private var bases: [AtomRef: Double] = [:]
    private var atomOf: [AtomRef] = []
    private var atomOfMade = false
    /// Atoms with a handle.
    private(set) var linkedCount = 0
    private static let mirroredBit: UInt32 = 1 << 31
    private static let noHandle: UInt32 = ~mirroredBit

    /// Unlinked atoms up to n.
    mutating func grow(to n: Int) {
        if raw.count < n { raw.append(contentsOf: repeatElement(Self.noHandle, count: n - raw.count)) }
    }

    /// The atom's link, when it has a handle (one read of its word: a set-constant's path).
    func link(_ a: AtomRef) -> EngineLink? {
        guard Int(a) < raw.count, case let r = raw[Int(a)], case let h = r & ~Self.mirroredBit, h != Self.noHandle else { return nil }
        return EngineLink(
            handle: ConstraintHandle(raw: Int32(h)), mirrored: r & Self.mirroredBit != 0, base: bases.isEmpty ? 0 : bases[a] ?? 0)
    }

    /// Links atom a (`.none`: unlinks it); `grow` made room for it.
    mutating func set(_ a: AtomRef, _ newValue: EngineLink) {
        let old = handle(a)
        linkedCount += (newValue.handle == nil ? 0 : 1) - (old == nil ? 0 : 1)
        if atomOfMade {
            // Only its own: a handle freed and given again may name another atom by now.
            if let old, atomOf[Int(old.raw)] == a { atomOf[Int(old.raw)] = .noRef }
            if let new = newValue.handle { setAtom(a, of: new) }
        }
        raw[Int(a)] = (newValue.handle.map { UInt32($0.raw) } ?? Self.noHandle) | (newValue.mirrored ? Self.mirroredBit : 0)
        if newValue.base != 0 { bases[a] = newValue.base } else if !bases.isEmpty { bases[a] = nil }
    }

    /// Links each atom to its handle, plain (not mirrored, base 0) but for those `unusual`
    /// lists by index: most are plain (the translation's quick path), and a link made an atom
    /// to be read back was ~20 instructions of each (30,000 atoms in the 1,000-cell feed).
    /// Words written in place: a `set` an atom was ~100 instructions.
    mutating func link(_ atoms: [AtomRef], to handles: [ConstraintHandle], plainBut unusual: [(k: Int, link: EngineLink)]) {
        guard !atomOfMade else {
            var made = [EngineLink](repeating: EngineLink(handle: nil, mirrored: false, base: 0), count: atoms.count)
            for u in unusual { made[u.k] = u.link }
            for k in atoms.indices { set(atoms[k], EngineLink(handle: handles[k], mirrored: made[k].mirrored, base: made[k].base)) }
            return
        }
        var added = 0
        let clearBases = !bases.isEmpty
        raw.withUnsafeMutableBufferPointer { raw in
            for k in atoms.indices {
                let a = atoms[k]
                if raw[Int(a)] & ~Self.mirroredBit == Self.noHandle { added += 1 }
                raw[Int(a)] = UInt32(handles[k].raw)
                if clearBases { bases[a] = nil }
            }
        }
        for u in unusual {
            let a = atoms[u.k]
            if u.link.mirrored { raw[Int(a)] |= Self.mirroredBit }
            if u.link.base != 0 { bases[a] = u.link.base }
        }
        linkedCount += added
    }

    /// The atom's handle, if it is linked.
    func handle(_ a: AtomRef) -> ConstraintHandle? {
        guard Int(a) < raw.count, case let h = raw[Int(a)] & ~Self.mirroredBit, h != Self.noHandle else { return nil }
        return ConstraintHandle(raw: Int32(h))
    }

    /// Every linked atom's handle.
    var handles: [ConstraintHandle] { raw.indices.compactMap { handle(AtomRef($0)) } }

    /// The atom a handle stands for.
    mutating func atom(ofHandle h: ConstraintHandle) -> AtomRef? {
        if !atomOfMade {
            atomOfMade = true
            for a in raw.indices { if let h = handle(AtomRef(a)) { setAtom(AtomRef(a), of: h) } }
        }
        return Int(h.raw) < atomOf.count && atomOf[Int(h.raw)] != .noRef ? atomOf[Int(h.raw)] : nil
    }

    /// Drops the inverse (`atom(ofHandle:)` makes it again).
    mutating func compact() { (atomOf, atomOfMade) = ([], false) }

    private mutating func setAtom(_ a: AtomRef, of h: ConstraintHandle) {
        if Int(h.raw) >= atomOf.count { atomOf.append(contentsOf: repeatElement(.noRef, count: Int(h.raw) + 1 - atomOf.count)) }
        atomOf[Int(h.raw)] = a
    }
}
