import XCTest

@testable import ConstraintSolver

/// The work vector against a dictionary over many resets: its byte stamp wraps every 255
/// resets, and an entry live before a wrap must not read as live after it.
final class WorkVectorTests: XCTestCase {
    func testRandomUseAcrossStampWrapsMatchesADictionary() {
        var rng = SystemRandomNumberGenerator()
        var w = WorkVector()
        var size = 8
        for round in 0..<2_000 {
            if round % 300 == 0 { size += 50 }
            w.reset(size: size)
            var reference: [Int: Double] = [:]
            var order: [Int] = []
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let i = Int.random(in: 0..<size, using: &rng), v = Double(Int.random(in: -3...3, using: &rng))
                if Bool.random(using: &rng) {
                    XCTAssertEqual(w.add(i, v), reference[i] == nil)
                    reference[i, default: 0] += v
                } else {
                    w.set(i, v)
                    reference[i] = v
                }
                if !order.contains(i) { order.append(i) }
            }
            XCTAssertEqual(w.pattern, order)
            for i in 0..<size {
                XCTAssertEqual(w.contains(i), reference[i] != nil, "round \(round), index \(i)")
                XCTAssertEqual(w[i], reference[i] ?? 0)
            }
        }
    }
}
