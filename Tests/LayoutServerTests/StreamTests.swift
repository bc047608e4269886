import HTTPTransport
import Foundation
import XCTest
@testable import LayoutServer

final class StreamTests: XCTestCase {
    func makeSession(_ t: TestServer) -> String {
        t.client().request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String
    }

    func testDragOf1000MessagesAnswersOnlyTheDraggedViewAndDependents() throws {
        let t = try TestServer()
        let id = makeSession(t)
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertEqual(ws.handshake.status, 101)
        XCTAssertEqual(ws.handshake.headers["sec-websocket-accept"], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        XCTAssertTrue(waitFor { t.server.websockets.count == 1 }, "the stream is registered once the socket is handed over")
        var lastRevision = 1
        for i in 0..<1000 {
            ws.sendText(#"{"avatarLeading": \#(8 + i % 200)}"#)
            let r = ws.readJSON()
            let rev = r["revision"] as? Int ?? -1
            XCTAssertEqual(rev, lastRevision + 1)
            lastRevision = rev
            let frames = r["frames"] as? [String: Any] ?? [:]
            XCTAssertTrue(Set(frames.keys).isSubset(of: ["avatar", "title"]), "\(frames.keys)")
            if i > 0 { XCTAssertFalse(frames.isEmpty) }
        }
        // Pipelined: sent faster than answered, then merged with `coalesced`.
        var payload: [UInt8] = []
        for i in 0..<1000 { payload += ws.frame(1, Array(#"{"avatarLeading": \#(i)}"#.utf8)) }
        ws.http.send(payload)
        var answered = 0, replies = 0
        var last: [String: Any] = [:]
        while answered < 1000 {
            last = ws.readJSON()
            replies += 1
            answered += last["coalesced"] as? Int ?? 1
        }
        XCTAssertEqual(answered, 1000)
        XCTAssertLessThan(replies, 1000, "queued set-constants are coalesced")
        let final = t.client().request("GET", "/v1/sessions/\(id)/frames").object["frames"] as! [String: [String: Double]]
        XCTAssertEqual(final["avatar"]?["x"], 999, "latest value wins")
        XCTAssertEqual(last["revision"] as? Int, lastRevision + replies)
        XCTAssertTrue(t.client().request("GET", "/metrics").text.contains("layoutd_stream_coalesced_updates_total \(1000 - replies)"))
        ws.close()
        XCTAssertEqual(ws.readClose(), 1000)
        XCTAssertTrue(waitFor { t.server.websockets.count == 0 })
    }

    func testCompressionOnAndFragmentedMessages() throws {
        let t = try TestServer()
        let id = makeSession(t)
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream", extensions: "permessage-deflate; client_max_window_bits")
        XCTAssertTrue(ws.compressed)
        ws.sendText(#"{"avatarLeading": 30}"#, compress: true)
        let f = ws.readFrame()!
        XCTAssertTrue(f.rsv1, "replies over 64 bytes are compressed")
        XCTAssertEqual(
            ((try JSONSerialization.jsonObject(with: Data(f.payload)) as! [String: Any])["frames"] as! [String: Any]).keys.sorted(),
            ["avatar", "title"])
        // A fragmented, compressed changes message with a ping in the middle.
        ws.sendText(#"{"ops":[{"op":"setConstant","id":"avatarWidth","constant":50}]}"#, fragments: 3, compress: true, pingBetween: true)
        let pong = ws.readFrame()!
        XCTAssertEqual(pong.opcode, 10)
        XCTAssertEqual(pong.payload, Array("hi".utf8))
        let r = ws.readJSON()
        XCTAssertEqual((r["frames"] as? [String: [String: Double]])?["avatar"]?["width"], 50)
        // Without compression, fragmented too.
        let plain = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertFalse(plain.compressed)
        plain.sendText(#"{"avatarLeading": 31}"#, fragments: 4)
        XCTAssertEqual(((plain.readJSON()["frames"] as? [String: [String: Double]])?["avatar"]?["x"]), 31)
    }

    func testBadMessagesGetProblemsAndProtocolErrorsClose() throws {
        let t = try TestServer { $0.maxStreamMessageBytes = 4096 }
        let id = makeSession(t)
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        ws.sendText("not json")
        XCTAssertEqual(ws.readJSON()["status"] as? Int, 400)
        ws.sendText(#"{"ghost": 3}"#)
        let p = ws.readJSON()
        XCTAssertEqual(p["status"] as? Int, 422)
        XCTAssertEqual(p["pointer"] as? String, "/ghost")
        ws.sendText(#"{"ops":[{"op":"nope"}]}"#)
        XCTAssertEqual(ws.readJSON()["status"] as? Int, 422)
        ws.sendText(#"{"avatarLeading": 12}"#)
        XCTAssertNotNil(ws.readJSON()["revision"], "the stream stays open after bad messages")

        let cases: [(String, [UInt8], UInt16)] = [
            ("unmasked", ws.frame(1, Array("{}".utf8), masked: false), 1002),
            ("reserved bit", ws.frame(1, Array("{}".utf8), rsv2: true), 1002),
            ("continuation first", ws.frame(0, Array("{}".utf8)), 1002),
            ("bad UTF-8", ws.frame(1, [0x7B, 0xFF, 0x7D]), 1007),
            ("oversized", ws.frame(1, [UInt8](repeating: 0x20, count: 5000)), 1009),
            (
                "oversized in fragments",
                ws.frame(1, [UInt8](repeating: 0x20, count: 3000), fin: false) + ws.frame(0, [UInt8](repeating: 0x20, count: 3000)), 1009
            ),
            ("garbage", [0xFF, 0xFF, 0xFF, 0xFF, 0x00, 0x01], 1002)
        ]
        for (name, bytes, code) in cases {
            let c = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
            XCTAssertEqual(c.handshake.status, 101)
            c.http.send(bytes)
            XCTAssertEqual(c.readClose(), code, name)
        }
        XCTAssertTrue(waitFor { t.server.websockets.count == 1 })
        // Handshake failures are plain HTTP problems.
        XCTAssertEqual(WebSocketTestClient(port: t.port, path: "/v1/sessions/0123456789abcdef0123456789abcdef/stream").handshake.status, 404)
        XCTAssertEqual(t.client().request("GET", "/v1/sessions/\(id)/stream").status, 400)
    }

    func testAbruptDisconnectsLeakNothing() throws {
        let t = try TestServer()
        let id = makeSession(t)
        var clients: [WebSocketTestClient] = []
        for _ in 0..<20 { clients.append(WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")) }
        XCTAssertTrue(waitFor { t.server.websockets.count == 20 })
        clients[0].sendText(#"{"avatarLeading": 9}"#)  // one mid-message
        clients[1].http.send(clients[1].frame(1, Array("{\"avat".utf8), fin: false))
        for c in clients { c.http.disconnect() }
        XCTAssertTrue(waitFor { t.server.websockets.count == 0 }, "open streams: \(t.server.websockets.count)")
        XCTAssertTrue(t.client().request("GET", "/metrics").text.contains("layoutd_streams_open 0"))
    }

    func testManyStreamsAtOnceWithHTTPInterleaved() throws {
        let t = try TestServer()
        let ids = (0..<8).map { _ in makeSession(t) }
        var clients: [WebSocketTestClient] = []
        for k in 0..<256 { clients.append(WebSocketTestClient(port: t.port, path: "/v1/sessions/\(ids[k % 8])/stream")) }
        XCTAssertTrue(clients.allSatisfy { $0.handshake.status == 101 })
        XCTAssertTrue(waitFor { t.server.websockets.count == 256 })
        for (k, c) in clients.enumerated() { c.sendText(#"{"avatarLeading": \#(k)}"#) }
        let http = t.client()
        for id in ids { XCTAssertEqual(http.request("POST", "/v1/sessions/\(id)/constants", json: #"{"avatarWidth": 41}"#).status, 200) }
        var revisions: [Int] = []
        for c in clients { revisions.append(c.readJSON()["revision"] as? Int ?? -1) }
        XCTAssertFalse(revisions.contains(-1))
        // Per session: 32 stream messages and one HTTP change, each its own revision.
        for id in ids {
            XCTAssertEqual(http.request("GET", "/v1/sessions/\(id)").object["revision"] as? Int, 1 + 32 + 1)
        }
        XCTAssertEqual(t.server.websockets.count, 256)
        for c in clients { c.close() }
        XCTAssertTrue(waitFor { t.server.websockets.count == 0 })
    }

    func testStreamCapIs503() throws {
        let t = try TestServer { $0.maxStreams = 2 }
        let id = makeSession(t)
        let a = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        let b = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertEqual([a.handshake.status, b.handshake.status], [101, 101])
        XCTAssertEqual(WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream").handshake.status, 503)
    }
}
