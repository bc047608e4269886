import HTTPTransport

/// Interface Builder documents laid out as they are sent (`POST /v1/ib/layout`), and the
/// devices they are laid out on (`GET /v1/devices`).
struct InterfaceBuilderRoutes: Sendable {
    let layouts: LayoutService

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/devices") { _ in .json(200, DeviceList.all) }
        r.on("POST", "/v1/ib/layout") { [layouts] req throws(Problem) in
            try checkXMLMedia(req)
            return .json(200, ImportAnswer.encode(try layouts.imported(req.body, options: ImportQuery.options(req))))
        }
    }
}
