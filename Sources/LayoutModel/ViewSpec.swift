import JSON
import TextLayout
import ConstraintSolver

/// One view (or layout guide) of the document, with the contract's defaults applied.
public struct ViewSpec: Equatable, Sendable {
    public var id: String
    public var parent: String?
    /// Nil as NaN (a number the contract cannot carry): 8 bytes each where an optional took 16.
    private var intrinsic = (width: Double.nan, height: Double.nan)
    public var intrinsicWidth: Double? {
        get { intrinsic.width.isNaN ? nil : intrinsic.width }
        set { intrinsic.width = newValue ?? .nan }
    }
    public var intrinsicHeight: Double? {
        get { intrinsic.height.isNaN ? nil : intrinsic.height }
        set { intrinsic.height = newValue ?? .nan }
    }
    /// Hugging and compression resistance (h, v, h, v), as floats: priorities are almost
    /// always floats exactly (250, 750, 999.5); one that is not keeps all four, exact, in the
    /// rare fields (16 bytes a view).
    private var priorities: (Float, Float, Float, Float) = (250, 250, 750, 750)
    public var hugging: (h: Double, v: Double) {
        get { rare?.value.exactPriorities?.hugging ?? (Double(priorities.0), Double(priorities.1)) }
        set { setPriorities(newValue, compression) }
    }
    public var compression: (h: Double, v: Double) {
        get { rare?.value.exactPriorities?.compression ?? (Double(priorities.2), Double(priorities.3)) }
        set { setPriorities(hugging, newValue) }
    }
    private mutating func setPriorities(_ hugging: (h: Double, v: Double), _ compression: (h: Double, v: Double)) {
        priorities = (Float(hugging.h), Float(hugging.v), Float(compression.h), Float(compression.v))
        let exact =
            Double(priorities.0) == hugging.h && Double(priorities.1) == hugging.v && Double(priorities.2) == compression.h
            && Double(priorities.3) == compression.v
        if !exact || rare?.value.exactPriorities != nil {
            rareFields.exactPriorities = exact ? nil : Priorities(hugging: hugging, compression: compression)
        }
    }
    public var isGuide = false
    public var hidden = false
    /// `kind` said "stack" (the arrangement may come in its own field).
    var isStack = false
    /// The fields most views leave at their defaults, behind one pointer (nil while all are
    /// defaults): 360 → 104 bytes a view.
    private var rare: Boxed<Rare>?
    /// Every rare field at its default (no insets, the default margins, no baselines).
    var rareDefaults: Bool { rare == nil }

    struct Rare: Equatable, Sendable {
        var frame: Rect?
        var margins = Insets.defaultMargins
        var alignmentInsets = Insets.zero
        var firstBaseline: Double?
        var lastBaseline: Double?
        var text: TextContent? { didSet { hasText = text != nil } }
        /// Whether `text` is set, read without copying the text out of the box.
        private(set) var hasText = false
        var stack: StackSpec?
        var exactPriorities: Priorities?
        static let defaults = Rare()
    }

    struct Priorities: Equatable, Sendable {
        var hugging, compression: (h: Double, v: Double)
        static func == (a: Self, b: Self) -> Bool { a.hugging == b.hugging && a.compression == b.compression }
    }

    private var rareFields: Rare {
        get { rare?.value ?? .defaults }
        set { rare = newValue == .defaults ? nil : Boxed(newValue) }
    }

    public var frame: Rect? {
        get { rare?.value.frame }
        set { rareFields.frame = newValue }
    }
    public var margins: Insets {
        get { rare?.value.margins ?? .defaultMargins }
        set { rareFields.margins = newValue }
    }
    public var alignmentInsets: Insets {
        get { rare?.value.alignmentInsets ?? .zero }
        set { rareFields.alignmentInsets = newValue }
    }
    public var firstBaseline: Double? {
        get { rare?.value.firstBaseline }
        set { rareFields.firstBaseline = newValue }
    }
    public var lastBaseline: Double? {
        get { rare?.value.lastBaseline }
        set { rareFields.lastBaseline = newValue }
    }
    /// A label's text: its intrinsic size is measured (and follows the width it is given).
    public var text: TextContent? {
        get { rare?.value.text }
        set { rareFields.text = newValue }
    }
    /// Read where only the presence matters: a flag in the box (the text itself, read to be
    /// compared with nil, was copied out and destroyed, ~100 instructions a view).
    @inline(__always) public var hasText: Bool { rare?.value.hasText ?? false }
    /// A stack view's arrangement (`kind: "stack"`).
    public var stack: StackSpec? {
        get { rare?.value.stack }
        set { rareFields.stack = newValue }
    }

    public init(id: String, parent: String? = nil) { self.id = id; self.parent = parent }

    public static func == (a: ViewSpec, b: ViewSpec) -> Bool {
        a.id == b.id && a.parent == b.parent && a.isGuide == b.isGuide && a.frame == b.frame
            && a.intrinsicWidth == b.intrinsicWidth && a.intrinsicHeight == b.intrinsicHeight
            && a.hugging == b.hugging && a.compression == b.compression && a.margins == b.margins
            && a.alignmentInsets == b.alignmentInsets && a.firstBaseline == b.firstBaseline
            && a.lastBaseline == b.lastBaseline && a.hidden == b.hidden && a.text == b.text && a.stack == b.stack
    }

    static let fields: Set<String> = [
        "id", "parent", "kind", "frame", "intrinsicSize", "hugging", "compressionResistance",
        "margins", "alignmentInsets", "baseline", "hidden", "text", "stack"
    ]

    /// Read over the id's bytes in place (`allSatisfy` on the UTF-8 view walked its indices:
    /// ~370 instructions an id, 5,000 ids in the 1,000-cell feed).
    static func validID(_ s: String) -> Bool {
        var s = s
        return s.withUTF8 { validID(bytes: $0) }
    }

    static func validID(bytes b: UnsafeBufferPointer<UInt8>) -> Bool {
        !b.isEmpty && b.count <= 128
            && b.allSatisfy { c in
                (c >= 48 && c <= 57) || (c >= 65 && c <= 90) || (c >= 97 && c <= 122) || c == 95 || c == 45
            }
    }

    /// Decodes a whole view object (its pointer made only for an error: one a view was an
    /// allocation, 5,000 in the 1,000-cell feed).
    static func decode(_ json: JSON, at p: @autoclosure () -> Pointer) throws(LayoutError) -> ViewSpec {
        guard let members = json.members else { throw p().fail("a view must be an object") }
        guard let idv = json["id"] else { throw p()("id").fail("a view needs an id") }
        guard let id = idv.string, validID(id) else {
            throw p()("id").fail("a view id is 1…128 letters, digits, '_' or '-' (no '.')")
        }
        var v = ViewSpec(id: id)
        for (k, value) in members where k != "id" {
            try v.apply(field: k, value, at: p()(k))
        }
        try v.checkText(at: p())
        try v.checkKind(at: p())
        return v
    }

    /// Sets one field from JSON (also how `updateView` replaces fields).
    mutating func apply(field k: String, _ value: JSON, at p: @autoclosure () -> Pointer) throws(LayoutError) {
        switch k {
        case "parent":
            if value.isNull { parent = nil; return }
            guard let s = value.string else { throw p().fail("parent must be a view id") }
            parent = s
        case "kind":
            guard let s = value.string, s == "view" || s == "guide" || s == "stack" else {
                throw p().fail("kind is \"view\", \"guide\" or \"stack\"")
            }
            isGuide = s == "guide"
            isStack = s == "stack"
        case "frame":
            if value.isNull { frame = nil; return }
            frame = try Self.rect(value, at: p())
        case "intrinsicSize":
            if value.isNull { intrinsicWidth = nil; intrinsicHeight = nil; return }
            guard let m = value.members else { throw p().fail("intrinsicSize must be an object") }
            try Self.onlyKeys(m, ["width", "height"], at: p())
            intrinsicWidth = try Self.optionalNumber(value["width"], at: p()("width"), min: 0)
            intrinsicHeight = try Self.optionalNumber(value["height"], at: p()("height"), min: 0)
        case "hugging":
            let (h, v) = try Self.priorities(value, at: p(), default: (250, 250))
            hugging = (h, v)
        case "compressionResistance":
            let (h, v) = try Self.priorities(value, at: p(), default: (750, 750))
            compression = (h, v)
        case "margins":
            margins = try Self.insets(value, at: p(), default: Insets.defaultMargins)
        case "alignmentInsets":
            alignmentInsets = try Self.insets(value, at: p(), default: .zero)
        case "baseline":
            if value.isNull { firstBaseline = nil; lastBaseline = nil; return }
            guard let m = value.members else { throw p().fail("baseline must be an object") }
            try Self.onlyKeys(m, ["first", "last"], at: p())
            firstBaseline = try Self.optionalNumber(value["first"], at: p()("first"), min: nil)
            lastBaseline = try Self.optionalNumber(value["last"], at: p()("last"), min: nil)
        case "hidden":
            guard let b = value.bool else { throw p().fail("hidden must be true or false") }
            hidden = b
        case "text":
            text = value.isNull ? nil : try TextContent.decode(value, at: p())
        case "stack":
            stack = value.isNull ? nil : try StackSpec.decode(value, at: p())
        default:
            throw p().fail("unknown view field '\(k)'")
        }
    }

    /// A stack is `kind: "stack"`, with its arrangement (default: an empty horizontal fill).
    mutating func checkKind(at p: @autoclosure () -> Pointer) throws(LayoutError) {
        if isStack && stack == nil { stack = StackSpec() }
        if !isStack && stack != nil { throw p()("stack").fail("a stack arrangement needs \"kind\": \"stack\"") }
    }

    /// A text's size is measured: an `intrinsicSize` beside it would say two things.
    func checkText(at p: @autoclosure () -> Pointer) throws(LayoutError) {
        if hasText && (intrinsicWidth != nil || intrinsicHeight != nil) {
            throw p()("text").fail("a view with text has its intrinsic size measured: remove intrinsicSize")
        }
    }

    /// A handful of allowed keys, searched in a list: a `Set` built from a literal for each
    /// object cost ~1,000 instructions (3,000 objects in the 1,000-cell feed).
    static func onlyKeys(_ m: [(key: String, value: JSON)], _ allowed: [String], at p: @autoclosure () -> Pointer) throws(LayoutError) {
        for (k, _) in m where !allowed.contains(k) { throw p()(k).fail("unknown field '\(k)'") }
    }

    /// Coordinates, sizes and constants stay within ±10⁷ points: far beyond any screen, and
    /// small enough that the engine's arithmetic cannot overflow into inf/NaN.
    static let maxMagnitude = 1e7
    static let maxMultiplier = 1e6

    static func number(_ v: JSON?, at p: @autoclosure () -> Pointer, limit: Double = maxMagnitude) throws(LayoutError) -> Double {
        guard let n = v?.number else { throw p().fail(v == nil ? "a number is required" : "must be a number") }
        guard abs(n) <= limit else { throw p().fail("\(n) is outside ±\(fmt(limit))") }
        return n
    }

    static func optionalNumber(_ v: JSON?, at p: @autoclosure () -> Pointer, min: Double?) throws(LayoutError) -> Double? {
        guard let v, !v.isNull else { return nil }
        guard let n = v.number else { throw p().fail("must be a number or null") }
        guard abs(n) <= maxMagnitude else { throw p().fail("\(n) is outside ±\(fmt(maxMagnitude))") }
        if let min, n < min { throw p().fail("must be at least \(fmt(min))") }
        return n
    }

    static func rect(_ v: JSON, at p: @autoclosure () -> Pointer) throws(LayoutError) -> Rect {
        guard let m = v.members else { throw p().fail("frame must be an object with x, y, width, height") }
        try onlyKeys(m, ["x", "y", "width", "height"], at: p())
        let w = try number(v["width"], at: p()("width")), h = try number(v["height"], at: p()("height"))
        if w < 0 { throw p()("width").fail("width cannot be negative") }
        if h < 0 { throw p()("height").fail("height cannot be negative") }
        return Rect(x: try number(v["x"], at: p()("x")), y: try number(v["y"], at: p()("y")), width: w, height: h)
    }

    static func priority(_ v: JSON?, at p: @autoclosure () -> Pointer) throws(LayoutError) -> Double {
        guard let n = v?.number else { throw p().fail("a priority is a number from 1 to 1000") }
        guard n >= 1 && n <= Priority.required else { throw p().fail("a priority is from 1 to 1000, not \(fmt(n))") }
        return n
    }

    static func priorities(_ v: JSON, at p: @autoclosure () -> Pointer, default d: (Double, Double)) throws(LayoutError) -> (Double, Double) {
        if v.isNull { return d }
        guard let m = v.members else { throw p().fail("must be an object with horizontal and/or vertical") }
        try onlyKeys(m, ["horizontal", "vertical"], at: p())
        let h = v["horizontal"].map { _ in 0 } != nil ? try priority(v["horizontal"], at: p()("horizontal")) : d.0
        let vv = v["vertical"].map { _ in 0 } != nil ? try priority(v["vertical"], at: p()("vertical")) : d.1
        return (h, vv)
    }

    static func insets(_ v: JSON, at p: @autoclosure () -> Pointer, default d: Insets) throws(LayoutError) -> Insets {
        if v.isNull { return d }
        guard let m = v.members else { throw p().fail("must be an object with top, left, bottom, right") }
        try onlyKeys(m, ["top", "left", "bottom", "right"], at: p())
        var out = d
        if let t = v["top"] { out.top = try number(t, at: p()("top")) }
        if let t = v["left"] { out.left = try number(t, at: p()("left")) }
        if let t = v["bottom"] { out.bottom = try number(t, at: p()("bottom")) }
        if let t = v["right"] { out.right = try number(t, at: p()("right")) }
        return out
    }
}
