/// What Xcode stored of a root: each view's frame, the views it marked misplaced or
/// ambiguous, and from them each view's origin and rect in the root's coordinates and its
/// layout margins as laid out there (what subviews' safe areas, preserved margins and the
/// choice of a conflict's broken constraint come from).
struct StoredGeometry {
    /// Xcode's frame of each view, in its parent's coordinates.
    var frames: [StoredFrame] = []
    /// Views whose stored frame is not their layout (`misplaced` or `ambiguous`).
    var unreconciled: Set<String> = []
    var origins: [String: Point] = [:]
    /// Each view's and guide's stored frame in the root's coordinates (`StoredBreaks`).
    var rects: [String: Frame] = [:]
    var margins: [String: Device.Insets] = [:]

    /// `view.attribute` in the root's coordinates, as stored; nil when it is not known.
    func value(of anchor: String) -> Double? {
        guard let dot = anchor.lastIndex(of: "."), let r = rects[String(anchor[..<dot])] else { return nil }
        let m = margins[String(anchor[..<dot])] ?? Device.Insets(top: 8, left: 8, bottom: 8, right: 8)
        switch anchor[anchor.index(after: dot)...] {
        case "left", "leading": return r.x
        case "right", "trailing": return r.x + r.width
        case "top": return r.y
        case "bottom": return r.y + r.height
        case "width": return r.width
        case "height": return r.height
        case "centerX": return r.x + r.width / 2
        case "centerY": return r.y + r.height / 2
        case "leftMargin", "leadingMargin": return r.x + m.left
        case "rightMargin", "trailingMargin": return r.x + r.width - m.right
        case "topMargin": return r.y + m.top
        case "bottomMargin": return r.y + r.height - m.bottom
        case "centerXWithinMargins": return r.x + m.left + (r.width - m.left - m.right) / 2
        case "centerYWithinMargins": return r.y + m.top + (r.height - m.top - m.bottom) / 2
        default: return nil
        }
    }
}
