import InterfaceBuilder
import Rendering

/// JUnit XML as CI services read it: a test suite a document, a test case a root at a size
/// (and one for the document itself), failing with its error findings; warnings are the
/// case's `system-out`. A case holds at most one `failure` (the schema's rule): its message
/// is the first error, its text every one.
enum JUnitReport {
    static func render(_ s: CheckSummary) -> String {
        var suites = ""
        var tests = 0, failures = 0
        for d in s.documents {
            var cases: [(name: String, findings: [Finding])] = []
            let whole = d.findings.filter { $0.root == nil }
            if !whole.isEmpty || d.layouts.isEmpty { cases.append(("document", whole)) }
            for l in d.layouts {
                cases.append(("\(l.root) at \(l.size)", d.findings.filter { $0.root == l.root && $0.size == l.size }))
            }
            // A finding said once for every size (what the importer left out) is the first size's.
            var body = ""
            var failed = 0
            for c in cases {
                let errors = c.findings.filter { $0.severity == .error }, warnings = c.findings.filter { $0.severity == .warning }
                body += "    <testcase classname=\"\(xml(d.file))\" name=\"\(xml(c.name))\" time=\"0\">\n"
                if let first = errors.first {
                    failed += 1
                    let more = errors.count > 1 ? " (and \(errors.count - 1) more)" : ""
                    body += "      <failure message=\"\(xml(first.message + more))\" type=\"\(first.kind.rawValue)\">"
                    body += xml(errors.map(line).joined(separator: "\n"), attribute: false) + "</failure>\n"
                }
                if !warnings.isEmpty {
                    body += "      <system-out>" + xml(warnings.map(line).joined(separator: "\n"), attribute: false) + "</system-out>\n"
                }
                body += "    </testcase>\n"
            }
            tests += cases.count
            failures += failed
            suites += "  <testsuite name=\"\(xml(d.file))\" tests=\"\(cases.count)\" failures=\"\(failed)\" errors=\"0\" skipped=\"0\" time=\"0\">\n"
            suites += body + "  </testsuite>\n"
        }
        return "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            + "<testsuites name=\"layoutd check\" tests=\"\(tests)\" failures=\"\(failures)\" errors=\"0\" time=\"\(pointsText(s.seconds))\">\n"
            + suites + "</testsuites>\n"
    }

    private static func line(_ f: Finding) -> String {
        let ids = f.ids.isEmpty ? "" : "; ids " + f.ids.joined(separator: ", ")
        return "\(f.file ?? "-"):\(f.place.line):\(f.place.column): \(f.severity.rawValue): \(f.message) [\(f.kind.rawValue)\(ids)]"
    }

    static func xml(_ s: String, attribute: Bool = true) -> String { XMLText.escaped(s, attribute: attribute) }
}
