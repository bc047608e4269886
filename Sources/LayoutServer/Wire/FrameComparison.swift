import JSON
import LayoutModel

/// `POST /v1/compare`: two layout answers (or an answer and the frames expected), view by
/// view: what moved or resized past the tolerance, what is missing or extra, what is shown in
/// one and hidden in the other. A sizes answer is compared size by size. What a CI job on
/// Linux needs to catch a layout regression.
struct FrameComparison {
    struct Difference {
        enum Kind: String { case moved, missing, extra, visibility }
        var size: String?
        var view: String
        var kind: Kind
        var expected: FrameEntry?
        var actual: FrameEntry?
        /// The largest of the four edges' deltas (0 for missing and extra).
        var delta: Double
    }

    /// Frames by size (one unnamed size for a plain answer), in answer order.
    typealias Frames = [(size: String?, frames: [FrameEntry])]

    let tolerance: Double
    let expected: Frames
    let actual: Frames
    let differences: [Difference]
    let compared: Int
    /// The largest delta over every view in both, within the tolerance or not.
    let maxDelta: Double

    static let fields: Set<String> = ["expected", "actual", "tolerance", "document"]

    init(_ body: JSON) throws(Problem) {
        guard let members = body.members else { throw Problem(422, "a comparison is {expected, actual, tolerance?}", pointer: "") }
        for (k, _) in members where !Self.fields.contains(k) { throw Problem(422, "unknown field '\(k)'", pointer: "/\(jsonPointerToken(k))") }
        var tolerance = 0.001
        if let t = body["tolerance"], !t.isNull {
            guard let n = t.number, n >= 0, n <= 1e6 else {
                throw Problem(422, "tolerance is a number of points, 0 to 1000000", pointer: "/tolerance")
            }
            tolerance = n
        }
        self.tolerance = tolerance
        expected = try Self.frames(body["expected"], at: "/expected")
        // Sizes are keyed by name: the actual ones in the expected order, whatever theirs.
        let sent = try Self.frames(body["actual"], at: "/actual")
        actual = expected.compactMap { e in sent.first { $0.size == e.size } }
        guard actual.count == sent.count, actual.count == expected.count else {
            throw Problem(
                422, "the two answers are at different sizes: \(expected.map { $0.size ?? "-" }) and \(sent.map { $0.size ?? "-" })",
                pointer: "/actual")
        }
        var differences: [Difference] = []
        var compared = 0, maxDelta = 0.0
        for (e, a) in zip(expected, actual) {
            var byID: [String: FrameEntry] = [:]
            for f in a.frames { byID[f.id] = f }
            var seen = Set<String>()
            for x in e.frames {
                seen.insert(x.id)
                guard let y = byID[x.id] else {
                    differences.append(Difference(size: e.size, view: x.id, kind: .missing, expected: x, actual: nil, delta: 0))
                    continue
                }
                compared += 1
                let d = Self.delta(x.frame, y.frame)
                maxDelta = max(maxDelta, d)
                if d > tolerance {
                    differences.append(Difference(size: e.size, view: x.id, kind: .moved, expected: x, actual: y, delta: d))
                } else if x.hidden != y.hidden {
                    differences.append(Difference(size: e.size, view: x.id, kind: .visibility, expected: x, actual: y, delta: d))
                }
            }
            for y in a.frames where !seen.contains(y.id) {
                differences.append(Difference(size: e.size, view: y.id, kind: .extra, expected: nil, actual: y, delta: 0))
            }
        }
        self.differences = differences
        self.compared = compared
        self.maxDelta = maxDelta
    }

    /// The largest move of any of the four edges.
    static func delta(_ a: Rect, _ b: Rect) -> Double {
        max(abs(a.x - b.x), abs(a.y - b.y), abs(a.x + a.width - b.x - b.width), abs(a.y + a.height - b.y - b.height))
    }

    /// An answer's frames: `{frames}` (a layout's, a session's, expected ones) or `{sizes: {NAME: {frames}}}`.
    static func frames(_ json: JSON?, at p: String) throws(Problem) -> Frames {
        guard let json, json.members != nil else { throw Problem(422, "an answer with frames, or with sizes", pointer: p) }
        if json["sizes"] != nil && json["frames"] != nil {
            throw Problem(422, "an answer has frames or sizes, not both", pointer: p + "/sizes")
        }
        if let sizes = json["sizes"] {
            guard let list = sizes.members, !list.isEmpty else { throw Problem(422, "sizes is an object of sizes by name", pointer: p + "/sizes") }
            var out: Frames = []
            for (name, s) in list { out.append((name, try frameList(s["frames"], at: "\(p)/sizes/\(jsonPointerToken(name))/frames"))) }
            return out
        }
        return [(nil, try frameList(json["frames"], at: p + "/frames"))]
    }

    private static func frameList(_ json: JSON?, at p: String) throws(Problem) -> [FrameEntry] {
        guard let members = json?.members else { throw Problem(422, "frames is an object of view ids to frames", pointer: p) }
        var out: [FrameEntry] = []
        out.reserveCapacity(members.count)
        for (id, f) in members {
            let at = "\(p)/\(jsonPointerToken(id))"
            func n(_ k: String) throws(Problem) -> Double {
                guard let v = f[k]?.number, abs(v) <= 1e7 else {
                    throw Problem(422, "a frame's \(k) is a number within ±10000000", pointer: "\(at)/\(k)")
                }
                return v
            }
            guard f.members != nil else { throw Problem(422, "a frame is {x, y, width, height}", pointer: at) }
            var hidden = false
            if let h = f["hidden"] {
                guard let b = h.bool else { throw Problem(422, "hidden is true or false", pointer: "\(at)/hidden") }
                hidden = b
            }
            out.append(FrameEntry(id: id, frame: Rect(x: try n("x"), y: try n("y"), width: try n("width"), height: try n("height")), hidden: hidden))
        }
        return out
    }
}
