import HTTPTransport
import JSON

/// The request body as JSON: 415 unless it says JSON, 400 unless it is JSON.
func jsonBody(_ req: Request) throws(Problem) -> JSON {
    try checkJSONMedia(req)
    do { return try JSONParser.parse(req.body) } catch { throw Problem(notJSON: error) }
}

/// 415 unless the body says it is JSON.
func checkJSONMedia(_ req: Request) throws(Problem) {
    // The common spelling is checked in place; anything else is parsed below.
    if !req.header("Content-Type", is: "application/json") {
        guard let header = req.header("Content-Type") else {
            throw Problem(415, "send the body as application/json (Content-Type is missing)")
        }
        let media = header.lowercased().split(separator: ";").first.map { $0.trimming(" ") } ?? ""
        guard media == "application/json" || media.hasSuffix("+json") else {
            throw Problem(415, "send the body as application/json, not \(media)")
        }
    }
}

/// 415 unless the body says it is XML (or plain bytes, as `curl --data-binary` sends a file).
func checkXMLMedia(_ req: Request) throws(Problem) {
    guard let header = req.header("Content-Type") else {
        throw Problem(415, "send the document as application/xml (Content-Type is missing)")
    }
    let media = header.lowercased().split(separator: ";").first.map { $0.trimming(" ") } ?? ""
    guard media == "application/xml" || media == "text/xml" || media.hasSuffix("+xml") || media == "application/octet-stream" else {
        throw Problem(415, "send the document as application/xml, not \(media)")
    }
}

/// `?timing=true` asks for what the engine did (as the playground's timeline shows it).
func timingRequested(_ req: Request) throws(Problem) -> Bool {
    switch req.query("timing") {
    case nil, "false", "0": return false
    case "true", "1": return true
    default: throw Problem(400, "timing is true or false")
    }
}

extension Problem {
    init(notJSON error: JSONParseError) {
        self.init(400, "the body is not JSON: \(error.message) at byte \(error.offset)", pointer: "")
    }
}

/// The first of `types` the request's `Accept` names, in its order (q-values aside); nil when
/// it names none before `*/*`, or has no `Accept`: the route's own default then.
func firstAccepted(_ req: Request, of types: [String]) -> String? {
    guard let accept = req.header("Accept") else { return nil }
    for part in accept.lowercased().split(separator: ",") {
        let media = part.split(separator: ";").first.map { $0.trimming(" ") } ?? ""
        if types.contains(media) { return media }
        if media == "*/*" { return nil }
    }
    return nil
}
