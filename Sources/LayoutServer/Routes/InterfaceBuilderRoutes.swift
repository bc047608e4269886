import HTTPTransport
import IBCheck
import InterfaceBuilder

/// Interface Builder documents laid out as they are sent (`POST /v1/ib/layout`), and the
/// devices they are laid out on (`GET /v1/devices`).
struct InterfaceBuilderRoutes: Sendable {
    let layouts: LayoutService

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/devices") { _ in .json(200, DeviceList.all) }
        r.on("POST", "/v1/ib/layout") { [layouts] req throws(Problem) in
            try layouts.checkMemoryBudget()
            try checkXMLMedia(req)
            let options = try ImportQuery.options(req)
            let limits = layouts.configuration.layoutLimits
            let xml = RootLayout.xmlLimits(bytes: req.body.count, limits: limits)
            let document: ImportedDocument
            do throws(ImportError) { document = try Importer.read(req.body, options: options, limits: xml) } catch { throw Problem(error) }
            return .json(200, ImportAnswer.encode(document, options: options, limits: limits, laidOut: layouts.count))
        }
    }
}
