#if canImport(Glibc)
    import Glibc
#endif
import HTTPTransport
import Foundation
import LayoutServer

// The Swift share of a set-constant request: the whole middleware chain (routing, JSON in,
// session lock, model, JSON out, metrics) called in-process, no socket. The HTTP load
// benchmark sees this cost only through network and scheduling noise; here a change of
// a few hundred nanoseconds shows. Same workload as `make load`: 64 sessions of one
// 5-view cell, each request moving its session's avatar.
//
//   swift run -c release layoutd-handler-bench [seconds] [sessions]
//
// HANDLER_ROUNDS=N runs exactly N rounds instead of for a time: under callgrind, two counts
// (say 50 and 250 rounds) differ by exactly what 200 × sessions requests cost, whatever the
// machine did meanwhile (the bench's values then repeat too).

let seconds = CommandLine.arguments.count > 1 ? Double(CommandLine.arguments[1]) ?? 3 : 3
let sessionCount = CommandLine.arguments.count > 2 ? Int(CommandLine.arguments[2]) ?? 64 : 64

func now() -> Double { Double(DispatchTime.now().uptimeNanoseconds) / 1e9 }

let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
let cell = try Array(Data(contentsOf: root.appendingPathComponent("Benchmarks/http/cell.json")))
var configuration = ServerConfiguration()
configuration.maxSessions = max(configuration.maxSessions, sessionCount)
let server = try! LayoutdServer(configuration: configuration)
/// The headers wrk sends, looked up by exact name as libmicrohttpd's lookup does.
final class WrkHeaders: RequestValues {
    let headers = ["Content-Type": "application/json", "Accept-Encoding": "identity"]
    func header(_ name: String) -> String? { headers[name] }
    func query(_ name: String) -> String? { nil }
}
let json = WrkHeaders()

var ids: [String] = []
for _ in 0..<sessionCount {
    var req = Request(method: "POST", path: "/v1/sessions", body: cell, values: json)
    let r = server.handle(&req)
    precondition(r.status == 201, "session creation answered \(r.status)")
    let created = try JSONSerialization.jsonObject(with: Data(r.body)) as! [String: Any]
    ids.append(created["session"] as! String)
}
let paths = ids.map { "/v1/sessions/\($0)/constants" }

var perRequest: [Double] = []
var round = 0
var bytes = 0
let end = now() + seconds
let fixedRounds = ProcessInfo.processInfo.environment["HANDLER_ROUNDS"].flatMap { Int($0) }
while fixedRounds.map({ round < $0 }) ?? (now() < end) {
    round += 1
    let body = Array("{\"lead\":\(8 + round % 64)}".utf8)
    let t0 = now()
    for path in paths {
        var req = Request(method: "POST", path: path, body: body, values: json)
        let r = server.handle(&req)
        bytes += r.body.count
    }
    perRequest.append((now() - t0) * 1e9 / Double(paths.count))
}
let sorted = perRequest.sorted()
let pct = { (p: Double) -> Int in Int(sorted[min(sorted.count - 1, Int(Double(sorted.count) * p))]) }
print(
    "handler set-constant: rounds=\(round) requests=\(round * paths.count) ns_per_request p10=\(pct(0.1)) p50=\(pct(0.5)) p90=\(pct(0.9)) answer_bytes=\(bytes / max(1, round * paths.count))"
)
