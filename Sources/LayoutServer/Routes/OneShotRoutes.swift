import HTTPTransport
import JSON
import LayoutModel

/// A layout answered and forgotten: `POST /v1/layout` and `POST /v1/fitting-size`.
struct OneShotRoutes: Sendable {
    let sessions: SessionService

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/layout") { [self] req throws(Problem) in try layout(req) }
        r.on("POST", "/v1/fitting-size") { [self] req throws(Problem) in try fittingSize(req) }
    }

    func layout(_ req: Request) throws(Problem) -> Response {
        try checkJSONMedia(req)
        let made = try sessions.oneShot(req.body)
        var res = Response.json(200, WireFormat.layout(made.session, made.diagnostics))
        // Freed after the answer is queued: 2–3 ms sooner for 1,000 cells (BENCHMARKS §4).
        res.leftover = Discarded(session: made.session, document: made.document)
        return res
    }

    func fittingSize(_ req: Request) throws(Problem) -> Response {
        let fitted = try sessions.fittingSize(try jsonBody(req))
        return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
    }
}

/// A one-shot layout's session and document, handed to the transport only to be freed.
/// Unchecked: the answer holds the only references, and the worker only drops them.
private struct Discarded: @unchecked Sendable {
    let session: LayoutSession
    let document: JSON?
}
