import JSON

/// `{documents, roots, layouts, errors, warnings, findings: [...]}`, each finding as
/// `POST /v1/ib/layout` answers it, with its file and size.
enum JSONReport {
    static func render(_ s: CheckSummary) -> String {
        let json = JSON.object([
            ("documents", .number(Double(s.documents.count))), ("roots", .number(Double(s.roots))), ("layouts", .number(Double(s.layouts))),
            ("errors", .number(Double(s.errors))), ("warnings", .number(Double(s.warnings))), ("findings", .array(s.findings.map(\.json)))
        ])
        var w = JSONWriter()
        w.value(json)
        return String(decoding: w.bytes, as: UTF8.self) + "\n"
    }
}
