public import LayoutModel
public import TextLayout

/// A layout at one size as a picture draws it: every view's box in the root's coordinates
/// (frames are in their parent's), hidden views and what they hold left out, each box marked
/// as the playground marks it, labels as the glyph outlines they were measured with.
public struct Picture: Sendable {
    public enum Mark: Sendable {
        case none, ambiguous, conflict
        /// A comparison's: where a view was expected (drawn under), and a view that moved from it.
        case expected, moved
    }

    public struct Box: Sendable {
        public var id: String
        public var frame: Rect
        public var isGuide: Bool
        public var mark: Mark
        /// SVG path data from the text's top left, where that is in the root's coordinates,
        /// and the lines it has.
        public var text: (path: String, x: Double, y: Double, lines: Int)?
    }

    /// A picture whose labels would take more glyphs than allowed: drawing them is work and
    /// answer bytes (an outline a glyph) that grow with the text, not the layout.
    public struct TooLarge: Error, Sendable {
        public let glyphs: Int
        public let limit: Int
    }

    public var name: String?
    public var width: Double
    public var height: Double
    public var boxes: [Box]
    /// The glyphs its labels drew.
    public private(set) var glyphs = 0

    /// `viewsOf` names the views a constraint relates (a conflict's views are marked).
    public init(
        name: String?, sketch: [ViewSketch], frames: [FrameEntry], diagnostics: [Diagnostic],
        viewsOf: (String) -> [String], measurer: TextMeasurer = .shared, maxGlyphs: Int = .max
    ) throws(TooLarge) {
        self.name = name
        var frameOf: [String: Rect] = [:]
        frameOf.reserveCapacity(frames.count)
        for f in frames { frameOf[f.id] = f.frame }
        var ambiguous = Set<String>(), conflict = Set<String>()
        for d in diagnostics {
            switch d {
            case .ambiguous(let view, _): ambiguous.insert(view)
            case .unsatisfiable(_, let conflicts, _): for c in conflicts { conflict.formUnion(viewsOf(c)) }
            case .churn: break
            }
        }
        var parentOf: [String: String] = [:], hidden = Set<String>()
        for v in sketch {
            if let p = v.parent { parentOf[v.id] = p }
            if v.hidden { hidden.insert(v.id) }
        }
        var origins = Origins(frames: frameOf, parents: parentOf, hidden: hidden)
        var boxes: [Box] = []
        var size = (width: 0.0, height: 0.0)
        var glyphsLeft = maxGlyphs
        for v in sketch {
            guard let f = frameOf[v.id] else { continue }
            let o = origins.origin(v.id)
            guard o.shown else { continue }
            let frame = Rect(x: o.x, y: o.y, width: f.width, height: f.height)
            if v.parent == nil { size = (max(size.width, frame.x + frame.width), max(size.height, frame.y + frame.height)) }
            var text: (String, Double, Double, Int)? = nil
            if let t = v.text {
                let drawn: TextOutline?
                do throws(TextMeasurer.Failure) {
                    drawn = try measurer.outline(t.string, style: t.style, width: v.wrapWidth, maxGlyphs: glyphsLeft)
                } catch {
                    if case .tooManyGlyphs(let n) = error { throw TooLarge(glyphs: maxGlyphs - glyphsLeft + n, limit: maxGlyphs) }
                    drawn = nil  // a family gone since the layout: the box without its text
                }
                if let outline = drawn {
                    // A label draws its lines centred down its height, from its leading edge.
                    let top = frame.y + v.insets.top + (f.height - v.insets.top - v.insets.bottom - outline.height) / 2
                    text = (outline.path, frame.x + v.insets.left, top, outline.lines)
                    glyphsLeft -= outline.glyphs
                }
            }
            let mark: Mark = conflict.contains(v.id) ? .conflict : ambiguous.contains(v.id) ? .ambiguous : .none
            boxes.append(Box(id: v.id, frame: frame, isGuide: v.isGuide, mark: mark, text: text))
        }
        (width, height) = (max(1, size.width), max(1, size.height))
        self.boxes = boxes
        glyphs = maxGlyphs == .max ? 0 : maxGlyphs - glyphsLeft
    }
}
