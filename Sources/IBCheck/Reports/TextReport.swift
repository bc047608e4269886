import InterfaceBuilder

/// `FILE:LINE:COLUMN: error: MESSAGE [kind, root R at SIZE, ids A, B]`, a line a finding (the
/// form compilers write and editors jump to), then a line of totals.
enum TextReport {
    static func render(_ summary: CheckSummary) -> String {
        var out = ""
        for f in summary.findings {
            var about = [f.kind.rawValue]
            if let root = f.root { about.append("root \(root)" + (f.size.map { " at \($0)" } ?? "")) }
            if !f.ids.isEmpty { about.append("ids " + f.ids.joined(separator: ", ")) }
            out += "\(f.file ?? "-"):\(f.place.line):\(f.place.column): \(f.severity.rawValue): \(f.message) [\(about.joined(separator: "; "))]\n"
        }
        out += totals(summary) + "\n"
        return out
    }

    /// `4 documents, 5 roots at 6 sizes: 2 errors, 3 warnings (0.21 s)`.
    static func totals(_ s: CheckSummary) -> String {
        func count(_ n: Int, _ word: String) -> String { "\(n) \(word)\(n == 1 ? "" : "s")" }
        return "\(count(s.documents.count, "document")), \(count(s.roots, "root")), \(count(s.layouts, "layout")): "
            + "\(count(s.errors, "error")), \(count(s.warnings, "warning")) (\(pointsText(s.seconds)) s)"
    }
}
