import HTTPTransport

/// The middleware that inflates `Content-Encoding: gzip` bodies, with the body limit applied
/// to what they inflate to, and counts the bytes a handler reads.
struct BodyDecoding: Sendable {
    let http: HTTPServerConfiguration
    let metrics: ServerMetrics

    func decode(_ req: inout Request) throws(Problem) {
        guard let enc = req.header("Content-Encoding")?.lowercased(), enc != "identity", !req.body.isEmpty else {
            metrics.bytesInDecoded.increment(by: req.body.count)
            return
        }
        guard enc == "gzip" || enc == "x-gzip" else { throw Problem(415, "Content-Encoding \(enc) is not supported (gzip is)") }
        let limit = http.maxBody(for: req.path)
        do {
            req.body = try Gzip.decompress(req.body, limit: limit)
        } catch .tooLarge {
            throw Problem(413, "the gzip body inflates past the limit of \(limit) bytes")
        } catch {
            throw Problem(400, "the body is not valid gzip")
        }
        metrics.bytesInDecoded.increment(by: req.body.count)
    }
}
