import XCTest
import TestSupport
import JSON
@testable import LayoutModel

/// A document sent whole (`put`): on random documents and random edits, the session ends as a
/// fresh build of the new document (frames, diagnostics, explain, the document it gives back),
/// answers exactly the views that moved, and keeps the server-given ids of the constraints
/// that stayed; its journal record replays to the same session.
final class PutTests: XCTestCase {
    // MARK: A small model of a document, edited at random

    struct View {
        var id: String
        var parent: String?
        var frame: String? = nil
        var intrinsic: (Int, Int)? = nil
        var text: String? = nil
        var hidden = false
        var margins = false
        var stack: [String]? = nil
        var axis = "vertical"

        var json: String {
            var m = [#""id":"\#(id)""#]
            if let parent { m.append(#""parent":"\#(parent)""#) }
            if let frame { m.append(#""frame":\#(frame)"#) }
            if let (w, h) = intrinsic { m.append(#""intrinsicSize":{"width":\#(w),"height":\#(h)}"#) }
            if let text { m.append(#""text":{"string":"\#(text)","font":{"family":"DejaVu Sans","size":13},"numberOfLines":0}"#) }
            if hidden { m.append(#""hidden":true"#) }
            if margins { m.append(#""margins":{"top":4,"left":4,"bottom":4,"right":4}"#) }
            if let stack {
                m.append(#""kind":"stack""#)
                m.append(#""stack":{"axis":"\#(axis)","spacing":4,"arrangedSubviews":[\#(stack.map { "\"\($0)\"" }.joined(separator: ","))]}"#)
            }
            return "{" + m.joined(separator: ",") + "}"
        }
    }

    enum Form { case expr, oddExpr, explicit }

    struct Constraint {
        var id: String?
        var first: (String, String)
        var relation = "=="
        var second: (String, String)?
        var multiplier = 1.0
        var constant: Double
        var priority = 1000.0
        var active = true
        var form = Form.expr
        /// A VFL format instead of the fields above.
        var visual: String? = nil

        var views: [String] { visual != nil ? [] : [first.0] + (second.map { [$0.0] } ?? []) }

        var json: String {
            var m: [String] = []
            if let id { m.append(#""id":"\#(id)""#) }
            if let visual {
                m.append(#""visual":"\#(visual)""#)
            } else {
                switch form {
                case .explicit:
                    m.append(#""first":"\#(first.0).\#(first.1)","relation":"\#(relation)""#)
                    if let second { m.append(#""second":"\#(second.0).\#(second.1)","multiplier":\#(multiplier)"#) }
                    m.append(#""constant":\#(constant),"priority":\#(priority)"#)
                case .expr, .oddExpr:
                    let odd = form == .oddExpr
                    var e = "\(first.0).\(first.1) \(relation) "
                    if let second {
                        e += "\(second.0).\(second.1)"
                        if multiplier != 1 || odd { e += " * \(multiplier)" }
                        if constant != 0 { e += constant < 0 ? " - \(fmt(-constant))" : " + \(fmt(constant))" }
                    } else {
                        e += fmt(constant)
                    }
                    if priority != 1000 { e += " @\(fmt(priority))" }
                    m.append(#""expr":"\#(e)""#)
                }
            }
            if !active { m.append(#""active":false"#) }
            return "{" + m.joined(separator: ",") + "}"
        }

        func fmt(_ d: Double) -> String { d == d.rounded() ? String(Int(d)) : String(d) }
    }

    struct Doc {
        var views: [View] = []
        var constraints: [Constraint] = []
        var scale: Double? = nil
        var rtl = false
        var nextView = 0, nextID = 0

        var json: String {
            var opts: [String] = []
            if let scale { opts.append(#""scale":\#(scale)"#) }
            if rtl { opts.append(#""layoutDirection":"rtl""#) }
            return
                #"{"options":{\#(opts.joined(separator: ","))},"views":[\#(views.map(\.json).joined(separator: ","))],"constraints":[\#(constraints.map(\.json).joined(separator: ","))]}"#
        }

        func subtree(_ id: String) -> Set<String> {
            var out: Set<String> = [id]
            var grew = true
            while grew {
                grew = false
                for v in views where v.parent.map(out.contains) == true && !out.contains(v.id) { out.insert(v.id); grew = true }
            }
            return out
        }

        func view(_ id: String) -> View? { views.first { $0.id == id } }
        /// Views a stack arranges: their position is the stack's.
        var arranged: Set<String> { Set(views.flatMap { $0.stack ?? [] }) }
    }

    static let words = ["layout", "a", "constraint", "engine", "wraps", "text", "at", "every", "width"]

    func randomConstraint(_ d: inout Doc, _ rng: inout LCG, about v: String? = nil) -> Constraint? {
        let free = d.views.filter { $0.parent != nil && !d.arranged.contains($0.id) }
        guard let a = v.flatMap(d.view) ?? free.randomElement(using: &rng), let parent = a.parent else { return nil }
        let named = Int.random(in: 0..<3, using: &rng) == 0
        var id: String? = nil
        if named { d.nextID += 1; id = "k\(d.nextID)" }
        let form: Form = [.expr, .expr, .explicit, .oddExpr].randomElement(using: &rng)!
        let priority = [1000.0, 1000, 750, 250].randomElement(using: &rng)!
        switch Int.random(in: 0..<5, using: &rng) {
        case 0:
            return Constraint(
                id: id, first: (a.id, "leading"), second: (parent, "leading"), constant: Double(Int.random(in: 0...40, using: &rng)),
                priority: priority, form: form)
        case 1:
            return Constraint(
                id: id, first: (a.id, "top"), second: (parent, "top"), constant: Double(Int.random(in: 0...200, using: &rng)), priority: priority,
                form: form)
        case 2:
            return Constraint(
                id: id, first: (a.id, "width"), relation: [">=", "=="].randomElement(using: &rng)!, second: (parent, "width"),
                multiplier: [0.5, 0.25, 1].randomElement(using: &rng)!, constant: 0, priority: priority == 1000 ? 500 : priority, form: form)
        case 3:
            // Required: against a view's own size, a conflict (which one breaks follows the order).
            return Constraint(
                id: id, first: (a.id, ["width", "height"].randomElement(using: &rng)!), constant: Double(Int.random(in: 10...90, using: &rng)),
                form: form)
        default:
            let siblings = d.views.filter { $0.parent == parent && $0.id != a.id && !d.arranged.contains($0.id) }
            if let b = siblings.randomElement(using: &rng) {
                return Constraint(
                    id: id, first: (a.id, "top"), relation: ">=", second: (b.id, "bottom"), constant: Double(Int.random(in: 0...20, using: &rng)),
                    priority: 750, form: form)
            }
            return Constraint(id: id, first: (a.id, "height"), relation: ">=", constant: Double(Int.random(in: 5...60, using: &rng)), form: form)
        }
    }

    /// A new view under `parent`, pinned so that it is seldom ambiguous.
    func addView(_ d: inout Doc, _ rng: inout LCG, under parent: String) {
        d.nextView += 1
        var v = View(id: "v\(d.nextView)", parent: parent)
        switch Int.random(in: 0..<3, using: &rng) {
        case 0: v.text = (0..<Int.random(in: 2...10, using: &rng)).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
        case 1: v.intrinsic = (Int.random(in: 10...80, using: &rng), Int.random(in: 10...40, using: &rng))
        default: break
        }
        if let s = d.views.firstIndex(where: { $0.id == parent && $0.stack != nil }) {
            if v.intrinsic == nil && v.text == nil { v.intrinsic = (20, 20) }
            d.views.append(v)
            d.views[s].stack!.append(v.id)
            return
        }
        d.views.append(v)
        d.constraints.append(
            Constraint(id: nil, first: (v.id, "leading"), second: (parent, "leading"), constant: Double(Int.random(in: 0...40, using: &rng))))
        d.constraints.append(
            Constraint(id: nil, first: (v.id, "top"), second: (parent, "top"), constant: Double(Int.random(in: 0...200, using: &rng))))
        if v.intrinsic == nil && v.text == nil {
            d.constraints.append(
                Constraint(id: nil, first: (v.id, "width"), constant: Double(Int.random(in: 10...100, using: &rng)), form: .explicit))
            d.constraints.append(Constraint(id: nil, first: (v.id, "height"), constant: Double(Int.random(in: 10...60, using: &rng))))
        }
        if v.text != nil {
            d.constraints.append(Constraint(id: nil, first: (v.id, "trailing"), relation: "<=", second: (parent, "trailing"), constant: -8))
        }
    }

    func randomDocument(_ rng: inout LCG) -> Doc {
        var d = Doc()
        d.views.append(View(id: "root", frame: #"{"x":0,"y":0,"width":400,"height":600}"#))
        if Bool.random(using: &rng) { d.scale = 2 }
        for _ in 0..<Int.random(in: 2...7, using: &rng) {
            let parents = d.views.filter { $0.parent == nil || ($0.text == nil && $0.intrinsic == nil && $0.stack == nil) }
            addView(&d, &rng, under: parents.randomElement(using: &rng)!.id)
        }
        if Bool.random(using: &rng) {
            d.nextView += 1
            let s = "v\(d.nextView)"
            d.views.append(View(id: s, parent: "root", stack: []))
            d.constraints.append(Constraint(id: "stackX", first: (s, "leading"), second: ("root", "leading"), constant: 10))
            d.constraints.append(Constraint(id: nil, first: (s, "top"), second: ("root", "top"), constant: 300))
            d.constraints.append(Constraint(id: nil, first: (s, "width"), constant: 120))
            for _ in 0..<Int.random(in: 1...3, using: &rng) { addView(&d, &rng, under: s) }
        }
        for _ in 0..<Int.random(in: 0...4, using: &rng) { if let c = randomConstraint(&d, &rng) { d.constraints.append(c) } }
        let rootKids = d.views.filter { $0.parent == "root" && $0.stack == nil }
        if rootKids.count >= 2, Bool.random(using: &rng) {
            d.constraints.append(
                Constraint(
                    id: Bool.random(using: &rng) ? "row" : nil, first: ("", ""), constant: 0, priority: 750,
                    visual: "V:[\(rootKids[0].id)]-(>=6@750)-[\(rootKids[1].id)]"))
        }
        return d
    }

    /// One random edit: a constant, a priority, an activity, a constraint or a view in or out,
    /// a view moved to another parent or restyled, the options, a constraint's form.
    func edit(_ d: inout Doc, _ rng: inout LCG) {
        let plain = d.constraints.indices.filter { d.constraints[$0].visual == nil }
        switch Int.random(in: 0..<15, using: &rng) {
        case 0, 1:
            if let k = plain.randomElement(using: &rng) { d.constraints[k].constant += Double(Int.random(in: -15...15, using: &rng)) }
        case 2:
            if let k = plain.randomElement(using: &rng) { d.constraints[k].constant += 0.5 }
        case 3:
            if let k = plain.randomElement(using: &rng), d.constraints[k].priority < 1000 {
                d.constraints[k].priority = [250, 500, 750, 999].randomElement(using: &rng)!
            }
        case 4:
            if let k = d.constraints.indices.randomElement(using: &rng) { d.constraints[k].active.toggle() }
        case 5:
            if let k = d.constraints.indices.randomElement(using: &rng) { d.constraints.remove(at: k) }
        case 6:
            if let c = randomConstraint(&d, &rng) { d.constraints.insert(c, at: Int.random(in: 0...d.constraints.count, using: &rng)) }
        case 7:
            let candidates = d.views.filter { $0.parent != nil }
            guard let v = candidates.randomElement(using: &rng) else { return }
            let gone = d.subtree(v.id)
            d.views.removeAll { gone.contains($0.id) }
            for k in d.views.indices { d.views[k].stack?.removeAll { gone.contains($0) } }
            d.constraints.removeAll { c in
                c.views.contains(where: gone.contains) || (c.visual != nil && gone.contains(where: { c.visual!.contains("[\($0)]") }))
            }
        case 8:
            let parents = d.views.filter { $0.text == nil && $0.intrinsic == nil }
            addView(&d, &rng, under: parents.randomElement(using: &rng)!.id)
            let k = d.views.count - 1
            if Bool.random(using: &rng) { d.views.insert(d.views.remove(at: k), at: Int.random(in: 1...k, using: &rng)) }
        case 9:
            // To another parent: a plain view, not arranged, not in a VFL group.
            let inVisual = d.constraints.compactMap(\.visual).joined()
            let movable = d.views.filter { $0.parent != nil && !d.arranged.contains($0.id) && !inVisual.contains("[\($0.id)]") && $0.stack == nil }
            guard let v = movable.randomElement(using: &rng) else { return }
            let inside = d.subtree(v.id)
            let targets = d.views.filter { !inside.contains($0.id) && $0.id != v.parent && $0.text == nil && $0.intrinsic == nil && $0.stack == nil }
            guard let t = targets.randomElement(using: &rng) else { return }
            let k = d.views.firstIndex { $0.id == v.id }!
            d.views[k].parent = t.id
            // Its constraints to its old parent now name the new one; to others, dropped.
            for c in d.constraints.indices where d.constraints[c].views.contains(v.id) {
                if d.constraints[c].second?.0 == v.parent { d.constraints[c].second!.0 = t.id }
            }
            d.constraints.removeAll { c in c.views.contains(v.id) && c.views.contains(where: { $0 != v.id && $0 != t.id }) }
            // Parents first in the list: the view and its subtree after its new parent.
            let moved = d.views.filter { inside.contains($0.id) }
            d.views.removeAll { inside.contains($0.id) }
            let at = d.views.firstIndex { $0.id == t.id }! + 1
            d.views.insert(contentsOf: moved, at: at)
        case 10:
            guard let k = d.views.indices.filter({ d.views[$0].parent != nil }).randomElement(using: &rng) else { return }
            switch Int.random(in: 0..<4, using: &rng) {
            case 0: d.views[k].hidden.toggle()
            case 1: d.views[k].margins.toggle()
            case 2:
                if d.views[k].text != nil {
                    d.views[k].text! += " more words here"
                } else if d.views[k].intrinsic != nil {
                    d.views[k].intrinsic!.0 += 7
                }
            default:
                if d.views[k].stack != nil {
                    d.views[k].axis = d.views[k].axis == "vertical" ? "horizontal" : "vertical"
                } else {
                    d.views[k].hidden.toggle()
                }
            }
        case 11:
            if Bool.random(using: &rng) { d.scale = d.scale == nil ? 3 : nil } else { d.rtl.toggle() }
        case 12:
            // The same constraint but its constant, beside it: matched by content, the one sent
            // unchanged keeps its id.
            guard let k = plain.randomElement(using: &rng) else { return }
            var c = d.constraints[k]
            c.id = nil
            c.constant += Double(Int.random(in: 1...9, using: &rng))
            d.constraints.insert(c, at: Bool.random(using: &rng) ? k : k + 1)
        case 13:
            // A view listed elsewhere (before its parent too: a fresh build lists the parent first).
            guard d.views.count > 2, let k = (1..<d.views.count).randomElement(using: &rng) else { return }
            d.views.insert(d.views.remove(at: k), at: Int.random(in: 1..<d.views.count, using: &rng))
        default:
            if let k = plain.randomElement(using: &rng) { d.constraints[k].form = [.expr, .explicit, .oddExpr].randomElement(using: &rng)! }
        }
    }

    // MARK: What is compared

    struct Outcome: Equatable {
        var frames: [String: Rect]
        var ambiguous: [String]
        /// The constraints broken, by what they say.
        var broken: [String]
        var document: JSON
        var explain: [String: [String]]
    }

    /// Server-given ids (`c7`) differ between a session and a fresh build: masked.
    static func masked(_ id: String) -> String {
        // A stack's own constraints are numbered as the stack made them, again after each change to it.
        if let r = id.range(of: ".stack.") { return id[..<r.upperBound] + "#" }
        let head = id.split(separator: ".", maxSplits: 1)
        guard LayoutDocument.autoNumber(String(head[0])) != nil else { return id }
        return head.count == 2 ? "c#.\(head[1])" : "c#"
    }

    static func outcome(_ s: LayoutSession) -> Outcome {
        func r(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
        let ds = s.diagnostics()
        var amb = Set<String>()
        for case .ambiguous(let v, _) in ds { amb.insert(v) }
        var frames: [String: Rect] = [:]
        for f in s.allFrames where !amb.contains(f.id) {
            frames[f.id] = Rect(x: r(f.frame.x), y: r(f.frame.y), width: r(f.frame.width), height: r(f.frame.height))
        }
        // The document: views and constraints in order, server ids masked.
        let doc = s.document.json
        let views = doc["views"]?.array ?? []
        let constraints = (doc["constraints"]?.array ?? []).map { c -> String in
            var m = c.members!
            if let k = m.firstIndex(where: { $0.key == "id" }) { m[k].value = .string(masked(m[k].value.string!)) }
            return String(decoding: JSON.object(m).serialized, as: UTF8.self)
        }
        var explain: [String: [String]] = [:]
        var broken: [String] = []
        for case .unsatisfiable(let c, _, _) in ds { broken.append(s.document.atomNamed(c).map(s.document.describe) ?? c) }
        broken.sort()
        if broken.isEmpty {
            for v in s.document.viewOrder where !s.document.views[Int(v)].internalGuide {
                let id = s.document.viewName(v)
                // A view ambiguous on one axis: where it settles follows history, and a label's
                // height (its content size, on the other axis) follows its width.
                if amb.contains(id) { continue }
                for axis in [Axis.horizontal, .vertical] {
                    // The constraints naming the view, and whether each holds. Which others
                    // the engine reports as determining it follows its basis (a hugging and a
                    // compression resistance both tight: either one), so history; and where
                    // an ambiguous layout settles follows history.
                    explain["\(id).\(axis.rawValue)"] = ((try? s.explain(view: id, axis: axis)) ?? []).filter { $0.description.contains("\(id).") }
                        .map {
                            "\(masked($0.id)) \($0.description) \($0.priority) \($0.broken)" + (amb.isEmpty ? " \($0.role == .unsatisfied)" : "")
                        }.sorted()
                }
            }
        }
        return Outcome(
            // By view: a label ambiguous in width wraps where it settles, which history picks,
            // and may be ambiguous in height there or not.
            frames: frames, ambiguous: amb.sorted(), broken: broken,
            document: .object([("options", doc["options"]!), ("views", .array(views)), ("constraints", .array(constraints.map(JSON.string)))]),
            explain: explain)
    }

    /// What differs between two outcomes, briefly (nil: nothing).
    static func difference(_ a: Outcome, _ b: Outcome) -> String? {
        var out: [String] = []
        for (k, v) in a.frames where b.frames[k] != v { out.append("frame \(k): \(v) against \(b.frames[k].map { "\($0)" } ?? "none")") }
        if a.frames.count != b.frames.count { out.append("framed views \(a.frames.keys.sorted()) against \(b.frames.keys.sorted())") }
        if a.ambiguous != b.ambiguous { out.append("ambiguous \(a.ambiguous) against \(b.ambiguous)") }
        if a.broken != b.broken { out.append("broken \(a.broken) against \(b.broken)") }
        if a.document != b.document {
            let (x, y) = (a.document["constraints"]!.array!.map { $0.string! }, b.document["constraints"]!.array!.map { $0.string! })
            out.append(x == y ? "views or options differ" : "constraints \(x) against \(y)")
        }
        for (k, v) in a.explain where b.explain[k] != v { out.append("explain \(k): \(v) against \(b.explain[k] ?? [])") }
        if a.explain.keys.sorted() != b.explain.keys.sorted() {
            out.append("explained \(a.explain.keys.sorted()) against \(b.explain.keys.sorted())")
        }
        return out.isEmpty ? nil : out.joined(separator: "\n")
    }

    // MARK: Tests

    /// A label's text changed to a canonically equivalent one (a Hangul syllable to its jamo,
    /// equal as Strings, set apart by the font) is a change: measured again, as a fresh build.
    func testATextChangedToACanonicallyEquivalentOneIsMeasuredAgain() throws {
        func document(_ text: String) throws -> JSON {
            try JSONParser.parse(
                #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},"#
                    + #"{"id":"t","parent":"root","text":{"string":"\#(text)","font":{"family":"DejaVu Sans","size":13}}}],"#
                    + #""constraints":[{"expr":"t.left == root.left"},{"expr":"t.top == root.top"}]}"#)
        }
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: document("\u{AC00}\u{AC00}"), limits: limits)
            let jamo = try document("\u{1100}\u{1161}\u{1100}\u{1161}")
            _ = try s.put(document: jamo)
            let fresh = try LayoutSession(document: jamo, limits: limits)
            XCTAssertEqual(Self.outcome(s), Self.outcome(fresh), "\(engine)")
        }
    }

    /// A VFL group edited since it was sent is written as its members (`row.1`); sent back so,
    /// each member is matched to its own, changed in place, or removed when left out.
    func testAnEditedGroupSentBackAsItsMembersIsMatchedMemberByMember() throws {
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(
                document: JSONParser.parse(
                    #"""
                    {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"a","parent":"root"},{"id":"b","parent":"root"}],
                     "constraints":[{"id":"row","visual":"H:|-8-[a(40)]-12-[b(50)]"},{"expr":"a.top == root.top"},{"expr":"b.top == root.top"},
                                    {"expr":"a.height == 10"},{"expr":"b.height == 10"}]}
                    """#), limits: limits)
            _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"setConstant","id":"row.2","constant":20}]}"#))
            let written = s.document.json
            XCTAssertTrue(written["constraints"]!.array!.contains { $0["id"]?.string == "row.2" }, "an edited group is written as its members")
            XCTAssertEqual(try s.put(document: written).changes, .object([("ops", .array([]))]), "\(engine)")
            // One member's constant changed, another left out.
            var cs = written["constraints"]!.array!.filter { $0["id"]?.string != "row.1" }
            let k = cs.firstIndex { $0["id"]?.string == "row.2" }!
            cs[k] = .object(cs[k].members!.map { $0.key == "constant" ? ($0.key, .number(30)) : $0 })
            let edited = JSON.object(written.members!.map { $0.key == "constraints" ? ($0.key, .array(cs)) : $0 })
            let put = try s.put(document: edited)
            let applied = Dictionary(uniqueKeysWithValues: put.result.applied!.map { ($0.op, $0.count) })
            XCTAssertEqual([applied["setConstant"], applied["removeConstraints"], applied["addConstraints"]], [1, 1, 0], "\(engine): \(put.changes)")
            let fresh = try LayoutSession(document: edited, limits: limits)
            XCTAssertEqual(Self.outcome(s), Self.outcome(fresh), "\(engine)")
        }
    }

    func testAPutEndsAsAFreshBuildOfTheNewDocument() throws {
        // PUT_SEED=n explores other documents (47: what `make test` runs).
        var rng = LCG(state: ProcessInfo.processInfo.environment["PUT_SEED"].flatMap { UInt64($0) } ?? 47)
        var puts = 0, inPlace = 0, replaced = 0, conflicts = 0
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            for trial in 0..<150 {
                let old = randomDocument(&rng)
                var new = old
                for _ in 0..<Int.random(in: 1...4, using: &rng) { edit(&new, &rng) }
                let session = try LayoutSession(document: JSONParser.parse(old.json), limits: limits)
                session.compact()
                let before = Dictionary(uniqueKeysWithValues: session.allFrames.map { ($0.id, $0) })
                let idsBefore = Set(session.document.entryOrder)
                let newJSON = try JSONParser.parse(new.json)
                let put: LayoutSession.Put
                // Half read in place from the bytes, half from the parsed tree.
                do { put = trial % 2 == 0 ? try session.put(body: Array(new.json.utf8)) : try session.put(document: newJSON) } catch {
                    XCTFail("\(engine) trial \(trial): \(error)\nold: \(old.json)\nnew: \(new.json)")
                    continue
                }
                puts += 1
                let fresh = try LayoutSession(document: newJSON, limits: limits)
                let (a, b) = (Self.outcome(session), Self.outcome(fresh))
                let context =
                    "\(engine) trial \(trial)\nold: \(old.json)\nnew: \(new.json)\nops: \(String(decoding: put.changes.serialized, as: UTF8.self))"
                XCTAssertFalse(put.result.diagnostics.contains { if case .churn = $0 { true } else { false } }, context)
                if let d = Self.difference(a, b) { XCTFail("\(d)\n\(context)") }
                // Exactly the views whose frames changed are answered (one that came back under
                // another parent too, only if its frame there changed).
                let moved = Set(session.allFrames.filter { f in before[f.id] != f }.map(\.id))
                XCTAssertEqual(Set(put.result.frames.map(\.id)), moved, "\(engine) trial \(trial): \(put.changes)")
                XCTAssertEqual(Set(put.result.removed), Set(old.views.map(\.id)).subtracting(new.views.map(\.id)))
                // Unnamed constraints that stayed keep their server-given ids.
                let counts = Dictionary(uniqueKeysWithValues: put.result.applied!.map { ($0.op, $0.count) })
                inPlace += counts["setConstant"]! + counts["setPriority"]! + counts["activate"]! + counts["deactivate"]!
                replaced += counts["addConstraints"]!
                let kept = old.constraints.filter { c in c.id == nil && new.constraints.contains { $0.id == nil && $0.json == c.json } }
                XCTAssertGreaterThanOrEqual(
                    idsBefore.intersection(session.document.entryOrder).count, kept.count, "\(engine) trial \(trial) \(context)")
                // The journal's record replays to the same session.
                let replayed = try LayoutSession(document: JSONParser.parse(old.json), limits: limits)
                replayed.compact()
                try replayed.replay(changes: put.changes, at: put.result.revision)
                XCTAssertEqual(replayed.allFrames, session.allFrames, "\(engine) trial \(trial)")
                XCTAssertEqual(replayed.document.json, session.document.json, "\(engine) trial \(trial)")
                XCTAssertEqual(replayed.document.entryOrder, session.document.entryOrder)
                // And again: the same document is an empty change.
                let again = trial % 2 == 0 ? try session.put(document: newJSON) : try session.put(body: Array(new.json.utf8))
                XCTAssertEqual(again.result.frames, [], "\(engine) trial \(trial): \(context)")
                XCTAssertEqual(again.changes, .object([("ops", .array([]))]), "\(engine) trial \(trial)")
                XCTAssertEqual(again.result.revision, put.result.revision + 1)
                // The document as the session gives it back (server ids, edited groups as their
                // members) is the same document too.
                let written = session.document.json
                let back = try session.put(body: written.serialized)
                XCTAssertEqual(back.changes, .object([("ops", .array([]))]), "\(engine) trial \(trial)")
                // And edited as a client edits it: a constraint without an id among the server's.
                var scratch = new
                guard var c = randomConstraint(&scratch, &rng) else { continue }
                c.id = nil
                var cs = written["constraints"]!.array!
                cs.insert(try JSONParser.parse(c.json), at: Int.random(in: 0...cs.count, using: &rng))
                let edited = JSON.object(written.members!.map { $0.key == "constraints" ? ($0.key, .array(cs)) : $0 })
                let put2: LayoutSession.Put
                do { put2 = try session.put(body: edited.serialized) } catch {
                    XCTFail("\(engine) trial \(trial): \(error)\n\(String(decoding: edited.serialized, as: UTF8.self))")
                    continue
                }
                if let d = Self.difference(Self.outcome(session), Self.outcome(try LayoutSession(document: edited, limits: limits))) {
                    XCTFail(
                        "edited GET: \(d)\n\(engine) trial \(trial)\n\(String(decoding: edited.serialized, as: UTF8.self))\nops: \(String(decoding: put2.changes.serialized, as: UTF8.self))"
                    )
                }
                if !a.broken.isEmpty { conflicts += 1 }
            }
        }
        XCTAssertGreaterThan(inPlace, 50, "edits in place are exercised")
        XCTAssertGreaterThan(replaced, 50)
        XCTAssertEqual(puts, 300)
        XCTAssertGreaterThan(conflicts, 30, "conflicts, and which constraint they break, are exercised")
    }
}

/// Cases found by review: each once, by hand.
final class PutCaseTests: XCTestCase {
    let root = #"{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"a","parent":"root"}"#
    let pinned = #"{"expr":"a.left == root.left"},{"expr":"a.top == root.top"},{"expr":"a.height == 10"}"#

    func document(_ constraints: String) throws -> JSON {
        try JSONParser.parse(#"{"views":[\#(root)],"constraints":[\#(pinned),\#(constraints)]}"#)
    }

    func width(_ s: LayoutSession) -> Double { s.allFrames.first { $0.id == "a" }!.frame.width }
    func broken(_ s: LayoutSession) -> [String] { s.diagnostics().compactMap { if case .unsatisfiable(let c, _, _) = $0 { c } else { nil } } }

    /// A constraint written in another form is replaced in its place: the conflict breaks
    /// what a new session of the document breaks (the one listed first).
    func testAReplacedConstraintKeepsItsPlaceInAConflict() throws {
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(
                document: document(#"{"id":"w1","first":"a.width","relation":"==","constant":20},{"id":"w2","expr":"a.width == 10"}"#), limits: limits
            )
            XCTAssertEqual(width(s), 10)
            let new = try document(#"{"id":"w1","expr":"a.width == 20"},{"id":"w2","expr":"a.width == 10"}"#)
            let put = try s.put(document: new)
            let fresh = try LayoutSession(document: new, limits: limits)
            XCTAssertEqual([width(s), width(fresh)], [10, 10], "\(engine): \(put.changes)")
            XCTAssertEqual(broken(s), ["w1"])
            XCTAssertEqual(broken(fresh), ["w1"])
            XCTAssertEqual(s.document.entryOrder.suffix(2), ["w1", "w2"])
        }
    }

    /// Of two unnamed constraints alike but for their constants, the one sent unchanged keeps its id.
    func testTheSameConstraintKeepsItsIDAmongOnesAlike() throws {
        let s = try LayoutSession(document: document(#"{"expr":"a.width >= 10"},{"expr":"a.width >= 20"}"#))
        let ids = s.document.entryOrder
        XCTAssertEqual(ids.count, 5)
        let put = try s.put(document: document(#"{"expr":"a.width >= 20"}"#))
        XCTAssertEqual(s.document.entryOrder, Array(ids.prefix(3)) + [ids[4]], "\(put.changes)")
        XCTAssertEqual(put.result.applied!.first { $0.op == "setConstant" }!.count, 0)
        // One alike put before it: new, and the one sent unchanged keeps its id.
        let before = try s.put(document: document(#"{"expr":"a.width >= 30"},{"expr":"a.width >= 20"}"#))
        XCTAssertEqual(before.result.added, ["c6"])
        XCTAssertEqual(s.document.entryOrder, Array(ids.prefix(3)) + ["c6", ids[4]], "\(before.changes)")
    }

    /// Three constraints at odds: which hold follows the order listed, whatever the history.
    func testThreeConstraintsAtOddsBreakByTheOrderListed() throws {
        let three = #"{"id":"p","expr":"a.width == 30"},{"id":"q","expr":"a.width == 20"},{"id":"r","expr":"a.width == 10"}"#
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let fresh = try LayoutSession(document: document(three), limits: limits)
            XCTAssertEqual(width(fresh), 10, "\(engine)")
            XCTAssertEqual(broken(fresh), ["p", "q"])
            // Built in another order, then put in this one.
            let s = try LayoutSession(
                document: document(#"{"id":"r","expr":"a.width == 10"},{"id":"q","expr":"a.width == 20"},{"id":"p","expr":"a.width == 30"}"#),
                limits: limits)
            XCTAssertEqual(width(s), 30)
            _ = try s.put(document: document(three))
            XCTAssertEqual(width(s), 10, "\(engine)")
            XCTAssertEqual(broken(s), ["p", "q"])
            XCTAssertEqual(s.document.entryOrder.suffix(3), ["p", "q", "r"])
        }
    }

    /// `addConstraints` with `before`: listed there, and broken as listed there.
    func testAddConstraintsBeforeAnother() throws {
        let s = try LayoutSession(document: document(#"{"id":"w","expr":"a.width == 10"}"#))
        _ = try s.apply(
            changes: JSONParser.parse(#"{"ops":[{"op":"addConstraints","before":"w","constraints":[{"id":"v","expr":"a.width == 40"}]}]}"#))
        XCTAssertEqual(s.document.entryOrder.suffix(2), ["v", "w"])
        XCTAssertEqual(width(s), 10)
        XCTAssertEqual(broken(s), ["v"])
        for (before, pointer) in [(#""nope""#, "/ops/0/before"), ("7", "/ops/0/before"), ("null", "/ops/0/before")] {
            XCTAssertThrowsError(
                try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"addConstraints","before":\#(before),"constraints":[]}]}"#))
            ) { XCTAssertEqual(($0 as? LayoutError)?.pointer, pointer) }
        }
    }

    /// Deactivating a VFL group keeps it a group: `GET` lists it whole, and sent back it is the same.
    func testAGroupDeactivatedWholeStaysAGroup() throws {
        let s = try LayoutSession(
            document: JSONParser.parse(
                #"{"views":[\#(root),{"id":"b","parent":"root"}],"constraints":[\#(pinned),{"id":"row","visual":"H:|-[a(20)]-[b(30)]"},{"expr":"b.top == root.top"},{"expr":"b.height == 10"}]}"#
            ))
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"deactivate","ids":["row"]}]}"#))
        let written = s.document.json
        let ids = written["constraints"]!.array!.compactMap { $0["id"]?.string }
        XCTAssertTrue(ids.contains("row"), "\(ids)")
        XCTAssertFalse(ids.contains("row.0"))
        XCTAssertEqual(try s.put(document: written).changes, .object([("ops", .array([]))]))
        // One member deactivated: the group is listed as its members.
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"activate","ids":["row"]},{"op":"deactivate","ids":["row.1"]}]}"#))
        XCTAssertTrue(s.document.json["constraints"]!.array!.contains { $0["id"]?.string == "row.1" })
    }

    /// A constraint without an id placed among the server's ids (`GET`'s document, edited):
    /// it takes an id none of them has, both for a new session and a PUT.
    func testAnUnnamedConstraintAmongServerIDs() throws {
        let s = try LayoutSession(document: document(#"{"expr":"a.width == 10"}"#))
        var cs = s.document.json["constraints"]!.array!
        XCTAssertEqual(cs.compactMap { $0["id"]?.string }, ["c1", "c2", "c3", "c4"])
        cs.insert(try JSONParser.parse(#"{"expr":"a.width >= 5"}"#), at: 0)
        let edited = JSON.object(s.document.json.members!.map { $0.key == "constraints" ? ($0.key, .array(cs)) : $0 })
        let fresh = try LayoutSession(document: edited)
        XCTAssertEqual(fresh.document.entryOrder, ["c5", "c1", "c2", "c3", "c4"])
        let put = try s.put(body: edited.serialized)
        XCTAssertEqual(put.result.added, ["c5"])
        XCTAssertEqual(s.document.entryOrder, ["c5", "c1", "c2", "c3", "c4"])
    }
}

extension PutCaseTests {
    /// A constraint id shaped like the server's own names (`s.stack.0`) is refused at its
    /// place, by a new session and a PUT alike (a stack's are made after the document's).
    func testAnIDShapedLikeADerivedNameIsRefusedAtItsPlace() throws {
        let s = try LayoutSession(document: document(#"{"id":"w","expr":"a.width == 10"}"#))
        let before = s.document.json
        for id in ["a.stack.0", "root.frame.x", "a.hugging.h"] {
            let bad = try document(#"{"id":"\#(id)","expr":"a.width == 10"}"#)
            XCTAssertThrowsError(try LayoutSession(document: bad)) { XCTAssertEqual(($0 as? LayoutError)?.pointer, "/constraints/3/id") }
            XCTAssertThrowsError(try s.put(body: bad.serialized)) {
                guard case .refused(let e) = $0 as? LayoutSession.BodyError else { return XCTFail("\($0)") }
                XCTAssertEqual(e.pointer, "/constraints/3/id")
            }
            XCTAssertEqual(s.document.json, before)
        }
        XCTAssertNoThrow(try LayoutSession(document: document(#"{"id":"a.stacked.0","expr":"a.width == 10"}"#)))
    }

    /// An error found only while applying the ops is answered at the place they came from.
    func testAnErrorInTheOpsIsPlacedInTheDocument() {
        let origins: [DocumentDiff.Origin] = [.options, .views([4, 7]), .constraints([2, 9]), .none, .constraint(5)]
        let cases = [
            ("/ops/1/views/1/parent", "/views/7/parent"), ("/ops/2/constraints/0/id", "/constraints/2/id"), ("/ops/0/options/scale", "/options"),
            ("/ops/3/ids/0", ""), ("", ""), ("/baseRevision", "/baseRevision"), ("/ops/4/constant", "/constraints/5"),
            ("/ops/2/constraints/7/id", "")
        ]
        for (from, to) in cases { XCTAssertEqual(LayoutError(.invalid, from, "x").placed(origins).pointer, to, from) }
    }
}

extension PutCaseTests {
    /// Placements in one change: several anchors, one anchor removed after, one placed
    /// constraint removed after, one placed before a constraint placed earlier.
    func testPlacementsInOneChange() throws {
        let s = try LayoutSession(document: document(#"{"id":"p","expr":"a.width >= 1"},{"id":"q","expr":"a.width >= 2"}"#))
        let ops = #"""
            {"ops":[{"op":"addConstraints","before":"q","constraints":[{"id":"x","expr":"a.width >= 3"},{"id":"y","expr":"a.width >= 4"}]},
                    {"op":"addConstraints","before":"p","constraints":[{"id":"z","expr":"a.width >= 5"}]},
                    {"op":"addConstraints","before":"x","constraints":[{"id":"w","expr":"a.width >= 6"}]},
                    {"op":"addConstraints","constraints":[{"id":"v","expr":"a.width >= 7"}]},
                    {"op":"addConstraints","before":"v","constraints":[{"id":"u","expr":"a.width >= 8"},{"id":"t","expr":"a.width >= 9"}]},
                    {"op":"removeConstraints","ids":["q","t"]}]}
            """#
        _ = try s.apply(changes: JSONParser.parse(ops))
        XCTAssertEqual(s.document.entryOrder.dropFirst(3), ["z", "p", "w", "x", "y", "u", "v"])
        // Atoms in the same order: which breaks follows it.
        let seq = s.document.entryOrder.dropFirst(3).map { s.document.atoms[Int(s.document.entries[Int(s.document.entryRef($0)!)].atom)].sequence }
        XCTAssertEqual(seq, seq.sorted())
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"addConstraints","constraints":[{"id":"s","expr":"a.width >= 10"}]}]}"#))
        XCTAssertEqual(s.document.entryOrder.last, "s")
    }
}

extension PutCaseTests {
    /// The newest of a conflict holds even where it meets two older ones, one at a time: both
    /// engines, built at once or grown by a PUT.
    func testTheNewestHoldsAgainstTwoOlderConflicts() throws {
        let views = #"{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"a","parent":"root"},{"id":"b","parent":"root"}"#
        let pins =
            #"{"expr":"a.left == root.left"},{"expr":"a.top == root.top"},{"expr":"a.height == 10"},{"expr":"b.left == root.left"},{"expr":"b.top == root.top"},{"expr":"b.height == 10"}"#
        func doc(_ cs: String) throws -> JSON { try JSONParser.parse(#"{"views":[\#(views)],"constraints":[\#(pins),\#(cs)]}"#) }
        let three = #"{"id":"p","expr":"a.width == 10"},{"id":"q","expr":"b.width == 10"},{"id":"s","expr":"a.width == b.width"}"#
        let cases: [(String, Double, [String])] = [
            (three + #",{"id":"r","expr":"a.width == 20"}"#, 20, ["p", "q"]),
            (
                #"{"id":"p","expr":"a.width >= 20"},{"id":"q","expr":"a.width == 20"},{"id":"r","expr":"a.width == 10"},{"expr":"b.width == 1"}"#, 10,
                ["p", "q"]
            ),
            (
                #"{"id":"p","expr":"a.width == 10"},{"id":"q","expr":"a.width == 10"},{"id":"r","expr":"a.width == 20"},{"expr":"b.width == 1"}"#, 20,
                ["p", "q"]
            )
        ]
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            for (cs, w, broken) in cases {
                let fresh = try LayoutSession(document: doc(cs), limits: limits)
                XCTAssertEqual(width(fresh), w, "\(engine) \(cs)")
                XCTAssertEqual(self.broken(fresh), broken, "\(engine) \(cs)")
            }
            let s = try LayoutSession(document: doc(three), limits: limits)
            _ = try s.put(document: doc(cases[0].0))
            XCTAssertEqual(width(s), 20, "\(engine)")
            XCTAssertEqual(broken(s), ["p", "q"], "\(engine)")
        }
    }
}

extension PutCaseTests {
    /// An edited VFL group sent back as its members, but not where the group was (another
    /// constraint moved or put before them, the members apart): taken apart into the
    /// constraints a new session of that document has, and broken as it breaks.
    func testAnEditedGroupSentBackElsewhereIsTakenApart() throws {
        let text = #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"a","parent":"root"},{"id":"b","parent":"root"}],
             "constraints":[{"id":"row","visual":"H:|-8-[a(40)]-12-[b(50)]"},{"id":"x","expr":"a.width == 60"},{"expr":"a.top == root.top"},
                            {"expr":"b.top == root.top"},{"expr":"a.height == 10"},{"expr":"b.height == 10"}]}
            """#
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            func edited() throws -> (LayoutSession, [JSON], JSON) {
                let s = try LayoutSession(document: JSONParser.parse(text), limits: limits)
                _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"setConstant","id":"row.2","constant":20}]}"#))
                let written = s.document.json
                return (s, written["constraints"]!.array!, written)
            }
            func with(_ cs: [JSON], _ written: JSON) -> JSON { .object(written.members!.map { $0.key == "constraints" ? ($0.key, .array(cs)) : $0 }) }
            var (s, cs, written) = try edited()
            XCTAssertEqual(cs.compactMap { $0["id"]?.string }.prefix(5), ["row.0", "row.1", "row.2", "row.3", "x"])
            // x moved before the members; then a new one put between two members.
            cs.insert(cs.remove(at: 4), at: 0)
            var moved = with(cs, written)
            let put = try s.put(document: moved)
            XCTAssertNotEqual(put.changes, .object([("ops", .array([]))]))
            if let d = PutTests.difference(PutTests.outcome(s), PutTests.outcome(try LayoutSession(document: moved, limits: limits))) {
                XCTFail("\(engine): \(d)\n\(put.changes)")
            }
            XCTAssertEqual(try s.put(document: moved).changes, .object([("ops", .array([]))]), "the same again")
            (s, cs, written) = try edited()
            cs.insert(try JSONParser.parse(#"{"id":"y","expr":"a.width == 70"}"#), at: 2)
            moved = with(cs, written)
            _ = try s.put(document: moved)
            if let d = PutTests.difference(PutTests.outcome(s), PutTests.outcome(try LayoutSession(document: moved, limits: limits))) {
                XCTFail("\(engine): \(d)")
            }
        }
    }
}

extension PutCaseTests {
    /// A content size an update gives a view later ranks by the view, as in a new session:
    /// the stack's view's own hugging breaks, not its arranged view's compression resistance.
    func testAContentSizeGivenLaterRanksByItsView() throws {
        func doc(_ sized: Bool) throws -> JSON {
            let s = sized ? #","intrinsicSize":{"width":15,"height":25},"hugging":{"horizontal":1000,"vertical":1000}"# : ""
            return try JSONParser.parse(
                #"""
                {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":400}},
                  {"id":"s","parent":"root","kind":"stack"\#(s),"stack":{"axis":"vertical","arrangedSubviews":["d"]}},
                  {"id":"d","parent":"s","intrinsicSize":{"width":20,"height":20},"compressionResistance":{"horizontal":1000,"vertical":1000}}],
                 "constraints":[{"expr":"s.left == root.left"},{"expr":"s.top == root.top"}]}
                """#)
        }
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: doc(false), limits: limits)
            _ = try s.put(document: doc(true))
            let fresh = try LayoutSession(document: doc(true), limits: limits)
            XCTAssertEqual(s.allFrames.first { $0.id == "d" }?.frame.width, 20, "\(engine)")
            if let d = PutTests.difference(PutTests.outcome(s), PutTests.outcome(fresh)) { XCTFail("\(engine): \(d)") }
        }
    }
}

extension PutCaseTests {
    /// A stack turned to the other axis and its hidden view's compression made required in one
    /// change: the collapse's old required constraint becomes a tie-breaker (`@1`), and the
    /// solved engine had kept it as the explanation of a break it no longer made.
    func testAConflictIsExplainedAfreshWhenItsSetLosesARequiredOne() throws {
        func doc(_ axis: String, _ required: Bool) throws -> JSON {
            let cr = required ? #","compressionResistance":{"horizontal":1000,"vertical":1000}"# : ""
            return try JSONParser.parse(
                #"""
                {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":400}},
                  {"id":"s","parent":"root","kind":"stack","stack":{"axis":"\#(axis)","arrangedSubviews":["d"]}},
                  {"id":"d","parent":"s","hidden":true,"intrinsicSize":{"width":20,"height":20}\#(cr)}],
                 "constraints":[{"expr":"s.left == root.left"},{"expr":"s.top == root.top"},{"id":"flat","expr":"d.height <= 0"}]}
                """#)
        }
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: doc("vertical", false), limits: limits)
            _ = try s.put(document: doc("horizontal", true))
            XCTAssertEqual(s.allFrames.first { $0.id == "d" }?.frame.height, 20, "\(engine)")
            XCTAssertTrue(broken(s).contains("flat"), "\(engine): \(broken(s))")
            if let d = PutTests.difference(
                PutTests.outcome(s), PutTests.outcome(try LayoutSession(document: doc("horizontal", true), limits: limits)))
            {
                XCTFail("\(engine): \(d)")
            }
        }
    }
}

extension PutCaseTests {
    /// Views end in the order sent: a content size ranks by its view's place, so which of two
    /// conflicting ones breaks follows the views' order, a view inserted or moved too.
    func testViewsEndInTheOrderSent() throws {
        // Arranged as listed, or always a then b (then the views' order alone moves, no constraint).
        for fixed in [false, true] { try viewsEndInTheOrderSent(fixedArrangement: fixed) }
    }

    func viewsEndInTheOrderSent(fixedArrangement: Bool) throws {
        func doc(_ order: [String]) throws -> JSON {
            let sized = [
                "a":
                    #"{"id":"a","parent":"s","intrinsicSize":{"width":40,"height":20},"hugging":{"horizontal":1000,"vertical":250},"compressionResistance":{"horizontal":1000,"vertical":750}}"#,
                "b":
                    #"{"id":"b","parent":"s","intrinsicSize":{"width":70,"height":20},"hugging":{"horizontal":1000,"vertical":250},"compressionResistance":{"horizontal":1000,"vertical":750}}"#,
                "c": #"{"id":"c","parent":"root","intrinsicSize":{"width":10,"height":10}}"#
            ]
            let arranged = order.filter { $0 != "c" }.sorted { fixedArrangement && $0 < $1 }.map { "\"\($0)\"" }.joined(separator: ",")
            return try JSONParser.parse(
                #"""
                {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":400}},
                  {"id":"s","parent":"root","kind":"stack","stack":{"axis":"horizontal","distribution":"fillEqually","arrangedSubviews":[\#(arranged)]}},
                  \#(order.map { sized[$0]! }.joined(separator: ","))],
                 "constraints":[{"expr":"s.left == root.left"},{"expr":"s.top == root.top"}\#(order.contains("c") ? #",{"expr":"c.left == root.left"},{"expr":"c.top == root.bottom"}"# : "")]}
                """#)
        }
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            // The two orders break differently, or this shows nothing.
            let (ab, ba) = (
                try LayoutSession(document: doc(["a", "b"]), limits: limits), try LayoutSession(document: doc(["b", "a"]), limits: limits)
            )
            XCTAssertNotEqual(ab.allFrames.first { $0.id == "a" }?.frame, ba.allFrames.first { $0.id == "a" }?.frame, "\(engine)")
            for (from, to) in [
                (["a", "b"], ["b", "a"]), (["b"], ["a", "b"]), (["a"], ["b", "a"]), (["c", "a", "b"], ["b", "a", "c"]),
                (["a", "b", "c"], ["c", "b", "a"])
            ] {
                let s = try LayoutSession(document: doc(from), limits: limits)
                let put = try s.put(document: doc(to))
                let fresh = try LayoutSession(document: doc(to), limits: limits)
                if let d = PutTests.difference(PutTests.outcome(s), PutTests.outcome(fresh)) {
                    XCTFail("\(engine) \(from) → \(to): \(d)\n\(put.changes)")
                }
                XCTAssertEqual(s.document.json["views"], fresh.document.json["views"], "\(engine) \(from) → \(to)")
                // The journal's record replays to the same order.
                let replayed = try LayoutSession(document: doc(from), limits: limits)
                try replayed.replay(changes: put.changes, at: put.result.revision)
                XCTAssertEqual(replayed.document.json, s.document.json, "\(engine) \(from) → \(to)")
            }
        }
    }

    /// `addViews` and `updateView` with `before`: listed there (null: last); an unknown view refused there.
    func testViewsPlacedBeforeAnother() throws {
        let s = try LayoutSession(document: document(#"{"expr":"a.width == 10"}"#))
        func ids() -> [String] { s.document.json["views"]!.array!.map { $0["id"]!.string! } }
        _ = try s.apply(
            changes: JSONParser.parse(#"{"ops":[{"op":"addViews","before":"a","views":[{"id":"b","parent":"root"},{"id":"c","parent":"b"}]}]}"#))
        XCTAssertEqual(ids(), ["root", "b", "c", "a"])
        // c before its parent b is listed after it, as a new session lists it.
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"updateView","id":"b","before":null},{"op":"updateView","id":"a","before":"c"}]}"#))
        XCTAssertEqual(ids(), ["root", "a", "b", "c"])
        for op in [#"{"op":"addViews","before":"nope","views":[]}"#, #"{"op":"updateView","id":"a","before":7}"#] {
            XCTAssertThrowsError(try s.apply(changes: JSONParser.parse(#"{"ops":[\#(op)]}"#))) {
                XCTAssertEqual(($0 as? LayoutError)?.pointer, "/ops/0/before")
            }
        }
        XCTAssertEqual(ids(), ["root", "a", "b", "c"])
        // A removed slot reused: the new view is listed last, as a new session of the document lists it.
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"removeViews","ids":["c"]}]}"#))
        _ = try s.apply(changes: JSONParser.parse(#"{"ops":[{"op":"addViews","views":[{"id":"d","parent":"root"}]}]}"#))
        XCTAssertEqual(ids(), ["root", "a", "b", "d"])
    }
}

extension PutCaseTests {
    /// A set-constant that makes a conflict breaks by the document's order, as a new session
    /// of the document breaks it, not the constraint being set; and one that ends it restores
    /// what it broke.
    func testASetConstantThatMakesAConflictBreaksByTheOrder() throws {
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: document(#"{"id":"w1","expr":"a.width == 10"},{"id":"w2","expr":"a.width >= 5"}"#), limits: limits)
            XCTAssertEqual(broken(s), [])
            for (c, body) in [(20.0, #"{"w2":20}"#), (8, #"{"w2":8}"#), (30, #"{"w2":30}"#)] {
                _ = try s.setConstants(JSONParser.parse(body))
                let fresh = try LayoutSession(document: s.document.json, limits: limits)
                XCTAssertEqual(width(s), width(fresh), "\(engine) at \(c)")
                XCTAssertEqual(broken(s), broken(fresh), "\(engine) at \(c)")
            }
        }
    }
}

extension PutCaseTests {
    func viewIDs(_ s: LayoutSession) -> [String] { s.document.json["views"]!.array!.map { $0["id"]!.string! } }

    /// Placements apply in op order (`before: null` too, and an `addViews` after it), a view
    /// placed then removed holds its place as an anchor, and a view is listed after its
    /// parent: the document `GET` gives builds the same session and is an empty PUT.
    func testViewPlacementsInOneChange() throws {
        let base = #"{"views":[{"id":"root"},{"id":"a","parent":"root"},{"id":"b","parent":"root"},{"id":"c","parent":"root"}]}"#
        for (ops, order) in [
            (#"{"op":"updateView","id":"c","before":"a"},{"op":"updateView","id":"c","before":null}"#, ["root", "a", "b", "c"]),
            (#"{"op":"updateView","id":"c","before":"a"},{"op":"updateView","id":"a","before":null}"#, ["root", "c", "b", "a"]),
            (
                #"{"op":"addViews","before":"a","views":[{"id":"d","parent":"root"}]},{"op":"updateView","id":"d","before":null}"#,
                ["root", "a", "b", "c", "d"]
            ),
            (#"{"op":"updateView","id":"a","before":null},{"op":"addViews","views":[{"id":"d","parent":"root"}]}"#, ["root", "b", "c", "a", "d"]),
            (
                #"{"op":"addViews","before":"b","views":[{"id":"d","parent":"root"}]},{"op":"updateView","id":"c","before":"d"},{"op":"removeViews","ids":["d"]}"#,
                ["root", "a", "c", "b"]
            ),
            // Before a, but after its parent: the parent comes along, as a new session lists them.
            (#"{"op":"addViews","before":"a","views":[{"id":"e","parent":"c"}]}"#, ["root", "c", "e", "a", "b"]),
            (#"{"op":"updateView","id":"root","before":null}"#, ["root", "a", "b", "c"])
        ] {
            let s = session(base)
            _ = try s.change(#"{"ops":[\#(ops)]}"#)
            XCTAssertEqual(viewIDs(s), order, ops)
        }
        // The constraints' placements alike: one placed then removed holds its place.
        let s = session(
            #"{"views":[{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}}],"constraints":[{"id":"a","expr":"root.width >= 1"},{"id":"b","expr":"root.width >= 2"},{"id":"c","expr":"root.width >= 3"}]}"#
        )
        _ = try s.change(
            #"{"ops":[{"op":"addConstraints","before":"b","constraints":[{"id":"d","expr":"root.width >= 4"}]},{"op":"addConstraints","before":"d","constraints":[{"id":"e","expr":"root.width >= 5"}]},{"op":"removeConstraints","ids":["d"]}]}"#
        )
        XCTAssertEqual(s.document.json["constraints"]!.array!.map { $0["id"]!.string! }, ["a", "e", "b", "c"])
    }

    /// A parent moved after its child still comes first (its child, listed first, brings it
    /// along): the session breaks what a new one of its document breaks, and that document
    /// sent again is an empty change.
    func testAParentMovedLastStaysBeforeItsChild() throws {
        let sized = #""hugging":{"horizontal":1000,"vertical":250},"compressionResistance":{"horizontal":1000,"vertical":750}"#
        let doc = #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":400}},
              {"id":"st","parent":"root","kind":"stack","stack":{"axis":"horizontal","distribution":"fillEqually","arrangedSubviews":["p","c"]}},
              {"id":"p","parent":"st","intrinsicSize":{"width":40,"height":20},\#(sized)},
              {"id":"k","parent":"p","frame":{"x":0,"y":0,"width":5,"height":5}},
              {"id":"c","parent":"st","intrinsicSize":{"width":70,"height":20},\#(sized)}],
             "constraints":[{"expr":"st.left == root.left"},{"expr":"st.top == root.top"}]}
            """#
        for engine in [EngineKind.solved, .factored] {
            let limits = SessionLimits(engine: engine)
            let s = try LayoutSession(document: json(doc), limits: limits)
            _ = try s.change(#"{"ops":[{"op":"updateView","id":"p","before":null}]}"#)
            XCTAssertEqual(viewIDs(s), ["root", "st", "p", "k", "c"], "\(engine)")
            let fresh = try LayoutSession(document: s.document.json, limits: limits)
            XCTAssertEqual(broken(s), broken(fresh), "\(engine)")
            XCTAssertEqual(s.allFrames, fresh.allFrames, "\(engine)")
            XCTAssertEqual(try s.put(document: s.document.json).changes, .object([("ops", .array([]))]), "\(engine)")
        }
    }
}
