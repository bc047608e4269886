import CICUBreaks
import CheckedNumbers
import Synchronization

/// Where a paragraph's lines may end (UAX #14) and where its grapheme clusters start
/// (UAX #29), by ICU's break iterators over the UTF-8 bytes themselves (positions are byte
/// offsets, no UTF-16 copy).
enum Boundaries {
    /// `lineBreak[i]`: a line may end before byte i (i in 1...count); `cluster[i]`: a grapheme
    /// cluster starts at byte i (i in 0..<count).
    struct Found {
        var lineBreak: [Bool]
        var cluster: [Bool]
    }

    /// Both kinds for `utf8`, which is valid UTF-8 (a Swift string's bytes).
    static func find(_ utf8: UnsafeBufferPointer<UInt8>) -> Found {
        let n = utf8.count
        guard n > 0 else { return Found(lineBreak: [false], cluster: []) }
        var line = [UInt8](repeating: 0, count: n + 1), character = [UInt8](repeating: 0, count: n + 1)
        var read = false
        if let pair = pool.take() {
            defer { pool.give(pair) }
            utf8.withMemoryRebound(to: CChar.self) { text in
                read =
                    layoutd_breaks_find(pair.line, text.baseAddress, Int64(n), &line) == 0
                    && layoutd_breaks_find(pair.character, text.baseAddress, Int64(n), &character) == 0
            }
        }
        if !read { fallback(utf8, &line, &character) }
        var found = Found(lineBreak: line.map { $0 != 0 }, cluster: [Bool](repeating: false, count: n))
        found.cluster[0] = true
        for i in 1..<n where character[i] != 0 { found.cluster[i] = true }
        return found
    }

    /// Without ICU's data (it failed to open): lines break after blanks, clusters are scalars.
    /// Never expected; the server keeps answering rather than stopping.
    private static func fallback(_ utf8: UnsafeBufferPointer<UInt8>, _ line: inout [UInt8], _ character: inout [UInt8]) {
        for i in 0..<utf8.count {
            if utf8[i] & 0xC0 != 0x80 { character[i] = 1 }
            if utf8[i] == 32 || utf8[i] == 9 { line[i + 1] = 1 }
        }
        line[utf8.count] = 1
    }

    /// A line and a character iterator, used by one thread at a time.
    struct Pair: @unchecked Sendable {
        var line: UnsafeMutableRawPointer
        var character: UnsafeMutableRawPointer
    }

    /// Iterators are not thread-safe, and opening one loads and compiles its rules (tens of
    /// microseconds); a measurement borrows a pair from here and gives it back, so each
    /// thread's first measurement clones the prototypes and later ones reuse them.
    final class Pool: Sendable {
        private let prototype: Pair?
        private let idle = Mutex<[Pair]>([])

        init() {
            if let line = layoutd_breaks_open(1), let character = layoutd_breaks_open(0) {
                prototype = Pair(line: line, character: character)
            } else {
                prototype = nil
            }
        }

        func take() -> Pair? {
            if let pair = idle.withLock({ $0.popLast() }) { return pair }
            guard let prototype, let line = layoutd_breaks_clone(prototype.line), let character = layoutd_breaks_clone(prototype.character)
            else { return nil }
            return Pair(line: line, character: character)
        }

        func give(_ pair: Pair) { idle.withLock { $0.append(pair) } }
    }

    static let pool = Pool()

    /// The Unicode version of ICU's data, for the conformance report.
    static var unicodeVersion: String {
        var out = [CChar](repeating: 0, count: 16)
        layoutd_breaks_unicode_version(&out)
        return String(decoding: out.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
