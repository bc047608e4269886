/// Which kinds of finding are errors (a check fails on one), warnings, or left out.
public struct Severities: Sendable {
    private var table: [Finding.Kind: Finding.Severity?]

    /// Conflicts, refusals and moves from a snapshot are errors; ambiguity, misplacement and
    /// what the importer left out are warnings: Xcode shows those without failing a build.
    public static let standard = Severities(table: [
        .conflict: .error, .refused: .error, .moved: .error, .ambiguous: .warning, .misplaced: .warning, .unsupported: .warning
    ])

    /// The severity of `kind`; nil when it is left out.
    public subscript(kind: Finding.Kind) -> Finding.Severity? {
        get { table[kind] ?? nil }
        set { table[kind] = .some(newValue) }
    }

    /// The findings kept, each with the severity its kind has here.
    public func apply(_ findings: [Finding]) -> [Finding] {
        findings.compactMap { f in
            guard let s = self[f.kind] else { return nil }
            var f = f
            f.severity = s
            return f
        }
    }
}
