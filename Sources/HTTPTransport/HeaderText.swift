extension StringProtocol {
    /// The text without `c` at either end (header values: spaces, quotes). Named apart from
    /// Foundation's `trimmingCharacters(in:)`, which takes a character set.
    public func trimming(_ c: Character) -> String {
        var s = self[...]
        while s.first == c { s = s.dropFirst() }
        while s.last == c { s = s.dropLast() }
        return String(s)
    }
}
