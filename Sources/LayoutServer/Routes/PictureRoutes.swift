import HTTPTransport

/// Pictures of layouts: a session's as it is (`snapshot.svg`, `snapshot.png`), and a document
/// sent whole, at its size or many (`POST /v1/render`, SVG or PNG as `Accept` asks).
struct PictureRoutes: Sendable {
    let sessions: SessionService
    let layouts: LayoutService
    let answer: PictureAnswer

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/sessions/{id}/snapshot.svg", caller: { [self] req, caller throws(Problem) in try snapshot(req, caller, png: false) })
        r.on("GET", "/v1/sessions/{id}/snapshot.png", caller: { [self] req, caller throws(Problem) in try snapshot(req, caller, png: true) })
        r.on("POST", "/v1/render") { [self] req throws(Problem) in
            let scale = try PictureQuery.scale(req)
            try checkJSONMedia(req)
            return try answer.response(layouts.scenes(req.body), png: PictureQuery.wantsPNG(req), scale: scale)
        }
    }

    func snapshot(_ req: Request, _ caller: Caller, png: Bool) throws(Problem) -> Response {
        guard let key = SessionKey(req.parameter("id")), let scene = try sessions.scene(key, for: caller) else {
            throw Problem(404, "no session \(req.parameter("id"))")
        }
        // Drawn after the session's lock is let go: a picture's labels hold no change up. The
        // scale matters to a PNG only (an SVG's `?scale=` is not read).
        return try answer.response([scene], png: png, scale: png ? PictureQuery.scale(req) : 1)
    }
}
