/// A seeded generator for the randomized tests: the same seed, the same systems and
/// documents, on every machine.
public struct LCG: RandomNumberGenerator {
    public var state: UInt64
    public init(state: UInt64) { self.state = state }
    public mutating func next() -> UInt64 {
        state = state &* 6364136223846793005 &+ 1442695040888963407
        return state
    }
}
