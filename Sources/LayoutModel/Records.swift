import CheckedNumbers
import ConstraintSolver
import JSON
import TextLayout

/// The document's records, named by dense integers instead of their ids: an id is hashed
/// once, where it enters (a parsed document or op) or leaves (an answer); everything in
/// between is array indexing. Strings and hashing were half of building a session.
/// Each kind of record has its own ref type, so the compiler tells a view from an atom;
/// each is an `Int32` in memory, and costs what one does.
protocol RecordRef: Hashable, Comparable, Sendable, ExpressibleByIntegerLiteral {
    var raw: Int32 { get }
    init(raw: Int32)
}

extension RecordRef {
    @inline(__always) init(_ index: Int) { self.init(raw: Int32(truncatingIfNeeded: index)) }
    @inline(__always) init(_ raw: Int32) { self.init(raw: raw) }
    /// A literal is a ref (tests name records by number); a variable of another kind is not.
    @inline(__always) init(integerLiteral value: Int32) { self.init(raw: value) }
    /// No record (a constraint with no second view, a removed group member).
    @inline(__always) static var noRef: Self { Self(raw: -1) }
    @inline(__always) static func < (a: Self, b: Self) -> Bool { a.raw < b.raw }
    @inline(__always) func hash(into hasher: inout Hasher) { hasher.combine(raw) }
    /// Hashed as its `Int32` is, in one step: the synthesized hash went through a whole
    /// `Hasher` (init, combine, finalize), +0.5% of a 1,000-cell stack document's build.
    @inline(__always) func _rawHashValue(seed: Int) -> Int { raw._rawHashValue(seed: seed) }
}

extension Int {
    @inline(__always) init(_ ref: some RecordRef) { self = Int(ref.raw) }
}

struct ViewRef: RecordRef {
    let raw: Int32
    @inline(__always) init(raw: Int32) { self.raw = raw }
}

struct AtomRef: RecordRef {
    let raw: Int32
    @inline(__always) init(raw: Int32) { self.raw = raw }
}

struct EntryRef: RecordRef {
    let raw: Int32
    @inline(__always) init(raw: Int32) { self.raw = raw }
}

/// The constraints a view's own fields make (a fixed frame, an intrinsic size).
enum ImplicitKind: Int, CaseIterable {
    case frameX, frameY, frameWidth, frameHeight, huggingH, huggingV, compressionH, compressionV

    /// The name's tail after the view's id: `title.hugging.h`.
    var suffix: String {
        switch self {
        case .frameX: "frame.x"
        case .frameY: "frame.y"
        case .frameWidth: "frame.width"
        case .frameHeight: "frame.height"
        case .huggingH: "hugging.h"
        case .huggingV: "hugging.v"
        case .compressionH: "compression.h"
        case .compressionV: "compression.v"
        }
    }

    /// 0…3 for a fixed frame's x, y, width, height: these act on the frame, not the alignment rect.
    var frameComponent: Int? { rawValue < 4 ? rawValue : nil }

    static func named(_ suffix: Substring) -> ImplicitKind? { allCases.first { $0.suffix == suffix } }
}

/// Where an atom comes from; its name follows (no name is stored).
enum AtomOrigin: Equatable {
    /// An explicit or `expr` constraint: the entry's own id.
    case entry(EntryRef)
    /// Member k of a VFL group: `group.k`.
    case member(EntryRef, Int32)
    /// `view.frame.x`, `view.hugging.h`…
    case implicit(ViewRef, ImplicitKind)
    /// Constraint n of a stack view's arrangement: `stack.stack.n`.
    case stack(ViewRef, Int32)
}

/// One engine-level constraint of the document, explicit or implicit:
/// `first relation multiplier × second + constant` at a priority. Laid out so that the small
/// fields fill the gaps, the relation and the flags in one byte: 48 bytes, where it was 64
/// with each field its own (30,000 of them in a 1,000-cell session).
struct Atom {
    var first: ViewRef
    var second: ViewRef
    var origin: AtomOrigin
    var firstAttribute: Attribute
    var secondAttribute: Attribute
    /// The relation (bits 0–1), `active`, `live` and `dirty` (bits 2, 3, 4).
    private var bits: UInt8 = 0
    /// Creation order (`Document.newAtom` numbers it), so engine adds happen in document order.
    var sequence: Int32 = 0
    var multiplier: Double
    var constant: Double
    var priority: Double

    var relation: Relation {
        get {
            switch bits & 3 {
            case 0: .equal
            case 1: .lessOrEqual
            default: .greaterOrEqual
            }
        }
        set {
            let code: UInt8 =
                switch newValue {
                case .equal: 0
                case .lessOrEqual: 1
                case .greaterOrEqual: 2
                }
            bits = bits & ~3 | code
        }
    }
    var active: Bool {
        get { bit(2) }
        set { setBit(2, newValue) }
    }
    var live: Bool {
        get { bit(3) }
        set { setBit(3, newValue) }
    }
    /// Listed in the document's `changes.dirtyAtoms` (at most once).
    var dirty: Bool {
        get { bit(4) }
        set { setBit(4, newValue) }
    }
    @inline(__always) private func bit(_ k: UInt8) -> Bool { bits & 1 << k != 0 }
    @inline(__always) private mutating func setBit(_ k: UInt8, _ on: Bool) { bits = on ? bits | 1 << k : bits & ~(1 << k) }

    init(
        first: ViewRef, second: ViewRef = .noRef, firstAttribute: Attribute, secondAttribute: Attribute = .left,
        relation: Relation, active: Bool = true, origin: AtomOrigin, multiplier: Double = 1, constant: Double = 0,
        priority: Double = Priority.required
    ) {
        self.first = first
        self.second = second
        self.origin = origin
        self.firstAttribute = firstAttribute
        self.secondAttribute = secondAttribute
        self.multiplier = multiplier
        self.constant = constant
        self.priority = priority
        self.relation = relation
        self.active = active
        self.live = true
    }

    var hasSecond: Bool { second != .noRef }

    /// The layout fields alone (what churn compares).
    struct Shape: Hashable {
        var first, second: ViewRef
        var firstAttribute, secondAttribute: Attribute
        var relation: Relation
        var multiplier, constant, priority: Double
    }

    var shape: Shape {
        Shape(
            first: first, second: second, firstAttribute: firstAttribute, secondAttribute: hasSecond ? secondAttribute : .left,
            relation: relation, multiplier: multiplier, constant: constant, priority: priority)
    }
}

/// An entry's id as claimed: a client's, or one the server gave (`c7`) by its number, by
/// which it is found while no client id is shaped like the server's (`autoEntries`).
struct EntryID {
    /// The client's id (or a server-given one that is not found by number); empty with a number.
    var name: String
    var number: Int?
    /// The id as the client reads it.
    var string: String { number.map(LayoutDocument.serverID) ?? name }
}

/// A document-level constraint as the client sent it: one atom, or a VFL group of them.
struct Entry {
    enum Form: UInt8 { case explicit, expression, visual }
    /// The id as sent; empty for a server-given id kept as its number (`id` spells it when
    /// asked: made for every unnamed constraint, they were ~4 M instructions of the
    /// 1,000-cell feed's 10,000).
    private var name: String
    /// A VFL group's atoms by position (`group.k`), `noRef` once removed: its slice of the
    /// document's `groupMembers` (`LayoutDocument.members(of:)`). An array an entry was a
    /// release in each entry's teardown and an allocation a group (~0.8 M instructions of the
    /// 1,000-cell feed's one-shot layout).
    var membersAt: UInt32 = 0, memberCount: UInt32 = 0
    /// Creation order (`LayoutDocument.newEntrySequence`), in 32 bits like an atom's: with the
    /// 4-byte text ref, an entry is 40 bytes where it was 48.
    var sequence: Int32
    /// The `expr` or `visual` text as sent, in the document's `texts` (a VFL group's
    /// `options` and `metrics`, rare, are in the document's `groupExtras`).
    var text = StringPool.Ref.empty
    /// The atom of an explicit or `expr` entry.
    var atom: AtomRef = .noRef
    /// The form (2 bits), live, edited and stale, and the server's number above them (0:
    /// none) in one word, so the number costs an entry no room (40 bytes).
    private var bits: UInt32

    private static let numberShift: UInt32 = 5
    /// The largest server number an entry holds (a larger one is kept as its name).
    static let maxNumber = Int(UInt32.max >> numberShift)

    /// `autoID` gives a number only where it fits (1…`maxNumber`).
    @inline(__always) init(id: EntryID, form: Form, sequence: Int32) {
        assert(id.number.map { $0 > 0 && $0 <= Self.maxNumber } ?? true, "a server number beyond an entry's field")
        let number = UInt32(id.number ?? 0)
        (name, bits) = (id.name, number << Self.numberShift | 4 | UInt32(form.rawValue))
        self.sequence = sequence
    }

    var id: String { autoNumber.map(LayoutDocument.serverID) ?? name }
    /// The server's number of a server-given id found by number.
    var autoNumber: Int? { bits >> Self.numberShift == 0 ? nil : Int(bits >> Self.numberShift) }

    var form: Form {
        get { Form(rawValue: UInt8(bits & 3))! }
        set { bits = bits & ~3 | UInt32(newValue.rawValue) }
    }
    var live: Bool {
        get { bits & 4 != 0 }
        set { set(4, newValue) }
    }
    /// A VFL group that lost members or whose members differ is listed as its remaining constraints.
    var edited: Bool {
        get { bits & 8 != 0 }
        set { set(8, newValue) }
    }
    /// An `expr` entry whose constant or priority changed: listed in the explicit form.
    var stale: Bool {
        get { bits & 16 != 0 }
        set { set(16, newValue) }
    }

    private mutating func set(_ bit: UInt32, _ on: Bool) { bits = on ? bits | bit : bits & ~bit }
}

/// A view's implicit atoms by `ImplicitKind`: eight refs, 4-byte aligned (a `SIMD8` aligned
/// the whole record to 16 bytes, 8 of them padding).
struct ImplicitAtoms {
    private var refs: (Int32, Int32, Int32, Int32, Int32, Int32, Int32, Int32) = (-1, -1, -1, -1, -1, -1, -1, -1)

    subscript(k: Int) -> AtomRef {
        get { AtomRef(raw: withUnsafeBytes(of: refs) { $0.load(fromByteOffset: 4 * k, as: Int32.self) }) }
        set {
            precondition(k >= 0 && k < 8)
            withUnsafeMutableBytes(of: &refs) { $0.storeBytes(of: newValue.raw, toByteOffset: 4 * k, as: Int32.self) }
        }
    }
}

/// One view (or layout guide) of the document.
struct ViewRecord {
    var spec: ViewSpec
    var parent: ViewRef
    var live = true
    /// Listed in the document's `changes.dirtyViews` (at most once).
    var dirty = false
    /// Insets, margins or baselines changed: every atom naming the view is re-translated.
    var restyled = false
    /// A stack's spacer guide: in the engine, never reported nor written.
    var internalGuide = false
    /// Insertion order: the document's view order.
    var sequence: Int
    /// Its fill tie-breaker in its parent stack when that stack was last made (`syncStack`;
    /// noRef: none, and possibly stale: `retie` checks it): what a rewrap updates.
    var fillTie = AtomRef.noRef
    /// Its implicit atoms by `ImplicitKind`, `noRef` where it has none.
    var implicit = ImplicitAtoms()
    /// A text view's measurements, boxed (most views have no text): on its natural lines
    /// (its intrinsic width), and at the width the layout gave it (`wrapWidth`, nil when it
    /// was not narrower).
    var measures: Boxed<Measures>? = nil

    struct Measures: Sendable {
        var natural: TextMeasurement?
        var measured: TextMeasurement?
        var wrapWidth: Double?
    }

    private var measureFields: Measures {
        get { measures?.value ?? Measures() }
        set { measures = newValue.natural == nil && newValue.measured == nil && newValue.wrapWidth == nil ? nil : Boxed(newValue) }
    }
    var natural: TextMeasurement? {
        get { measures?.value.natural }
        set { measureFields.natural = newValue }
    }
    var measured: TextMeasurement? {
        get { measures?.value.measured }
        set { measureFields.measured = newValue }
    }
    var wrapWidth: Double? {
        get { measures?.value.wrapWidth }
        set { measureFields.wrapWidth = newValue }
    }

    /// Baselines from the alignment rect's top: the document's, else the text's.
    var firstBaseline: Double? { spec.firstBaseline ?? measured?.firstBaseline }
    var lastBaseline: Double? { spec.lastBaseline ?? measured?.lastBaseline }
    /// The size its hugging and compression resistance hold it to.
    /// (Inlined, and the text's presence read from its flag: a call copied the whole record.)
    @inline(__always) var intrinsicWidth: Double? { spec.hasText ? natural?.width : spec.intrinsicWidth }
    @inline(__always) var intrinsicHeight: Double? { spec.hasText ? measured?.height : spec.intrinsicHeight }
}
