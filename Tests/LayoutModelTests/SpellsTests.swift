import XCTest

@testable import LayoutModel

final class SpellsTests: XCTestCase {
    /// Word-at-a-time `spells` against a byte comparison: each name, each one-byte change of it
    /// at every place, and each shorter and longer neighbour.
    func testSpellsIsTheByteComparison() {
        let names: [StaticString] = [
            "", "x", "id", "top", "expr", "width", "height", "centerX", "visual", "options", "vertical", "horizontal",
            "topMargin", "intrinsicSize", "compressionResistance", "centerXWithinMargins"
        ]
        for name in names {
            let bytes = Array(UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
            var cases = [bytes, bytes + [0x61], Array(bytes.dropLast())]
            for k in bytes.indices {
                for d: UInt8 in [1, 0x20, 0x80] {
                    var changed = bytes
                    changed[k] ^= d
                    cases.append(changed)
                }
            }
            for other in names { cases.append(Array(UnsafeBufferPointer(start: other.utf8Start, count: other.utf8CodeUnitCount))) }
            for c in cases {
                c.withUnsafeBufferPointer { b in XCTAssertEqual(b.spells(name), c == bytes, "\(c) spells \(name)") }
            }
        }
    }
}
