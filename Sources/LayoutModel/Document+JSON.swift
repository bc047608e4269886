import CheckedNumbers
import ConstraintSolver
public import JSON

/// The document as JSON (`GET /v1/sessions/{id}`, the store's snapshots), written from the
/// records: nothing is kept as sent. Views list the fields that differ from the defaults;
/// `expr` and VFL entries keep their text; an entry whose atoms were changed since is
/// listed in the explicit form. Decoding what this writes builds the same document.
extension LayoutDocument {
    public var json: JSON { json(subtree: nil) }

    /// The document, or the part of it that is `root` and its descendants: `root` made a root
    /// (no parent, no fixed frame), and only the constraints whose views all lie inside;
    /// `extra` constraints after them. A subtree is found through `index` (made here when the
    /// caller fits one view only).
    func json(subtree root: ViewRef?, adding extra: [JSON] = [], index: FittingIndex? = nil) -> JSON {
        var opts: [(key: String, value: JSON)] = [("layoutDirection", .string(options.layoutDirection.rawValue))]
        if let s = options.scale { opts.append(("scale", .number(s))) }
        let (order, found) = root.map { subtree($0, index ?? fittingIndex()) } ?? (viewOrder, liveEntries)
        return .object([
            ("options", .object(opts)), ("views", .array(viewList(order.filter { !views[Int($0)].internalGuide }, root: root))),
            ("constraints", .array(found.flatMap(entryJSON) + extra))
        ])
    }

    /// The views' specs as the document lists them; a subtree's root without parent or frame.
    private func viewList(_ order: [ViewRef], root: ViewRef?) -> [JSON] {
        order.map { v in
            var spec = views[Int(v)].spec
            if v == root { spec.parent = nil; spec.frame = nil }
            return viewJSON(spec)
        }
    }

    /// An entry as the document lists it: an explicit constraint, an `expr` (one whose
    /// numbers changed so that it no longer writes as sent: explicit), a VFL group (one edited
    /// since: its remaining members).
    func entryJSON(_ e: EntryRef) -> [JSON] {
        let entry = entries[Int(e)]
        switch entry.form {
        case .explicit:
            return [explicitJSON(entry.atom)]
        case .expression:
            if entry.stale { return [explicitJSON(entry.atom)] }
            var m: [(key: String, value: JSON)] = [("id", .string(entry.id)), ("expr", .string(exprText(e)))]
            if !atoms[Int(entry.atom)].active { m.append(("active", .bool(false))) }
            return [.object(m)]
        case .visual:
            if entry.edited { return liveMembers(of: e).map(explicitJSON) }
            var m: [(key: String, value: JSON)] = [("id", .string(entry.id)), ("visual", .string(texts[entry.text]))]
            if let x = groupExtras[e] {
                if let o = x.options { m.append(("options", o)) }
                if let o = x.metrics { m.append(("metrics", o)) }
            }
            if let a = liveMembers(of: e).first, !atoms[Int(a)].active { m.append(("active", .bool(false))) }
            return [.object(m)]
        }
    }

    func explicitJSON(_ a: AtomRef) -> JSON {
        let x = atoms[Int(a)]
        var m: [(key: String, value: JSON)] = [
            ("id", .string(atomName(a))), ("first", .string(anchor(x.first, x.firstAttribute).description)),
            ("relation", .string(x.relation.rawValue))
        ]
        if x.hasSecond {
            m.append(("second", .string(anchor(x.second, x.secondAttribute).description)))
            m.append(("multiplier", .number(x.multiplier)))
        }
        m.append(("constant", .number(x.constant)))
        m.append(("priority", .number(x.priority)))
        if !x.active { m.append(("active", .bool(false))) }
        return .object(m)
    }

    func viewJSON(_ v: ViewSpec) -> JSON {
        var m: [(key: String, value: JSON)] = [("id", .string(v.id))]
        if let p = v.parent { m.append(("parent", .string(p))) }
        if v.isGuide { m.append(("kind", .string("guide"))) }
        if let s = v.stack { m.append(("kind", .string("stack"))); m.append(("stack", s.json)) }
        if let f = v.frame {
            m.append(("frame", .object([("x", .number(f.x)), ("y", .number(f.y)), ("width", .number(f.width)), ("height", .number(f.height))])))
        }
        if v.intrinsicWidth != nil || v.intrinsicHeight != nil {
            var s: [(key: String, value: JSON)] = []
            if let w = v.intrinsicWidth { s.append(("width", .number(w))) }
            if let h = v.intrinsicHeight { s.append(("height", .number(h))) }
            m.append(("intrinsicSize", .object(s)))
        }
        func pair(_ key: String, _ p: (h: Double, v: Double), _ d: (Double, Double)) {
            if p.h != d.0 || p.v != d.1 { m.append((key, .object([("horizontal", .number(p.h)), ("vertical", .number(p.v))]))) }
        }
        pair("hugging", v.hugging, (250, 250))
        pair("compressionResistance", v.compression, (750, 750))
        func insets(_ key: String, _ i: Insets, _ d: Insets) {
            if i != d {
                m.append(
                    (key, .object([("top", .number(i.top)), ("left", .number(i.left)), ("bottom", .number(i.bottom)), ("right", .number(i.right))])))
            }
        }
        insets("margins", v.margins, .defaultMargins)
        insets("alignmentInsets", v.alignmentInsets, .zero)
        if v.firstBaseline != nil || v.lastBaseline != nil {
            var b: [(key: String, value: JSON)] = []
            if let f = v.firstBaseline { b.append(("first", .number(f))) }
            if let l = v.lastBaseline { b.append(("last", .number(l))) }
            m.append(("baseline", .object(b)))
        }
        if v.hidden { m.append(("hidden", .bool(true))) }
        if let t = v.text { m.append(("text", t.json)) }
        return .object(m)
    }
}
