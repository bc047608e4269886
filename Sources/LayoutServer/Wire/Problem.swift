import CheckedNumbers
import HTTPTransport
import JSON
import LayoutModel
import WorkBudget

/// RFC 9457 problem details, with an RFC 6901 pointer into the request body where there is one.
struct Problem: Error {
    var status: Int
    var title: String
    var detail: String
    var pointer: String? = nil
    /// Where in an XML body (1-based line and column), as a pointer is in JSON.
    var place: (line: Int, column: Int)? = nil
    var headers: [(String, String)] = []
    /// The session is held by another replica (a stream closes, so its client reconnects
    /// through the proxy to the session's home).
    var movedElsewhere = false
    /// Answered this much later, its connection suspended meanwhile (a rate's refusal: a
    /// client on keep-alive cannot send its next request before a token is there).
    var heldSeconds = 0.0
    /// The session a problem is about, where the client may not know its id yet (a new
    /// session whose store write's outcome is unknown).
    var session: String? = nil

    var type: String {
        switch status {
        case 400: return "/problems/malformed-request"
        case 401: return "/problems/unauthorized"
        case 404: return "/problems/not-found"
        case 405: return "/problems/method-not-allowed"
        case 409: return "/problems/revision-mismatch"
        case 413: return "/problems/too-large"
        case 415: return "/problems/unsupported-media-type"
        case 422: return "/problems/contract-violation"
        case 429: return "/problems/too-many-requests"
        case 502: return "/problems/outcome-unknown"
        case 503: return "/problems/unavailable"
        default: return "/problems/internal"
        }
    }

    var json: JSON {
        var m: [(key: String, value: JSON)] = [
            ("type", .string(type)), ("title", .string(title)), ("status", .number(Double(status))),
            ("detail", .string(detail))
        ]
        if let pointer { m.append(("pointer", .string(pointer))) }
        if let place { m += [("line", .number(Double(place.line))), ("column", .number(Double(place.column)))] }
        if let session { m.append(("session", .string(session))) }
        return .object(m)
    }

    var response: Response {
        var r = Response(status: status, contentType: "application/problem+json", headers: headers, body: json.serialized)
        if heldSeconds > 0 { r.delay(seconds: heldSeconds) }
        return r
    }

    static func titleFor(_ status: Int) -> String {
        switch status {
        case 400: return "Malformed request"
        case 401: return "Unauthorized"
        case 404: return "Not found"
        case 405: return "Method not allowed"
        case 409: return "Revision mismatch"
        case 413: return "Too large"
        case 415: return "Unsupported media type"
        case 422: return "Unprocessable content"
        case 429: return "Too many requests"
        case 502: return "Outcome unknown"
        case 503: return "Service unavailable"
        default: return "Internal error"
        }
    }

    init(_ status: Int, _ detail: String, pointer: String? = nil, headers: [(String, String)] = []) {
        self.status = status
        self.title = Self.titleFor(status)
        self.detail = detail
        self.pointer = pointer
        self.headers = headers
    }

    /// Work a budget stopped: a drain's cancel, or its deadline passed.
    init(stopped budget: WorkBudget) {
        if budget.wasCancelled {
            self.init(503, "the server is shutting down: retry", headers: [("Retry-After", "1")])
        } else {
            self.init(
                503, "the request's work passed its deadline of \(fmtSeconds(budget.seconds)) s (--request-deadline)",
                headers: [("Retry-After", "1")])
        }
    }

    /// A body that built no session: not JSON, or a document refused.
    init(_ e: LayoutSession.BodyError) {
        switch e {
        case .notJSON(let j): self.init(notJSON: j)
        case .refused(let l): self.init(l)
        }
    }

    init(_ e: LayoutError) {
        let status: Int
        switch e.kind {
        case .malformed: status = 400
        case .invalid: status = 422
        case .revisionMismatch: status = 409
        case .limit: status = 413
        case .quota: status = 429
        case .stopped: status = 503
        }
        self.init(status, e.detail, pointer: e.pointer)
        if e.kind == .quota { headers.append(("Retry-After", "5")) }
        if e.kind == .stopped { headers.append(("Retry-After", "1")) }
    }
}

/// Seconds as a person writes them: 30, 2.5.
private func fmtSeconds(_ s: Double) -> String { s == s.rounded() && abs(s) < 1e9 ? String(Int(saturating: s)) : String(s) }
