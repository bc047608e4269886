/// A route's captures, held inline (no route has more than two): names and byte ranges.
public struct PathCaptures: Sendable {
    public init() {}

    private var first: (name: String, range: Range<Int>)?
    private var second: (name: String, range: Range<Int>)?

    mutating func append(_ name: String, _ range: Range<Int>) {
        if first == nil { first = (name, range) } else { precondition(second == nil, "a route has at most two captures"); second = (name, range) }
    }

    public func range(of name: String) -> Range<Int>? {
        if let first, first.name == name { return first.range }
        if let second, second.name == name { return second.range }
        return nil
    }
}
