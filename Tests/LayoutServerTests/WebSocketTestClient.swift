import HTTPTransport
import TestSupport
import Foundation
import XCTest

/// A WebSocket client for tests: masked frames, fragmentation, permessage-deflate through zlib.
final class WebSocketTestClient {
    let http: HTTPTestClient
    private(set) var compressed = false
    private(set) var handshake: HTTPTestClient.Reply

    init(port: UInt16, path: String, extensions: String? = nil, key: String = "dGhlIHNhbXBsZSBub25jZQ==") {
        http = HTTPTestClient(port: port)
        http.connect()
        var head =
            "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: \(key)\r\nSec-WebSocket-Version: 13\r\n"
        if let extensions { head += "Sec-WebSocket-Extensions: \(extensions)\r\n" }
        http.send(Array((head + "\r\n").utf8))
        handshake = http.readReply(head: true)
        compressed = handshake.headers["sec-websocket-extensions"]?.contains("permessage-deflate") == true
    }

    func frame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true, rsv1: Bool = false, masked: Bool = true, rsv2: Bool = false) -> [UInt8] {
        var out: [UInt8] = [(fin ? 0x80 : 0) | (rsv1 ? 0x40 : 0) | (rsv2 ? 0x20 : 0) | opcode]
        let m: UInt8 = masked ? 0x80 : 0
        if payload.count < 126 {
            out.append(m | UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out += [m | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        } else {
            out.append(m | 127); for k in (0..<8).reversed() { out.append(UInt8((payload.count >> (8 * k)) & 0xFF)) }
        }
        if masked {
            let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
            out += mask
            out += payload.enumerated().map { $0.element ^ mask[$0.offset & 3] }
        } else {
            out += payload
        }
        return out
    }

    func sendText(_ s: String, fragments: Int = 1, compress: Bool = false, pingBetween: Bool = false) {
        var payload = Array(s.utf8)
        if compress { payload = RawDeflate.compress(payload) }
        let size = max(1, (payload.count + fragments - 1) / fragments)
        var chunks = stride(from: 0, to: payload.count, by: size).map { Array(payload[$0..<min(payload.count, $0 + size)]) }
        if chunks.isEmpty { chunks = [[]] }
        var bytes: [UInt8] = []
        for (k, c) in chunks.enumerated() {
            bytes += frame(k == 0 ? 1 : 0, c, fin: k == chunks.count - 1, rsv1: compress && k == 0)
            if pingBetween && k == 0 { bytes += frame(9, Array("hi".utf8)) }
        }
        http.send(bytes)
    }

    /// The next frame from the server (unmasked): opcode, payload (inflated when RSV1).
    func readFrame() -> (opcode: UInt8, payload: [UInt8], rsv1: Bool)? {
        guard let b0 = http.readByte(), let b1 = http.readByte() else { return nil }
        var n = Int(b1 & 0x7F)
        if n == 126 {
            n = Int(http.readByte()!) << 8 | Int(http.readByte()!)
        } else if n == 127 {
            n = 0; for _ in 0..<8 { n = n << 8 | Int(http.readByte()!) }
        }
        var payload: [UInt8] = []
        payload.reserveCapacity(n)
        for _ in 0..<n { guard let b = http.readByte() else { return nil }; payload.append(b) }
        let rsv1 = b0 & 0x40 != 0
        if rsv1 { payload = RawDeflate.decompress(payload) }
        return (b0 & 0x0F, payload, rsv1)
    }

    /// The next text message, skipping pongs.
    func readJSON() -> [String: Any] {
        while let f = readFrame() {
            if f.opcode == 10 { continue }
            if f.opcode == 1 {
                return (try? JSONSerialization.jsonObject(with: Data(f.payload))) as? [String: Any] ?? [
                    "unparsed": String(decoding: f.payload, as: UTF8.self)
                ]
            }
            return ["opcode": Int(f.opcode), "payload": f.payload]
        }
        return [:]
    }

    /// The close code the server sent (reading past other frames), nil if the socket just ended.
    func readClose() -> UInt16? {
        while let f = readFrame() {
            if f.opcode == 8 { return f.payload.count >= 2 ? UInt16(f.payload[0]) << 8 | UInt16(f.payload[1]) : 1005 }
        }
        return nil
    }

    func close() { http.send(frame(8, [0x03, 0xE8])) }
}
