/// How a check's findings are written: for people, as JSON, as JUnit XML (CI test reports),
/// or as GitHub Actions workflow commands (annotations on the files' lines).
public enum ReportFormat: String, CaseIterable, Sendable {
    case text, json, junit, github

    public func render(_ summary: CheckSummary) -> String {
        switch self {
        case .text: return TextReport.render(summary)
        case .json: return JSONReport.render(summary)
        case .junit: return JUnitReport.render(summary)
        case .github: return GitHubReport.render(summary)
        }
    }
}
