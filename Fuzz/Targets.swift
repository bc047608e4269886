import HTTPTransport
import Foundation
import InterfaceBuilder
import JSON
import LayoutModel
import LayoutServer

/// The fuzz targets: each takes arbitrary bytes and checks invariants, not only that
/// nothing crashes. A violated invariant traps (`violated`), which libFuzzer records as a
/// finding with its input.
enum Target: String, CaseIterable {
    case json, document, changes, put, expr, vfl, websocket, deflate, gzip, http, ib, text

    func run(_ bytes: [UInt8]) {
        switch self {
        case .json: Checks.json(bytes)
        case .document: Checks.document(bytes)
        case .changes: Checks.changes(bytes)
        case .put: Checks.put(bytes)
        case .expr: Checks.expression(String(decoding: bytes, as: UTF8.self))
        case .vfl: Checks.visualFormat(String(decoding: bytes, as: UTF8.self))
        case .websocket: Checks.webSocket(bytes)
        case .deflate: Checks.deflate(bytes)
        case .gzip: Checks.gzip(bytes)
        case .http: HTTPCheck.shared.run(bytes)
        case .ib: Checks.interfaceBuilder(bytes)
        case .text: TextCheck.run(bytes)
        }
    }
}

func violated(_ what: String, _ input: @autoclosure () -> String = "") -> Never {
    fatalError("invariant violated: \(what) \(input().prefix(300))")
}

enum Checks {
    /// Small limits: a fuzz input should not spend seconds building a huge session.
    static let limits = SessionLimits(maxViews: 200, maxConstraints: 800)

    /// Parsed JSON writes back to text that parses to the same value.
    static func json(_ bytes: [UInt8]) {
        guard let v = try? JSONParser.parse(bytes) else { return }
        let again: JSON
        do { again = try JSONParser.parse(v.serialized) } catch { violated("written JSON does not parse: \(error)") }
        if again != v { violated("JSON round trip changed the value") }
    }

    /// A document builds, or is refused with a pointer into it; a built one writes a
    /// document that builds the same frames.
    /// The body read in place builds what its tree builds (or leaves it to the tree).
    static func document(_ bytes: [UInt8]) {
        let read: Result<LayoutSession?, LayoutError> = Result { () throws(LayoutError) in
            try LayoutSession.make(documentBytes: bytes, limits: limits)
        }
        guard let json = try? JSONParser.parse(bytes) else {
            if case .success(.some) = read { violated("a body that is not JSON was read") }
            return
        }
        let session: LayoutSession
        do {
            session = try LayoutSession.make(document: json, limits: limits)
        } catch {
            if !Pointer.resolves(error.pointer, in: json) { violated("pointer \(error.pointer) is not in the document (\(error.detail))") }
            if case .success(.some) = read { violated("a body the tree refuses was read") }
            if case .failure(let e) = read, e != error { violated("the paths refuse differently: \(e) against \(error)") }
            return
        }
        switch read {
        case .success(let s?):
            if s.document.json != session.document.json || s.allFrames != session.allFrames || s.diagnostics() != session.diagnostics()
                || s.nextAutoID != session.nextAutoID
            {
                violated("the body read in place builds another session")
            }
        case .failure(let e): violated("the tree builds what the bytes' path refused: \(e)")
        case .success(nil): break
        }
        let again: LayoutSession
        do { again = try LayoutSession.make(document: session.document.json, limits: limits) } catch {
            violated("the written document does not build: \(error.pointer) \(error.detail)")
        }
        if again.document.json != session.document.json { violated("the written document is not a fixed point") }
        // Frames agree where the layout is determined (an ambiguous one may settle either way).
        if session.diagnostics().isEmpty && again.allFrames != session.allFrames { violated("the written document lays out differently") }
    }

    static let base = #"""
        {"views":[{"id":"root","frame":{"x":0,"y":0,"width":320,"height":480}},{"id":"a","parent":"root","intrinsicSize":{"width":40,"height":20}},
                  {"id":"b","parent":"root"},{"id":"g","parent":"root","kind":"guide"}],
         "constraints":[{"id":"row","visual":"H:|-[a]-8-[b(==a)]-|"},{"id":"top","expr":"a.top == root.top + 10"},
                        {"id":"bh","expr":"b.height == a.height * 2 @750"},{"id":"bt","first":"b.top","second":"a.bottom","constant":4},
                        {"expr":"g.left == root.left"},{"expr":"g.top == root.top"},{"expr":"g.width == 1"},{"expr":"g.height == 1"}]}
        """#

    /// A change applies, or is refused with a pointer into it and the session exactly as before.
    static func changes(_ bytes: [UInt8]) {
        guard let ops = try? JSONParser.parse(bytes) else { return }
        let s = try! LayoutSession(document: JSONParser.parse(base), limits: limits)
        let before = (s.document.json, s.allFrames, s.revision, s.diagnostics())
        do {
            let r = try s.apply(changes: ops)
            if r.revision != before.2 + 1 { violated("an applied change moved the revision by \(r.revision - before.2)") }
        } catch {
            if !Pointer.resolves(error.pointer, in: ops) { violated("pointer \(error.pointer) is not in the change (\(error.detail))") }
            let after = (s.document.json, s.allFrames, s.revision, s.diagnostics())
            if after.0 != before.0 || after.1 != before.1 || after.2 != before.2 || after.3 != before.3 {
                violated("a refused change altered the session")
            }
        }
    }

    /// A document sent whole (`put`) to a session of `base`: it applies (revision +1) and the
    /// session is then its document as a fresh build has it (the same views and constraints,
    /// server ids aside, and, where the layout is determined, the same frames), its journaled
    /// ops replay to the same session, and the tree's path ends the same; or it is refused
    /// with a pointer into it, the session exactly as before.
    static func put(_ bytes: [UInt8]) {
        let s = try! LayoutSession(document: JSONParser.parse(base), limits: limits)
        let before = (s.document.json, s.allFrames, s.revision, s.diagnostics())
        let put: LayoutSession.Put
        do { put = try s.put(body: bytes) } catch {
            if case .refused(let e) = error, let json = try? JSONParser.parse(bytes), !Pointer.resolves(e.pointer, in: json) {
                violated("pointer \(e.pointer) is not in the document (\(e.detail))")
            }
            if s.document.json != before.0 || s.allFrames != before.1 || s.revision != before.2 || s.diagnostics() != before.3 {
                violated("a refused document altered the session")
            }
            return
        }
        if put.result.revision != before.2 + 1 { violated("a document put moved the revision by \(put.result.revision - before.2)") }
        var body = (try? JSONParser.parse(bytes))?.members ?? []
        body.removeAll { $0.key == "baseRevision" }
        let fresh: LayoutSession
        do { fresh = try LayoutSession(document: .object(body), limits: limits) } catch {
            violated("a document put does not build afresh: \(error.pointer) \(error.detail)")
        }
        if unordered(s.document.json) != unordered(fresh.document.json) { violated("a document put is not the document sent") }
        if unordered(s.document.json, inOrder: true) != unordered(fresh.document.json, inOrder: true) {
            violated("a document put lists its views or constraints in another order than sent")
        }
        // Determined (conflicts or not): the same frames, the same constraints broken.
        func ambiguous(_ d: [Diagnostic]) -> Bool { d.contains { if case .ambiguous = $0 { true } else { false } } }
        func broken(_ x: LayoutSession) -> [String] {
            x.diagnostics().compactMap { if case .unsatisfiable(let c, _, _) = $0 { maskedID(c) } else { nil } }
        }
        if !ambiguous(s.diagnostics()) && !ambiguous(fresh.diagnostics()) && Set(s.allFrames.map(\.id)) == Set(fresh.allFrames.map(\.id)) {
            let mine = Dictionary(uniqueKeysWithValues: s.allFrames.map { ($0.id, $0) })
            for f in fresh.allFrames where !close(mine[f.id]!, f) { violated("a document put lays out otherwise than a fresh build (\(f.id))") }
            if broken(s) != broken(fresh) { violated("a document put breaks \(broken(s)), a fresh build \(broken(fresh))") }
        }
        let replayed = try! LayoutSession(document: JSONParser.parse(base), limits: limits)
        do { try replayed.replay(changes: put.changes, at: put.result.revision) } catch { violated("the journaled ops do not replay: \(error)") }
        if replayed.document.json != s.document.json || replayed.allFrames != s.allFrames { violated("the journaled ops replay otherwise") }
        let tree = try! LayoutSession(document: JSONParser.parse(base), limits: limits)
        guard let json = try? JSONParser.parse(bytes), let byTree = try? tree.put(document: json) else { violated("the tree's path refuses it") }
        if unordered(tree.document.json) != unordered(s.document.json) || byTree.result.revision != put.result.revision {
            violated("the tree's path puts another document")
        }
    }

    /// A document's views and constraints as sets (the constraints `inOrder`, as listed):
    /// server-given ids (`c7`, `c7.0`) masked.
    private static func unordered(_ doc: JSON, inOrder: Bool = false) -> [String] {
        func masked(_ c: JSON) -> JSON {
            guard var m = c.members, let k = m.firstIndex(where: { $0.key == "id" }), let id = m[k].value.string else { return c }
            m[k].value = .string(maskedID(id))
            return .object(m)
        }
        let written = (doc["views"]?.array ?? []).map { String(decoding: $0.serialized, as: UTF8.self) }
        let views = inOrder ? written : written.sorted()
        let listed = (doc["constraints"]?.array ?? []).map { String(decoding: masked($0).serialized, as: UTF8.self) }
        let constraints = inOrder ? listed : listed.sorted()
        return [String(decoding: (doc["options"] ?? .null).serialized, as: UTF8.self)] + views + ["--"] + constraints
    }

    /// A server-given id (`c7`, `c7.0`) as `c#`.
    private static func maskedID(_ id: String) -> String {
        let head = id.split(separator: ".", maxSplits: 1)
        let first = head.first ?? ""
        guard first.count > 1, first.first == "c", first.dropFirst().allSatisfy({ $0.isASCII && $0.isNumber }) else { return id }
        return head.count == 2 ? "c#." + head[1] : "c#"
    }

    private static func close(_ a: FrameEntry, _ b: FrameEntry) -> Bool {
        func near(_ x: Double, _ y: Double) -> Bool { abs(x - y) <= 1e-6 * max(1, abs(x), abs(y)) }
        return a.hidden == b.hidden && near(a.frame.x, b.frame.x) && near(a.frame.y, b.frame.y) && near(a.frame.width, b.frame.width)
            && near(a.frame.height, b.frame.height)
    }

    /// `expr` parses to a constraint whose description parses to the same constraint, or
    /// fails at a character position inside the text. (Numbers past Double's range parse
    /// to infinity here; the document refuses them, with the field's bounds.)
    static func expression(_ text: String) {
        do {
            let c = try ExpressionSyntax.parse(text)
            guard c.multiplier.isFinite && c.constant.isFinite else { return }
            let again: AtomicConstraint
            do { again = try ExpressionSyntax.parse(c.description) } catch {
                violated("the printed form '\(c.description)' does not parse: \(error.message)", text)
            }
            if again != c { violated("'\(c.description)' re-parses to '\(again.description)'", text) }
        } catch {
            if error.position < 0 || error.position > text.count { violated("position \(error.position) outside 0…\(text.count)", text) }
        }
    }

    /// VFL parses to constraints on the views it lays out (and `|`; a predicate may name
    /// another view), or fails at a character position inside the format; parsing is a
    /// function of the text; the format printed back parses to the same constraints.
    static func visualFormat(_ text: String) {
        let metrics = ["m": 8.0, "wide": 100]
        let options = text.utf8.first.map { ["alignAllTop", "alignAllLeading", "directionLeftToRight"][Int($0) % 3] }.map { [$0] } ?? []
        do {
            let p = try VisualFormat.parse(text, options: options, metrics: metrics, superview: VisualFormat.superviewToken, printing: true)
            let names = Set(p.views + [VisualFormat.superviewToken])
            for c in p.constraints where !names.contains(c.first.view) {
                violated("a constraint names a view the format does not: \(c.description)", text)
            }
            let again = try? VisualFormat.parse(text, options: options, metrics: metrics, superview: VisualFormat.superviewToken)
            if again?.constraints != p.constraints { violated("parsing twice differs", text) }
            // Printed back, it parses to the same constraints.
            if let printed = p.canonical {
                let back: VisualFormat.Parsed
                do {
                    back = try VisualFormat.parse(printed, options: options, metrics: [:], superview: VisualFormat.superviewToken, printing: true)
                } catch {
                    violated("the printed format '\(printed)' does not parse: \(error.message) at \(error.position)", text)
                }
                if back.constraints != p.constraints { violated("'\(printed)' parses to other constraints", text) }
                if back.canonical != printed { violated("printing is not a fixed point: '\(printed)' -> '\(back.canonical ?? "nil")'", text) }
            }
        } catch {
            if error.position < 0 || error.position > text.count { violated("position \(error.position) outside 0…\(text.count)", text) }
        }
    }

    /// A frame consumes no more than it was given, and the same frame parses from any longer
    /// buffer; a shorter prefix needs more (or fails as early).
    static func webSocket(_ bytes: [UInt8]) {
        let compressed = bytes.first.map { $0 & 1 == 1 } ?? false
        let r = WebSocketFrame.parse(bytes[...], maxPayload: 4096, allowCompressed: compressed)
        switch r {
        case .frame(let f, let consumed):
            if consumed > bytes.count || consumed < 2 { violated("consumed \(consumed) of \(bytes.count)") }
            if f.payload.count > 4096 { violated("payload over the limit") }
            if WebSocketFrame.parse((bytes + [0, 1, 2])[...], maxPayload: 4096, allowCompressed: compressed) != r {
                violated("trailing bytes changed the frame")
            }
            if consumed > 2, case .frame = WebSocketFrame.parse(bytes[..<(consumed - 1)], maxPayload: 4096, allowCompressed: compressed) {
                violated("a frame parsed from a truncated buffer")
            }
        case .needMore:
            if case .frame = WebSocketFrame.parse(bytes.dropLast(), maxPayload: 4096, allowCompressed: compressed) {
                violated("a prefix parsed where the whole needed more")
            }
        case .fail:
            break
        }
    }

    /// permessage-deflate: never inflates past its limit; what it deflates inflates back.
    static func deflate(_ bytes: [UInt8]) {
        let d = PerMessageDeflate(serverWindowBits: 15)
        if let out = try? d.decompress(bytes, limit: 65536), out.count > 65536 { violated("inflated past the limit") }
        let back: [UInt8]
        do { back = try d.decompress(d.compress(bytes), limit: bytes.count + 1) } catch { violated("own deflate output does not inflate: \(error)") }
        if back != bytes { violated("deflate round trip changed the bytes") }
    }

    /// gzip request bodies: never past the limit; what gzip writes comes back.
    static func gzip(_ bytes: [UInt8]) {
        if let out = try? Gzip.decompress(bytes, limit: 65536), out.count > 65536 { violated("gzip inflated past the limit") }
        let back: [UInt8]
        do { back = try Gzip.decompress(Gzip(level: 1).compress(bytes), limit: bytes.count + 1) } catch {
            violated("own gzip output does not inflate: \(error)")
        }
        if back != bytes { violated("gzip round trip changed the bytes") }
    }
}

extension Checks {
    /// An Interface Builder document is imported, or refused at a place inside it; every
    /// root it makes is a document layoutd builds, or refuses with a pointer into it, and
    /// its frames name every view the root stores a frame for. Both ways of sizing content:
    /// as Xcode stored it, and labels measured (the text path, in the substitute family).
    static func interfaceBuilder(_ bytes: [UInt8]) {
        let lines = bytes.reduce(1) { $1 == UInt8(ascii: "\n") ? $0 + 1 : $0 }
        var refusals: [ImportError?] = []
        for sizes in [ImportOptions.ContentSizes.stored, .measured] {
            let document: ImportedDocument
            do {
                document = try Importer.read(bytes, options: ImportOptions(contentSizes: sizes), limits: XMLLimits(maxElements: 4_000))
            } catch {
                if error.line < 1 || error.line > lines || error.column < 1 { violated("refusal at \(error.line):\(error.column) of \(lines) lines") }
                refusals.append(error)
                continue
            }
            refusals.append(nil)
            importedRoots(document)
        }
        if refusals[0] != refusals[1] { violated("stored and measured sizes refuse otherwise: \(String(describing: refusals))") }
    }

    /// Each root builds (or is refused with a pointer into it) and has every stored frame.
    private static func importedRoots(_ document: ImportedDocument) {
        for root in document.roots {
            let session: LayoutSession
            do { session = try LayoutSession.make(document: root.document, limits: limits) } catch {
                if !Pointer.resolves(error.pointer, in: root.document) { violated("pointer \(error.pointer) is not in the imported document") }
                continue
            }
            var ids = Set<String>()
            session.forEachFrame { id, _, _ in ids.insert(id) }
            for s in root.storedFrames where !ids.contains(s.id) { violated("no frame for \(s.id)") }
        }
    }
}

/// RFC 6901 pointers into a JSON value.
enum Pointer {
    /// The reference tokens, unescaped, read by code points as RFC 6901 has them (a `/` that a
    /// combining mark follows is one Character with it, but still a separator); nil when the
    /// pointer does not start with `/` or has a `~` but before 0 or 1.
    static func tokens(_ pointer: String) -> [String]? {
        var tokens: [String] = [], token = String.UnicodeScalarView(), escaped = false
        var scalars = pointer.unicodeScalars.makeIterator()
        guard scalars.next() == "/" else { return nil }
        while let c = scalars.next() {
            if escaped {
                guard c == "0" || c == "1" else { return nil }
                token.append(c == "1" ? "/" : "~")
                escaped = false
            } else if c == "~" {
                escaped = true
            } else if c == "/" {
                tokens.append(String(token))
                token = String.UnicodeScalarView()
            } else {
                token.append(c)
            }
        }
        guard !escaped else { return nil }
        return tokens + [String(token)]
    }

    /// Whether every token of `pointer` but the last names a value in `json`, and the last
    /// names one or a member that should be there (a missing required field is named too).
    static func resolves(_ pointer: String, in json: JSON) -> Bool {
        if pointer.isEmpty { return true }
        guard let tokens = self.tokens(pointer) else { return false }
        var v = json
        for (k, t) in tokens.enumerated() {
            let last = k == tokens.count - 1
            switch v {
            case .object(let members):
                guard let next = members.first(where: { $0.key == t })?.value else { return last }
                v = next
            case .array(let items):
                guard let i = Int(t), i >= 0, i < items.count else { return false }
                v = items[i]
            default:
                return false
            }
        }
        return true
    }
}
