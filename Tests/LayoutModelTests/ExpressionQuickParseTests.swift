import TestSupport
import XCTest

@testable import LayoutModel

/// The byte-level expression parser against the tokenizing one: whatever the quick parser
/// accepts, the tokenizing parser accepts as the same constraint, and the quick parser takes
/// the common forms (else every expression pays for tokens again).
final class ExpressionQuickParseTests: XCTestCase {
    /// Every attribute's name spells it, and no near miss spells one.
    func testAttributesAreReadFromTheirNamesBytes() {
        func read(_ s: String) -> Attribute? { Array(s.utf8).withUnsafeBufferPointer { Attribute(bytes: $0) } }
        for a in Attribute.allCases { XCTAssertEqual(read(a.rawValue), a, a.rawValue) }
        for miss in ["", "x", "to", "tops", "Top", "lefT", "centerZ", "centerXWithinMarginz", "widths", "hight", "trailingMargins", "lastbaseline"] {
            XCTAssertNil(read(miss), miss)
        }
    }

    /// The name scan's one-mask test is the tokenizer's letter, digit or `_`, byte for byte.
    func testWordBytesAreLettersDigitsAndUnderscore() {
        for b in UInt8.min...UInt8.max {
            XCTAssertEqual(b.isWordByte, b.isLetter || b.isDigit || b == UInt8(ascii: "_"), "byte \(b)")
        }
    }

    /// The word-at-a-time name scan against a byte-by-byte one, on random bytes weighted to
    /// names and to every byte it could mistake for one (below 0x20, DEL, 0x80 and up).
    func testNameRunIsTheByteScan() {
        let alphabet: [UInt8] = Array("aZz09_..-@ [`{".utf8) + [0x0E, 0x10, 0x19, 0x1F, 0x7F, 0x80, 0xC3, 0xFF, 0x5F, 0x2F, 0x3A]
        var rng = SystemRandomNumberGenerator()
        for _ in 0..<20_000 {
            let n = Int.random(in: 0...24, using: &rng)
            let bytes = (0..<n).map { _ in Bool.random(using: &rng) ? alphabet.randomElement(using: &rng)! : UInt8.random(in: 0...255, using: &rng) }
            let from = Int.random(in: 0...n, using: &rng)
            bytes.withUnsafeBufferPointer { b in
                let (end, dot) = b.nameRun(from: from)
                var k = from
                while k < n && (b[k].isWordByte || b[k] == UInt8(ascii: ".")) { k += 1 }
                // It stops where the byte scan does, or earlier within the last word's bytes.
                XCTAssert(end == k || (end < k && end + 8 > n), "\(bytes) from \(from): \(end), scan \(k)")
                XCTAssertEqual(dot, b[from..<end].lastIndex(of: UInt8(ascii: ".")) ?? -1, "\(bytes) from \(from)")
            }
        }
    }

    func testQuickParserTakesTheCommonForms() throws {
        for e in [
            "a.left == b.left + 8", "card.width == 2 * icon.height @750", "title.top >= avatar.bottom - 12.5",
            "v.width == w.width / 4", "c12_title.leading==c12_avatar.trailing+8", "my-view.centerX == 0.5 * root.width",
            "v.height <= 100", "v.width == -w.width", "v.width == .5 * w.width @ 1"
        ] {
            let quick = try XCTUnwrap(ExpressionSyntax.parseQuickly(e), e)
            XCTAssertEqual(quick, try ExpressionSyntax.parseTokens(e), e)
        }
    }

    func testQuickParserAgreesWithTokensOnRandomText() {
        let pieces = [
            "a.left", "b.width", "c-d.top", "_v.height", "x.foo", "e.left-8", "2x.top", ".top", "==", "<=", ">=", "=", "<", "+",
            "-", "*", "/", "@", "750", "1000", "1001", "0", "2", "12.5", ".5", "5.", "1.2.3", "1e3", "2E-1", "1234567890123456",
            "123456789012345", "0.1", " ", " ", "\t", "$", "é", "εικόνα.width", "٣"
        ]
        let anchors = ["a.left", "b.width", "c-d.top", "_v.height", "x.foo", "é.left"]
        let relations = ["==", "<=", ">=", "=", " == ", ">"]
        var rng = LCG(state: 12)
        var parsed = 0, quickly = 0
        for _ in 0..<20_000 {
            let text =
                anchors.randomElement(using: &rng)! + relations.randomElement(using: &rng)!
                + (0..<Int.random(in: 0...6, using: &rng)).map { _ in pieces.randomElement(using: &rng)! }.joined()
            let slow = Result { () throws(SyntaxError) in try ExpressionSyntax.parseTokens(text) }
            if case .success = slow { parsed += 1 }
            guard let quick = ExpressionSyntax.parseQuickly(text) else { continue }
            quickly += 1
            XCTAssertEqual(try slow.get(), quick, text)
        }
        XCTAssertGreaterThan(quickly, parsed / 3, "most text that parses takes the quick path (\(quickly) of \(parsed))")
    }
}
