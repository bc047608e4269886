import ConstraintSolver

/// The four engine variables of a view: its frame in its parent's coordinates.
public struct ViewVariables: Sendable {
    public var x, y, width, height: Variable
    func component(_ k: Int) -> Variable {
        switch k { case 0: x; case 1: y; case 2: width; default: height }
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
        var terms: [(Variable, Double)] = []
        var constant = 0.0
        mutating func add(_ v: Variable, _ c: Double) {
            if let i = terms.firstIndex(where: { $0.0 == v }) { terms[i].1 += c } else { terms.append((v, c)) }
        }
        mutating func add(_ o: Linear, times k: Double) {
            for (v, c) in o.terms { add(v, c * k) }
            constant += o.constant * k
        }
    }

    func translate(_ rec: AtomRecord) -> Output {
        let a = rec.atom
        if let k = rec.frameComponent {
            let v = variables[a.first.view]!.component(k)
            return Output(definition: ConstraintDefinition(LinearExpression([(v, 1)], constant: -a.constant), .equal, priority: a.priority), base: 0, sign: -1)
        }
        let direction = document.options.layoutDirection
        let mirrored = direction == .rtl && (a.first.attribute.isDirectional || a.second?.attribute.isDirectional == true)
        let space: String?? = a.second.map { commonAncestor(a.first.view, $0.view) }
        var e = Linear()
        e.add(expression(a.first.view, a.first.attribute.resolved(direction), in: space ?? .none), times: 1)
        if let s = a.second {
            e.add(expression(s.view, s.attribute.resolved(direction), in: space ?? .none), times: -a.multiplier)
        }
        var relation: ConstraintSolver.Relation
        switch a.relation {
        case .equal: relation = .equal
        case .lessOrEqual: relation = mirrored ? .greaterOrEqual : .lessOrEqual
        case .greaterOrEqual: relation = mirrored ? .lessOrEqual : .greaterOrEqual
        }
        // first = m·second + c, mirrored for rtl: -first = m·(-second) + c.
        let sign: Double = mirrored ? 1 : -1
        let base = e.constant
        let def = ConstraintDefinition(LinearExpression(e.terms.filter { $0.1 != 0 }, constant: base + sign * a.constant), relation, priority: a.priority)
        return Output(definition: def, base: base, sign: sign)
    }

    /// The nearest common ancestor (a view counts as its own ancestor); nil when the
    /// views are in different trees, which then share the global space.
    func commonAncestor(_ a: String, _ b: String) -> String? {
        var mine: Set<String> = []
        var u: String? = a
        while let cur = u { mine.insert(cur); u = document.views[cur]?.parent }
        u = b
        while let cur = u { if mine.contains(cur) { return cur }; u = document.views[cur]?.parent }
        return nil
    }

    /// An attribute of `view` in the coordinate space of `space` (nil: global).
    private func expression(_ view: String, _ attr: Attribute, in space: String?) -> Linear {
        let spec = document.views[view]!
        let vars = variables[view]!
        let ins = spec.alignmentInsets, m = spec.margins
        var e = Linear()
        let horizontal = attr.axis == .horizontal
        if !attr.isDimension && view != space {
            var u: String? = view
            while let cur = u, cur != space {
                e.add(horizontal ? variables[cur]!.x : variables[cur]!.y, 1)
                u = document.views[cur]?.parent
            }
        }
        // The alignment rect along the attribute's axis: its size, and the insets and
        // margins at its low (left/top) and high (right/bottom) ends.
        let size = horizontal ? vars.width : vars.height
        let (lo, hi) = horizontal ? (ins.left, ins.right) : (ins.top, ins.bottom)
        let (marginLo, marginHi) = horizontal ? (m.left, m.right) : (m.top, m.bottom)
        switch attr {
        case .left, .top: e.constant += lo
        case .right, .bottom: e.add(size, 1); e.constant -= hi
        case .centerX, .centerY: e.add(size, 0.5); e.constant += (lo - hi) / 2
        case .leftMargin, .topMargin: e.constant += lo + marginLo
        case .rightMargin, .bottomMargin: e.add(size, 1); e.constant -= hi + marginHi
        case .centerXWithinMargins, .centerYWithinMargins: e.add(size, 0.5); e.constant += ((lo + marginLo) - (hi + marginHi)) / 2
        case .width, .height: e.add(size, 1); e.constant -= lo + hi
        case .firstBaseline, .lastBaseline:
            // Offsets from the alignment rect's top; without one, its bottom.
            if let b = attr == .firstBaseline ? spec.firstBaseline : spec.lastBaseline {
                e.constant += lo + b
            } else {
                e.add(size, 1); e.constant -= hi
            }
        case .leading, .trailing, .leadingMargin, .trailingMargin:
            preconditionFailure("directional attributes are resolved before translation")
        }
        return e
    }
}
