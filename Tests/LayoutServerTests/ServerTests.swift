import HTTPTransport
import CZlib
import Foundation
import Synchronization
import XCTest
import LayoutModel
@testable import LayoutServer
import ConstraintSolver

final class ServerTests: XCTestCase {
    func testHealthReadyMetricsAndOpenAPI() throws {
        let t = try TestServer()
        let c = t.client()
        XCTAssertEqual(c.request("GET", "/healthz").status, 200)
        XCTAssertEqual(c.request("GET", "/readyz").status, 200)
        let spec = c.request("GET", "/openapi.yaml")
        XCTAssertEqual(spec.status, 200)
        let file = try String(contentsOfFile: repoRoot + "/openapi.yaml", encoding: .utf8)
        XCTAssertEqual(
            spec.text, file, "the served document is the repository's openapi.yaml (embedded through Sources/LayoutServer/openapi.yaml, a link)")
        _ = c.request("POST", "/v1/sessions", json: cardDocument)
        // A made-up method must not make a time series of its own.
        XCTAssertEqual(c.request("BREW", "/v2/coffee").status, 404)
        XCTAssertEqual(c.request("FROTH", "/v2/coffee").status, 404)
        let m = c.request("GET", "/metrics")
        XCTAssertTrue(m.text.contains(#"layoutd_http_requests_total{route="unmatched",method="other",status="404"} 2"#), m.text)
        XCTAssertFalse(m.text.contains("BREW"))
        XCTAssertEqual(m.status, 200)
        for name in [
            "layoutd_http_requests_total{route=\"/v1/sessions\",method=\"POST\",status=\"201\"} 1", "layoutd_http_request_duration_seconds_bucket",
            "layoutd_sessions_active 1", "layoutd_engine_solve_seconds", "layoutd_engine_rows", "layoutd_engine_columns",
            "layoutd_set_constants_total", "layoutd_diagnostics_total", "layoutd_http_request_bytes_total", "layoutd_http_response_bytes_total",
            "layoutd_sessions_evicted_total", "layoutd_streams_open"
        ] {
            XCTAssertTrue(m.text.contains(name), "metrics lack \(name)")
        }
    }

    /// `?timing=true` adds what the engine did to a change's answer; without it nothing is added.
    func testTimingOnRequest() throws {
        let t = try TestServer()
        let c = t.client()
        let id = c.request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String
        XCTAssertNil(c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 20}"#).object["timing"])
        let timed = c.request("POST", "/v1/sessions/\(id)/constants?timing=true", json: #"{"avatarLeading": 30}"#)
        let timing = try XCTUnwrap(timed.object["timing"] as? [String: Any], timed.text)
        XCTAssertGreaterThan(try XCTUnwrap(timing["engineMicroseconds"] as? Double), 0)
        XCTAssertNotNil(timing["pivots"] as? Int)
        XCTAssertNotNil(timing["rowsTouched"] as? Int)
        let changed = c.request(
            "POST", "/v1/sessions/\(id)/changes?timing=1", json: #"{"ops": [{"op": "setConstant", "id": "avatarLeading", "constant": 8}]}"#)
        XCTAssertNotNil(changed.object["timing"], changed.text)
        let bad = c.request("POST", "/v1/sessions/\(id)/constants?timing=yes", json: #"{"avatarLeading": 40}"#)
        XCTAssertEqual(bad.status, 400)
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").object["revision"] as? Int, 4, "the refused change changed nothing")
    }

    /// A conflicting set past `--max-conflicts-listed` names that many over the wire, the rest
    /// counted in `conflictsOmitted`; a set within it has no such field.
    func testALongConflictingSetIsCountedNotListed() throws {
        let t = try TestServer { $0.maxConflictsListed = 3 }
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":375,"height":1000}}"#], constraints: [String] = []
        for i in 0..<6 {
            views.append(#"{"id":"c\#(i)","parent":"root"}"#)
            constraints += [
                #"{"id":"w\#(i)","expr":"c\#(i).width == root.width"}"#, #"{"expr":"c\#(i).top == root.top"}"#, #"{"expr":"c\#(i).height == 4"}"#
            ]
            constraints.append(#"{"expr":"c\#(i).leading == root.leading"}"#)
            if i > 0 { constraints.append(#"{"id":"p\#(i)","expr":"c\#(i).width == c\#(i - 1).width + 2"}"#) }
        }
        let reply = t.client().request(
            "POST", "/v1/layout", json: #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#)
        XCTAssertEqual(reply.status, 200, reply.text)
        let broken = try XCTUnwrap(reply.object["diagnostics"] as? [[String: Any]]).filter { $0["kind"] as? String == "unsatisfiable" }
        XCTAssertEqual(broken.count, 5)
        let first = try XCTUnwrap(broken.first)
        XCTAssertEqual(first["constraint"] as? String, "w0")
        XCTAssertEqual((first["conflicts"] as? [String])?.count, 3)
        XCTAssertEqual(first["conflictsOmitted"] as? Int, 4, "w0, p1…p5 and w5: 7 in all")
        let last = try XCTUnwrap(broken.last)
        XCTAssertEqual(last["conflicts"] as? [String], ["w4", "w5", "p5"])
        XCTAssertNil(last["conflictsOmitted"])
    }

    /// The playground's files are served from the binary; anything else under /playground is 404.
    func testPlaygroundFilesAreServed() throws {
        let t = try TestServer()
        let c = t.client()
        let page = c.request("GET", "/")
        XCTAssertEqual(page.status, 200)
        XCTAssertEqual(page.headers["content-type"], "text/html; charset=utf-8")
        XCTAssertTrue(page.text.contains(#"src="/playground/app.js""#))
        XCTAssertNotNil(page.headers["content-security-policy"])
        for file in ["app.js", "api.js", "canvas.js", "examples.js", "panels.js", "pointer.js"] {
            let r = c.request("GET", "/playground/\(file)")
            XCTAssertEqual(r.status, 200, file)
            XCTAssertEqual(r.headers["content-type"], "text/javascript; charset=utf-8", file)
        }
        XCTAssertEqual(c.request("GET", "/playground/playground.css").headers["content-type"], "text/css; charset=utf-8")
        XCTAssertEqual(c.request("GET", "/playground/..%2Fopenapi.yaml").status, 404)
        XCTAssertEqual(c.request("GET", "/playground/missing.js").status, 404)
    }

    func testOpenAPIValidates() throws {
        let p = Process()
        p.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        p.arguments = [
            "python3", "-c",
            "from openapi_spec_validator import validate\nfrom openapi_spec_validator.readers import read_from_filename\nd,_=read_from_filename('\(repoRoot)/openapi.yaml'); validate(d)"
        ]
        try p.run()
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0, "openapi.yaml must validate with openapi-spec-validator")
    }

    func testSessionLifecycleOverHTTP() throws {
        let t = try TestServer()
        let c = t.client()
        let created = c.request("POST", "/v1/sessions", json: cardDocument)
        XCTAssertEqual(created.status, 201)
        let id = created.object["session"] as! String
        XCTAssertEqual(id.count, 32)
        XCTAssertEqual(created.headers["location"], "/v1/sessions/\(id)")
        XCTAssertEqual((created.object["frames"] as! [String: Any]).count, 3)

        let got = c.request("GET", "/v1/sessions/\(id)")
        XCTAssertEqual(got.status, 200)
        XCTAssertEqual(got.object["revision"] as? Int, 1)
        XCTAssertEqual(((got.object["document"] as! [String: Any])["views"] as! [Any]).count, 3)

        let k = c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 20}"#)
        XCTAssertEqual(k.status, 200)
        XCTAssertEqual(k.object["revision"] as? Int, 2)
        let frames = k.object["frames"] as! [String: [String: Double]]
        XCTAssertEqual(Set(frames.keys), ["avatar", "title"])
        XCTAssertEqual(frames["avatar"]?["x"], 20)

        let ch = c.request(
            "POST", "/v1/sessions/\(id)/changes",
            json:
                #"{"baseRevision":2,"ops":[{"op":"addViews","views":[{"id":"badge","parent":"avatar"}]},{"op":"addConstraints","constraints":[{"expr":"badge.width == 4"}]}]}"#
        )
        XCTAssertEqual(ch.status, 200)
        XCTAssertEqual(ch.object["added"] as? [String], ["c3"], "c1 and c2 were given at creation")
        XCTAssertTrue(
            (ch.object["diagnostics"] as! [[String: Any]]).contains { $0["view"] as? String == "badge" && $0["kind"] as? String == "ambiguous" })

        let since = c.request("GET", "/v1/sessions/\(id)/frames?since=2")
        XCTAssertEqual(Set((since.object["frames"] as! [String: Any]).keys), ["badge"])
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)/frames?since=99").status, 400)
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)/frames?since=0").object["full"] as? Bool, true)

        let ex = c.request("GET", "/v1/sessions/\(id)/explain?view=avatar&axis=horizontal")
        let explained = ex.object["constraints"] as! [[String: Any]]
        XCTAssertEqual(explained.filter { $0["role"] as? String == "determining" }.map { $0["id"] as! String }, ["avatarLeading", "avatarWidth"])
        XCTAssertTrue(explained.allSatisfy { ["determining", "satisfied", "unsatisfied", "broken"].contains($0["role"] as? String) })
        let tr = c.request("GET", "/v1/sessions/\(id)/trace")
        XCTAssertEqual(tr.headers["content-type"], "text/plain; charset=utf-8")
        XCTAssertTrue(tr.text.contains("|badge (0, 0, 4, 0) AMBIGUOUS LAYOUT horizontal, vertical"), tr.text)
        let alt = c.request("POST", "/v1/sessions/\(id)/exercise-ambiguity")
        XCTAssertEqual(alt.object["revision"] as? Int, 3)
        XCTAssertNotNil((alt.object["frames"] as! [String: Any])["badge"])

        XCTAssertEqual(c.request("DELETE", "/v1/sessions/\(id)").status, 204)
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").status, 404)
    }

    func testOneShotLayout() throws {
        let t = try TestServer()
        let r = t.client().request("POST", "/v1/layout", json: cardDocument)
        XCTAssertEqual(r.status, 200)
        let f = (r.object["frames"] as! [String: [String: Double]])
        XCTAssertEqual(f["title"], ["x": 60, "y": 18, "width": 120, "height": 20])
    }

    /// A one-shot answer large enough to be lent to libmicrohttpd (not copied), its frames
    /// written straight from the session: in document order, hidden flags kept, fractions
    /// exact; the same bytes again on the kept-alive connection (the lent body is released
    /// after it is sent, not before).
    func testALargeOneShotAnswerIsWholeAndInDocumentOrder() throws {
        let t = try TestServer()
        let ids = (0..<800).map { "v\(($0 * 7919) % 800)-\($0)" }  // not in sorted order
        var views = [#"{"id":"r","frame":{"x":0,"y":0,"width":101,"height":100000}}"#]
        var constraints: [String] = []
        for (i, id) in ids.enumerated() {
            views.append(#"{"id":"\#(id)","parent":"r"\#(i == 7 ? #","hidden":true"# : "")}"#)
            let above = i == 0 ? "r.top" : "\(ids[i - 1]).bottom"
            constraints += [
                #"{"expr":"\#(id).top == \#(above)"}"#, #"{"expr":"\#(id).centerX == r.centerX"}"#,
                #"{"expr":"\#(id).width == 40"}"#, #"{"expr":"\#(id).height == 10"}"#
            ]
        }
        let doc = #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]}"#
        let c = t.client()
        let r = c.request("POST", "/v1/layout", json: doc)
        XCTAssertEqual(r.status, 200, r.text)
        XCTAssertGreaterThan(r.body.count, 32 * 1024)
        let frames = try XCTUnwrap(r.object["frames"] as? [String: [String: Any]])
        XCTAssertEqual(frames.count, ids.count + 1)
        for (i, id) in ids.enumerated() {
            let f = try XCTUnwrap(frames[id], id)
            XCTAssertEqual(f["x"] as? Double, 30.5, id)
            XCTAssertEqual(f["y"] as? Double, Double(10 * i), id)
            XCTAssertEqual(f["width"] as? Double, 40, id)
            XCTAssertEqual(f["height"] as? Double, 10, id)
            XCTAssertEqual(f["hidden"] as? Bool, i == 7 ? true : nil, id)
        }
        // Document order: each id's key comes after the one before it.
        let text = r.text
        var at = text.startIndex
        for id in ["r"] + ids {
            let found = try XCTUnwrap(text.range(of: "\"\(id)\":{", range: at..<text.endIndex), id)
            at = found.upperBound
        }
        XCTAssertEqual(c.request("POST", "/v1/layout", json: doc).body, r.body)
    }

    func problem(_ r: HTTPTestClient.Reply, _ status: Int, pointer: String? = nil, file: StaticString = #filePath, line: UInt = #line) {
        XCTAssertEqual(r.status, status, r.text, file: file, line: line)
        XCTAssertEqual(r.headers["content-type"], "application/problem+json", file: file, line: line)
        XCTAssertEqual(r.object["status"] as? Int, status, file: file, line: line)
        XCTAssertNotNil(r.object["type"], file: file, line: line)
        XCTAssertNotNil(r.object["title"], file: file, line: line)
        if let pointer { XCTAssertEqual(r.object["pointer"] as? String, pointer, r.text, file: file, line: line) }
    }

    func testEveryErrorStatusAndTheSessionStaysAsItWas() throws {
        let t = try TestServer {
            $0.http.maxBodyBytes = 4096; $0.maxSessions = 2
        }
        let c = t.client()
        let id = c.request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String
        let before = c.request("GET", "/v1/sessions/\(id)").text

        problem(c.request("POST", "/v1/sessions/\(id)/changes", json: #"{"ops":[{"op":"#), 400, pointer: "")
        problem(c.request("GET", "/v1/sessions/0123456789abcdef0123456789abcdef"), 404)
        problem(c.request("GET", "/v1/sessions/\(id.uppercased())"), 404)  // ids are lowercase hex
        problem(c.request("GET", "/v1/sessions/\(id.dropLast())"), 404)
        problem(c.request("POST", "/v1/sessions/\(id)0/constants", json: "{}"), 404)
        problem(c.request("GET", "/v2/nothing"), 404)
        let m = c.request("PUT", "/v1/sessions/\(id)/changes", json: "{}")
        problem(m, 405)
        XCTAssertEqual(m.headers["allow"], "POST")
        problem(c.request("POST", "/v1/sessions/\(id)/changes", json: #"{"baseRevision":9,"ops":[]}"#), 409, pointer: "/baseRevision")
        problem(c.request("POST", "/v1/sessions/\(id)/changes", json: "{\"ops\":[],\"pad\":\"" + String(repeating: "x", count: 5000) + "\"}"), 413)
        problem(c.request("POST", "/v1/sessions/\(id)/changes", headers: ["Content-Type": "text/plain"], body: Array("{}".utf8)), 415)
        problem(
            c.request(
                "POST", "/v1/sessions/\(id)/changes", headers: ["Content-Type": "application/json", "Content-Encoding": "br"], body: Array("{}".utf8)),
            415)
        problem(
            c.request(
                "POST", "/v1/sessions/\(id)/changes",
                json:
                    #"{"ops":[{"op":"setConstant","id":"avatarLeading","constant":1},{"op":"addConstraints","constraints":[{"expr":"avatar.left == card.top"}]}]}"#
            ), 422, pointer: "/ops/1/constraints/0/expr")
        problem(c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 5, "ghost": 1}"#), 422, pointer: "/ghost")
        problem(
            c.request(
                "POST", "/v1/sessions/\(id)/changes", headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"],
                body: Array("not gzip".utf8)), 400)
        // A zip bomb: 1 MB of zeros in ~1 KB of gzip, against a 4 KiB limit.
        let bomb = HTTPTransport.Gzip().compress([UInt8](repeating: 0x20, count: 1 << 20))
        XCTAssertLessThan(bomb.count, 4096)
        problem(
            c.request("POST", "/v1/sessions/\(id)/changes", headers: ["Content-Type": "application/json", "Content-Encoding": "gzip"], body: bomb),
            413)
        problem(c.request("POST", "/v1/sessions/\(id)/changes", json: #"{"ops":[{"op":"explode"}]}"#), 422, pointer: "/ops/0/op")
        // The session is exactly as before all of that.
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").text, before)
        // The session cap: 429 with Retry-After.
        XCTAssertEqual(c.request("POST", "/v1/sessions", json: cardDocument).status, 201)
        let full = c.request("POST", "/v1/sessions", json: cardDocument)
        problem(full, 429)
        XCTAssertEqual(full.headers["retry-after"], "1")
        // Per-session caps are 413.
        let t2 = try TestServer { $0.maxViewsPerSession = 2 }
        problem(t2.client().request("POST", "/v1/sessions", json: cardDocument), 413)
    }

    func testConnectionLimitIs503() throws {
        let t = try TestServer { $0.http.connectionLimit = 4 }
        let clients = (0..<4).map { _ in t.client() }
        for c in clients { XCTAssertEqual(c.request("GET", "/healthz").status, 200) }
        let fifth = t.client()
        let r = fifth.request("GET", "/healthz")
        problem(r, 503)
        XCTAssertEqual(r.headers["retry-after"], "1")
        XCTAssertEqual(r.headers["connection"]?.lowercased(), "close")
        // Once one closes, a new connection is served again.
        clients[0].disconnect()
        XCTAssertTrue(waitFor { t.client().request("GET", "/healthz").status == 200 })
    }

    func testGzipBothWaysThroughZlib() throws {
        let t = try TestServer()
        let c = t.client()
        // Thirty more views make the document (and its answers) larger than 1 KiB.
        let extra = (0..<30).map { #",{"id":"extra\#($0)","parent":"card","frame":{"x":\#($0),"y":0,"width":1,"height":1}}"# }.joined()
        let document = cardDocument.replacingOccurrences(of: #"{"id":"avatar","parent":"card"}"#, with: #"{"id":"avatar","parent":"card"}"# + extra)
        let gz = HTTPTransport.Gzip().compress(Array(document.utf8))
        XCTAssertEqual(Array(gz.prefix(2)), [0x1f, 0x8b])
        let r = c.request(
            "POST", "/v1/sessions", headers: ["Content-Type": "application/json", "Content-Encoding": "gzip", "Accept-Encoding": "gzip"], body: gz)
        XCTAssertEqual(r.status, 201)
        XCTAssertEqual(r.headers["content-encoding"], "gzip")
        let small = c.request("GET", "/healthz", headers: ["Accept-Encoding": "gzip"])
        XCTAssertNil(small.headers["content-encoding"], "answers of 1 KiB or less are never gzip")
        XCTAssertNil(small.headers["vary"], "an answer too small to gzip is the same for every Accept-Encoding")
        XCTAssertEqual(r.headers["vary"], "Accept-Encoding")
        let id = (try JSONSerialization.jsonObject(with: Data(inflateWithZlib(r.body))) as! [String: Any])["session"] as! String
        let plain = c.request("GET", "/v1/sessions/\(id)")
        XCTAssertGreaterThan(plain.body.count, 1024)
        XCTAssertNil(plain.headers["content-encoding"])
        XCTAssertEqual(plain.headers["vary"], "Accept-Encoding", "a cache must not give the identity answer to a gzip client")
        let zipped = c.request("GET", "/v1/sessions/\(id)", headers: ["Accept-Encoding": "deflate, gzip;q=0.8"])
        XCTAssertEqual(zipped.headers["content-encoding"], "gzip")
        XCTAssertLessThan(zipped.body.count, plain.body.count)
        XCTAssertEqual(inflateWithZlib(zipped.body), plain.body)
        XCTAssertNil(c.request("GET", "/v1/sessions/\(id)", headers: ["Accept-Encoding": "gzip;q=0"]).headers["content-encoding"])
    }

    /// An independent inflate, straight through zlib's API.
    func inflateWithZlib(_ input: [UInt8]) -> [UInt8] {
        var s = z_stream()
        XCTAssertEqual(inflateInit2_(&s, 31, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)), Z_OK)
        var out = [UInt8](repeating: 0, count: 1 << 20)
        var inp = input
        let n = inp.withUnsafeMutableBufferPointer { i in
            out.withUnsafeMutableBufferPointer { o in
                s.next_in = i.baseAddress; s.avail_in = uInt(i.count)
                s.next_out = o.baseAddress; s.avail_out = uInt(o.count)
                XCTAssertEqual(inflate(&s, Z_FINISH), Z_STREAM_END)
                return o.count - Int(s.avail_out)
            }
        }
        inflateEnd(&s)
        return Array(out[0..<n])
    }

    func testIdleSessionsAreEvicted() throws {
        let t = try TestServer { $0.sessionTTLSeconds = 0.3 }
        let c = t.client()
        let id = c.request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").status, 200)
        // Waited for by the metric: a GET of the session would count as use.
        XCTAssertTrue(waitFor { c.request("GET", "/metrics").text.contains("layoutd_sessions_evicted_total 1") })
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").status, 404)
        XCTAssertTrue(c.request("GET", "/metrics").text.contains("layoutd_sessions_active 0"))
    }

    /// The gauges of what the store holds (sessions, engine rows and columns) come back to
    /// where they started through every way in and out: created, changed, evicted when idle,
    /// restored from the SQLite store, deleted.
    func testGaugesReturnToTheirStartThroughEveryWayInAndOut() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("layoutd-gauges-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let t = try TestServer {
            $0.sessionTTLSeconds = 0.3
            $0.store = .sqlite(path: folder.appendingPathComponent("sessions.sqlite").path)
        }
        let c = t.client()
        func gauges() -> [String] {
            c.request("GET", "/metrics").text.split(separator: "\n").filter {
                $0.hasPrefix("layoutd_sessions_active ") || $0.hasPrefix("layoutd_engine_rows ") || $0.hasPrefix("layoutd_engine_columns ")
            }.map(String.init).sorted()
        }
        let start = gauges()
        XCTAssertEqual(start, ["layoutd_engine_columns 0.0", "layoutd_engine_rows 0.0", "layoutd_sessions_active 0.0"])
        var ids: [String] = []
        for _ in 0..<4 { ids.append(c.request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String) }
        for id in ids {
            XCTAssertEqual(
                c.request(
                    "POST", "/v1/sessions/\(id)/changes",
                    json:
                        #"{"ops":[{"op":"addViews","views":[{"id":"extra","parent":"card"}]},{"op":"addConstraints","constraints":[{"expr":"extra.width == 10"},{"expr":"extra.left == card.left"}]}]}"#
                ).status, 200)
        }
        XCTAssertNotEqual(gauges(), start)
        // Idle: every session leaves memory (they stay stored).
        XCTAssertTrue(waitFor { gauges() == start }, "evicted: \(gauges())")
        XCTAssertEqual(c.request("GET", "/v1/sessions/\(ids[0])").status, 200)  // restored from the store
        XCTAssertTrue(gauges().contains("layoutd_sessions_active 1.0"), "\(gauges())")
        for id in ids { XCTAssertEqual(c.request("DELETE", "/v1/sessions/\(id)").status, 204) }
        XCTAssertEqual(gauges(), start, "deleted (restored first where not in memory)")
    }

    func testConcurrentSessionsFromSeveralThreads() throws {
        let t = try TestServer()
        let threads = 8, perThread = 60
        let ids = (0..<4).map { _ in t.client().request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String }
        let bad = Counter()
        let port = t.port
        DispatchQueue.concurrentPerform(iterations: threads) { k in
            let c = HTTPTestClient(port: port)
            let id = ids[k % ids.count]
            for i in 0..<perThread {
                let r = c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": \#(10 + i)}"#)
                if r.status != 200 { bad.add() }
            }
        }
        XCTAssertEqual(bad.value, 0)
        for id in ids {
            let s = t.client().request("GET", "/v1/sessions/\(id)")
            // Two threads per session, each 60 accepted changes: 120 revisions after the first.
            XCTAssertEqual(s.object["revision"] as? Int, 1 + 2 * perThread)
        }
    }

    /// One libmicrohttpd thread serves every connection here: a session creation solved
    /// on it would hold up the health check behind it for as long as the solve takes.
    func testHeavyRequestsDoNotStallOtherConnections() throws {
        for offload in [true, false] {
            let t = try TestServer {
                $0.http.threads = 1
                $0.http.maxBodyBytes = 16 << 20
                // Without workers nothing is offloaded: a creation is heavy whatever its size.
                if !offload { $0.http.workers = 0 }
            }
            // Heavy enough to take about a second in a debug build: the factored engine is linear
            // on this chain, the solved form quadratic.
            let body = Array(chainDocument(views: SessionLimits().engine(forViews: 1500) == .factored ? 12_000 : 1500).utf8)
            XCTAssertGreaterThan(body.count, HTTPServerConfiguration().offloadBodyBytes, "offloaded by default")
            let heavy = t.client()
            heavy.connect()
            let start = Date()
            heavy.send(
                Array("POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.count)\r\n\r\n".utf8)
                    + body)
            // Received, and being solved (about 1.5 s in a debug build).
            XCTAssertTrue(waitFor(seconds: 10) { t.server.heavyRequestsUnderWay == 1 }, "the creation's solve began")
            let quickLatency = Mutex<Double>(0)
            let quickDone = expectation(description: "health check answered")
            let port = t.port
            Thread.detachNewThread {
                let q0 = Date()
                XCTAssertEqual(HTTPTestClient(port: port).request("GET", "/healthz").status, 200)
                quickLatency.withLock { $0 = Date().timeIntervalSince(q0) }
                quickDone.fulfill()
            }
            // The time until the answer starts: reading a large answer is the client's own time.
            heavy.waitForData()
            let heavyTime = Date().timeIntervalSince(start)
            XCTAssertEqual(heavy.readReply().status, 201)
            wait(for: [quickDone], timeout: 30)
            let quick = quickLatency.withLock { $0 }
            if offload {
                XCTAssertLessThan(quick, heavyTime / 5, "the health check did not wait for the solve")
            } else {
                // The control run shows the test can fail: inline, the check waits for the solve.
                XCTAssertGreaterThan(quick, heavyTime / 3, "inline, the health check waits")
            }
        }
    }

    func testListensOnIPv6AndDualStack() throws {
        let v6 = try TestServer { $0.http.host = "::1" }
        XCTAssertEqual(HTTPTestClient(port: v6.port, host: "::1").request("GET", "/healthz").status, 200)
        let created = HTTPTestClient(port: v6.port, host: "::1").request("POST", "/v1/sessions", json: cardDocument)
        XCTAssertEqual(created.status, 201)
        let dual = try TestServer { $0.http.host = "::" }
        XCTAssertEqual(HTTPTestClient(port: dual.port, host: "::1").request("GET", "/healthz").status, 200)
        XCTAssertEqual(HTTPTestClient(port: dual.port, host: "127.0.0.1").request("GET", "/healthz").status, 200, "\"::\" takes IPv4 clients too")
        var bad = ServerConfiguration()
        bad.http.host = "300.1.2.3"
        bad.http.port = 0
        XCTAssertThrowsError(try LayoutdServer(configuration: bad).start())
    }

    func testMemoryBudgetRefusesNewDocuments() throws {
        let heap = MemoryBudget.heapInUse
        XCTAssertGreaterThan(heap, 0)
        // A budget the heap is already past: new documents are refused, before being parsed.
        let t = try TestServer { $0.memoryBudget = MemoryBudget(limitBytes: heap / 2) }
        let c = t.client()
        let refused = c.request("POST", "/v1/sessions", json: cardDocument)
        XCTAssertEqual(refused.status, 503)
        XCTAssertEqual(refused.headers["content-type"], "application/problem+json")
        XCTAssertEqual(refused.headers["retry-after"], "5")
        XCTAssertTrue(refused.text.contains("memory budget"), refused.text)
        XCTAssertEqual(c.request("POST", "/v1/layout", json: cardDocument).status, 503)
        XCTAssertEqual(t.server.store.count, 0)
        // Room again (an operator raised it): the same request succeeds.
        let roomy = try TestServer { $0.memoryBudget = MemoryBudget(limitBytes: heap * 4 + (256 << 20)) }
        XCTAssertEqual(roomy.client().request("POST", "/v1/sessions", json: cardDocument).status, 201)
        let metrics = roomy.client().request("GET", "/metrics").text
        let gauge = metrics.split(separator: "\n").first { $0.hasPrefix("layoutd_heap_bytes ") }
        XCTAssertNotNil(gauge.flatMap { Double($0.split(separator: " ")[1]) }, "layoutd_heap_bytes is exported")
    }

    /// Freed memory is kept for the next request: 16 MB in 1 MB blocks freed and allocated
    /// again fault no pages in (glibc's own policy trims them at the free: ~4,000 faults).
    func testFreedHeapIsKeptForTheNextRequest() throws {
        MemoryBudget.keepFreedHeap(64 << 20)
        func faults() -> Int {
            var u = rusage()
            getrusage(RUSAGE_SELF.rawValue, &u)
            return u.ru_minflt
        }
        func touchAndFree() {
            let blocks = (0..<16).map { _ in malloc(1 << 20)! }
            for b in blocks { memset(b, 1, 1 << 20) }
            for b in blocks { free(b) }
        }
        touchAndFree()
        let before = faults()
        touchAndFree()
        XCTAssertLessThan(faults() - before, 256, "freed blocks were returned to the kernel and faulted in again")
    }

    /// An offloaded answer's leftover is freed after the answer is queued: a teardown that
    /// takes a second does not hold the answer back, and it still runs.
    func testAnOffloadedAnswersLeftoverIsFreedAfterTheAnswerGoes() throws {
        final class SlowToFree: Sendable {
            let freed: XCTestExpectation
            init(_ freed: XCTestExpectation) { self.freed = freed }
            deinit {
                Thread.sleep(forTimeInterval: 1)
                freed.fulfill()
            }
        }
        let freed = expectation(description: "leftover freed")
        var configuration = HTTPServerConfiguration()
        configuration.port = 0
        configuration.offloadBodyBytes = 1
        let server = HTTPServer(configuration: configuration, refusal: { s, _, _ in Response(status: s) }) { _ in
            var res = Response.json(200, Array(#"{"ok":true}"#.utf8))
            res.leftover = SlowToFree(freed)
            return res
        }
        try server.start()
        defer { server.stop() }
        let start = Date()
        XCTAssertEqual(HTTPTestClient(port: server.port).request("POST", "/", json: "{}").status, 200)
        XCTAssertLessThan(Date().timeIntervalSince(start), 0.5, "the answer waited for its leftover's teardown")
        wait(for: [freed], timeout: 10)
    }

    /// Every body offloaded: the worker's copies of headers and query must answer as the
    /// connection itself would (gzip in and out, content type, revision checks).
    func testOffloadedRequestsAnswerAsInlineOnes() throws {
        let t = try TestServer { $0.http.offloadBodyBytes = 1 }
        let c = t.client()
        let gz = HTTPTransport.Gzip().compress(Array(cardDocument.utf8))
        let created = c.request(
            "POST", "/v1/sessions", headers: ["Content-Type": "application/json", "content-encoding": "gzip", "Accept-Encoding": "gzip"], body: gz)
        XCTAssertEqual(created.status, 201)
        let id =
            (try JSONSerialization.jsonObject(
                with: Data(created.headers["content-encoding"] == "gzip" ? inflateWithZlib(created.body) : created.body)) as! [String: Any])[
                "session"] as! String
        let moved = c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarLeading": 20}"#)
        XCTAssertEqual(moved.status, 200)
        XCTAssertEqual(((moved.object["frames"] as? [String: Any])?["avatar"] as? [String: Any])?["x"] as? Double, 20)
        let stale = c.request("POST", "/v1/sessions/\(id)/changes", json: #"{"baseRevision": 1, "ops": []}"#)
        XCTAssertEqual(stale.status, 409)
        XCTAssertEqual(stale.headers["content-type"], "application/problem+json")
        XCTAssertEqual(c.request("POST", "/v1/sessions", headers: ["Content-Type": "text/plain"], body: Array(cardDocument.utf8)).status, 415)
        XCTAssertEqual(c.request("POST", "/v1/layout", json: "{not json").status, 400)
    }

    func testReadyzIs503WhileDrainingAndOpenConnectionsAreStillServed() throws {
        let t = try TestServer { $0.drainTimeoutSeconds = 10 }
        let a = t.client()
        XCTAssertEqual(a.request("GET", "/readyz").status, 200)
        // That answer's request counted out (its completion may come after the answer is
        // read), so the one counted in below is the half-sent one, not this one lingering.
        XCTAssertTrue(waitFor { t.server.requestsInFlight == 0 })
        // A request under way: its headers are in, half of its body is not.
        let b = t.client()
        b.begin("/v1/sessions", json: cardDocument, sent: 10)
        XCTAssertTrue(waitFor { t.server.requestsInFlight == 1 }, "the server has the request's headers")
        let drained = expectation(description: "drain returns")
        let drainReturned = Atomic<Bool>(false)
        let server = t.server  // LayoutdServer is Sendable
        Thread.detachNewThread {
            server.drain()
            drainReturned.store(true, ordering: .relaxed)
            drained.fulfill()
        }
        XCTAssertTrue(waitFor { !t.server.isReady })
        let notReady = a.request("GET", "/readyz")
        XCTAssertEqual(notReady.status, 503, "draining: the balancer is told to stop sending")
        XCTAssertEqual(notReady.headers["retry-after"], "1")
        XCTAssertFalse(t.server.isReady)
        // The readiness check is done; the half-sent request is still under way, and the drain waits for it.
        XCTAssertTrue(waitFor { t.server.requestsInFlight == 1 }, "in flight: \(t.server.requestsInFlight)")
        XCTAssertFalse(drainReturned.load(ordering: .relaxed), "the drain returned with a request under way")
        // The request under way still completes, then the drain ends.
        XCTAssertEqual(b.finish().status, 201)
        wait(for: [drained], timeout: 10)
        XCTAssertEqual(t.server.requestsInFlight, 0)
    }

    func testSigtermDrainsInFlightRequests() throws {
        let binary = repoRoot + "/.build/debug/layoutd"
        guard FileManager.default.fileExists(atPath: binary) else { throw XCTSkip("build layoutd first") }
        let p = Process()
        p.executableURL = URL(fileURLWithPath: binary)
        p.arguments = ["--port", "0", "--log-level", "info"]
        let err = Pipe()
        p.standardError = err
        try p.run()
        // The port is in the first log line.
        var log = ""
        var port: UInt16 = 0
        while port == 0 {
            let d = err.fileHandleForReading.availableData
            XCTAssertFalse(d.isEmpty, "layoutd exited: \(log)")
            if d.isEmpty { return }
            log += String(decoding: d, as: UTF8.self)
            if let r = log.range(of: "port=") { port = UInt16(log[r.upperBound...].prefix { $0.isNumber }) ?? 0 }
        }
        // A big document takes a while to solve: SIGTERM arrives while it is in flight.
        let body = chainDocument(views: 1500)
        let c = HTTPTestClient(port: port)
        c.connect()
        // `Expect: 100-continue`: the server's "100 Continue" says it has the request's headers,
        // so the request is in flight when SIGTERM arrives.
        c.send(
            Array(
                "POST /v1/sessions HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n"
                    .utf8))
        XCTAssertEqual(c.readLine()?.hasPrefix("HTTP/1.1 100"), true, "the server took the headers")
        XCTAssertEqual(c.readLine(), "")
        c.send(Array(body.utf8))
        kill(p.processIdentifier, SIGTERM)
        let reply = c.readReply()
        XCTAssertEqual(reply.status, 201, "the request under way is answered")
        p.waitUntilExit()
        XCTAssertEqual(p.terminationStatus, 0)
        log += String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        XCTAssertTrue(log.contains("draining"), log)
        XCTAssertTrue(log.contains("in_flight=1"), "the drain began with the request under way: \(log)")
        XCTAssertTrue(log.contains("unfinished=0"), log)
    }
}

/// A row of views, each right of the previous one: one long dependency chain.
func chainDocument(views n: Int) -> String {
    var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":100000,"height":10}}"#]
    var cons: [String] = []
    for i in 0..<n {
        views.append(#"{"id":"v\#(i)","parent":"root"}"#)
        cons.append(i == 0 ? #"{"expr":"v0.left == root.left + 1"}"# : #"{"expr":"v\#(i).left == v\#(i - 1).right + 1"}"#)
        cons.append(#"{"expr":"v\#(i).width == 5"}"#)
    }
    return #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(cons.joined(separator: ","))]}"#
}

let repoRoot: String = {
    var url = URL(fileURLWithPath: #filePath)
    while url.path != "/" && !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
        url.deleteLastPathComponent()
    }
    return url.path
}()

final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var n = 0
    func add() { lock.withLock { n += 1 } }
    var value: Int { lock.withLock { n } }
}
