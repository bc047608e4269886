import HTTPTransport

/// `--cors-origins`: pages on these exact origins may call the API from a browser (no
/// wildcard: keys travel in `Authorization`, and an origin is trusted by name). Others get
/// no CORS headers, so the browser keeps their pages from reading answers.
struct CrossOrigin: Sendable {
    let origins: Set<String>

    var isOff: Bool { origins.isEmpty }

    /// The request's `Origin` when it is one of ours.
    func allowed(_ req: Request) -> String? {
        guard let origin = req.header("Origin"), origins.contains(origin) else { return nil }
        return origin
    }

    /// Whether the request is a preflight (`OPTIONS` with `Access-Control-Request-Method`).
    static func isPreflight(_ req: Request) -> Bool { req.method == "OPTIONS" && req.header("Access-Control-Request-Method") != nil }

    /// A preflight's answer: the methods the path takes, and the headers a request may carry
    /// (a key, a JSON or gzip body). Answered without a key: a browser sends none with it.
    func preflight(origin: String, methods: [String]) -> Response {
        var r = Response.noContent
        r.headers += [
            ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
            ("Access-Control-Allow-Methods", methods.joined(separator: ", ")),
            ("Access-Control-Allow-Headers", "Authorization, Content-Type, Content-Encoding"),
            ("Access-Control-Max-Age", "600")
        ]
        return r
    }

    /// An answer to a page on an allowed origin: readable by it, with the headers it may need.
    func decorate(_ r: inout Response, origin: String) {
        r.headers += [
            ("Access-Control-Allow-Origin", origin), ("Vary", "Origin"),
            ("Access-Control-Expose-Headers", "Location, Retry-After, WWW-Authenticate")
        ]
    }
}
