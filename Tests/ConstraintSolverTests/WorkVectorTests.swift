import XCTest

@testable import ConstraintSolver

/// The work vector against a dictionary over many resets: its stamp wraps every period of
/// resets, and an entry live before a wrap must not read as live after it. Every index is
/// read around each wrap and every hundredth round; in the others, the entries written.
final class WorkVectorTests: XCTestCase {
    func testRandomUseAcrossStampWrapsMatchesADictionary() {
        var rng = SystemRandomNumberGenerator()
        var w = WorkVector()
        var size = 8
        var mismatches: [String] = []
        let period = WorkVector.period
        for round in 0..<(2 * period + 500) {
            if round % (period + 250) == 0 { size += 50 }  // grows after the first wrap
            w.reset(size: size)
            let nearWrap = (round % period) < 3 || (round % period) > period - 3
            var reference: [Int: Double] = [:]
            var order: [Int] = []
            for _ in 0..<Int.random(in: 0...(nearWrap || round % 64 == 0 ? 12 : 2), using: &rng) {
                // The top 20 indices are written only with the stamps a wrap comes back to, so
                // a wrap that kept their stamps would show them live.
                let i = Int.random(in: 0..<(nearWrap ? size : size - 20), using: &rng), v = Double(Int.random(in: -3...3, using: &rng))
                if Bool.random(using: &rng) {
                    XCTAssertEqual(w.add(i, v), reference[i] == nil)
                    reference[i, default: 0] += v
                } else {
                    w.set(i, v)
                    reference[i] = v
                }
                if !order.contains(i) { order.append(i) }
            }
            if w.pattern != order { mismatches.append("round \(round): pattern \(w.pattern) against \(order)") }
            for i in nearWrap || round % 100 == 0 ? Array(0..<size) : order {
                if w.contains(i) != (reference[i] != nil) || w[i] != reference[i] ?? 0 {
                    mismatches.append("round \(round), index \(i): \(w.contains(i)) \(w[i]) against \(String(describing: reference[i]))")
                }
            }
        }
        XCTAssertEqual(mismatches, [])
    }
}
