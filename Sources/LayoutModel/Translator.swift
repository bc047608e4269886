public import ConstraintSolver

/// The four engine variables of a view: its frame in its parent's coordinates.
public struct ViewVariables: Sendable {
    public var x, y, width, height: Variable
    func component(_ k: Int) -> Variable {
        switch k {
        case 0: x;
        case 1: y;
        case 2: width;
        default: height
        }
    }
}

/// Turns a layout constraint into an engine row. Attributes act on the alignment rect;
/// a constraint between two views is written in their nearest common ancestor's
/// coordinate space (the parent's bounds, origin 0, for a view and its parent), where a
/// view's origin is the sum of the frame origins between it and that ancestor.
struct Translator {
    let document: LayoutDocument
    let variables: ViewTable

    struct Output {
        var definition: ConstraintDefinition
        /// The engine constant is `base + sign × constant`: set-constant needs no re-translation.
        var base: Double
        var sign: Double
    }

    private struct Linear {
        var terms: [(variable: Variable, coefficient: Double)] = []
        var constant = 0.0
        mutating func add(_ v: Variable, _ c: Double) {
            if let i = terms.firstIndex(where: { $0.variable == v }) { terms[i].coefficient += c } else { terms.append((v, c)) }
        }
    }

    func translate(_ a: AtomRef) -> Output {
        let x = document.atoms[Int(a)]
        if case .implicit(_, let kind) = x.origin, let k = kind.frameComponent {
            let v = variables[x.first]!.component(k)
            return Output(
                definition: ConstraintDefinition(LinearExpression(terms: [(v, 1)], constant: -x.constant), .equal, priority: x.priority),
                base: 0, sign: -1)
        }
        let direction = document.options.layoutDirection
        let mirrored = direction == .rtl && (x.firstAttribute.isDirectional || (x.hasSecond && x.secondAttribute.isDirectional))
        let space = x.hasSecond ? commonAncestor(x.first, x.second) : noRef
        var e = Linear()
        e.terms.reserveCapacity(4)
        add(x.first, x.firstAttribute.resolved(direction), in: space, times: 1, to: &e)
        if x.hasSecond { add(x.second, x.secondAttribute.resolved(direction), in: space, times: -x.multiplier, to: &e) }
        var relation: Relation
        switch x.relation {
        case .equal: relation = .equal
        case .lessOrEqual: relation = mirrored ? .greaterOrEqual : .lessOrEqual
        case .greaterOrEqual: relation = mirrored ? .lessOrEqual : .greaterOrEqual
        }
        // first = m·second + c, mirrored for rtl: -first = m·(-second) + c.
        let sign: Double = mirrored ? 1 : -1
        let base = e.constant
        if e.terms.contains(where: { $0.coefficient == 0 }) { e.terms.removeAll { $0.coefficient == 0 } }
        let def = ConstraintDefinition(LinearExpression(terms: e.terms, constant: base + sign * x.constant), relation, priority: x.priority)
        return Output(definition: def, base: base, sign: sign)
    }

    private func parent(_ v: ViewRef) -> ViewRef { document.views[Int(v)].parent }

    private func depth(_ v: ViewRef) -> Int {
        var d = 0, u = v
        while u != noRef { d += 1; u = parent(u) }
        return d
    }

    /// The nearest common ancestor (a view counts as its own ancestor); `noRef` when the
    /// views are in different trees, which then share the global space.
    func commonAncestor(_ a: ViewRef, _ b: ViewRef) -> ViewRef {
        var (u, w) = (a, b)
        var (du, dw) = (depth(a), depth(b))
        while du > dw { u = parent(u); du -= 1 }
        while dw > du { w = parent(w); dw -= 1 }
        while u != w { u = parent(u); w = parent(w) }
        return u
    }

    /// Adds `k ×` an attribute of `view` in the coordinate space of `space` (`noRef`: global) to `out`.
    private func add(_ view: ViewRef, _ attr: Attribute, in space: ViewRef, times k: Double, to out: inout Linear) {
        let vars = variables[view]!
        // Read in place, not through a copy of the whole spec.
        let ins = document.views[Int(view)].spec.alignmentInsets, m = document.views[Int(view)].spec.margins
        let horizontal = attr.axis == .horizontal
        if !attr.isDimension && view != space {
            var u = view
            while u != noRef && u != space {
                out.add(horizontal ? variables[u]!.x : variables[u]!.y, k)
                u = parent(u)
            }
        }
        // The alignment rect along the attribute's axis: its size, and the insets and
        // margins at its low (left/top) and high (right/bottom) ends.
        let size = horizontal ? vars.width : vars.height
        let (lo, hi) = horizontal ? (ins.left, ins.right) : (ins.top, ins.bottom)
        let (marginLo, marginHi) = horizontal ? (m.left, m.right) : (m.top, m.bottom)
        switch attr {
        case .left, .top: out.constant += lo * k
        case .right, .bottom: out.add(size, k); out.constant -= hi * k
        case .centerX, .centerY: out.add(size, 0.5 * k); out.constant += ((lo - hi) / 2) * k
        case .leftMargin, .topMargin: out.constant += (lo + marginLo) * k
        case .rightMargin, .bottomMargin: out.add(size, k); out.constant -= (hi + marginHi) * k
        case .centerXWithinMargins, .centerYWithinMargins: out.add(size, 0.5 * k); out.constant += (((lo + marginLo) - (hi + marginHi)) / 2) * k
        case .width, .height: out.add(size, k); out.constant -= (lo + hi) * k
        case .firstBaseline, .lastBaseline:
            // Offsets from the alignment rect's top; without one, its bottom.
            let record = document.views[Int(view)]
            if let b = attr == .firstBaseline ? record.firstBaseline : record.lastBaseline {
                out.constant += (lo + b) * k
            } else {
                out.add(size, k); out.constant -= hi * k
            }
        case .leading, .trailing, .leadingMargin, .trailingMargin:
            preconditionFailure("directional attributes are resolved before translation")
        }
    }
}
