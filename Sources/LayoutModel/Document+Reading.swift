import CheckedNumbers
import ConstraintSolver
import JSON
import WorkBudget

/// A document read from the request's bytes in place, without a `JSON` tree of it: the tree
/// was a `String` a key and an array an object (the parse, 38 M instructions of the 1,000-cell
/// feed's one-shot layout, and as much again to free it). Views, `expr` and VFL entries are
/// read where they lie; any other field or entry is taken as a small tree and goes through
/// the decoders the tree's path uses, so both paths share every rule.
///
/// The reader answers no errors: on any (bad JSON, a bad field, keys out of the usual order
/// or repeated) it gives up, and the caller parses the whole body and builds from the
/// tree, which names the problem exactly as it always has (a syntax error after a bad view
/// is still reported as the syntax error).
extension LayoutDocument {
    private struct GiveUp: Error {}

    /// A member a request sends beside the document's fields (`sizes`, `baseRevision`): read as
    /// a tree wherever it is and handed to `take`.
    typealias Beside = (key: StaticString, take: (JSON) -> Void)

    /// Reads the body into `doc` (a new one); the number of views it sent (which picks the
    /// engine), or nil. Filled in place: a document handed back in a tuple stayed shared with
    /// it, and the build's first write to each array copied it whole.
    static func read(_ body: [UInt8], into doc: inout LayoutDocument, beside: Beside? = nil) -> Int? {
        do {
            return try JSONParser.reading(body) { r throws -> Int in try doc.read(&r, beside: beside) }
        } catch {
            return nil
        }
    }

    /// `{"options": {...}, "views": [...], "constraints": [...]}`, in that order, each at most
    /// once, and the `beside` member anywhere among them.
    private mutating func read(_ r: inout JSONParser, beside: Beside?) throws -> Int {
        var viewsSent = 0, stage = 0  // 1: views read; 2: constraints read
        var hasOptions = false, hasBeside = false
        if try r.beginObject() {
            repeat {
                let k = try r.key()
                if stage == 0 && !hasOptions && k.spells("options") {
                    // Set before any view, as the tree's path sets them (a store's snapshot leads with them).
                    let o = try r.readValue()
                    if !o.isNull { try setOptions(o, at: Pointer()) }
                    hasOptions = true
                } else if stage == 0 && k.spells("views") && r.peek() == UInt8(ascii: "[") {
                    viewsSent = try readViews(&r)
                    stage = 1
                } else if stage < 2 && k.spells("constraints") && r.peek() == UInt8(ascii: "[") {
                    if stage == 0 { reserve(views: 0, constraints: r.remaining / Self.bytesPerConstraint) }
                    try readConstraints(&r)
                    stage = 2
                } else if let beside, !hasBeside, k.spells(beside.key) {
                    beside.take(try r.readValue())
                    hasBeside = true
                } else {
                    throw GiveUp()
                }
            } while try r.nextMember()
        }
        try r.finish()
        texts.trim()
        return viewsSent
    }

    /// What an entry takes in a body, a little under the 1,000-cell feed's 54 bytes (compact
    /// JSON): it sizes the tables for the constraints still to come (a kept session trims them).
    private static let bytesPerConstraint = 40
    private static let bytesPerView = 64, viewsReservedAtMost = 1 << 16

    /// What each view is read into: a copy of it appended, where a new one appended was made,
    /// copied and destroyed (0.8 M instructions of the 1,000-cell feed).
    private static let blankSpec = ViewSpec(id: "")

    private mutating func readViews(_ r: inout JSONParser) throws -> Int {
        var specs: [ViewSpec] = []
        // Room for as many views as the bytes left could hold at a short view's size (the
        // list is dropped once its views are added): grown by doubling, the 1,000-cell
        // feed's 5,001 specs were copied 14 times (0.66 M instructions).
        specs.reserveCapacity(min(r.remaining / Self.bytesPerView, Self.viewsReservedAtMost))
        if try r.beginArray() {
            var parents = RecentParents()
            var keys: [UnsafeBufferPointer<UInt8>] = []
            keys.reserveCapacity(8)
            // Each read into its place in the list (a spec returned and appended was copied twice).
            repeat {
                if specs.count & 255 == 255 && WorkBudget.exhausted() { throw GiveUp() }
                specs.append(Self.blankSpec)
                try Self.readView(&r, into: &specs[specs.count - 1], parents: &parents, keys: &keys)
            } while try r.nextElement()
        }
        reserve(views: specs.count, constraints: r.remaining / Self.bytesPerConstraint)
        try addViews(specs, at: Pointer()("views"))
        return specs.count
    }

    /// A view: its id and parent read in place, any other field decoded from its small tree
    /// by `ViewSpec.apply`. A key sent twice is left to the tree's path, which refuses it;
    /// `keys` is a list kept for the next view (its few keys compared in turn).
    private static func readView(
        _ r: inout JSONParser, into spec: inout ViewSpec, parents: inout RecentParents, keys: inout [UnsafeBufferPointer<UInt8>]
    ) throws {
        var hasID = false, validID = false
        guard try r.beginObject() else { throw GiveUp() }
        keys.removeAll(keepingCapacity: true)
        repeat {
            let k = try r.key()
            for seen in keys where seen.spells(k) { throw GiveUp() }
            keys.append(k)
            if k.spells("id") {
                // Checked on the body's bytes where it is plain (on the String, ~140
                // instructions a view, it was copied to be read).
                let plain = r.readPlainString()
                let id = try plain.map(JSONParser.asciiString) ?? r.readString()
                if !hasID { (spec.id, hasID, validID) = (id, true, plain.map(ViewSpec.validID(bytes:)) ?? ViewSpec.validID(id)) }
            } else if k.spells("parent") && r.peek() == UInt8(ascii: "\"") {
                if let b = r.readPlainString() { spec.parent = parents.name(b) } else { spec.parent = try r.readString() }
            } else {
                let start = r.mark
                if try !readNumbers(into: &spec, field: k, &r) {
                    r.rewind(to: start)
                    try spec.apply(field: String(decoding: k, as: UTF8.self), try r.readValue(), at: Pointer())
                }
            }
        } while try r.nextMember()
        guard hasID, validID else { throw GiveUp() }
        try spec.checkText(at: Pointer())
        try spec.checkKind(at: Pointer())
    }

    /// A view's frame, intrinsic size, hugging or compression resistance, read in place when
    /// it is an object of plain numbers within their bounds (a tree each was 1,400
    /// instructions; 4,000 in the 1,000-cell feed). False for anything else, which `apply`
    /// then decodes from its tree: a null, a repeated or unknown key, a number out of bounds.
    private static func readNumbers(into spec: inout ViewSpec, field k: UnsafeBufferPointer<UInt8>, _ r: inout JSONParser) throws -> Bool {
        // Which object, and the first of its keys in `NumberKey` order (frame: x, y, width,
        // height; a size: width, height; priorities: horizontal, vertical).
        let first: Int, count: Int
        switch k.count {
        case 5 where k.spells("frame"): (first, count) = (0, 4)
        case 13 where k.spells("intrinsicSize"): (first, count) = (2, 2)
        case 7 where k.spells("hugging"), 21 where k.spells("compressionResistance"): (first, count) = (4, 2)
        default: return false
        }
        var v = (Double.nan, Double.nan, Double.nan, Double.nan)  // by key from `first`; NaN: not sent
        guard try r.beginObject() else { return false }
        repeat {
            let slot = (numberKey(try r.key()) ?? -1) - first
            guard slot >= 0 && slot < count, let n = try r.readNumber() else { return false }
            switch slot {
            case 0 where v.0.isNaN: v.0 = n
            case 1 where v.1.isNaN: v.1 = n
            case 2 where v.2.isNaN: v.2 = n
            case 3 where v.3.isNaN: v.3 = n
            default: return false
            }
        } while try r.nextMember()
        let limit = ViewSpec.maxMagnitude
        switch first {
        case 0:  // frame: every coordinate, sizes not negative
            guard abs(v.0) <= limit, abs(v.1) <= limit, v.2 >= 0, v.2 <= limit, v.3 >= 0, v.3 <= limit else { return false }
            spec.frame = Rect(x: v.0, y: v.1, width: v.2, height: v.3)
        case 2:
            guard v.0.isNaN || (v.0 >= 0 && v.0 <= limit), v.1.isNaN || (v.1 >= 0 && v.1 <= limit) else { return false }
            spec.intrinsicWidth = v.0.isNaN ? nil : v.0
            spec.intrinsicHeight = v.1.isNaN ? nil : v.1
        default:  // priorities: 1…1000, the contract's default for one not sent
            let hugging = k.count == 7
            let d = hugging ? (250.0, 250.0) : (750.0, 750.0)
            let h = v.0.isNaN ? d.0 : v.0, vv = v.1.isNaN ? d.1 : v.1
            guard h >= 1 && h <= Priority.required && vv >= 1 && vv <= Priority.required else { return false }
            if hugging { spec.hugging = (h, vv) } else { spec.compression = (h, vv) }
        }
        return true
    }

    /// x, y, width, height, horizontal, vertical: 0…5 (by length, then compared).
    private static func numberKey(_ b: UnsafeBufferPointer<UInt8>) -> Int? {
        switch b.count {
        case 1: return b[0] == UInt8(ascii: "x") ? 0 : b[0] == UInt8(ascii: "y") ? 1 : nil
        case 5: return b.spells("width") ? 2 : nil
        case 6: return b.spells("height") ? 3 : nil
        case 10: return b.spells("horizontal") ? 4 : nil
        case 8: return b.spells("vertical") ? 5 : nil
        default: return nil
        }
    }

    /// Entries of an `expr` and perhaps a string id are read in place; any other is read
    /// again as a tree and added as the tree's path adds it.
    private mutating func readConstraints(_ r: inout JSONParser) throws {
        guard try r.beginArray() else { return }
        var entry = ReadEntry()
        // The views stay as they are while the constraints are read: one memo of their names.
        let memo = NameMemo()
        defer { memo.deallocate() }
        var read = 0
        repeat {
            // Past the request's work budget: given up, and the caller does not take the
            // tree's path either (`make(documentBytes:)`).
            read += 1
            if read & 255 == 0 && WorkBudget.exhausted() { throw GiveUp() }
            let start = r.mark
            guard try Self.readEntry(&r, into: &entry) else {
                r.rewind(to: start)
                _ = try addConstraint(try r.readValue(), at: Pointer())
                continue
            }
            if let expr = entry.expr {
                try addExpression(bytes: expr, id: try claimID(entry.id, at: Pointer()), active: true, memo: memo, at: Pointer())
            } else if let format = entry.format {
                // The options as sent, for the document written back: the tree's path keeps its array.
                let sent: JSON? = keepsSentText && entry.hasOptions ? .array(entry.options.map { .string($0) }) : nil
                try addVisual(
                    .ascii(format), options: entry.options, metrics: [:], extras: (sent, nil), id: try claimID(entry.id, at: Pointer()),
                    active: true, memo: memo, at: Pointer())
            }
        } while try r.nextElement()
    }

    /// The entries read in place: an `expr` or a VFL format (plain ASCII: the body's own
    /// bytes) with string `options`, each with perhaps a string id. Read into one kept
    /// record (an enum returned a time was destroyed twice an entry, ~160 instructions), its
    /// list of options kept from entry to entry (one made and freed an entry, ~500).
    private struct ReadEntry {
        var id: String?
        var expr: UnsafeBufferPointer<UInt8>?
        var format: UnsafeBufferPointer<UInt8>?
        var options: [String] = []
        var hasOptions = false
    }

    /// One of those in one pass over its members, else false, the reader left somewhere inside it.
    private static func readEntry(_ r: inout JSONParser, into e: inout ReadEntry) throws -> Bool {
        // Emptied only where set: assigning nil over nil still releases (the runtime's calls
        // were ~1 M instructions of the 1,000-cell feed's 12,000 entries).
        if e.id != nil { e.id = nil }
        e.expr = nil
        e.format = nil
        if e.hasOptions {
            e.options.removeAll(keepingCapacity: true)
            e.hasOptions = false
        }
        guard try r.beginObject() else { return false }
        repeat {
            let k = try r.key()
            if e.id == nil && k.spells("id") && r.peek() == UInt8(ascii: "\"") {
                e.id = try r.readString()
            } else if e.expr == nil && e.format == nil && k.spells("expr") {
                guard let text = r.readPlainString() else { return false }
                e.expr = text
            } else if e.format == nil && e.expr == nil && k.spells("visual") {
                guard let text = r.readPlainString() else { return false }
                e.format = text
            } else if !e.hasOptions && e.expr == nil && k.spells("options") && r.peek() == UInt8(ascii: "[") {
                e.hasOptions = true  // first: a list given up on halfway is emptied all the same
                if try r.beginArray() {
                    repeat {
                        guard r.peek() == UInt8(ascii: "\"") else { return false }
                        e.options.append(try r.readString())
                    } while try r.nextElement()
                }
            } else {
                return false
            }
        } while try r.nextMember()
        return e.expr != nil ? !e.hasOptions : e.format != nil
    }
}

/// The two parent names read last, as the body's bytes and the `String` made of them: a
/// cell's views name the same parent, the cells the same root, so four parents in five of
/// the 1,000-cell feed are a copy of a name made already (a `String` each, ~150 instructions).
/// Valid while the body is read.
private struct RecentParents {
    private var last: (bytes: UnsafeBufferPointer<UInt8>, name: String)?
    private var before: (bytes: UnsafeBufferPointer<UInt8>, name: String)?

    mutating func name(_ b: UnsafeBufferPointer<UInt8>) -> String {
        if let l = last, b.spells(l.bytes) { return l.name }
        if let p = before, b.spells(p.bytes) {
            swap(&last, &before)
            return p.name
        }
        let name = JSONParser.asciiString(b)
        before = last
        last = (b, name)
        return name
    }
}

extension UnsafeBufferPointer<UInt8> {
    /// Whether these bytes are `name`'s: a name from the program's constants, no `String` made.
    /// Compared a word at a time, the last word overlapping (short names: two halves, or their
    /// bytes): `memcmp`, a call for names of a few bytes, was ~25 instructions of each of the
    /// 1,000-cell feed's ~50,000 keys and attributes.
    @inline(__always) func spells(_ name: StaticString) -> Bool {
        let n = name.utf8CodeUnitCount
        guard count == n else { return false }
        guard n > 0 else { return true }
        return Self.sameBytes(UnsafeRawPointer(baseAddress!), UnsafeRawPointer(name.utf8Start), n)
    }

    /// Whether these bytes are `other`'s (compared as `spells` compares).
    @inline(__always) func spells(_ other: UnsafeBufferPointer<UInt8>) -> Bool {
        guard count == other.count else { return false }
        guard count > 0 else { return true }
        return Self.sameBytes(UnsafeRawPointer(baseAddress!), UnsafeRawPointer(other.baseAddress!), count)
    }

    /// `n` (at least 1) bytes at `a` and at `b` the same.
    @inline(__always) private static func sameBytes(_ a: UnsafeRawPointer, _ b: UnsafeRawPointer, _ n: Int) -> Bool {
        func word(_ p: UnsafeRawPointer, _ at: Int) -> UInt64 { p.loadUnaligned(fromByteOffset: at, as: UInt64.self) }
        func half(_ p: UnsafeRawPointer, _ at: Int) -> UInt32 { p.loadUnaligned(fromByteOffset: at, as: UInt32.self) }
        func byte(_ p: UnsafeRawPointer, _ at: Int) -> UInt8 { p.load(fromByteOffset: at, as: UInt8.self) }
        if n >= 8 {
            var i = 0
            while i + 8 < n {
                if word(a, i) != word(b, i) { return false }
                i += 8
            }
            return word(a, n - 8) == word(b, n - 8)
        }
        if n >= 4 { return half(a, 0) == half(b, 0) && half(a, n - 4) == half(b, n - 4) }
        return byte(a, 0) == byte(b, 0) && byte(a, n >> 1) == byte(b, n >> 1) && byte(a, n - 1) == byte(b, n - 1)
    }
}
