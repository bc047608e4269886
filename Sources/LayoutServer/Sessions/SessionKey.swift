import CheckedNumbers
/// A session id (32 lowercase hex digits) as the 128 bits it spells: the store's key. A
/// request's id is read straight from the path's bytes, with no String made and no
/// String hashed.
struct SessionKey: Hashable, Sendable {
    let high: UInt64
    let low: UInt64

    /// nil unless `utf8` is exactly 32 lowercase hex digits (so nothing else can name a session).
    init?<C: Collection<UInt8>>(utf8: C) {
        guard utf8.count == 32 else { return nil }
        var high: UInt64 = 0, low: UInt64 = 0
        for (k, c) in utf8.enumerated() {
            let digit: UInt8
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = c - UInt8(ascii: "a") + 10
            default: return nil
            }
            if k < 16 { high = high << 4 | UInt64(digit) } else { low = low << 4 | UInt64(digit) }
        }
        self.high = high
        self.low = low
    }

    init?(_ id: String) { self.init(utf8: id.utf8) }

    init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }
}

extension SessionKey: CustomStringConvertible {
    /// The id it was read from.
    var description: String {
        func pad(_ x: UInt64) -> String { let s = String(x, radix: 16); return String(repeating: "0", count: 16 - s.count) + s }
        return pad(high) + pad(low)
    }
}
