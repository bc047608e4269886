import CheckedNumbers
import JSON

/// The ops of a `changes` body, each checked and applied to a working copy of the document.
enum ChangeOps {
    static func apply(_ op: JSON, to doc: inout LayoutDocument, at p: Pointer, added: inout [String]) throws(LayoutError) {
        guard op.members != nil else { throw p.fail("an op is an object with an 'op' field") }
        guard let name = op["op"]?.string else { throw p("op").fail("an op needs an 'op' name") }
        func allowed(_ keys: Set<String>) throws(LayoutError) {
            for (k, _) in op.members! where k != "op" && !keys.contains(k) { throw p(k).fail("'\(k)' does not go with \(name)") }
        }
        func ids(_ key: String = "ids") throws(LayoutError) -> [String] {
            guard let arr = op[key]?.array else { throw p(key).fail("\(key) must be an array of ids") }
            var out: [String] = []
            for (k, x) in arr.enumerated() {
                guard let s = x.string else { throw p(key)(k).fail("an id is a string") }
                out.append(s)
            }
            return out
        }
        func id() throws(LayoutError) -> String {
            guard let s = op["id"]?.string else { throw p("id").fail("id must be a string") }
            return s
        }
        /// The view `before` names (nil: absent; noRef: null, listed last).
        func viewAnchor() throws(LayoutError) -> ViewRef? {
            guard let b = op["before"] else { return nil }
            if b.isNull { return .noRef }
            guard let id = b.string, let v = doc.viewRef(id), !doc.views[Int(v)].internalGuide else {
                throw p("before").fail("before names a view the document has")
            }
            return v
        }
        switch name {
        case "addViews":
            try allowed(["views", "before"])
            let anchor = try viewAnchor()
            let made = try doc.addViews(op["views"] ?? .null, at: p("views"))
            // Last, in op order: after what an earlier op placed last too.
            if let anchor = anchor ?? (doc.changes.viewPlacements.isEmpty ? nil : .noRef) { doc.place(views: made, before: anchor) }
        case "removeViews":
            try allowed(["ids"])
            try doc.removeViews(try ids(), at: p("ids"))
        case "updateView":
            let id = try id(), anchor = try viewAnchor()
            try doc.updateView(id, fields: anchor == nil ? op.members! : op.members!.filter { $0.key != "before" }, at: p)
            // Moved before its anchor (or last) once the change is read.
            if let anchor, let v = doc.viewRef(id) { doc.place(views: [v], before: anchor) }
        case "addConstraints":
            try allowed(["constraints", "before"])
            var anchor: EntryRef? = nil
            if let b = op["before"] {
                guard let id = b.string, let e = doc.entryRef(id) else { throw p("before").fail("before names a constraint the document has") }
                anchor = e
            }
            let from = added.count
            try doc.addConstraints(op["constraints"] ?? .null, at: p("constraints"), added: &added)
            if let anchor { doc.place(added[from...].map { doc.entryRef($0)! }, before: anchor) }
        case "removeConstraints":
            try allowed(["ids"])
            try doc.removeConstraints(try ids(), at: p("ids"))
        case "setConstant":
            try allowed(["id", "constant"])
            let c = try ViewSpec.number(op["constant"], at: p("constant"))
            try doc.setConstant(try id(), c, at: p("id"))
        case "setPriority":
            try allowed(["id", "priority"])
            try doc.setPriority(try id(), try ViewSpec.priority(op["priority"], at: p("priority")), at: p("id"))
        case "activate", "deactivate":
            try allowed(["ids"])
            try doc.setActive(try ids(), name == "activate", at: p("ids"))
        case "setOptions":
            try allowed(["options"])
            guard let o = op["options"] else { throw p("options").fail("setOptions needs options") }
            try doc.setOptions(o, at: p("options"))
        default:
            throw p("op").fail("unknown op '\(name)'")
        }
    }
}
