import HTTPTransport
import Foundation
import XCTest
@testable import LayoutServer

/// Every place a number from a request is converted or bounded, sent the values at and past
/// the edges: ±2^53, ±2^53+1, ±1e30, Int's ends and past them, −0, a subnormal, NaN spelled as
/// a string. Each answer is the expected 2xx/4xx (never a 5xx or a dropped connection), and a
/// rejected request leaves the session byte for byte as it was.
final class NumericEdgeTests: XCTestCase {
    /// The edge values as JSON text, with what kind of number each one is.
    enum Edge: CaseIterable {
        case pow53, negPow53, pow53Plus1, big, negBig, intMax, pastIntMax, pastIntMin, negZero, subnormal, nanString, fraction
        var json: String {
            switch self {
            case .pow53: return "9007199254740992"
            case .negPow53: return "-9007199254740992"
            case .pow53Plus1: return "9007199254740993"
            case .big: return "1e30"
            case .negBig: return "-1e30"
            case .intMax: return "9223372036854775807"
            case .pastIntMax: return "9223372036854775808"
            case .pastIntMin: return "-9223372036854775809"
            case .negZero: return "-0"
            case .subnormal: return "1e-320"
            case .nanString: return "\"NaN\""
            case .fraction: return "0.5"
            }
        }
        /// Inside the ±10⁷ a coordinate or constant may take.
        var isSmall: Bool { [.negZero, .subnormal, .fraction].contains(self) }
        var isNumber: Bool { self != .nanString }
        var isIntegral: Bool { isNumber && ![.subnormal, .fraction].contains(self) }
    }

    let document = """
        {"views":[{"id":"root","frame":{"x":0,"y":0,"width":400,"height":300}},
                  {"id":"a","parent":"root","intrinsicSize":{"width":40,"height":20}}],
         "constraints":[{"id":"left","expr":"a.left == root.left + 10"},{"id":"top","expr":"a.top == root.top + 5"},
                        {"id":"wide","expr":"a.width >= 30 @500"}]}
        """

    /// Sends `body` for every edge value and checks the status `expected` gives for it.
    private func check(
        _ place: String, _ path: (String) -> String, method: String = "POST", body: ((String) -> String)?,
        expected: (Edge) -> Int, file: StaticString = #filePath, line: UInt = #line
    ) throws {
        let t = try TestServer()
        let c = t.client()
        let created = c.request("POST", "/v1/sessions", json: document)
        XCTAssertEqual(created.status, 201, file: file, line: line)
        let id = created.object["session"] as! String
        for edge in Edge.allCases {
            let before = c.request("GET", "/v1/sessions/\(id)").body
            let r = c.request(method, path(id).replacingOccurrences(of: "VALUE", with: edge.json), json: body.map { $0(edge.json) })
            XCTAssertEqual(r.status, expected(edge), "\(place) = \(edge.json): \(r.text)", file: file, line: line)
            if r.status >= 400 {
                XCTAssertEqual(r.headers["content-type"], "application/problem+json", "\(place) = \(edge.json)", file: file, line: line)
                XCTAssertEqual(
                    c.request("GET", "/v1/sessions/\(id)").body, before, "\(place) = \(edge.json) left the session as it was",
                    file: file, line: line)
            }
            XCTAssertEqual(c.request("GET", "/healthz").status, 200, "alive after \(place) = \(edge.json)", file: file, line: line)
        }
    }

    private func changes(_ op: String) -> (String) -> String { { v in #"{"ops":[\#(op.replacingOccurrences(of: "VALUE", with: v))]}"# } }
    private let sessionChanges: (String) -> String = { "/v1/sessions/\($0)/changes" }

    /// The crash this suite was written for: an integral baseRevision past Int's range trapped.
    func testBaseRevision() throws {
        try check("baseRevision", sessionChanges, body: { #"{"baseRevision": \#($0), "ops": []}"# }) { e in
            e.isIntegral ? 409 : 422
        }
    }

    func testBaseRevisionOverAStream() throws {
        let t = try TestServer()
        let id = t.client().request("POST", "/v1/sessions", json: document).object["session"] as! String
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertEqual(ws.handshake.status, 101)
        for edge in Edge.allCases {
            ws.sendText(#"{"baseRevision": \#(edge.json), "ops": []}"#)
            let reply = ws.readJSON()
            XCTAssertEqual(reply["status"] as? Int, edge.isIntegral ? 409 : 422, "\(edge.json): \(reply)")
        }
        ws.sendText(#"{"left": 12}"#)
        XCTAssertEqual(ws.readJSON()["revision"] as? Int, 2, "the stream stays open and the session unchanged until then")
    }

    func testSetConstantBody() throws {
        try check("/constants value", { "/v1/sessions/\($0)/constants" }, body: { #"{"left": \#($0)}"# }) { $0.isSmall ? 200 : 422 }
    }

    func testSetConstantOp() throws {
        try check("setConstant.constant", sessionChanges, body: changes(#"{"op":"setConstant","id":"left","constant":VALUE}"#)) {
            $0.isSmall ? 200 : 422
        }
    }

    func testSetPriorityOp() throws {
        // Priorities run from 1 to 1000: none of the edges is one (0.5 included).
        try check("setPriority.priority", sessionChanges, body: changes(#"{"op":"setPriority","id":"wide","priority":VALUE}"#)) { _ in 422 }
    }

    func testConstraintFields() throws {
        var n = 0
        let fresh: () -> String = {
            n += 1; return "k\(n)"
        }
        try check(
            "constraint.constant", sessionChanges,
            body: { v in
                #"{"ops":[{"op":"addConstraints","constraints":[{"id":"\#(fresh())","first":"a.height","relation":"<=","constant":\#(v)}]}]}"#
            }
        ) { $0.isSmall ? 200 : 422 }
        try check(
            "constraint.multiplier", sessionChanges,
            body: { v in
                #"{"ops":[{"op":"addConstraints","constraints":[{"id":"\#(fresh())","first":"a.height","relation":"<=","second":"a.width","multiplier":\#(v),"constant":100}]}]}"#
            }
        ) { $0.isSmall ? 200 : 422 }
        try check(
            "constraint.priority", sessionChanges,
            body: { v in
                #"{"ops":[{"op":"addConstraints","constraints":[{"id":"\#(fresh())","expr":"a.height <= 100","priority":\#(v)}]}]}"#
            }
        ) { _ in 422 }
        try check(
            "VFL metric", sessionChanges,
            body: { v in
                #"{"ops":[{"op":"addConstraints","constraints":[{"id":"\#(fresh())","visual":"V:[a(<=m)]","metrics":{"m":\#(v)}}]}]}"#
            }
        ) { $0.isSmall ? 200 : 422 }
    }

    /// Numbers written inside `expr` and VFL strings go through their own tokenizers.
    func testNumbersInsideExpressionsAndVisualFormats() throws {
        let t = try TestServer()
        let c = t.client()
        let id = c.request("POST", "/v1/sessions", json: document).object["session"] as! String
        let texts = [
            "9007199254740992", "1000000000000000000000000000000", "99999999999999999999999999999999999999999",
            "0.00000000000000000000000000000000000001", String(repeating: "9", count: 400), "1e30", "-0"
        ]
        for (k, text) in texts.enumerated() {
            for (kind, constraint) in [
                ("expr", #""expr":"a.height <= \#(text)""#), ("expr priority", #""expr":"a.height <= 100 @\#(text)""#),
                ("visual", #""visual":"V:[a(<=\#(text))]""#), ("visual priority", #""visual":"V:[a(<=100@\#(text))]""#)
            ] {
                let before = c.request("GET", "/v1/sessions/\(id)").body
                let r = c.request(
                    "POST", "/v1/sessions/\(id)/changes",
                    json: #"{"ops":[{"op":"addConstraints","constraints":[{"id":"e\#(k)\#(kind.count)",\#(constraint)}]}]}"#)
                XCTAssertTrue([200, 422].contains(r.status), "\(kind) \(text): \(r.status) \(r.text)")
                if r.status == 422 {
                    XCTAssertNotNil(r.object["pointer"], "\(kind) \(text)")
                    XCTAssertEqual(c.request("GET", "/v1/sessions/\(id)").body, before)
                }
            }
        }
        XCTAssertEqual(c.request("GET", "/healthz").status, 200)
    }

    func testViewGeometry() throws {
        for (field, small) in [
            (#""frame":{"x":VALUE,"y":0,"width":10,"height":10}"#, 200),
            (#""intrinsicSize":{"width":VALUE,"height":10}"#, 200),
            (#""margins":{"top":VALUE}"#, 200), (#""alignmentInsets":{"left":VALUE}"#, 200),
            (#""baseline":{"first":VALUE}"#, 200)
        ] {
            try check(field, sessionChanges, body: changes(#"{"op":"updateView","id":"a",\#(field)}"#)) { $0.isSmall ? small : 422 }
        }
        try check("hugging", sessionChanges, body: changes(#"{"op":"updateView","id":"a","hugging":{"horizontal":VALUE}}"#)) { _ in 422 }
    }

    func testScaleOption() throws {
        // A scale is a rounding grid: 0.001 (1,000-point steps) to 16. A subnormal would round
        // every frame to 0 (1/scale is infinite), so it is refused like the other edges.
        try check("options.scale", sessionChanges, body: changes(#"{"op":"setOptions","options":{"scale":VALUE}}"#)) {
            $0 == .fraction ? 200 : 422
        }
    }

    func testSinceQuery() throws {
        for (text, status) in [
            ("9007199254740992", 400), ("-9007199254740992", 400), ("9223372036854775808", 400), ("1e30", 400),
            ("-0", 200), ("0", 200), ("1e-320", 400), ("NaN", 400), ("1.5", 400), ("%2B1", 200), ("", 400)
        ] {
            try check("since=\(text)", { "/v1/sessions/\($0)/frames?since=\(text)" }, method: "GET", body: nil) { _ in status }
        }
    }

    /// Header numbers: a Content-Length past Int's range, and Accept-Encoding q-values.
    func testHeaderNumbers() throws {
        let t = try TestServer()
        for cl in ["99999999999999999999999", "9223372036854775808", "-1", "1e3"] {
            let c = t.client()
            c.connect()
            c.send(Array("POST /v1/layout HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: \(cl)\r\n\r\n{}".utf8))
            let r = c.readReply()
            XCTAssertTrue((400..<500).contains(r.status), "Content-Length \(cl): \(r.status)")
            c.disconnect()
        }
        let c = t.client()
        for q in ["1e400", "NaN", "-0", "9007199254740993", "0.0000"] {
            let r = c.request("GET", "/openapi.yaml", headers: ["Accept-Encoding": "gzip;q=\(q)"])
            XCTAssertEqual(r.status, 200, q)
        }
        XCTAssertEqual(t.client().request("GET", "/healthz").status, 200)
    }

    /// WebSocket frame lengths: the 64-bit form with its top bit set, and lengths past the limit
    /// that a 32-bit or signed conversion would wrap.
    func testWebSocketFrameLengths() throws {
        let t = try TestServer()
        let id = t.client().request("POST", "/v1/sessions", json: document).object["session"] as! String
        for (length, code) in [
            ([UInt8](repeating: 0xFF, count: 8), UInt16(1002)), ([0x7F, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF], 1009),
            ([0, 0x20, 0, 0, 0, 0, 0, 0], 1009), ([0, 0, 0, 1, 0, 0, 0, 0], 1009)
        ] {
            let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
            XCTAssertEqual(ws.handshake.status, 101)
            ws.http.send([0x81, 0x80 | 127] + length + [1, 2, 3, 4])
            XCTAssertEqual(ws.readClose(), code, "\(length)")
        }
        XCTAssertEqual(t.client().request("GET", "/v1/sessions/\(id)").object["revision"] as? Int, 1)
    }
}
