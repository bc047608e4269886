import HTTPTransport
import JSON
import Synchronization
import TextLayout

/// Liveness, readiness, metrics and the API description.
struct OperationalRoutes {
    let ready: @Sendable () -> Bool
    /// Why the session store cannot be written, or nil.
    let storeFailure: @Sendable () -> String?
    let metrics: ServerMetrics
    /// `--metrics-key`'s SHA-256: `/metrics` then wants it as a bearer key (nil: open).
    let metricsKey: [UInt8]?

    /// `{fonts: [{family, weights, italic}]}`: what text can be set in (fontconfig's families).
    private static let fonts: [UInt8] = {
        var w = JSONWriter()
        w.beginObject()
        w.key("fonts")
        w.beginArray()
        for f in TextMeasurer.shared.catalog.families {
            w.beginObject()
            w.key("family"); w.string(f.name)
            w.key("weights"); w.beginArray(); for x in f.weights { w.int(x) }; w.endArray()
            w.key("italic"); w.bool(f.italic)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }()

    func register(_ r: inout RouteTable) {
        r.on("GET", "/healthz", open: true) { _ in .json(200, Array(#"{"status":"ok"}"#.utf8)) }
        r.on("GET", "/readyz", open: true) { _ throws(Problem) in
            guard ready() else { throw Problem(503, "starting or draining", headers: [("Retry-After", "1")]) }
            if let failure = storeFailure() {
                throw Problem(503, "the session store cannot be written: \(failure)", headers: [("Retry-After", "5")])
            }
            return .json(200, Array(#"{"status":"ready"}"#.utf8))
        }
        r.on("GET", "/metrics", open: true) { [metricsKey] req throws(Problem) in
            if let metricsKey {
                guard let presented = bearerKey(req.header("Authorization")), Digest.equal(Digest.sha256(presented), metricsKey) else {
                    throw Problem(401, "/metrics wants the metrics key: Authorization: Bearer KEY", headers: [("WWW-Authenticate", "Bearer")])
                }
            }
            return Response(status: 200, contentType: "text/plain; version=0.0.4; charset=utf-8", body: metrics.exposition())
        }
        r.on("GET", "/v1/fonts") { _ in .json(200, Self.fonts) }
        r.on("GET", "/openapi.yaml", open: true) { _ in Response(status: 200, contentType: "application/yaml", body: PackageResources.openapi_yaml) }
    }
}
