import CheckedNumbers
import HTTPTransport

/// The middleware that says who a request acts for: anyone on an open route or server; else
/// the holder of a stream ticket (a browser's WebSocket), or the tenant whose key
/// `Authorization: Bearer` carries, within its request rate and share of connections.
struct Authorization: Sendable {
    let access: AccessControl
    let tickets: StreamTickets
    let metrics: ServerMetrics

    /// The caller, or the refusal to answer with (401, 429).
    func caller(_ route: RouteTable.Entry, _ req: Request) throws(Problem) -> Caller {
        if access.isOpen || route.open { return .anyone }
        if route.ticketed, let ticket = req.query("ticket") {
            guard let caller = tickets.redeem(ticket, session: req.parameter("id")) else {
                metrics.keyRefused("unknown_ticket")
                throw Problem(401, "the stream ticket is unknown, spent or expired: ask for another", headers: [("WWW-Authenticate", "Bearer")])
            }
            return caller
        }
        switch access.caller(authorization: req.header("Authorization")) {
        case .failure(.noKey):
            metrics.keyRefused("no_key")
            throw Problem(401, "send an API key: Authorization: Bearer KEY", headers: [("WWW-Authenticate", "Bearer")])
        case .failure(.unknownKey):
            metrics.keyRefused("unknown_key")
            throw Problem(401, "the API key is not known (revoked, or mistyped)", headers: [("WWW-Authenticate", #"Bearer error="invalid_token""#)])
        case .success(let caller):
            if let wait = access.admit(caller) { throw overRate(caller, wait: wait) }
            // Its share of the connections, from however many addresses: past it, this
            // connection is closed with the refusal, the slot going back to everyone.
            if !req.holdConnection(for: caller.owner) {
                metrics.tenant(caller.owner, "connections")
                throw Problem(
                    429, "tenant \(caller.owner) holds its share of the server's connections (--max-connections-per-tenant): reuse one",
                    headers: [("Retry-After", "1"), ("Connection", "close")])
            }
            metrics.tenant(caller.owner, "request")
            return caller
        }
    }

    /// 429 for a tenant past its `requestsPerSecond`, `wait` seconds before its next token.
    private func overRate(_ caller: Caller, wait: Double) -> Problem {
        metrics.tenant(caller.owner, "rate")
        // The IETF draft's fields (draft-ietf-httpapi-ratelimit-headers): the policy, a
        // quota of requestsPerSecond a 1 s window, and what is left of it.
        let quota = Int(saturating: caller.tenant?.quotas.requestsPerSecond ?? 0)
        let seconds = max(1, Int(saturating: wait.rounded(.up)))
        var refusal = Problem(
            429, "tenant \(caller.owner) is over its rate of requests: retry in \(seconds) s",
            headers: [
                ("Retry-After", "\(seconds)"), ("RateLimit-Policy", #""tenant";q=\#(quota);w=1"#),
                ("RateLimit", #""tenant";r=0;t=\#(seconds)"#)
            ])
        // Held until the next token (at most a second): a flood on keep-alive
        // connections then sends at about its rate, each refusal a wakeup of the
        // server less. Unheld, a flood is refused as fast as it sends, and each
        // refusal costs server CPU the other tenants share.
        refusal.heldSeconds = min(wait, 1)
        return refusal
    }
}
