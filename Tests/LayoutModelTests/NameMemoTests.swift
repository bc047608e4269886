import XCTest

@testable import LayoutModel

final class NameMemoTests: XCTestCase {
    /// Every answer is the table's, whatever the names' lengths (0…20: the three ways a name's
    /// bytes are held, and past 16 none), shared prefixes and suffixes, and slots shared; and
    /// names asked again are answered without the table.
    func testMemoAnswersAsTheTable() {
        var rng = SystemRandomNumberGenerator()
        var names: [[UInt8]] = []
        for _ in 0..<300 {
            let n = Int.random(in: 0...20, using: &rng)
            names.append((0..<n).map { _ in Array("ab_.0Z".utf8).randomElement(using: &rng)! })
        }
        names += ["cell12_title", "cell12_titlf", "cell21_title", "a", "b", "ab", "ba", "abc", "acb"].map { Array($0.utf8) }
        // Names alike but in their last word, or in their first: the same slot must not answer for both.
        for k in 0..<40 { names.append(Array("abcdefgh_\(k + 100)".utf8)); names.append(Array("\(k + 100)_abcdefgh".utf8)) }
        var table: [[UInt8]: ViewRef] = [:]
        for (k, n) in names.enumerated() where Bool.random(using: &rng) && table[n] == nil { table[n] = ViewRef(k) }
        let memo = NameMemo()
        defer { memo.deallocate() }
        var asked = 0
        for _ in 0..<30_000 {
            let name = names.randomElement(using: &rng)!
            let answer = name.withUnsafeBufferPointer { b in
                memo.view(b) { bytes in
                    asked += 1
                    return table[Array(bytes)]
                }
            }
            XCTAssertEqual(answer, table[name], "\(name)")
        }
        XCTAssertLessThan(asked, 30_000, "some names were remembered")
    }
}
