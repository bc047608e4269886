#if canImport(Glibc)
    import Glibc
#endif
import JSON

// 64 concurrent drags over WebSocket streams, each on its own 1,000-cell session.
// Paced (120 Hz per drag, like a pointer) and closed-loop (as fast as answers come).
// Prints one JSON line per mode. Loopback only; every phase is bounded in time.
//
//   layoutd --port 8097 --max-body-bytes 16777216 &
//   swift run -c release layoutd-drag-bench --port 8097 [--drags 64] [--cells 1000] [--seconds 10]

var port: UInt16 = 8097, drags = 64, cells = 1000, seconds = 10.0, settle = 0.0, client = "threads"
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    switch a {
    case "--port": port = UInt16(args.popFirst()!)!
    case "--drags": drags = Int(args.popFirst()!)!
    case "--cells": cells = Int(args.popFirst()!)!
    case "--seconds": seconds = Double(args.popFirst()!)!
    case "--client": client = args.popFirst()!
    case "--settle": settle = Double(args.popFirst()!)!
    default:
        print("usage: layoutd-drag-bench [--port P] [--drags N] [--cells N] [--seconds S] [--client threads|epoll|in-process] [--settle S]"); exit(2)
    }
}

func cellsDocument(_ n: Int) -> String {
    var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":375,"height":812}}"#]
    var cons: [String] = []
    for i in 0..<n {
        let c = "c\(i)"
        views.append(#"{"id":"\#(c)","parent":"root"}"#)
        views.append(#"{"id":"\#(c)a","parent":"\#(c)"}"#)
        views.append(#"{"id":"\#(c)t","parent":"\#(c)","intrinsicSize":{"width":\#(60 + (i * 37) % 260),"height":20}}"#)
        views.append(
            #"{"id":"\#(c)d","parent":"\#(c)","intrinsicSize":{"width":\#(40 + i % 40),"height":16},"hugging":{"horizontal":251},"compressionResistance":{"horizontal":751}}"#
        )
        views.append(#"{"id":"\#(c)b","parent":"\#(c)","intrinsicSize":{"height":\#(20 + (i % 5) * 20)}}"#)
        cons += [
            #"{"expr":"\#(c).left == root.left"}"#, #"{"expr":"\#(c).top == root.top"}"#, #"{"expr":"\#(c).width == root.width"}"#,
            #"{"expr":"\#(c).bottom >= \#(c)a.bottom + 12"}"#, #"{"expr":"\#(c).bottom >= \#(c)b.bottom + 12"}"#,
            #"{"expr":"\#(c).height == 44 @250"}"#,
            #"{"id":"\#(c)lead","expr":"\#(c)a.leading == \#(c).leading + 16"}"#, #"{"expr":"\#(c)a.top == \#(c).top + 12"}"#,
            #"{"expr":"\#(c)a.width == 40"}"#, #"{"expr":"\#(c)a.height == \#(c)a.width"}"#,
            #"{"visual":"H:[\#(c)a]-8-[\#(c)t]-(>=8)-[\#(c)d]-16-|","options":["alignAllTop"]}"#,
            #"{"expr":"\#(c)b.leading == \#(c)t.leading"}"#, #"{"expr":"\#(c)b.top == \#(c)t.bottom + 4"}"#,
            #"{"expr":"\#(c)b.trailing == \#(c).trailing - 16"}"#
        ]
    }
    return #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(cons.joined(separator: ","))]}"#
}

let doc = Array(cellsDocument(cells).utf8)

// The model alone, one drag, no sockets: what a stream update costs before the network.
if client == "in-process" {
    let all = runInProcess(document: doc, seconds: seconds, mid: cells / 2).sorted()
    let line: JSON = .object([
        ("bench", .string("session-drag")), ("client", .string(client)), ("cells_per_session", .number(Double(cells))),
        ("updates", .number(Double(all.count))), ("p50_us", .number((percentile(all, 0.5) * 100).rounded() / 100)),
        ("p99_us", .number((percentile(all, 0.99) * 100).rounded() / 100)), ("max_us", .number(all.last!.rounded()))
    ])
    print(String(decoding: line.serialized, as: UTF8.self))
    exit(0)
}

// Sessions.
var sessions: [String] = []
let t0 = now()
for _ in 0..<drags {
    let c = Conn(port)
    c.write(
        Array("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(doc.count)\r\n\r\n".utf8) + doc)
    let head = c.readHead()
    guard head.hasPrefix("HTTP/1.1 201"), let lenLine = head.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") })
    else { print("create failed: \(head)"); exit(1) }
    let body = c.readBody(Int(lenLine.split(separator: ":")[1].trimmingPrefix(" "))!)
    sessions.append((try! JSONParser.parse(body))["session"]!.string!)
    close(c.fd)
}
let setup = now() - t0
// Optional pause after building the sessions (gigabytes of fresh memory), so that what the
// kernel and the hypervisor do with it afterwards is not timed as drag latency.
if settle > 0 { sleep(until: now() + settle) }

// Streams.
let conns: [Conn] = sessions.map { id in
    let c = Conn(port)
    c.write(
        Array(
            "GET /v1/sessions/\(id)/stream HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
                .utf8))
    guard c.readHead().hasPrefix("HTTP/1.1 101") else { print("upgrade failed"); exit(1) }
    return c
}

@MainActor func run(paced: Bool) -> (updates: Int, perSecond: Double, p50: Double, p99: Double, max: Double, views: Double) {
    let results = Results(drags)
    let mid = cells / 2
    if client == "epoll" {
        let (l, v) = runEventLoop(conns, paced: paced, seconds: seconds, mid: mid)
        results.latencies = [l]
        results.changedViews = [v]
        return summarize(results)
    }
    let start = now() + 0.05, end = start + seconds
    var threads: [pthread_t] = []
    for k in 0..<drags {
        let box = Unmanaged.passRetained(DragJob(k, of: drags, paced, results, start, end, conns[k], mid)).toOpaque()
        var t = pthread_t()
        pthread_create(&t, nil, dragWorker, box)
        threads.append(t)
    }
    for t in threads { pthread_join(t, nil) }
    return summarize(results)
}

@MainActor func summarize(_ results: Results) -> (updates: Int, perSecond: Double, p50: Double, p99: Double, max: Double, views: Double) {
    let all = results.latencies.flatMap { $0 }.sorted()
    let views = results.changedViews.flatMap { $0 }
    return (
        all.count, Double(all.count) / seconds, percentile(all, 0.5), percentile(all, 0.99), all.last ?? 0,
        views.isEmpty ? 0 : Double(views.reduce(0, +)) / Double(views.count)
    )
}

for (mode, paced) in [("paced-120hz", true), ("closed-loop", false)] {
    let r = run(paced: paced)
    let line: JSON = .object([
        ("bench", .string("stream-drag")), ("mode", .string(mode)), ("client", .string(client)), ("drags", .number(Double(drags))),
        ("cells_per_session", .number(Double(cells))), ("seconds", .number(seconds)),
        ("setup_s", .number((setup * 10).rounded() / 10)),
        ("updates", .number(Double(r.updates))), ("updates_per_s", .number(r.perSecond.rounded())),
        ("p50_us", .number(r.p50.rounded())), ("p99_us", .number(r.p99.rounded())), ("max_us", .number(r.max.rounded())),
        ("changed_views_mean", .number((r.views * 100).rounded() / 100))
    ])
    print(String(decoding: line.serialized, as: UTF8.self))
}
