/// The lexicographic objective: one row of error coefficients per priority level, so a
/// higher level always outweighs any amount of lower levels (strict priorities). A
/// symbol's "cost" is the vector of its coefficients, highest level first.
struct Objective {
    struct Level {
        let priority: Double
        var coefficients: [Int32: Double] = [:]
    }

    /// Sorted by priority, highest first.
    private(set) var levels: [Level] = []
    /// How many levels mention each symbol id: 0 means a zero cost (fast path).
    private(set) var mentions: [UInt16] = []

    mutating func grow(to n: Int) {
        if mentions.count < n { mentions.append(contentsOf: repeatElement(0, count: n - mentions.count)) }
    }

    func levelIndex(_ priority: Double) -> Int? {
        levels.firstIndex { $0.priority == priority }
    }

    mutating func ensureLevel(_ priority: Double) -> Int {
        if let i = levelIndex(priority) { return i }
        let i = levels.firstIndex { $0.priority < priority } ?? levels.count
        levels.insert(Level(priority: priority), at: i)
        return i
    }

    func isZero(_ s: Symbol) -> Bool { mentions[s.index] == 0 }

    func coefficient(_ s: Symbol, level: Int) -> Double { levels[level].coefficients[s.id] ?? 0 }

    /// Adds `c·s` at one level. Returns true when the symbol's cost changed between
    /// zero and non-zero (ambiguity depends on that).
    @discardableResult
    mutating func add(_ s: Symbol, _ c: Double, level: Int) -> Bool {
        let old = levels[level].coefficients[s.id] ?? 0
        let v = old + c
        if nearZero(v) {
            guard old != 0 else { return false }
            levels[level].coefficients[s.id] = nil
            mentions[s.index] -= 1
            return mentions[s.index] == 0
        }
        levels[level].coefficients[s.id] = v
        if old == 0 { mentions[s.index] += 1; return mentions[s.index] == 1 }
        return false
    }

    /// Removes the symbol from every level and returns its cost vector (sparse).
    mutating func take(_ s: Symbol) -> [(level: Int, coefficient: Double)] {
        guard mentions[s.index] > 0 else { return [] }
        var out: [(Int, Double)] = []
        for l in levels.indices {
            if let c = levels[l].coefficients.removeValue(forKey: s.id) { out.append((l, c)) }
        }
        mentions[s.index] = 0
        return out
    }

    /// Sign of the cost vector: the first non-zero level decides.
    func sign(_ s: Symbol) -> Int {
        guard mentions[s.index] > 0 else { return 0 }
        for l in levels {
            if let c = l.coefficients[s.id] { return c < 0 ? -1 : 1 }
        }
        return 0
    }

    /// Compares cost(a)/ka with cost(b)/kb lexicographically (ka, kb > 0).
    func compareRatio(_ a: Symbol, _ ka: Double, _ b: Symbol, _ kb: Double) -> Int {
        if mentions[a.index] == 0 && mentions[b.index] == 0 { return 0 }
        for l in levels {
            let x = (l.coefficients[a.id] ?? 0) / ka
            let y = (l.coefficients[b.id] ?? 0) / kb
            if !nearZero(x - y) { return x < y ? -1 : 1 }
        }
        return 0
    }
}
