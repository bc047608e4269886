public import JSON

extension ImportedRoot {
    /// The priority of a stored-frame hint: the lowest a constraint may have, so that it only
    /// chooses among layouts every constraint of the document finds equally good.
    static let hintPriority = 1.0

    /// The root's document with each ambiguous view held, at the lowest priority, where Xcode
    /// stored it along the axis it is ambiguous on: Xcode's canvas keeps an ambiguous view
    /// that is not marked misplaced at its stored frame rather than choosing another of its
    /// layouts. IBCorpus development half: 42 more views of 18 documents of 17 repositories
    /// agree (validation: 34 more views, 7 more documents fully). The engine's diagnostics of
    /// the document as imported still report the ambiguity; only the frames answered come
    /// from this one.
    public func holdingAmbiguousViews(_ ambiguous: [(view: String, horizontal: Bool)]) -> JSON {
        guard !ambiguous.isEmpty, case .object(var members) = document else { return document }
        var parents: [String: String] = [:]
        for v in document["views"]?.array ?? [] {
            if let id = v["id"]?.string, let p = v["parent"]?.string { parents[id] = p }
        }
        var frames: [String: Frame] = [:]
        for s in storedFrames where frames[s.id] == nil { frames[s.id] = Frame(x: s.x, y: s.y, width: s.width, height: s.height) }
        var hints: [JSON] = []
        for (view, horizontal) in ambiguous {
            guard let f = frames[view], let parent = parents[view] else { continue }
            let (edge, size, offset, length) = horizontal ? ("left", "width", f.x, f.width) : ("top", "height", f.y, f.height)
            hints.append(hint("\(view).stored.\(edge)", first: "\(view).\(edge)", second: "\(parent).\(edge)", offset))
            hints.append(hint("\(view).stored.\(size)", first: "\(view).\(size)", second: nil, length))
        }
        guard let k = members.firstIndex(where: { $0.key == "constraints" }), case .array(let list) = members[k].value else { return document }
        members[k].value = .array(list + hints)
        return .object(members)
    }

    private func hint(_ id: String, first: String, second: String?, _ constant: Double) -> JSON {
        var m: [(String, JSON)] = [("id", .string(id)), ("first", .string(first)), ("relation", .string("=="))]
        if let second { m.append(("second", .string(second))) }
        m += [("constant", number(constant)), ("priority", number(Self.hintPriority))]
        return object(m)
    }
}
