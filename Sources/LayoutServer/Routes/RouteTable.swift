import HTTPTransport
import JSON

/// What a layoutd route is: it reads the request (and who sent it), and answers or throws
/// the problem to answer with.
typealias RouteHandler = @Sendable (Request, Caller) throws(Problem) -> Response

/// The transport's router, and what each of its routes is by the route's index.
struct RouteTable: Sendable {
    /// One route: its handler, and who may call it.
    struct Entry: Sendable {
        let handler: RouteHandler
        /// Answered without an API key: health, metrics, the playground's files.
        let open: Bool
        /// A stream ticket in the query may stand for the key (a browser's WebSocket).
        let ticketed: Bool
    }

    private var router = Router()
    private var entries: [Entry] = []

    /// A route that acts for its caller (sessions belong to who made them).
    mutating func on(_ method: String, _ pattern: String, ticketed: Bool = false, caller handler: @escaping RouteHandler) {
        add(method, pattern, Entry(handler: handler, open: false, ticketed: ticketed))
    }

    /// A route whose answer is the same for every caller; `open`: no key needed.
    mutating func on(_ method: String, _ pattern: String, open: Bool = false, _ handler: @escaping @Sendable (Request) throws(Problem) -> Response) {
        add(method, pattern, Entry(handler: { req, _ throws(Problem) in try handler(req) }, open: open, ticketed: false))
    }

    private mutating func add(_ method: String, _ pattern: String, _ entry: Entry) {
        let index = router.on(method, pattern)
        assert(index == entries.count)
        entries.append(entry)
    }

    func match(_ method: String, _ path: String) -> Router.Match { router.match(method, path) }

    func entry(_ route: Router.Route) -> Entry { entries[route.index] }
}

extension Response {
    static func json(_ status: Int = 200, _ value: JSON) -> Response { json(status, value.serialized) }
}
