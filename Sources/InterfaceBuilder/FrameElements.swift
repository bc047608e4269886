/// Stored frame of a view element: `<rect key="frame" x y width height/>`, or Xcode 8's
/// `<frame key="frameInset">`: insets from the parent's edges (`minX`, `maxY`…) with the size
/// when it is fixed.
func storedFrame(_ e: XMLElement, in parent: Size? = nil) -> Frame? {
    if let r = e.child("rect", key: "frame") {
        func n(_ k: String) -> Double { r.number(k) ?? 0 }
        return Frame(x: n("x"), y: n("y"), width: n("width"), height: n("height"))
    }
    guard let f = e.child("frame", key: "frameInset") else { return nil }
    func n(_ k: String) -> Double? { f.number(k) }
    let p = parent ?? Size(width: n("width") ?? 0, height: n("height") ?? 0)
    let width = n("width") ?? max(0, p.width - (n("minX") ?? 0) - (n("maxX") ?? 0))
    let height = n("height") ?? max(0, p.height - (n("minY") ?? 0) - (n("maxY") ?? 0))
    let x = n("minX") ?? n("maxX").map { p.width - $0 - width } ?? 0
    let y = n("minY") ?? n("maxY").map { p.height - $0 - height } ?? 0
    return Frame(x: x, y: y, width: width, height: height)
}

/// A view element's stored frame's presence, in either of IB's forms.
func hasFrame(_ e: XMLElement) -> Bool { e.child("rect", key: "frame") != nil || e.child("frame", key: "frameInset") != nil }
