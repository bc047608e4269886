import JSON

/// A rejected document or change: what broke, and where (an RFC 6901 pointer into the
/// request body). The server maps `kind` to a status.
public struct LayoutError: Error, Equatable, Sendable {
    public enum Kind: Sendable {
        case malformed  // 400: not what the contract's JSON shape allows at all
        case invalid  // 422: valid JSON that breaks a rule of the contract
        case revisionMismatch  // 409
        case limit  // 413/422: a configured per-session limit
        case quota  // 429: a tenant's share (of memory) the change would pass
        case stopped  // 503: the request's work passed its deadline, or was cancelled
    }
    public var kind: Kind
    public var pointer: String
    public var detail: String

    public init(_ kind: Kind = .invalid, _ pointer: String, _ detail: String) {
        self.kind = kind; self.pointer = pointer; self.detail = detail
    }

    /// Work stopped by the request's budget (`WorkBudget`).
    public static let stopped = LayoutError(.stopped, "", "the request's work passed its deadline")

    /// The same error, its pointer taken to be inside `prefix` (a document nested in a request).
    func under(_ prefix: String) -> LayoutError { LayoutError(kind, prefix + pointer, detail) }
}

/// Builds pointers as decoding descends. The string is only written when an error needs
/// it: a valid request (the hot path) never pays for escaping and concatenation.
struct Pointer {
    private indirect enum Step { case root, key(Step, String), index(Step, Int) }
    private let step: Step
    init() { step = .root }
    private init(_ step: Step) { self.step = step }
    func callAsFunction(_ key: String) -> Pointer { Pointer(.key(step, key)) }
    func callAsFunction(_ index: Int) -> Pointer { Pointer(.index(step, index)) }
    func fail(_ detail: String) -> LayoutError { LayoutError(.invalid, path, detail) }

    var path: String {
        var tokens: [String] = []
        var s = step
        while true {
            switch s {
            case .root: return tokens.reversed().map { "/" + $0 }.joined()
            case .key(let parent, let k): tokens.append(jsonPointerToken(k)); s = parent
            case .index(let parent, let i): tokens.append(String(i)); s = parent
            }
        }
    }
}
