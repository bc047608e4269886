import HTTPTransport
import Rendering

/// `POST /v1/compare`: two answers view by view (JSON), or the two drawn over each other (SVG
/// or PNG, when `Accept` names one before JSON).
struct CompareRoutes: Sendable {
    let pictures: PictureAnswer

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/compare") { [self] req throws(Problem) in try compare(req) }
    }

    func compare(_ req: Request) throws(Problem) -> Response {
        let scale = try PictureQuery.scale(req)
        let body = try jsonBody(req)
        let c = try FrameComparison(body)
        let parents = try DocumentParents.decode(body)
        guard let png = PictureQuery.wantedPicture(req) else { return .json(200, WireFormat.comparison(c)) }
        let drawn = zip(c.expected, c.actual).map { e, a in
            let moved = Set(c.differences.filter { $0.size == e.size && $0.kind != .missing }.map(\.view))
            return Picture(name: e.size, expected: e.frames, actual: a.frames, moved: moved, parents: parents)
        }
        return try pictures.response(drawn, png: png, scale: scale)
    }
}
