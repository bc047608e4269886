import CheckedNumbers
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
    /// Leading and trailing are left and right.
    private let leftToRight: Bool

    init(document: LayoutDocument, variables: ViewTable) {
        (self.document, self.variables) = (document, variables)
        leftToRight = document.options.layoutDirection == .ltr
    }

    struct Output {
        var definition: ConstraintDefinition
        /// The engine constant is `base + sign × constant`: set-constant needs no re-translation.
        var base: Double
        var sign: Double
    }

    /// The terms of a definition made on its own (a change to a built engine); a whole
    /// document's go straight into its batch.
    private struct Linear: TermSink {
        var terms: [(variable: Variable, coefficient: Double)] = []
        mutating func add(_ v: Variable, _ c: Double) {
            if let i = terms.firstIndex(where: { $0.variable == v }) { terms[i].coefficient += c } else { terms.append((v, c)) }
        }
    }

    /// What a row is besides its terms.
    private struct Row {
        var constant: Double
        var relation: Relation
        var priority: Double
        var base, sign: Double
    }

    func translate(_ a: AtomRef) -> Output {
        var e = Linear()
        e.terms.reserveCapacity(4)
        let row = write(a, to: &e)
        if e.terms.contains(where: { $0.coefficient == 0 }) { e.terms.removeAll { $0.coefficient == 0 } }
        let def = ConstraintDefinition(LinearExpression(terms: e.terms, constant: row.constant), row.relation, priority: row.priority)
        return Output(definition: def, base: row.base, sign: row.sign)
    }

    /// Atom a as the batch's next constraint; its base and sign (see `Output`).
    func translate(_ a: AtomRef, into batch: inout ConstraintBatch) -> (base: Double, sign: Double) {
        if writeQuickly(a, into: &batch) { return (0, -1) }
        let row = write(a, to: &batch)
        batch.close(constant: row.constant, relation: row.relation, priority: row.priority)
        return (row.base, row.sign)
    }

    /// The usual atom written straight into the batch: edges, centers and sizes (leading and
    /// trailing read left to right) of views that set no insets nor margins, two different
    /// views (or one) and a multiplier whose terms are not 0. Then no two terms share a
    /// variable (the views' paths up to their common ancestor are apart) and none is 0:
    /// nothing to merge or drop, no constant from insets (base 0) and nothing mirrored (sign
    /// -1). False, nothing written, for any other atom. (The general path, a sink's merging
    /// `add` a term and a call a side, was ~490 instructions an atom: 30,000 in the 1,000-cell
    /// feed.)
    @inline(__always) private func writeQuickly(_ a: AtomRef, into batch: inout ConstraintBatch) -> Bool {
        let x = document.atoms[Int(a)]
        if case .implicit(_, let kind) = x.origin, kind.frameComponent != nil { return false }
        guard x.first != x.second, let f = quickAttribute(x.firstAttribute), document.views[Int(x.first)].spec.rareDefaults else {
            return false
        }
        var s = Attribute.left
        if x.hasSecond {
            guard 0.5 * x.multiplier != 0, let q = quickAttribute(x.secondAttribute), document.views[Int(x.second)].spec.rareDefaults else {
                return false
            }
            s = q
        }
        let space = x.hasSecond ? commonAncestor(x.first, x.second) : .noRef
        quickSide(x.first, f, in: space, times: 1, into: &batch)
        if x.hasSecond { quickSide(x.second, s, in: space, times: -x.multiplier, into: &batch) }
        batch.end(constant: -x.constant, relation: x.relation, priority: x.priority)
        return true
    }

    /// An attribute the quick path takes, resolved.
    @inline(__always) private func quickAttribute(_ a: Attribute) -> Attribute? {
        switch a {
        case .leading: leftToRight ? .left : nil
        case .trailing: leftToRight ? .right : nil
        default: Self.sizeShare(a) == nil ? nil : a
        }
    }

    /// `add` for a view with no insets nor margins, its terms appended unmerged.
    @inline(__always) private func quickSide(
        _ view: ViewRef, _ attr: Attribute, in space: ViewRef, times k: Double, into batch: inout ConstraintBatch
    ) {
        let horizontal = attr.axis == .horizontal
        if !attr.isDimension { addOrigins(view, upTo: space, horizontal: horizontal, times: k) { batch.append($0, $1) } }
        let share = Self.sizeShare(attr)!  // `quickAttribute` took only these
        if share != 0 { batch.append(horizontal ? variables[view]!.width : variables[view]!.height, share * k) }
    }

    /// `k ×` the origins of the views from `view` up to `space` (not included) along an axis,
    /// each to `put`: what places a location of `view` in `space`'s coordinates.
    @inline(__always) private func addOrigins(
        _ view: ViewRef, upTo space: ViewRef, horizontal: Bool, times k: Double, _ put: (Variable, Double) -> Void
    ) {
        var u = view
        while u != .noRef && u != space {
            put(horizontal ? variables[u]!.x : variables[u]!.y, k)
            u = parent(u)
        }
    }

    /// The share of its size an edge, center or size counts on a view with no insets (0 for
    /// left and top: the origin alone); nil for any other attribute.
    @inline(__always) private static func sizeShare(_ attr: Attribute) -> Double? {
        switch attr {
        case .left, .top: 0
        case .right, .bottom, .width, .height: 1
        case .centerX, .centerY: 0.5
        default: nil
        }
    }

    /// Atom a's terms into `out`, and the rest of its row.
    private func write(_ a: AtomRef, to out: inout some TermSink) -> Row {
        let x = document.atoms[Int(a)]
        if case .implicit(_, let kind) = x.origin, let k = kind.frameComponent {
            out.add(variables[x.first]!.component(k), 1)
            return Row(constant: -x.constant, relation: .equal, priority: x.priority, base: 0, sign: -1)
        }
        let direction = document.options.layoutDirection
        let mirrored = direction == .rtl && (x.firstAttribute.isDirectional || (x.hasSecond && x.secondAttribute.isDirectional))
        let space = x.hasSecond ? commonAncestor(x.first, x.second) : .noRef
        var base = 0.0
        add(x.first, x.firstAttribute.resolved(direction), in: space, times: 1, to: &out, constant: &base)
        if x.hasSecond { add(x.second, x.secondAttribute.resolved(direction), in: space, times: -x.multiplier, to: &out, constant: &base) }
        var relation: Relation
        switch x.relation {
        case .equal: relation = .equal
        case .lessOrEqual: relation = mirrored ? .greaterOrEqual : .lessOrEqual
        case .greaterOrEqual: relation = mirrored ? .lessOrEqual : .greaterOrEqual
        }
        // first = m·second + c, mirrored for rtl: -first = m·(-second) + c.
        let sign: Double = mirrored ? 1 : -1
        return Row(constant: base + sign * x.constant, relation: relation, priority: x.priority, base: base, sign: sign)
    }

    private func parent(_ v: ViewRef) -> ViewRef { document.views[Int(v)].parent }

    private func depth(_ v: ViewRef) -> Int {
        var d = 0, u = v
        while u != .noRef { d += 1; u = parent(u) }
        return d
    }

    /// The nearest common ancestor (a view counts as its own ancestor); `noRef` when the
    /// views are in different trees, which then share the global space.
    func commonAncestor(_ a: ViewRef, _ b: ViewRef) -> ViewRef {
        // Most constraints tie a view to itself, a sibling or its parent: no walk to the root
        // for their depths (~100 instructions an atom).
        let (pa, pb) = (parent(a), parent(b))
        if a == b || a == pb { return a }
        if b == pa { return b }
        if pa == pb { return pa }
        var (u, w) = (a, b)
        var (du, dw) = (depth(a), depth(b))
        while du > dw { u = parent(u); du -= 1 }
        while dw > du { w = parent(w); dw -= 1 }
        while u != w { u = parent(u); w = parent(w) }
        return u
    }

    /// Adds `k ×` an attribute of `view` in the coordinate space of `space` (`noRef`: global)
    /// to `out`, its constant part to `constant`.
    private func add(
        _ view: ViewRef, _ attr: Attribute, in space: ViewRef, times k: Double, to out: inout some TermSink, constant: inout Double
    ) {
        let vars = variables[view]!
        let horizontal = attr.axis == .horizontal
        if !attr.isDimension { addOrigins(view, upTo: space, horizontal: horizontal, times: k) { out.add($0, $1) } }
        let size = horizontal ? vars.width : vars.height
        // Most views keep every inset and margin at its default: their attributes
        // need no spec read (the insets and margins loaded every time were ~20 instructions).
        if document.views[Int(view)].spec.rareDefaults, let share = Self.sizeShare(attr) {
            if share != 0 { out.add(size, share * k) }
            return
        }
        addAligned(view, attr, size: size, horizontal: horizontal, times: k, to: &out, constant: &constant)
    }

    /// The size term and constant of an attribute on the alignment rect along its axis: its
    /// size, and the insets and margins at its low (left/top) and high (right/bottom) ends.
    private func addAligned(
        _ view: ViewRef, _ attr: Attribute, size: Variable, horizontal: Bool, times k: Double, to out: inout some TermSink,
        constant: inout Double
    ) {
        let ins = document.views[Int(view)].spec.alignmentInsets, m = document.views[Int(view)].spec.margins
        let (lo, hi) = horizontal ? (ins.left, ins.right) : (ins.top, ins.bottom)
        let (marginLo, marginHi) = horizontal ? (m.left, m.right) : (m.top, m.bottom)
        switch attr {
        case .left, .top: constant += lo * k
        case .right, .bottom: out.add(size, k); constant -= hi * k
        case .centerX, .centerY: out.add(size, 0.5 * k); constant += ((lo - hi) / 2) * k
        case .leftMargin, .topMargin: constant += (lo + marginLo) * k
        case .rightMargin, .bottomMargin: out.add(size, k); constant -= (hi + marginHi) * k
        case .centerXWithinMargins, .centerYWithinMargins: out.add(size, 0.5 * k); constant += (((lo + marginLo) - (hi + marginHi)) / 2) * k
        case .width, .height: out.add(size, k); constant -= (lo + hi) * k
        case .firstBaseline, .lastBaseline:
            // Offsets from the alignment rect's top. Without one, as UIKit documents it
            // (`forFirstBaselineLayout`, `forBaselineLayout`): the first baseline is the top
            // edge, the last the bottom edge.
            let record = document.views[Int(view)]
            if let b = attr == .firstBaseline ? record.firstBaseline : record.lastBaseline {
                constant += (lo + b) * k
            } else if attr == .firstBaseline {
                constant += lo * k
            } else {
                out.add(size, k); constant -= hi * k
            }
        case .leading, .trailing, .leadingMargin, .trailingMargin:
            preconditionFailure("directional attributes are resolved before translation")
        }
    }
}

/// Where a row's terms are written.
protocol TermSink {
    mutating func add(_ v: Variable, _ c: Double)
}

extension ConstraintBatch: TermSink {}
