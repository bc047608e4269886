import CICU
import CheckedNumbers
import Synchronization

/// Where a paragraph's lines may end (UAX #14) and where its grapheme clusters start
/// (UAX #29), by ICU's break iterators over the UTF-8 bytes themselves (a UText: no
/// UTF-16 copy, positions are byte offsets).
enum Boundaries {
    /// `lineBreak[i]`: a line may end before byte i (i in 1...count); `cluster[i]`: a grapheme
    /// cluster starts at byte i (i in 0..<count).
    struct Found {
        var lineBreak: [Bool]
        var cluster: [Bool]
    }

    /// Both kinds for `utf8`, which is valid UTF-8 (a Swift string's bytes).
    static func find(_ utf8: UnsafeBufferPointer<UInt8>) -> Found {
        var found = Found(lineBreak: [Bool](repeating: false, count: utf8.count + 1), cluster: [Bool](repeating: false, count: utf8.count))
        guard !utf8.isEmpty else { return found }
        guard let pair = pool.take() else {
            fallback(utf8, &found)
            return found
        }
        defer { pool.give(pair) }
        var status = U_ZERO_ERROR
        let start = utf8.baseAddress.map { UnsafeRawPointer($0).assumingMemoryBound(to: CChar.self) }
        guard let text = layoutd_utext_openUTF8(start, Int64(utf8.count), &status),
            status.rawValue <= U_ZERO_ERROR.rawValue
        else {
            fallback(utf8, &found)
            return found
        }
        defer { layoutd_utext_close(text) }
        walk(pair.line, text) { found.lineBreak[$0] = true }
        walk(pair.character, text) { if $0 < utf8.count { found.cluster[$0] = true } }
        return found
    }

    /// Each boundary after the start, in order.
    private static func walk(_ iterator: OpaquePointer, _ text: UnsafeMutablePointer<UText>, _ body: (Int) -> Void) {
        var status = U_ZERO_ERROR
        layoutd_ubrk_setUText(iterator, text, &status)
        guard status.rawValue <= U_ZERO_ERROR.rawValue else { return }
        var at = layoutd_ubrk_first(iterator)
        while true {
            at = layoutd_ubrk_next(iterator)
            if at == UBRK_DONE { break }
            body(Int(at))
        }
    }

    /// Without ICU's data (it failed to open): lines break after blanks, clusters are scalars.
    /// Never expected; the server keeps answering rather than stopping.
    private static func fallback(_ utf8: UnsafeBufferPointer<UInt8>, _ found: inout Found) {
        for i in 0..<utf8.count {
            found.cluster[i] = utf8[i] & 0xC0 != 0x80
            if utf8[i] == 32 || utf8[i] == 9 { found.lineBreak[i + 1] = true }
        }
        found.lineBreak[utf8.count] = true
    }

    /// A line and a character iterator, used by one thread at a time.
    struct Pair: @unchecked Sendable {
        var line: OpaquePointer
        var character: OpaquePointer
    }

    /// Iterators are not thread-safe, and opening one loads and compiles its rules (tens of
    /// microseconds); a measurement borrows a pair from here and gives it back, so each
    /// thread's first measurement clones the prototypes and later ones reuse them.
    final class Pool: Sendable {
        private let prototype: Pair?
        private let idle = Mutex<[Pair]>([])

        init() {
            var status = U_ZERO_ERROR
            let line = layoutd_ubrk_open(UBRK_LINE, "en", &status)
            let character = layoutd_ubrk_open(UBRK_CHARACTER, "en", &status)
            if let line, let character, status.rawValue <= U_ZERO_ERROR.rawValue {
                prototype = Pair(line: line, character: character)
            } else {
                prototype = nil
            }
        }

        func take() -> Pair? {
            if let pair = idle.withLock({ $0.popLast() }) { return pair }
            guard let prototype else { return nil }
            var status = U_ZERO_ERROR
            guard let line = layoutd_ubrk_clone(prototype.line, &status), let character = layoutd_ubrk_clone(prototype.character, &status),
                status.rawValue <= U_ZERO_ERROR.rawValue
            else { return nil }
            return Pair(line: line, character: character)
        }

        func give(_ pair: Pair) { idle.withLock { $0.append(pair) } }
    }

    static let pool = Pool()

    /// The Unicode version of ICU's data, for the conformance report.
    public static var unicodeVersion: String {
        var version = UVersionInfo(0, 0, 0, 0)
        layoutd_u_getUnicodeVersion(&version)
        return "\(version.0).\(version.1).\(version.2)"
    }
}
