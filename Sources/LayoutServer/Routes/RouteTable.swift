import HTTPTransport
import JSON

/// What a layoutd route is: it reads the request, and answers or throws the problem to answer with.
typealias RouteHandler = @Sendable (Request) throws(Problem) -> Response

/// The transport's router, and each route's handler by the route's index.
struct RouteTable: Sendable {
    private var router = Router()
    private var handlers: [RouteHandler] = []

    mutating func on(_ method: String, _ pattern: String, _ handler: @escaping RouteHandler) {
        let index = router.on(method, pattern)
        assert(index == handlers.count)
        handlers.append(handler)
    }

    func match(_ method: String, _ path: String) -> Router.Match { router.match(method, path) }

    func handler(_ route: Router.Route) -> RouteHandler { handlers[route.index] }
}

extension Response {
    static func json(_ status: Int = 200, _ value: JSON) -> Response { json(status, value.serialized) }
}
