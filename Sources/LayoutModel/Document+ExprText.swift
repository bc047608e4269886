import CheckedNumbers
import ConstraintSolver
import Glibc

/// An `expr` entry's text is kept only when it differs from its constraint written the
/// usual way (`a.top == b.bottom + 12 @750`, integers only): most texts are, and the pool
/// held them at 87 bytes a view of a 1,000-cell session. One written otherwise (spaces,
/// `12.0`, `b.bottom * 2`) is kept as sent; either way the document gives back what was sent.
extension LayoutDocument {
    /// Text `expr` for atom a: `.rendered` if the atom renders to it, else its place in the pool.
    mutating func keep(expr: String, of a: AtomRef) -> StringPool.Ref {
        var expr = expr
        return expr.withUTF8 { keep(expr: $0, of: a) }
    }

    mutating func keep(expr sent: UnsafeBufferPointer<UInt8>, of a: AtomRef) -> StringPool.Ref {
        // The scratch is taken out while rendering: rendering into a field of self would
        // copy the document each time (1.8 M instructions of the 1,000-cell feed's load).
        var scratch = exprScratch
        exprScratch = []
        scratch.removeAll(keepingCapacity: true)
        let same =
            render(a, into: &scratch)
            && scratch.withUnsafeBufferPointer {
                $0.count == sent.count && (sent.isEmpty || memcmp($0.baseAddress!, sent.baseAddress!, sent.count) == 0)
            }
        exprScratch = scratch
        return same ? .rendered : texts.add(sent)
    }

    /// An `expr` entry's text, as sent.
    func exprText(_ e: EntryRef) -> String {
        let entry = entries[Int(e)]
        guard entry.text == .rendered else { return texts[entry.text] }
        var out: [UInt8] = []
        _ = render(entry.atom, into: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// Whether atom a writes the usual way (its numbers integers).
    func rendersUsually(_ a: AtomRef) -> Bool {
        var out: [UInt8] = []
        return render(a, into: &out)
    }

    /// Attributes' names as bytes, by case (appending a `rawValue`'s UTF-8 view was 2.8 M
    /// instructions of the 1,000-cell feed's load).
    private static let attributeNames = Attribute.allCases.map { Array($0.rawValue.utf8) }

    /// Atom a the usual way; false (and `out` partly written) if a number is not an integer.
    private func render(_ a: AtomRef, into out: inout [UInt8]) -> Bool {
        let x = atoms[Int(a)]
        func name(_ v: ViewRef, _ attribute: Attribute) {
            var id = viewName(v)
            id.withUTF8 { out.append(contentsOf: $0) }
            out.append(UInt8(ascii: "."))
            out.append(contentsOf: Self.attributeNames[Int(unsafeBitCast(attribute, to: UInt8.self))])
        }
        func integer(_ d: Double) -> Bool {
            guard d == d.rounded(), abs(d) < 1e15, d != 0 || d.sign == .plus, var n = Int64(checked: abs(d)) else { return false }
            if d < 0 { out.append(UInt8(ascii: "-")) }
            let start = out.count
            repeat {
                out.append(UInt8(ascii: "0") + UInt8(n % 10))
                n /= 10
            } while n > 0
            out[start...].reverse()
            return true
        }
        name(x.first, x.firstAttribute)
        out.append(UInt8(ascii: " "))
        out.append(contentsOf: x.relation.rawValue.utf8)
        out.append(UInt8(ascii: " "))
        if x.hasSecond {
            guard x.multiplier == 1 else { return false }
            name(x.second, x.secondAttribute)
            if x.constant != 0 {
                out.append(contentsOf: x.constant < 0 ? " - ".utf8 : " + ".utf8)
                guard integer(abs(x.constant)) else { return false }
            }
        } else if !integer(x.constant) {
            return false
        }
        if x.priority < Priority.required {
            out.append(contentsOf: " @".utf8)
            guard integer(x.priority) else { return false }
        }
        return true
    }
}
