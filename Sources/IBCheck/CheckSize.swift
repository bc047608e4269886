import InterfaceBuilder
import LayoutModel

/// A size a document is checked at: its own device and orientation, a device of
/// `GET /v1/devices` in an orientation (each root imported for it: screen, safe area,
/// margins), or a root size in points (the document's own import, every root resized).
public enum CheckSize: Sendable, Equatable {
    case own
    case device(String?, landscape: Bool?)
    case points(width: Double, height: Double)

    /// Each device in each orientation asked for (the document's own where none is), then
    /// each size in points; the document's own alone when nothing is asked.
    public static func matrix(devices: [String], orientations: [Bool], points: [(Double, Double)]) -> [CheckSize] {
        var out: [CheckSize] = []
        if !devices.isEmpty || !orientations.isEmpty {
            for d in devices.isEmpty ? [nil] : devices.map({ Optional($0) }) {
                for o in orientations.isEmpty ? [nil] : orientations.map({ Optional($0) }) { out.append(.device(d, landscape: o)) }
            }
        }
        out += points.map { .points(width: $0.0, height: $0.1) }
        return out.isEmpty ? [.own] : out
    }

    /// The import options for this size (a size in points resizes the document's own import).
    func options(_ base: ImportOptions) -> ImportOptions {
        var o = base
        if case .device(let d, let landscape) = self { (o.device, o.landscape) = (d, landscape) }
        return o
    }

    /// Its name in reports and snapshot files: `retina6_1-portrait`, `320x568`, or `stored`
    /// for a document that names no device.
    func name(_ imported: ImportedDocument) -> String {
        if case .points(let w, let h) = self { return "\(pointsText(w))x\(pointsText(h))" }
        guard let d = imported.device else { return "stored" }
        return "\(d.id)-\(imported.landscape ? "landscape" : "portrait")"
    }

    var layoutSize: LayoutSize? {
        if case .points(let w, let h) = self { return LayoutSize(width: w, height: h) }
        return nil
    }
}
