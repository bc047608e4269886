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
        /// How many items each op carried, every op named (`addViews`, `setConstant`, …).
        public var applied: [(op: String, count: Int)]
    }

    /// Makes the session `body` (a layout document, with an optional `baseRevision` beside its
    /// fields) all or nothing. An error names its place in `body`; a stale `baseRevision` is
    /// a revision mismatch. The same document again is an empty change: no frame moves and
    /// the revision goes on by one, as for an empty `changes`.
    public func put(document body: JSON) throws(LayoutError) -> Put {
        guard let members = body.members else { throw LayoutError(.invalid, "", "a layout document is a JSON object") }
        try check(baseRevision: body["baseRevision"])
        let json = JSON.object(members.filter { $0.key != "baseRevision" })
        var target = LayoutDocument()
        target.measuresText = false
        try Self.load(json, into: &target)
        let diff = document.diff(to: target, sent: json["constraints"]?.array ?? [])
        var result = try apply(ops: diff.ops, to: document)
        result.applied = diff.applied
        return Put(result: result, changes: .object([("ops", .array(diff.ops))]), applied: diff.applied)
    }
}
