import HTTPTransport
/// The playground page at `/` and its files under `/playground/`: plain HTML, CSS and ES
/// modules compiled into the binary (SwiftPM's embedInCode), so it works offline and ships
/// with the executable alone.
struct PlaygroundRoutes {
    private static let files: [String: (type: String, body: [UInt8])] = [
        "index.html": ("text/html; charset=utf-8", PackageResources.index_html),
        "playground.css": ("text/css; charset=utf-8", PackageResources.playground_css),
        "app.js": ("text/javascript; charset=utf-8", PackageResources.app_js),
        "api.js": ("text/javascript; charset=utf-8", PackageResources.api_js),
        "canvas.js": ("text/javascript; charset=utf-8", PackageResources.canvas_js),
        "examples.js": ("text/javascript; charset=utf-8", PackageResources.examples_js),
        "panels.js": ("text/javascript; charset=utf-8", PackageResources.panels_js),
        "pointer.js": ("text/javascript; charset=utf-8", PackageResources.pointer_js),
        "sizes.js": ("text/javascript; charset=utf-8", PackageResources.sizes_js)
    ]

    /// Same-origin only: the page loads nothing from elsewhere and talks to this server alone.
    private static let headers = [
        ("Content-Security-Policy", "default-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'"),
        ("X-Content-Type-Options", "nosniff"),
        ("Cache-Control", "no-cache")
    ]

    func register(_ r: inout RouteTable) {
        r.on("GET", "/", open: true) { _ in Self.answer("index.html")! }
        r.on("GET", "/playground/{file}", open: true) { req throws(Problem) in
            let file = req.parameter("file")
            guard let answer = Self.answer(file) else { throw Problem(404, "the playground has no file '\(file)'") }
            return answer
        }
    }

    private static func answer(_ name: String) -> Response? {
        guard let file = files[name] else { return nil }
        return Response(status: 200, contentType: file.type, headers: headers, body: file.body)
    }
}
