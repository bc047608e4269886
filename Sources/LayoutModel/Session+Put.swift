import CheckedNumbers
public import JSON

/// A document sent whole (`PUT /v1/sessions/{id}/document`): the session becomes it by the
/// difference, as one change. Nothing is rebuilt: the new document is read (its labels not
/// measured), matched against the session's (`LayoutDocument.diff`), and what differs is
/// applied as `changes` ops, the journal's record of the change.
extension LayoutSession {
    public struct Put: Sendable {
        public var result: ChangeResult
        /// The change as a `changes` body (`{"ops": [...]}`): what the journal keeps and replays.
        public var changes: JSON
    }

    /// Makes the session the document in `body` (with an optional `baseRevision` beside its
    /// fields) all or nothing. Read in place, as a new session's body is; a body the reader
    /// gives up on, or whose ids it cannot tell apart (one shaped like the server's), is
    /// parsed and read from the tree, which names any error exactly.
    public func put(body: [UInt8]) throws(BodyError) -> Put {
        var target = Self.target
        var base: JSON? = nil
        if LayoutDocument.read(body, into: &target, beside: ("baseRevision", { base = $0 })) != nil, !target.autoShapedIDs {
            do throws(LayoutError) {
                try check(baseRevision: base)
                return try put(target, sent: nil)
            } catch { throw .refused(error) }
        }
        let tree: JSON
        do { tree = try JSONParser.parse(body) } catch { throw .notJSON(error) }
        do throws(LayoutError) { return try put(document: tree) } catch { throw .refused(error) }
    }

    /// The same from a parsed body. An error names its place in `body`; a stale `baseRevision`
    /// is a revision mismatch. The same document again is an empty change: no frame moves and
    /// the revision goes on by one, as for an empty `changes`.
    public func put(document body: JSON) throws(LayoutError) -> Put {
        guard let members = body.members else { throw LayoutError(.invalid, "", "a layout document is a JSON object") }
        try check(baseRevision: body["baseRevision"])
        let json = JSON.object(members.filter { $0.key != "baseRevision" })
        var target = Self.target
        try Self.load(json, into: &target)
        return try put(target, sent: json["constraints"]?.array ?? [])
    }

    /// A document read only to be matched: its labels are not measured.
    private static var target: LayoutDocument {
        var d = LayoutDocument()
        d.measuresText = false
        return d
    }

    private func put(_ target: LayoutDocument, sent: [JSON]?) throws(LayoutError) -> Put {
        // One entry a constraint sent, or ids told apart by their numbers: what `diff` reads
        // (refused, never trapped, should a reader ever break it).
        guard sent.map({ $0.count == target.entries.count }) ?? !target.autoShapedIDs else {
            throw LayoutError(.invalid, "/constraints", "the constraints sent could not be matched to those read")
        }
        let diff = document.diff(to: target, sent: sent)
        var result: ChangeResult
        do throws(LayoutError) { result = try apply(ops: diff.ops) } catch { throw error.placed(diff.origins) }
        result.applied = diff.applied
        // Churn is a client removing and adding back the same constraint in one change; a
        // document cannot say that, and what the server replaces (a constraint written in
        // another form) is its own doing.
        result.diagnostics.removeAll { if case .churn = $0 { true } else { false } }
        return Put(result: result, changes: .object([("ops", .array(diff.ops))]))
    }
}

extension LayoutError {
    /// An error in the ops a document sent whole became (`/ops/3/constraints/1/id`), at the
    /// place in that document they came from (`/constraints/12/id`); the whole document when
    /// the op has none (a removal, a limit).
    func placed(_ origins: [DocumentDiff.Origin]) -> LayoutError {
        var steps = pointer.split(separator: "/", omittingEmptySubsequences: false).dropFirst()
        guard steps.popFirst() == "ops", let j = steps.popFirst().flatMap({ Int($0) }), j < origins.count else { return self }
        if let field = steps.first, field == "constraints" || field == "views", steps.count >= 2,
            let at = origins[j].pointer(item: Int(steps[steps.startIndex + 1]))
        {
            return LayoutError(kind, at + steps.dropFirst(2).map { "/" + $0 }.joined(), detail)
        }
        return LayoutError(kind, origins[j].pointer(item: nil) ?? "", detail)
    }
}
