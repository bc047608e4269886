import JSON

/// A view IB positions by its frame (`translatesAutoresizingMaskIntoConstraints` not NO), as
/// UIKit positions it: its autoresizing mask as constraints on its parent's size. When the
/// parent is laid out at another size than the one stored (another device, a cell of another
/// width), the change is shared among the flexible parts (margins, size) in proportion to
/// their stored sizes, as UIView.autoresizingMask documents; at the stored size they give
/// the stored frame.
extension RootBuilder {
    mutating func autoresizing(
        _ e: XMLElement, id: String, in parentID: String, frame: Frame, parentSize: Size
    ) {
        let mask = e.child("autoresizingMask", key: "autoresizingMask")
        func flag(_ k: String) -> Bool { mask?[k] == "YES" }
        axis(
            id, in: parentID, ("left", "right", "width"), origin: frame.x, size: frame.width, parentSize: parentSize.width,
            flexible: [flag("flexibleMinX"), flag("widthSizable"), flag("flexibleMaxX")])
        axis(
            id, in: parentID, ("top", "bottom", "height"), origin: frame.y, size: frame.height, parentSize: parentSize.height,
            flexible: [flag("flexibleMinY"), flag("heightSizable"), flag("flexibleMaxY")])
    }

    /// One axis: `view.start == k × parent.end + c` (the parent's end is its size in its own
    /// coordinates) and `view.size == k' × parent.size + c'`, a share of 0 a fixed value.
    private mutating func axis(
        _ id: String, in parentID: String, _ names: (start: String, end: String, size: String), origin: Double, size: Double,
        parentSize: Double, flexible: [Bool]
    ) {
        let parts = [origin, size, parentSize - origin - size]
        let count = Double(flexible.filter { $0 }.count)
        let total = zip(parts, flexible).reduce(0) { $0 + ($1.1 ? max(0, $1.0) : 0) }
        func share(_ i: Int) -> Double {
            guard flexible[i] else { return 0 }
            return total > 0 ? max(0, parts[i]) / total : 1 / count
        }
        let (kOrigin, kSize) = (share(0), share(1))
        var start: [(String, JSON)] = [("id", .string("\(id).autoresizing.\(names.start)")), ("first", .string("\(id).\(names.start)"))]
        if kOrigin == 0 {
            start += [("second", .string("\(parentID).\(names.start)")), ("constant", number(origin))]
        } else {
            start += [
                ("second", .string("\(parentID).\(names.end)")), ("multiplier", number(kOrigin)),
                ("constant", number(origin - parentSize * kOrigin))
            ]
        }
        emitted.constraints.append(object(start))
        emitted.places["\(id).autoresizing.\(names.start)"] = emitted.places[id]
        var length: [(String, JSON)] = [("id", .string("\(id).autoresizing.\(names.size)")), ("first", .string("\(id).\(names.size)"))]
        if kSize == 0 {
            length.append(("constant", number(size)))
        } else {
            length += [
                ("second", .string("\(parentID).\(names.size)")), ("multiplier", number(kSize)), ("constant", number(size - parentSize * kSize))
            ]
        }
        emitted.constraints.append(object(length))
        emitted.places["\(id).autoresizing.\(names.size)"] = emitted.places[id]
    }
}
