import IBCheck
import CheckedNumbers
import InterfaceBuilder
import JSON
import LayoutModel

/// A layout that hands its frames over one by one, in document order.
protocol HandsOverFrames {
    func forEachFrame(_ body: (_ id: String, _ frame: Rect, _ hidden: Bool) -> Void)
}

extension RootLayout: HandsOverFrames {}

/// Encodes the model's answers straight into bytes (the hot path never builds a JSON tree).
enum WireFormat {
    static func frames(_ w: inout JSONWriter, _ frames: [FrameEntry]) {
        w.beginObject()
        for f in frames { frame(&w, f.id, f.frame, hidden: f.hidden) }
        w.endObject()
    }

    /// Every frame of a layout, written as its session hands them over (no list is made).
    static func frames(_ w: inout JSONWriter, of layout: some HandsOverFrames) {
        w.beginObject()
        layout.forEachFrame { frame(&w, $0, $1, hidden: $2) }
        w.endObject()
    }

    /// `"id":{"x":…,"y":…,"width":…,"height":…[,"hidden":true]}` in one room check.
    @inline(__always) static func frame(_ w: inout JSONWriter, _ id: String, _ f: Rect, hidden: Bool) {
        w.member(id, room: 4 * JSONWriter.Cursor.numberRoom + 48) { c in
            c.put("{\"x\":")
            c.number(f.x)
            c.put(",\"y\":")
            c.number(f.y)
            c.put(",\"width\":")
            c.number(f.width)
            c.put(",\"height\":")
            c.number(f.height)
            if hidden { c.put(",\"hidden\":true") }
            c.put(UInt8(ascii: "}"))
        }
    }

    static func strings(_ w: inout JSONWriter, _ xs: [String]) {
        w.beginArray()
        for x in xs { w.string(x) }
        w.endArray()
    }

    static func diagnostics(_ w: inout JSONWriter, _ ds: [Diagnostic]) {
        w.beginArray()
        for d in ds {
            w.beginObject()
            w.key("kind"); w.string(d.kind)
            switch d {
            case let .unsatisfiable(c, conflicts, omitted):
                w.key("constraint"); w.string(c)
                w.key("conflicts"); strings(&w, conflicts)
                if omitted > 0 { w.key("conflictsOmitted"); w.int(omitted) }
            case let .ambiguous(v, axis):
                w.key("view"); w.string(v)
                w.key("axis"); w.string(axis.rawValue)
            case let .churn(cs, views):
                w.key("constraints"); strings(&w, cs)
                w.key("views"); strings(&w, views)
            }
            w.key("message"); w.string(d.message)
            w.endObject()
        }
        w.endArray()
    }

    /// What the engine did for one change, when the client asks (`?timing=true`).
    struct Timing {
        var nanoseconds: UInt64
        var pivots: Int
        /// What the engine wrote: tableau rows (the solved form), or variable values (the factored one).
        var rowsTouched: Int
    }

    /// `{revision, frames, removed, diagnostics[, added][, coalesced][, timing][, session]}`.
    static func change(_ r: ChangeResult, session: String? = nil, coalesced: Int? = nil, timing: Timing? = nil) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 80 * r.frames.count)
        w.beginObject()
        if let session { w.key("session"); w.string(session) }
        w.key(plain: "revision"); w.int(r.revision)
        w.key(plain: "frames"); frames(&w, r.frames)
        if session == nil { w.key(plain: "removed"); strings(&w, r.removed) }
        w.key(plain: "diagnostics"); diagnostics(&w, r.diagnostics)
        if !r.added.isEmpty { w.key("added"); strings(&w, r.added) }
        if let applied = r.applied {
            w.key("applied")
            w.beginObject()
            for (op, n) in applied { w.key(op); w.int(n) }
            w.endObject()
        }
        if let coalesced { w.key("coalesced"); w.int(coalesced) }
        if let timing {
            w.key("timing")
            w.beginObject()
            w.member("engineMicroseconds", Double(timing.nanoseconds) / 1000)
            w.key("pivots"); w.int(timing.pivots)
            w.key("rowsTouched"); w.int(timing.rowsTouched)
            w.endObject()
        }
        w.endObject()
        return w.bytes
    }

    /// `{view, width, height}`: a fitting size.
    static func fitting(view: String, width: Double, height: Double) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("view"); w.string(view)
        w.member("width", width)
        w.member("height", height)
        w.endObject()
        return w.bytes
    }

    static func framesAnswer(_ a: LayoutSession.FramesAnswer) -> [UInt8] {
        var w = JSONWriter(capacity: 64 + 80 * a.frames.count)
        w.beginObject()
        w.key("revision"); w.int(a.revision)
        w.key("frames"); frames(&w, a.frames)
        if !a.removed.isEmpty { w.key("removed"); strings(&w, a.removed) }
        if a.full { w.key("full"); w.bool(true) }
        w.endObject()
        return w.bytes
    }

    /// `GET /v1/sessions/{id}`: the session's document and what its engine holds.
    static func session(_ id: String, revision: Int, document: JSON, stats st: LayoutSession.Stats) -> [UInt8] {
        var w = JSONWriter(capacity: 1024)
        w.beginObject()
        w.key("session"); w.string(id)
        w.key("revision"); w.int(revision)
        w.key("document"); w.value(document)
        w.key("stats")
        w.beginObject()
        w.key("views"); w.int(st.views)
        w.key("constraints"); w.int(st.constraints)
        w.key("rows"); w.int(st.rows)
        w.key("columns"); w.int(st.columns)
        w.key("pivots"); w.int(st.pivots)
        w.key("broken"); w.int(st.broken)
        w.key("priorityLevels"); w.int(st.priorityLevels)
        w.endObject()
        w.endObject()
        return w.bytes
    }

    /// `{view, axis, constraints: [{id, description, priority, broken, role}]}`: what holds a view on an axis.
    static func explain(view: String, axis: Axis, _ list: [LayoutSession.ExplainedConstraint]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("view"); w.string(view)
        w.key("axis"); w.string(axis.rawValue)
        w.key("constraints")
        w.beginArray()
        for c in list {
            w.beginObject()
            w.key("id"); w.string(c.id)
            w.key("description"); w.string(c.description)
            w.member("priority", c.priority)
            w.key("broken"); w.bool(c.broken)
            w.key("role"); w.string(c.role.rawValue)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    /// `{revision, frames}`: a session's frames at its revision (another valid layout, say).
    static func revisionFrames(_ revision: Int, _ fs: [FrameEntry]) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("revision"); w.int(revision)
        w.key("frames"); frames(&w, fs)
        w.endObject()
        return w.bytes
    }

    /// `{ticket, expiresInSeconds}`: a stream ticket.
    static func ticket(_ ticket: String, seconds: Int) -> [UInt8] {
        var w = JSONWriter()
        w.beginObject()
        w.key("ticket"); w.string(ticket)
        w.key("expiresInSeconds"); w.int(seconds)
        w.endObject()
        return w.bytes
    }

    /// A one-shot layout's answer: every frame of the session, and its diagnostics.
    static func layout(_ layout: OneShotLayout) -> [UInt8] {
        var w = JSONWriter(capacity: 256 + 80 * layout.viewCount)
        w.beginObject()
        w.key(plain: "frames"); frames(&w, of: layout)
        w.key("diagnostics"); diagnostics(&w, layout.diagnostics)
        w.endObject()
        return w.bytes
    }

    /// The layouts at many sizes, keyed by name, in the request's order: each with its size
    /// (and device, orientation and safe area when it was a device), frames and diagnostics.
    static func sizes(_ list: SizeList, _ layouts: [SizedLayout]) -> [UInt8] {
        let views = layouts.first?.frames.count ?? 0
        var w = JSONWriter(capacity: 256 + layouts.count * (256 + 80 * views))
        w.beginObject()
        w.key(plain: "sizes")
        w.beginObject()
        for (entry, layout) in zip(list.entries, layouts) {
            w.key(entry.name)
            w.beginObject()
            w.member("width", entry.size.width)
            w.member("height", entry.size.height)
            if let scale = entry.size.scale { w.member("scale", scale) }
            if let d = entry.size.layoutDirection { w.key("layoutDirection"); w.string(d.rawValue) }
            if let device = entry.device {
                w.key("device"); w.string(device.id)
                w.key("orientation"); w.string(device.orientation)
                w.key("safeArea")
                w.beginObject()
                w.member("top", device.safeArea.top)
                w.member("left", device.safeArea.left)
                w.member("bottom", device.safeArea.bottom)
                w.member("right", device.safeArea.right)
                w.endObject()
            }
            w.key(plain: "frames"); frames(&w, layout.frames)
            w.key("diagnostics"); diagnostics(&w, layout.diagnostics)
            w.endObject()
        }
        w.endObject()
        w.endObject()
        return w.bytes
    }

    /// `POST /v1/compare`'s answer: whether the two agree, and each difference.
    static func comparison(_ c: FrameComparison) -> JSON {
        func frame(_ f: FrameEntry?) -> JSON {
            guard let f else { return .null }
            var m: [(key: String, value: JSON)] = [
                ("x", .number(f.frame.x)), ("y", .number(f.frame.y)), ("width", .number(f.frame.width)), ("height", .number(f.frame.height))
            ]
            if f.hidden { m.append(("hidden", .bool(true))) }
            return .object(m)
        }
        let differences: [JSON] = c.differences.map { d in
            var m: [(key: String, value: JSON)] = []
            if let s = d.size { m.append(("size", .string(s))) }
            m += [("view", .string(d.view)), ("kind", .string(d.kind.rawValue)), ("delta", .number(d.delta))]
            m += [("expected", frame(d.expected)), ("actual", frame(d.actual))]
            return .object(m)
        }
        return .object([
            ("equal", .bool(c.differences.isEmpty)), ("tolerance", .number(c.tolerance)), ("compared", .number(Double(c.compared))),
            ("maxDelta", .number(c.maxDelta)), ("differences", .array(differences))
        ])
    }
}
