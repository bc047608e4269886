/// How a text is set: its font and how its lines break. Knows nothing of views.
public struct Font: Hashable, Sendable {
    public var family: String
    /// Points; a layout's unit.
    public var size: Double
    /// 100…900 (OpenType weight classes); 400 is regular.
    public var weight: Int
    public var italic: Bool
    /// Points added after each grapheme cluster (UIKit's kern, SwiftUI's tracking): the system
    /// font's stand-in takes San Francisco's for its size (`SystemFont`).
    public var tracking: Double

    public init(family: String, size: Double, weight: Int = 400, italic: Bool = false, tracking: Double = 0) {
        self.family = family; self.size = size; self.weight = weight; self.italic = italic; self.tracking = tracking
    }
}

public enum LineBreakMode: String, Hashable, Sendable {
    /// At Unicode break opportunities; a word longer than a line breaks between characters.
    case word
    /// Between any two characters (grapheme clusters, as the font shapes them).
    case char
}

public struct TextStyle: Hashable, Sendable {
    public var font: Font
    /// 0 is unlimited; lines past it are cut (the last shown line is not widened).
    public var numberOfLines: Int
    public var lineBreak: LineBreakMode
    /// Points; nil is the font's own (ascender − descender + line gap).
    public var lineHeight: Double?

    public init(font: Font, numberOfLines: Int = 1, lineBreak: LineBreakMode = .word, lineHeight: Double? = nil) {
        self.font = font; self.numberOfLines = numberOfLines; self.lineBreak = lineBreak; self.lineHeight = lineHeight
    }

    /// One line never wraps: the label is as wide as its text (and truncated by the layout).
    public var wraps: Bool { numberOfLines != 1 }
}

/// A measured text: the widest line and the lines' height, with what baselines need.
public struct TextMeasurement: Hashable, Sendable {
    public var width: Double
    public var height: Double
    public var lines: Int
    /// From the top of the first line to its baseline.
    public var ascender: Double
    public var lineHeight: Double

    public init(width: Double, height: Double, lines: Int, ascender: Double, lineHeight: Double) {
        self.width = width; self.height = height; self.lines = lines; self.ascender = ascender; self.lineHeight = lineHeight
    }

    /// Baselines from the text's top: the first line's, and the last line's.
    public var firstBaseline: Double { ascender }
    public var lastBaseline: Double { Double(max(lines, 1) - 1) * lineHeight + ascender }
}

/// A text's glyph outlines, laid out as measured (`TextMeasurer.outline`).
public struct TextOutline: Sendable {
    /// SVG path data, in points from the text's top left.
    public var path: String
    public var width: Double
    public var height: Double
    public var lines: Int
    /// The glyphs the text shaped to (what drawing it costs).
    public var glyphs: Int
}
