// Generated from openapi.yaml by `make openapi` (scripts/embed-openapi.sh); a test checks they match.
enum OpenAPIDocument {
    static let yaml = ""
}
