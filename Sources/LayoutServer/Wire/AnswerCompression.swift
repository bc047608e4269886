import HTTPTransport

/// The middleware that gzips answers past `minBytes` for clients that accept it, and counts
/// the bytes before and after.
struct AnswerCompression: Sendable {
    let minBytes: Int
    let metrics: ServerMetrics
    private let gzip = Gzip()

    init(minBytes: Int, metrics: ServerMetrics) {
        self.minBytes = minBytes
        self.metrics = metrics
    }

    func compress(_ r: inout Response, for req: Request) {
        metrics.bytesOutBody.increment(by: r.body.count)
        let negotiable = r.body.count > minBytes
        if negotiable, r.header("Content-Encoding") == nil, req.acceptsGzip {
            r.body = gzip.compress(r.body)
            r.headers.append(("Content-Encoding", "gzip"))
        }
        // Only answers past the gzip threshold depend on Accept-Encoding; a smaller one is the
        // same bytes for every client, so it carries no Vary (and libmicrohttpd adds no header).
        if negotiable { r.headers.append(("Vary", "Accept-Encoding")) }
        metrics.bytesOutWire.increment(by: r.body.count)
    }
}
