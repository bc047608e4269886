import CheckedNumbers
import TextLayout

/// The system's standard space (IB's `symbolic` constants, VFL's `-`, UIStackView's
/// `spacingUseSystem`): resolved when the constraint or stack is built, from the items it
/// joins. Xcode stores the value it used beside every symbolic constant; its files show 8
/// between siblings and 20 from a view to its superview's own edge.
extension LayoutDocument {
    static let siblingSpace = 8.0
    static let edgeSpace = 20.0

    /// Between `a.aa` and `b.ba`: a view and its ancestor are 20 apart, other views 8; two
    /// baselines are a line apart (the taller text's line height: where a paragraph would put
    /// its next line; Apple states no number, so the fonts decide as UIKit says they do).
    func standardSpace(_ a: ViewRef, _ aa: Attribute, _ b: ViewRef, _ ba: Attribute) -> Double {
        if aa.isBaseline && ba.isBaseline {
            let line = max(lineHeight(of: a), lineHeight(of: b))
            if line > 0 { return line }
        }
        return isAncestor(a, of: b) || isAncestor(b, of: a) ? Self.edgeSpace : Self.siblingSpace
    }

    /// A label's line height; 0 for a view without text.
    private func lineHeight(of v: ViewRef) -> Double {
        guard v != .noRef, views[Int(v)].spec.hasText, let text = views[Int(v)].spec.text else { return 0 }
        return text.measure(width: nil).lineHeight
    }

    func isAncestor(_ a: ViewRef, of v: ViewRef) -> Bool {
        guard a != .noRef else { return false }
        var p = v == .noRef ? .noRef : views[Int(v)].parent
        while p != .noRef {
            if p == a { return true }
            p = views[Int(p)].parent
        }
        return false
    }
}

extension Attribute {
    var isBaseline: Bool { self == .firstBaseline || self == .lastBaseline }
}
