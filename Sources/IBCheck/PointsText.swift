import CheckedNumbers
import LayoutModel

/// A number of points as messages write it: to two decimals, without trailing zeros.
func pointsText(_ v: Double) -> String {
    let r = (v * 100).rounded() / 100
    if let whole = Int(checked: r), Double(whole) == r { return String(whole) }
    let s = String(r)
    return s.contains("e") ? String(v) : s
}

/// A frame as messages write it: `x 16, y 20, 343 × 21`.
func text(_ r: Rect) -> String { "x \(pointsText(r.x)), y \(pointsText(r.y)), \(pointsText(r.width)) × \(pointsText(r.height))" }
