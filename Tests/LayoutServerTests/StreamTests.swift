import Foundation
import XCTest
@testable import LayoutServer

final class WebSocketFrameTests: XCTestCase {
    func masked(_ b0: UInt8, _ payload: [UInt8], lengthBytes: [UInt8]? = nil) -> [UInt8] {
        let mask: [UInt8] = [1, 2, 3, 4]
        return [b0] + (lengthBytes ?? [0x80 | UInt8(payload.count)]) + mask + payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
    }

    func testParsesMaskedFramesOfEveryLengthForm() {
        let short = masked(0x81, Array("hello".utf8))
        XCTAssertEqual(
            WebSocketFrame.parse(short[...], maxPayload: 1 << 20, allowCompressed: false),
            .frame(.init(fin: true, compressed: false, opcode: .text, payload: Array("hello".utf8)), consumed: short.count))
        let mid = [UInt8](repeating: 65, count: 300)
        let m = masked(0x01, mid, lengthBytes: [0x80 | 126, 0x01, 0x2C])
        guard case .frame(let f, _) = WebSocketFrame.parse(m[...], maxPayload: 1 << 20, allowCompressed: false) else { return XCTFail() }
        XCTAssertEqual(f.payload, mid)
        XCTAssertFalse(f.fin)
        let big = [UInt8](repeating: 66, count: 70000)
        let b = masked(0x82, big, lengthBytes: [0x80 | 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
        guard case .frame(let g, _) = WebSocketFrame.parse(b[...], maxPayload: 1 << 20, allowCompressed: false) else { return XCTFail() }
        XCTAssertEqual(g.payload.count, 70000)
        XCTAssertEqual(WebSocketFrame.parse(b[..<100], maxPayload: 1 << 20, allowCompressed: false), .needMore)
        XCTAssertEqual(WebSocketFrame.parse(b[...], maxPayload: 1000, allowCompressed: false).closeCode, .tooBig)
    }

    func testProtocolViolations() {
        XCTAssertEqual(WebSocketFrame.parse([0x81, 0x02, 65, 66][...], maxPayload: 100, allowCompressed: false).closeCode, .protocolError, "unmasked")
        XCTAssertEqual(WebSocketFrame.parse(masked(0xA1, [65])[...], maxPayload: 100, allowCompressed: false).closeCode, .protocolError, "RSV2")
        XCTAssertEqual(
            WebSocketFrame.parse(masked(0xC1, [65])[...], maxPayload: 100, allowCompressed: false).closeCode, .protocolError, "RSV1 not negotiated")
        XCTAssertEqual(WebSocketFrame.parse(masked(0x83, [65])[...], maxPayload: 100, allowCompressed: false).closeCode, .protocolError, "opcode 3")
        XCTAssertEqual(
            WebSocketFrame.parse(masked(0x09, [65])[...], maxPayload: 100, allowCompressed: false).closeCode, .protocolError, "fragmented ping")
        XCTAssertEqual(
            WebSocketFrame.parse(
                masked(0x89, [UInt8](repeating: 0, count: 126), lengthBytes: [0x80 | 126, 0, 126])[...], maxPayload: 1000, allowCompressed: false
            ).closeCode, .protocolError, "ping over 125")
        XCTAssertEqual(WebSocketFrame.validateClose([0x03]).failure?.0, .protocolError)
        XCTAssertEqual(WebSocketFrame.validateClose([0x03, 0xED]).failure?.0, .protocolError, "1005 may not be sent")
        XCTAssertNil(WebSocketFrame.validateClose([0x03, 0xE8] + Array("bye".utf8)).failure)
        XCTAssertEqual(WebSocketFrame.validateClose([0x03, 0xE8, 0xFF]).failure?.0, .invalidPayload)
    }

    func testEncodesServerFrames() {
        XCTAssertEqual(WebSocketFrame.encode(.text, Array("hi".utf8)), [0x81, 0x02, 104, 105])
        XCTAssertEqual(Array(WebSocketFrame.encode(.text, [UInt8](repeating: 0, count: 200), compressed: true).prefix(4)), [0xC1, 126, 0, 200])
        XCTAssertEqual(
            Array(WebSocketFrame.encode(.binary, [UInt8](repeating: 0, count: 70000)).prefix(10)), [0x82, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])
    }

    func testHandshakeAcceptAndDeflateNegotiation() {
        XCTAssertEqual(StreamHub.accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "RFC 6455 §1.3")
        XCTAssertEqual(
            PerMessageDeflate.negotiate("permessage-deflate; client_max_window_bits")?.response,
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
        XCTAssertEqual(PerMessageDeflate.negotiate("permessage-deflate; server_max_window_bits=10")?.serverWindowBits, 10)
        XCTAssertNil(PerMessageDeflate.negotiate("permessage-deflate; server_max_window_bits=8"))
        XCTAssertNil(PerMessageDeflate.negotiate("x-webkit-deflate-frame"))
        XCTAssertNotNil(PerMessageDeflate.negotiate("permessage-deflate; bogus, permessage-deflate"))
        let d = PerMessageDeflate(serverWindowBits: 15)
        let text = Array(String(repeating: "frames ", count: 100).utf8)
        XCTAssertEqual(try d.decompress(WebSocketTestClient.rawDeflate(text), limit: 1 << 20), text)
        XCTAssertEqual(WebSocketTestClient.rawInflate(d.compress(text)), text)
        XCTAssertThrowsError(try d.decompress(WebSocketTestClient.rawDeflate(text), limit: 100))
    }
}

extension WebSocketFrame.ParseResult {
    var closeCode: WebSocketFrame.CloseCode? { if case .fail(let c, _) = self { return c }; return nil }
}

final class StreamTests: XCTestCase {
    func makeSession(_ t: TestServer) -> String {
        t.client().request("POST", "/v1/sessions", json: cardDocument).object["session"] as! String
    }

    func waitFor(_ condition: () -> Bool, timeout: Double = 5) -> Bool {
        let end = Date().addingTimeInterval(timeout)
        while Date() < end { if condition() { return true }; usleep(10_000) }
        return condition()
    }

    func testDragOf1000MessagesAnswersOnlyTheDraggedViewAndDependents() throws {
        let t = try TestServer()
        let id = makeSession(t)
        let ws = WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")
        XCTAssertEqual(ws.handshake.status, 101)
        XCTAssertEqual(ws.handshake.headers["sec-websocket-accept"], "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        XCTAssertTrue(waitFor { t.server.streams.count == 1 }, "the stream is registered once the socket is handed over")
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
        XCTAssertTrue(waitFor { t.server.streams.count == 0 })
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
        XCTAssertTrue(waitFor { t.server.streams.count == 1 })
        // Handshake failures are plain HTTP problems.
        XCTAssertEqual(WebSocketTestClient(port: t.port, path: "/v1/sessions/0123456789abcdef0123456789abcdef/stream").handshake.status, 404)
        XCTAssertEqual(t.client().request("GET", "/v1/sessions/\(id)/stream").status, 400)
    }

    func testAbruptDisconnectsLeakNothing() throws {
        let t = try TestServer()
        let id = makeSession(t)
        var clients: [WebSocketTestClient] = []
        for _ in 0..<20 { clients.append(WebSocketTestClient(port: t.port, path: "/v1/sessions/\(id)/stream")) }
        XCTAssertTrue(waitFor { t.server.streams.count == 20 })
        clients[0].sendText(#"{"avatarLeading": 9}"#)  // one mid-message
        clients[1].http.send(clients[1].frame(1, Array("{\"avat".utf8), fin: false))
        for c in clients { c.http.disconnect() }
        XCTAssertTrue(waitFor { t.server.streams.count == 0 }, "open streams: \(t.server.streams.count)")
        XCTAssertTrue(t.client().request("GET", "/metrics").text.contains("layoutd_streams_open 0"))
    }

    func testManyStreamsAtOnceWithHTTPInterleaved() throws {
        let t = try TestServer()
        let ids = (0..<8).map { _ in makeSession(t) }
        var clients: [WebSocketTestClient] = []
        for k in 0..<256 { clients.append(WebSocketTestClient(port: t.port, path: "/v1/sessions/\(ids[k % 8])/stream")) }
        XCTAssertTrue(clients.allSatisfy { $0.handshake.status == 101 })
        XCTAssertTrue(waitFor { t.server.streams.count == 256 })
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
        XCTAssertEqual(t.server.streams.count, 256)
        for c in clients { c.close() }
        XCTAssertTrue(waitFor { t.server.streams.count == 0 })
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
