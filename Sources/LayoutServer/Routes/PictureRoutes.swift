import CheckedNumbers
import HTTPTransport
import JSON
import Rendering

/// Pictures of layouts: a session's as it is (`snapshot.svg`, `snapshot.png`), and a document
/// sent whole, at its size or many (`POST /v1/render`, SVG or PNG as `Accept` asks).
struct PictureRoutes: Sendable {
    let sessions: SessionService

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/sessions/{id}/snapshot.svg", caller: { [self] req, caller throws(Problem) in try snapshot(req, caller, png: false) })
        r.on("GET", "/v1/sessions/{id}/snapshot.png", caller: { [self] req, caller throws(Problem) in try snapshot(req, caller, png: true) })
        r.on("POST", "/v1/render") { [self] req throws(Problem) in
            _ = try Self.scale(req)
            try checkJSONMedia(req)
            let pictures = try sessions.render(req.body)
            return try answer(pictures, png: Self.wantsPNG(req), req)
        }
    }

    func snapshot(_ req: Request, _ caller: Caller, png: Bool) throws(Problem) -> Response {
        guard let key = SessionKey(req.parameter("id")), let picture = try sessions.picture(key, for: caller) else {
            throw Problem(404, "no session \(req.parameter("id"))")
        }
        return try answer([picture], png: png, req)
    }

    /// `?scale=`: PNG pixels a point, 0.1 to 8 (1 when absent); checked whatever the answer's format.
    static func scale(_ req: Request) throws(Problem) -> Double {
        guard let s = req.query("scale") else { return 1 }
        guard let v = Double(s), v >= 0.1, v <= 8 else { throw Problem(400, "scale is a number from 0.1 to 8") }
        return v
    }

    /// SVG unless the request's `Accept` names `image/png` before SVG.
    static func wantsPNG(_ req: Request) -> Bool { firstAccepted(req, of: ["image/png", "image/svg+xml"]) == "image/png" }

    func answer(_ pictures: [Picture], png: Bool, _ req: Request) throws(Problem) -> Response {
        let svg = SVG.document(pictures)
        guard png else { return Response(status: 200, contentType: "image/svg+xml", body: svg) }
        let scale = try Self.scale(req)
        let sheet = SVG.arrange(pictures)
        let pixels = sheet.width * sheet.height * scale * scale
        let limit = sessions.configuration.maxPicturePixels
        // Cairo draws at most 32,767 pixels a side.
        guard sheet.width * scale <= 32_767, sheet.height * scale <= 32_767 else {
            throw Problem(413, "a PNG is at most 32767 pixels a side (cairo's limit); this one is \(sheet.width * scale) by \(sheet.height * scale)")
        }
        guard pixels <= Double(limit) else {
            let w = Int(saturating: sheet.width * scale), h = Int(saturating: sheet.height * scale)
            throw Problem(413, "the picture would be \(w)×\(h) pixels; at most \(limit) (--max-picture-pixels)")
        }
        do throws(PNG.Failure) {
            return Response(
                status: 200, contentType: "image/png", body: try PNG.render(svg: svg, width: sheet.width, height: sheet.height, scale: scale))
        } catch {
            throw Problem(500, "the picture could not be rasterized: \(error.description)")
        }
    }
}
