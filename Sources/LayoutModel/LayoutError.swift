/// A rejected document or change: what broke, and where (an RFC 6901 pointer into the
/// request body). The server maps `kind` to a status.
public struct LayoutError: Error, Equatable, Sendable {
    public enum Kind: Sendable {
        case malformed          // 400: not what the contract's JSON shape allows at all
        case invalid            // 422: valid JSON that breaks a rule of the contract
        case revisionMismatch   // 409
        case limit              // 413/422: a configured per-session limit
    }
    public var kind: Kind
    public var pointer: String
    public var detail: String

    public init(_ kind: Kind = .invalid, _ pointer: String, _ detail: String) {
        self.kind = kind; self.pointer = pointer; self.detail = detail
    }
}

/// Builds pointers as decoding descends.
struct Pointer {
    var path: String
    init(_ path: String = "") { self.path = path }
    func callAsFunction(_ key: String) -> Pointer { Pointer(path + "/" + jsonPointer(key)) }
    func callAsFunction(_ index: Int) -> Pointer { Pointer(path + "/" + String(index)) }
    func fail(_ detail: String) -> LayoutError { LayoutError(.invalid, path, detail) }
}

import JSON
func jsonPointer(_ s: String) -> String { jsonPointerToken(s) }
