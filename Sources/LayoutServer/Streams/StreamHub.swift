import Logging

/// WebSocket streams (issue 5): placeholder until the stream lands.
final class StreamHub: Sendable {
    init(layout: LayoutRoutes, configuration: ServerConfiguration, metrics: ServerMetrics, logger: Logger) {}
    func register(_ r: inout Router) {}
    func closeAll() {}
}
