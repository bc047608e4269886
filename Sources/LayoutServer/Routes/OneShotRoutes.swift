#if canImport(Glibc)
    import Glibc
#endif
import HTTPTransport
import JSON
import LayoutModel

/// A layout answered and forgotten: `POST /v1/layout` and `POST /v1/fitting-size`.
struct OneShotRoutes: Sendable {
    let layouts: LayoutService

    func register(_ r: inout RouteTable) {
        r.on("POST", "/v1/layout") { [self] req throws(Problem) in try layout(req) }
        r.on("POST", "/v1/fitting-size") { [self] req throws(Problem) in try fittingSize(req) }
    }

    func layout(_ req: Request) throws(Problem) -> Response {
        try checkJSONMedia(req)
        // `sizes` beside the document's fields: read in place with it, a build, then a
        // set-constant a size.
        if req.body.containsSizesKey {
            switch try layouts.oneShotTakingSizes(req.body) {
            case .sized(let list, let layouts): return .json(200, WireFormat.sizes(list, layouts))
            case .plain(let layout): return answer(layout)
            }
        }
        return answer(try layouts.oneShot(req.body))
    }

    private func answer(_ layout: OneShotLayout) -> Response {
        var res = Response.json(200, WireFormat.layout(layout))
        // Freed after the answer is queued: the client does not wait on the layout's teardown.
        res.leftover = layout
        return res
    }

    func fittingSize(_ req: Request) throws(Problem) -> Response {
        let fitted = try layouts.fittingSize(try jsonBody(req))
        return .json(200, WireFormat.fitting(view: fitted.view, width: fitted.width, height: fitted.height))
    }
}

extension [UInt8] {
    /// Whether the bytes hold `"sizes"` anywhere (a key or not: the tree then decides).
    /// memchr finds each quote; the 1,000-cell feed has ~50,000 of them.
    var containsSizesKey: Bool {
        let key: [UInt8] = Array(#""sizes""#.utf8)
        return withUnsafeBytes { b in
            guard let base = b.baseAddress else { return false }
            var at = 0
            while b.count - at >= key.count, let q = memchr(base + at, 0x22, b.count - at - key.count + 1) {
                let i = base.distance(to: UnsafeRawPointer(q))
                if memcmp(base + i, key, key.count) == 0 { return true }
                at = i + 1
            }
            return false
        }
    }
}
