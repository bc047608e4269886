import CheckedNumbers
import InterfaceBuilder
import JSON
import LayoutModel

/// A request's `sizes`: each a root size (`{name?, width, height}`) or a device of
/// `GET /v1/devices` (`{name?, device, orientation?}`: its screen, scale and safe area), with
/// an optional `scale` and `layoutDirection`. Answers are keyed by name, so names are unique.
struct SizeList {
    struct Entry {
        let name: String
        let size: LayoutSize
        let device: (id: String, orientation: String, safeArea: Device.Insets)?
    }

    let entries: [Entry]

    static let fields: Set<String> = ["name", "width", "height", "device", "orientation", "scale", "layoutDirection"]

    /// Checks every entry before anything is laid out: a refusal names the place.
    init(_ json: JSON?, at base: String = "/sizes", maxSizes: Int, maxPoints: Double) throws(Problem) {
        guard let list = json?.array else { throw Problem(422, "sizes is an array of sizes", pointer: base) }
        guard !list.isEmpty else { throw Problem(422, "sizes names at least one size", pointer: base) }
        guard list.count <= maxSizes else {
            throw Problem(413, "\(list.count) sizes; a request lays out at most \(maxSizes) (--max-sizes)", pointer: base)
        }
        var entries: [Entry] = []
        var names = Set<String>()
        for (k, item) in list.enumerated() {
            let at = "\(base)/\(k)"
            guard let members = item.members else { throw Problem(422, "a size is an object", pointer: at) }
            for (key, _) in members where !Self.fields.contains(key) {
                throw Problem(422, "unknown field '\(key)' of a size", pointer: "\(at)/\(jsonPointerToken(key))")
            }
            func number(_ key: String, _ range: ClosedRange<Double>, _ what: String) throws(Problem) -> Double? {
                guard let v = item[key], !v.isNull else { return nil }
                guard let n = v.number, range.contains(n), !(range.lowerBound == 0 && n == 0) else {
                    throw Problem(422, what, pointer: "\(at)/\(key)")
                }
                return n
            }
            let points = "a width or height is a number of points above 0 and at most \(Self.points(maxPoints)) (--max-size-points)"
            var width = try number("width", 0...maxPoints, points)
            var height = try number("height", 0...maxPoints, points)
            var scale = try number("scale", 0.001...16, "scale is a number from 0.001 to 16")
            var direction: LayoutDirection? = nil
            if let d = item["layoutDirection"], !d.isNull {
                guard let s = d.string, let v = LayoutDirection(rawValue: s) else {
                    throw Problem(422, "layoutDirection is \"ltr\" or \"rtl\"", pointer: "\(at)/layoutDirection")
                }
                direction = v
            }
            var device: (id: String, orientation: String, safeArea: Device.Insets)? = nil
            var name = item["name"]?.string
            if let v = item["name"], !v.isNull, name == nil || name!.isEmpty || name!.utf8.count > 200 {
                throw Problem(422, "a size's name is a string of 1 to 200 bytes", pointer: "\(at)/name")
            }
            if let d = item["device"], !d.isNull {
                guard width == nil, height == nil else {
                    throw Problem(422, "a size is a device or a width and height, not both", pointer: "\(at)/\(width == nil ? "height" : "width")")
                }
                guard let id = d.string, let found = Device.named(id) ?? Device.all.first(where: { $0.name == id }) else {
                    throw Problem(422, "unknown device (GET /v1/devices lists them by id)", pointer: "\(at)/device")
                }
                let orientation = item["orientation"]?.string ?? "portrait"
                guard orientation == "portrait" || orientation == "landscape" else {
                    throw Problem(422, "orientation is \"portrait\" or \"landscape\"", pointer: "\(at)/orientation")
                }
                let screen = found.screen(landscape: orientation == "landscape")
                (width, height) = (screen.width, screen.height)
                scale = scale ?? found.scale
                device = (found.id, orientation, screen.safeArea)
                name = name ?? (orientation == "landscape" ? "\(found.name) landscape" : found.name)
            } else if let o = item["orientation"], !o.isNull {
                throw Problem(422, "orientation goes with a device", pointer: "\(at)/orientation")
            }
            guard let w = width, let h = height else {
                throw Problem(422, "a size has a width and a height, or a device", pointer: "\(at)/\(width == nil ? "width" : "height")")
            }
            let named = name ?? "\(Self.points(w))x\(Self.points(h))"
            guard names.insert(named).inserted else {
                throw Problem(422, "two sizes are named '\(named)': answers are keyed by name", pointer: "\(at)/name")
            }
            entries.append(Entry(name: named, size: LayoutSize(width: w, height: h, scale: scale, layoutDirection: direction), device: device))
        }
        self.entries = entries
    }

    /// 320, 320.5: as a name and a message show a number of points.
    private static func points(_ v: Double) -> String {
        if v == v.rounded(), let whole = Int(checked: v) { return String(whole) }
        return String(v)
    }
}
