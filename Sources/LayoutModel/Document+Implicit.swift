import CheckedNumbers
import ConstraintSolver
import JSON
import TextLayout

/// The constraints a view's own fields make: a fixed frame, an intrinsic size (measured, for
/// a label, and wrapped to the width the layout gives it).
extension LayoutDocument {
    /// Keeps the implicit constraints of a view (fixed frame, intrinsic size) in step with
    /// its fields. A new view has none yet: only those it needs are made. Each part is set
    /// in turn, read in place: two arrays of the parts and copies of the record and its spec
    /// were ~1,400 instructions a view (5,000 views in the 1,000-cell feed).
    mutating func syncImplicit(_ r: ViewRef, isNew: Bool = false) {
        let frame = views[Int(r)].spec.frame
        if isNew && frame == nil && views[Int(r)].spec.intrinsicWidth == nil && views[Int(r)].spec.intrinsicHeight == nil
            && !views[Int(r)].spec.hasText
        {
            return
        }
        if !(isNew && frame == nil) {
            setImplicit(.frameX, of: r, frame.map { (.left, .equal, $0.x, Priority.required) })
            setImplicit(.frameY, of: r, frame.map { (.top, .equal, $0.y, Priority.required) })
            setImplicit(.frameWidth, of: r, frame.map { (.width, .equal, $0.width, Priority.required) })
            setImplicit(.frameHeight, of: r, frame.map { (.height, .equal, $0.height, Priority.required) })
        }
        let width = views[Int(r)].intrinsicWidth, height = views[Int(r)].intrinsicHeight
        let hugging = views[Int(r)].spec.hugging, compression = views[Int(r)].spec.compression
        // In this order (the atoms' order is the engine's).
        let (newWidth, newHeight) = (isNew && width == nil, isNew && height == nil)
        if !newWidth { setImplicit(.huggingH, of: r, width.map { (.width, .lessOrEqual, $0, hugging.h) }) }
        if !newHeight { setImplicit(.huggingV, of: r, height.map { (.height, .lessOrEqual, $0, hugging.v) }) }
        if !newWidth { setImplicit(.compressionH, of: r, width.map { (.width, .greaterOrEqual, $0, compression.h) }) }
        if !newHeight { setImplicit(.compressionV, of: r, height.map { (.height, .greaterOrEqual, $0, compression.v) }) }
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
        // A vertical stack that fills keeps its views at their heights, this one's now wrapped
        // (a build arranges it before any label wraps; arranged later, it would differ).
        let p = views[Int(r)].parent
        if m.height != before?.height, p != .noRef, let stack = views[Int(p)].spec.stack, stack.axis == .vertical {
            if stack.distribution == .fill { retie(r, in: p) }
            if stack.distribution == .fillProportionally { markStackDirty(p) }  // every share follows the total
        }
        if m.lines != before?.lines, views[Int(r)].spec.lastBaseline == nil, !views[Int(r)].restyled {
            views[Int(r)].restyled = true
            changes.restyledViews.append(r)
        }
        return true
    }

    private mutating func setImplicit(
        _ kind: ImplicitKind, of v: ViewRef,
        _ wanted: (attribute: Attribute, relation: Relation, constant: Double, priority: Double)?
    ) {
        let old = views[Int(v)].implicit[kind.rawValue]
        if let wanted {
            if old != .noRef {
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
        } else if old != .noRef {
            views[Int(v)].implicit[kind.rawValue] = .noRef
            freeAtom(old)
            markDirty(atom: old)
        }
    }
}
