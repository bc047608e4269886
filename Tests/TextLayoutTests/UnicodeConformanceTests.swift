import XCTest
@testable import TextLayout

/// Unicode's own test files (Debian's unicode-data, Unicode 15.0) through the breaker the
/// server measures labels with: every line of LineBreakTest.txt (UAX #14) and
/// GraphemeBreakTest.txt (UAX #29). Each line's `÷` marks are where a break is expected.
final class UnicodeConformanceTests: XCTestCase {
    static let folder = "/usr/share/unicode/auxiliary"

    /// One test line: its text and where it breaks, as UTF-8 byte offsets.
    struct Case {
        var line: Int
        var text: String
        var codePoints: String
        var breaks: Set<Int>
    }

    /// The lines of a test file; lines whose code points cannot be a Swift string (a lone
    /// surrogate) are counted apart.
    static func cases(_ name: String) throws -> (cases: [Case], unrepresentable: Int) {
        let contents = try String(contentsOfFile: "\(folder)/\(name)", encoding: .utf8)
        var cases: [Case] = []
        var unrepresentable = 0
        for (n, raw) in contents.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            let body = raw.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false).first ?? ""
            let tokens = body.split(whereSeparator: \.isWhitespace)
            guard !tokens.isEmpty else { continue }
            var text = "", breaks: Set<Int> = [], offset = 0, representable = true
            for token in tokens {
                if token == "÷" {
                    if offset > 0 { breaks.insert(offset) }
                } else if token == "×" {
                    continue
                } else if let value = UInt32(token, radix: 16), let scalar = Unicode.Scalar(value) {
                    text.unicodeScalars.append(scalar)
                    offset += String(scalar).utf8.count
                } else {
                    representable = false
                }
            }
            guard representable else {
                unrepresentable += 1
                continue
            }
            cases.append(Case(line: n + 1, text: text, codePoints: String(body), breaks: breaks))
        }
        return (cases, unrepresentable)
    }

    static func found(_ text: String) -> Boundaries.Found {
        Array(text.utf8).withUnsafeBufferPointer { Boundaries.find($0) }
    }

    /// The lines of `file` whose breaks `got` (from the breaker's answer, as byte offsets past
    /// 0) does not give, printed with the pass count.
    func failures(_ file: String, atLeast: Int, _ got: (Boundaries.Found) -> Set<Int>, expected: (Case) -> Set<Int>) throws -> [Case] {
        let (cases, unrepresentable) = try Self.cases(file)
        XCTAssertGreaterThan(cases.count, atLeast, "\(file) read whole")
        let failed = cases.filter { got(Self.found($0.text)) != expected($0) }
        print("\(file) (ICU's Unicode \(Boundaries.unicodeVersion)): \(cases.count - failed.count) of \(cases.count) lines pass")
        print("\(unrepresentable) not representable\n" + failed.map { "line \($0.line): \($0.codePoints)" }.joined(separator: "\n"))
        return failed
    }

    func testLineBreakTestConformance() throws {
        let failed = try failures("LineBreakTest.txt", atLeast: 7_000, { f in Set((1..<f.lineBreak.count).filter { f.lineBreak[$0] }) }) {
            $0.breaks
        }
        // ICU's default line rules tailor UAX #14 in two places (below); anything else failing
        // is a regression of the breaker.
        XCTAssertEqual(Set(failed.map(\.line)), Self.knownLineTailoring)
    }

    func testGraphemeBreakTestConformance() throws {
        let failed = try failures("GraphemeBreakTest.txt", atLeast: 600, { f in Set((1..<f.cluster.count).filter { f.cluster[$0] }) }) {
            $0.breaks.subtracting([$0.text.utf8.count])
        }
        XCTAssertTrue(failed.isEmpty, failed.map { "line \($0.line)" }.joined(separator: ", "))
    }

    /// The 22 lines of Unicode 15.0's LineBreakTest.txt where ICU 72's default rules
    /// (`line.txt`) break otherwise, by design:
    /// - a hyphen-minus after a break keeps the letter or symbol after it (`-#`, `-§`, `-ก`,
    ///   ICU's rule 20.9, matching CSS: "-x" starts a word, it is not a line end): 2265–2431;
    /// - `.` or `,` before a digit stays with it even when no digit comes before (`,0`, `a.2`,
    ///   ` .35`): ICU applies UAX #14's number regular expression (LB25's tailoring) where the
    ///   test file expects the untailored pair rules: 2873, 2875, 7477, 7576–7587.
    static let knownLineTailoring: Set<Int> = [
        2265, 2267, 2421, 2423, 2425, 2427, 2429, 2431, 2873, 2875, 7477, 7576, 7577, 7578, 7579, 7580, 7581, 7583, 7584, 7585, 7586, 7587
    ]
}
