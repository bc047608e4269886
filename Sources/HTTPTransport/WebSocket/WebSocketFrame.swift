import CheckedNumbers
/// RFC 6455 framing: parsing client frames and writing server frames. Pure functions
/// over bytes, tested on their own.
public enum WebSocketFrame {
    public enum Opcode: UInt8, Sendable {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10
        public var isControl: Bool { rawValue >= 8 }
    }

    public struct Frame: Equatable, Sendable {
        public init(fin: Bool, compressed: Bool, opcode: Opcode, payload: [UInt8]) {
            self.fin = fin; self.compressed = compressed; self.opcode = opcode; self.payload = payload
        }

        public var fin: Bool
        public var compressed: Bool  // RSV1 (permessage-deflate)
        public var opcode: Opcode
        public var payload: [UInt8]
    }

    /// Close codes this server sends.
    public enum CloseCode: UInt16, Sendable {
        case normal = 1000, goingAway = 1001, protocolError = 1002, unsupportedData = 1003
        case invalidPayload = 1007, policy = 1008, tooBig = 1009, internalError = 1011
        /// IANA's "Try Again Later": the session moved to another replica; reconnecting through
        /// the proxy reaches it.
        case tryAgainLater = 1013
    }

    public enum ParseResult: Equatable, Sendable {
        case frame(Frame, consumed: Int)
        case needMore
        case fail(CloseCode, String)
    }

    /// One frame from the start of `bytes`. Client frames must be masked; control frames
    /// must be final and at most 125 bytes; RSV1 only when deflate was negotiated.
    public static func parse(_ bytes: ArraySlice<UInt8>, maxPayload: Int, allowCompressed: Bool) -> ParseResult {
        guard bytes.count >= 2 else { return .needMore }
        let b0 = bytes[bytes.startIndex], b1 = bytes[bytes.startIndex + 1]
        guard b0 & 0x30 == 0 else { return .fail(.protocolError, "reserved bits set") }
        let rsv1 = b0 & 0x40 != 0
        guard let opcode = Opcode(rawValue: b0 & 0x0F) else { return .fail(.protocolError, "unknown opcode \(b0 & 0x0F)") }
        let fin = b0 & 0x80 != 0
        if rsv1 && (!allowCompressed || opcode.isControl) { return .fail(.protocolError, "RSV1 without permessage-deflate") }
        guard b1 & 0x80 != 0 else { return .fail(.protocolError, "client frames must be masked") }
        var length = UInt64(b1 & 0x7F)
        var offset = 2
        if length == 126 {
            guard bytes.count >= 4 else { return .needMore }
            length = UInt64(bytes[bytes.startIndex + 2]) << 8 | UInt64(bytes[bytes.startIndex + 3])
            offset = 4
        } else if length == 127 {
            guard bytes.count >= 10 else { return .needMore }
            length = 0
            for k in 0..<8 { length = length << 8 | UInt64(bytes[bytes.startIndex + 2 + k]) }
            guard length >> 63 == 0 else { return .fail(.protocolError, "payload length with the top bit set") }
            offset = 10
        }
        if opcode.isControl {
            guard fin else { return .fail(.protocolError, "fragmented control frame") }
            guard length <= 125 else { return .fail(.protocolError, "control frame over 125 bytes") }
        }
        guard length <= UInt64(maxPayload) else { return .fail(.tooBig, "frame of \(length) bytes over the limit of \(maxPayload)") }
        let n = Int(length)
        guard bytes.count >= offset + 4 + n else { return .needMore }
        let maskStart = bytes.startIndex + offset
        let mask = (bytes[maskStart], bytes[maskStart + 1], bytes[maskStart + 2], bytes[maskStart + 3])
        var payload = [UInt8](bytes[(maskStart + 4)..<(maskStart + 4 + n)])
        payload.withUnsafeMutableBufferPointer { p in
            for k in 0..<n {
                switch k & 3 {
                case 0: p[k] ^= mask.0
                case 1: p[k] ^= mask.1
                case 2: p[k] ^= mask.2
                default: p[k] ^= mask.3
                }
            }
        }
        return .frame(Frame(fin: fin, compressed: rsv1, opcode: opcode, payload: payload), consumed: offset + 4 + n)
    }

    /// A server frame (unmasked).
    public static func encode(_ opcode: Opcode, _ payload: [UInt8], fin: Bool = true, compressed: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(payload.count + 10)
        out.append((fin ? 0x80 : 0) | (compressed ? 0x40 : 0) | opcode.rawValue)
        if payload.count < 126 {
            out.append(UInt8(payload.count))
        } else if payload.count <= 0xFFFF {
            out.append(126)
            out.append(UInt8(payload.count >> 8))
            out.append(UInt8(payload.count & 0xFF))
        } else {
            out.append(127)
            for k in (0..<8).reversed() { out.append(UInt8((UInt64(payload.count) >> (8 * UInt64(k))) & 0xFF)) }
        }
        out.append(contentsOf: payload)
        return out
    }

    public static func closePayload(_ code: CloseCode, _ reason: String) -> [UInt8] {
        [UInt8(code.rawValue >> 8), UInt8(code.rawValue & 0xFF)] + Array(reason.utf8.prefix(120))
    }

    /// Checks a received close payload (RFC 6455 §7.4): its code, if any, and UTF-8 reason.
    public static func validateClose(_ payload: [UInt8]) -> (code: UInt16?, failure: (CloseCode, String)?) {
        if payload.isEmpty { return (nil, nil) }
        if payload.count == 1 { return (nil, (.protocolError, "close payload of one byte")) }
        let code = UInt16(payload[0]) << 8 | UInt16(payload[1])
        let valid = (1000...1003).contains(code) || (1007...1011).contains(code) || (3000...4999).contains(code)
        if !valid { return (code, (.protocolError, "invalid close code \(code)")) }
        if String(validating: payload[2...], as: UTF8.self) == nil { return (code, (.invalidPayload, "close reason is not UTF-8")) }
        return (code, nil)
    }
}
