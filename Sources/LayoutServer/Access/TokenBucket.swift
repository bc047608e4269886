/// A request rate: `rate` a second on average, bursts of up to a second's worth.
struct TokenBucket {
    let rate: Double
    private var tokens: Double
    private var at: UInt64

    init(rate: Double, now: UInt64) {
        self.rate = rate
        tokens = max(1, rate)
        at = now
    }

    /// nil when a token was taken, else the seconds until one is there.
    mutating func take(now: UInt64) -> Double? {
        tokens = min(max(1, rate), tokens + Double(now &- at) / 1e9 * rate)
        at = now
        if tokens >= 1 {
            tokens -= 1
            return nil
        }
        return (1 - tokens) / rate
    }
}
