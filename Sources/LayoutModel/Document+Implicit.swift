import JSON
import TextLayout
import ConstraintSolver

/// The constraints a view's own fields make: a fixed frame, an intrinsic size (measured, for
/// a label, and wrapped to the width the layout gives it).
extension LayoutDocument {
    /// Keeps the implicit constraints of a view (fixed frame, intrinsic size) in step with
    /// its fields. A new view has none yet: only those it needs are made.
    mutating func syncImplicit(_ r: ViewRef, isNew: Bool = false) {
        let v = views[Int(r)].spec
        if isNew && v.frame == nil && v.intrinsicWidth == nil && v.intrinsicHeight == nil && !v.hasText { return }
        let record = views[Int(r)]
        let frame = v.frame
        let parts: [(ImplicitKind, Attribute, Double?)] = [
            (.frameX, .left, frame?.x), (.frameY, .top, frame?.y),
            (.frameWidth, .width, frame?.width), (.frameHeight, .height, frame?.height)
        ]
        for (kind, attr, value) in parts where !(isNew && value == nil) {
            setImplicit(kind, of: r, value.map { (attr, Relation.equal, $0, Priority.required) })
        }
        let sizes: [(ImplicitKind, Attribute, Double?, Relation, Double)] = [
            (.huggingH, .width, record.intrinsicWidth, .lessOrEqual, v.hugging.h),
            (.huggingV, .height, record.intrinsicHeight, .lessOrEqual, v.hugging.v),
            (.compressionH, .width, record.intrinsicWidth, .greaterOrEqual, v.compression.h),
            (.compressionV, .height, record.intrinsicHeight, .greaterOrEqual, v.compression.v)
        ]
        for (kind, attr, size, relation, priority) in sizes where !(isNew && size == nil) {
            setImplicit(kind, of: r, size.map { (attr, relation, $0, priority) })
        }
    }

    /// Measures a view's text anew (a new view's, or a changed one) on its natural lines; the
    /// session wraps it to the width it gets. Without text, the measurements go.
    mutating func measureText(_ r: ViewRef) {
        let natural = views[Int(r)].spec.text?.measure(width: nil)
        views[Int(r)].natural = natural
        views[Int(r)].measured = natural
        views[Int(r)].wrapWidth = nil
    }

    /// Wraps a text view at `width` (nil: its natural lines) and keeps its intrinsic height
    /// in step. When its line count changes its last baseline moves: the constraints naming
    /// the view are translated again. Returns whether anything changed.
    mutating func wrapText(_ r: ViewRef, at width: Double?) -> Bool {
        guard let t = views[Int(r)].spec.text else { return false }
        let before = views[Int(r)].measured
        views[Int(r)].wrapWidth = width
        let m = width.map { t.measure(width: $0) } ?? views[Int(r)].natural!
        views[Int(r)].measured = m
        guard m != before else { return false }
        syncImplicit(r)
        if m.lines != before?.lines, views[Int(r)].spec.lastBaseline == nil, !views[Int(r)].restyled {
            views[Int(r)].restyled = true
            restyledViews.append(r)
        }
        return true
    }

    private mutating func setImplicit(
        _ kind: ImplicitKind, of v: ViewRef,
        _ wanted: (attribute: Attribute, relation: Relation, constant: Double, priority: Double)?
    ) {
        let old = views[Int(v)].implicit[kind.rawValue]
        if let wanted {
            if old != noRef {
                let x = atoms[Int(old)]
                guard
                    x.firstAttribute != wanted.attribute || x.relation != wanted.relation
                        || x.constant != wanted.constant || x.priority != wanted.priority
                else { return }
                atoms[Int(old)].firstAttribute = wanted.attribute
                atoms[Int(old)].relation = wanted.relation
                atoms[Int(old)].constant = wanted.constant
                atoms[Int(old)].priority = wanted.priority
                markDirty(atom: old)
                return
            }
            let a = newAtom(
                Atom(
                    first: v, firstAttribute: wanted.attribute, relation: wanted.relation, origin: .implicit(v, kind),
                    constant: wanted.constant, priority: wanted.priority))
            views[Int(v)].implicit[kind.rawValue] = a
            markDirty(atom: a)
        } else if old != noRef {
            views[Int(v)].implicit[kind.rawValue] = noRef
            freeAtom(old)
            markDirty(atom: old)
        }
    }
}
