import XCTest

@testable import ConstraintSolver

/// The level vector against a dictionary under random reads, writes and updates,
/// with per-entry defaults as the reduced costs use them (an unset entry reads its default),
/// packed now and then as a built session's levels are, dense and hashed.
final class LevelVectorTests: XCTestCase {
    func testRandomWritesMatchADictionary() {
        var rng = SystemRandomNumberGenerator()
        for round in 0..<20 {
            // Half the rounds may hash (as among many levels), each span both ways.
            var v = LevelVector(mayHash: (round / 5) % 2 == 1)
            var reference: [Int: Double] = [:]
            // Half the ids default to 1 (an error of the level), half to 0.
            func absent(_ i: Int) -> Double { i % 2 == 0 ? 1 : 0 }
            // Spans past what 8 a set entry fills are hashed (1,000,000 stays so; 20,000 fills
            // back to dense), the others dense.
            let span = [50, 5_000, 100_000, 20_000, 1_000_000][round % 5]
            for step in 0..<20_000 {
                let i = Int.random(in: 0..<span, using: &rng)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    let x = [0, 1, Double(step)].randomElement(using: &rng)!
                    v[i, default: absent(i)] = x
                    reference[i] = x
                case 1:
                    v[i, default: absent(i)] -= 0.5
                    reference[i] = (reference[i] ?? absent(i)) - 0.5
                case 2 where step % 500 == 0:
                    // Packed (a quiet level), read, then written again: the first write unpacks.
                    v.pack()
                default:
                    XCTAssertEqual(v[i, default: absent(i)], reference[i] ?? absent(i), "round \(round) step \(step)")
                }
            }
            for i in 0..<min(span, 5_000) { XCTAssertEqual(v[i, default: absent(i)], reference[i] ?? absent(i)) }
            v.pack()
            for i in 0..<min(span, 5_000) { XCTAssertEqual(v[i, default: absent(i)], reference[i] ?? absent(i)) }
        }
    }
}
