import JSON

/// A document read from the request's bytes in place, without a `JSON` tree of it: the tree
/// was a `String` a key and an array an object (the parse, 38 M instructions of the 1,000-cell
/// feed's one-shot layout, and as much again to free it). Views and `expr` entries are read
/// where they lie; any other field or entry is taken as a small tree and goes through the
/// decoders the tree's path uses, so both paths share every rule.
///
/// The reader answers no errors: on any (bad JSON, a bad field, keys out of the usual order
/// or repeated) it gives up, and the caller parses the whole body and builds from the
/// tree, which names the problem exactly as it always has (a syntax error after a bad view
/// is still reported as the syntax error).
extension LayoutDocument {
    private struct GiveUp: Error {}

    /// Reads the body into `doc` (a new one); the number of views it sent (which picks the
    /// engine), or nil. Filled in place: a document handed back in a tuple stayed shared with
    /// it, and the build's first write to each array copied it whole.
    static func read(_ body: [UInt8], into doc: inout LayoutDocument) -> Int? {
        do {
            return try JSONParser.reading(body) { r throws -> Int in try doc.read(&r) }
        } catch {
            return nil
        }
    }

    /// `{"options": {...}, "views": [...], "constraints": [...]}`, in that order, each at most once.
    private mutating func read(_ r: inout JSONParser) throws -> Int {
        var viewsSent = 0, stage = 0  // 1: views read; 2: constraints read
        var hasOptions = false
        if try r.beginObject() {
            repeat {
                let k = try r.key()
                if stage == 0 && !hasOptions && "options".isSpelled(by: k) {
                    // Set before any view, as the tree's path sets them (a store's snapshot leads with them).
                    let o = try r.readValue()
                    if !o.isNull { try setOptions(o, at: Pointer()) }
                    hasOptions = true
                } else if stage == 0 && "views".isSpelled(by: k) && r.peek() == UInt8(ascii: "[") {
                    viewsSent = try readViews(&r)
                    stage = 1
                } else if stage < 2 && "constraints".isSpelled(by: k) && r.peek() == UInt8(ascii: "[") {
                    if stage == 0 { reserve(views: 0, constraints: r.remaining / Self.bytesPerConstraint) }
                    try readConstraints(&r)
                    stage = 2
                } else {
                    throw GiveUp()
                }
            } while try r.nextMember()
        }
        try r.finish()
        texts.trim()
        return viewsSent
    }

    /// What an entry takes in a body, at the least, by measure (the 1,000-cell feed's, pretty
    /// printed: 58): it sizes the tables for the constraints still to come.
    private static let bytesPerConstraint = 40

    private mutating func readViews(_ r: inout JSONParser) throws -> Int {
        var specs: [ViewSpec] = []
        if try r.beginArray() {
            repeat { specs.append(try Self.readView(&r)) } while try r.nextElement()
        }
        reserve(views: specs.count, constraints: r.remaining / Self.bytesPerConstraint)
        try addViews(specs, at: Pointer()("views"))
        return specs.count
    }

    /// A view: its id and parent read in place, any other field decoded from its small tree
    /// by `ViewSpec.apply`. As the tree's path reads it, the first id counts and the others
    /// are passed over.
    private static func readView(_ r: inout JSONParser) throws -> ViewSpec {
        var spec = ViewSpec(id: "")
        var hasID = false
        guard try r.beginObject() else { throw GiveUp() }
        repeat {
            let k = try r.key()
            if "id".isSpelled(by: k) {
                let id = try r.readString()
                if !hasID { spec.id = id; hasID = true }
            } else if "parent".isSpelled(by: k) && r.peek() == UInt8(ascii: "\"") {
                spec.parent = try r.readString()
            } else {
                let value = try r.readValue()
                try spec.apply(field: String(decoding: k, as: UTF8.self), value, at: Pointer())
            }
        } while try r.nextMember()
        guard hasID, ViewSpec.validID(spec.id) else { throw GiveUp() }
        try spec.checkText(at: Pointer())
        try spec.checkKind(at: Pointer())
        return spec
    }

    /// Entries of an `expr` and perhaps a string id are read in place; any other is read
    /// again as a tree and added as the tree's path adds it.
    private mutating func readConstraints(_ r: inout JSONParser) throws {
        guard try r.beginArray() else { return }
        repeat {
            let start = r.mark
            if let entry = try Self.readExpressionEntry(&r) {
                try addExpression(entry.expr, id: try claimID(entry.id, at: Pointer()), active: true, at: Pointer())
            } else {
                r.rewind(to: start)
                _ = try addConstraint(try r.readValue(), at: Pointer())
            }
        } while try r.nextElement()
    }

    /// `{"expr": "…"}` or `{"id": "…", "expr": "…"}` (either order), else nil, the reader
    /// left somewhere inside the entry.
    private static func readExpressionEntry(_ r: inout JSONParser) throws -> (id: String?, expr: String)? {
        guard try r.beginObject() else { return nil }
        var id: String? = nil, expr: String? = nil
        repeat {
            let k = try r.key()
            guard r.peek() == UInt8(ascii: "\"") else { return nil }
            if expr == nil && "expr".isSpelled(by: k) {
                expr = try r.readString()
            } else if id == nil && "id".isSpelled(by: k) {
                id = try r.readString()
            } else {
                return nil
            }
        } while try r.nextMember()
        return expr.map { (id, $0) }
    }
}
