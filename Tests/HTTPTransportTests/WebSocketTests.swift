import HTTPTransport
import TestSupport
import XCTest

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
        XCTAssertEqual(WebSocketHandshake.accept("dGhlIHNhbXBsZSBub25jZQ=="), "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=", "RFC 6455 §1.3")
        XCTAssertEqual(
            PerMessageDeflate.negotiate("permessage-deflate; client_max_window_bits")?.response,
            "permessage-deflate; server_no_context_takeover; client_no_context_takeover")
        XCTAssertEqual(PerMessageDeflate.negotiate("permessage-deflate; server_max_window_bits=10")?.serverWindowBits, 10)
        XCTAssertNil(PerMessageDeflate.negotiate("permessage-deflate; server_max_window_bits=8"))
        XCTAssertNil(PerMessageDeflate.negotiate("x-webkit-deflate-frame"))
        XCTAssertNotNil(PerMessageDeflate.negotiate("permessage-deflate; bogus, permessage-deflate"))
        let d = PerMessageDeflate(serverWindowBits: 15)
        let text = Array(String(repeating: "frames ", count: 100).utf8)
        XCTAssertEqual(try d.decompress(RawDeflate.compress(text), limit: 1 << 20), text)
        XCTAssertEqual(RawDeflate.decompress(d.compress(text)), text)
        XCTAssertThrowsError(try d.decompress(RawDeflate.compress(text), limit: 100))
    }
}

extension WebSocketFrame.ParseResult {
    var closeCode: WebSocketFrame.CloseCode? { if case .fail(let c, _) = self { return c }; return nil }
}
