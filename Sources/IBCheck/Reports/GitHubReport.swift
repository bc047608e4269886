import InterfaceBuilder

/// GitHub Actions workflow commands, one a finding: `::error file=F,line=L,col=C,title=T::MESSAGE`
/// (`::warning` for a warning), which the runner shows on the file's line in a pull request;
/// then the totals as a plain line.
enum GitHubReport {
    static func render(_ s: CheckSummary) -> String {
        var out = ""
        for f in s.findings {
            var title = "layoutd check: \(f.kind.rawValue)"
            if let root = f.root { title += " in \(root)" + (f.size.map { " at \($0)" } ?? "") }
            let properties = [("file", f.file ?? ""), ("line", "\(f.place.line)"), ("col", "\(f.place.column)"), ("title", title)]
            out += "::\(f.severity.rawValue) " + properties.map { "\($0.0)=\(property($0.1))" }.joined(separator: ",") + "::\(data(f.message))\n"
        }
        return out + TextReport.totals(s) + "\n"
    }

    /// A command's message: `%`, CR and LF escaped as the runner unescapes them.
    static func data(_ s: String) -> String {
        s.replacingAll([("%", "%25"), ("\r", "%0D"), ("\n", "%0A")])
    }

    /// A property's value: a message's escapes, and `:` and `,`, which would end it.
    static func property(_ s: String) -> String { data(s).replacingAll([(":", "%3A"), (",", "%2C")]) }
}

extension String {
    /// Each of the characters replaced, in one pass.
    fileprivate func replacingAll(_ pairs: [(Character, String)]) -> String {
        var out = ""
        for c in self { out += pairs.first { $0.0 == c }?.1 ?? String(c) }
        return out
    }
}
