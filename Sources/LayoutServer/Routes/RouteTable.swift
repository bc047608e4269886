import HTTPTransport
import JSON

/// What a layoutd route is: it reads the request (and who sent it), and answers or throws
/// the problem to answer with.
typealias RouteHandler = @Sendable (Request, Caller) throws(Problem) -> Response

/// The transport's router, and each route's handler by the route's index, with whether the
/// route is open (answered without an API key: health, metrics, the playground's files).
struct RouteTable: Sendable {
    private var router = Router()
    private var handlers: [RouteHandler] = []
    private var open: [Bool] = []
    private var ticketed: [Bool] = []

    /// A route that acts for its caller (sessions belong to who made them).
    /// `ticketed`: a stream ticket in the query may stand for the key (a browser's WebSocket).
    mutating func on(_ method: String, _ pattern: String, ticketed: Bool = false, caller handler: @escaping RouteHandler) {
        add(method, pattern, open: false, ticketed: ticketed, handler)
    }

    /// A route whose answer is the same for every caller; `open`: no key needed.
    mutating func on(_ method: String, _ pattern: String, open: Bool = false, _ handler: @escaping @Sendable (Request) throws(Problem) -> Response) {
        add(method, pattern, open: open, ticketed: false) { req, _ throws(Problem) in try handler(req) }
    }

    private mutating func add(_ method: String, _ pattern: String, open: Bool, ticketed: Bool, _ handler: @escaping RouteHandler) {
        let index = router.on(method, pattern)
        assert(index == handlers.count)
        handlers.append(handler)
        self.open.append(open)
        self.ticketed.append(ticketed)
    }

    func match(_ method: String, _ path: String) -> Router.Match { router.match(method, path) }

    func handler(_ route: Router.Route) -> RouteHandler { handlers[route.index] }

    func isOpen(_ route: Router.Route) -> Bool { open[route.index] }

    func isTicketed(_ route: Router.Route) -> Bool { ticketed[route.index] }
}

extension Response {
    static func json(_ status: Int = 200, _ value: JSON) -> Response { json(status, value.serialized) }
}
