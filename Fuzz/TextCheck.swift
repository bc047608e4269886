#if canImport(Glibc)
    import Glibc
#endif
import TextLayout

/// Text as labels set it: the input as a string (invalid UTF-8 replaced), measured by the
/// server's `TextMeasurer` in two fonts, `word` and `char` breaking, at widths from below
/// zero to far past the text, with a few `numberOfLines`. What must hold:
/// - every figure is finite, none negative; the height is the lines times the line height;
/// - an empty text has no line, any other at least one, and on its natural lines (no width)
///   one a paragraph (`\n`, a CR LF counting once); `numberOfLines` cuts at that many;
/// - a wider width never gives more lines (greedy filling is monotone), nor a line wider
///   than the text unwrapped; a line is within its width, or is one cluster too wide for it
///   (no line is wider than the widest line of the text broken at every cluster);
/// - the drawing path (`outline`) has the lines, width and height `measure` gives, and a
///   path of finite numbers.
enum TextCheck {
    static let measurer = TextMeasurer.shared
    static let fonts = [Font(family: "DejaVu Sans", size: 17), Font(family: "Inter", size: 13, weight: 700, italic: true)]
    /// Widths in increasing order (a negative one is what a conflicting layout can give).
    static let widths: [Double] = [-10, 0, 1, 7.5, 20, 50, 120, 320, 1_000, 1e9]
    /// The widths the drawing path is compared at, one an input (it shapes anew and writes
    /// every glyph's outline each call: most of the target's time).
    static let drawnAt: [Double?] = [nil, 50]

    static func run(_ bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        let paragraphs = text.utf8.reduce(1) { $1 == 10 ? $0 + 1 : $0 }
        // One font and one drawn width an input, picked by the sum of its bytes (a mutation
        // anywhere can flip them): the fonts run the same code on other glyph data, and
        // drawing is most of the target's time, so each input costs a quarter of all four.
        let pick = bytes.reduce(0) { $0 &+ Int($1) }
        for mode in [LineBreakMode.word, .char] {
            check(text, font: fonts[pick & 1], mode: mode, paragraphs: paragraphs, drawn: [drawnAt[(pick >> 1) & 1]])
        }
    }

    static func measure(_ text: String, _ font: Font, _ mode: LineBreakMode, lines: Int, width: Double?) -> TextMeasurement {
        do { return try measurer.measure(text, style: TextStyle(font: font, numberOfLines: lines, lineBreak: mode), width: width) } catch {
            violated("\(font.family) does not measure: \(error)")
        }
    }

    static func check(_ text: String, font: Font, mode: LineBreakMode, paragraphs: Int, drawn: [Double?]) {
        let what = "\(font.family) \(mode)"
        func sound(_ m: TextMeasurement, _ at: String) {
            guard m.width.isFinite, m.height.isFinite, m.lineHeight.isFinite, m.ascender.isFinite, m.lastBaseline.isFinite else {
                violated("\(what) \(at): a figure that is not finite: \(m)", text)
            }
            if m.width < 0 || m.height < 0 || m.lineHeight <= 0 { violated("\(what) \(at): a negative figure: \(m)", text) }
            if m.height != Double(m.lines) * m.lineHeight { violated("\(what) \(at): height \(m.height) for \(m.lines) lines", text) }
            if text.isEmpty ? m.lines != 0 : m.lines < 1 { violated("\(what) \(at): \(m.lines) lines", text) }
        }
        // Natural lines: one a paragraph; one line when it does not wrap.
        let natural = measure(text, font, mode, lines: 0, width: nil)
        sound(natural, "natural")
        if !text.isEmpty && natural.lines != paragraphs { violated("\(what): \(natural.lines) natural lines, \(paragraphs) paragraphs", text) }
        let single = measure(text, font, mode, lines: 1, width: 5)
        sound(single, "one line")
        if single.lines != min(1, natural.lines) { violated("\(what): one line is \(single.lines)", text) }
        // Broken at every cluster: the widest a line too narrow for its first cluster can be.
        let clusters = measure(text, font, mode == .word ? .char : mode, lines: 0, width: 0)
        var previous: (width: Double, lines: Int)? = nil
        for w in widths {
            let m = measure(text, font, mode, lines: 0, width: w)
            sound(m, "at \(w)")
            let tolerance = 1e-6 * max(1, abs(w)) + 1e-9 * max(1, natural.width)
            if m.width > natural.width + 1e-9 * max(1, natural.width) {
                violated("\(what) at \(w): a line \(m.width) wider than the text unwrapped (\(natural.width))", text)
            }
            if m.width > max(w + tolerance, clusters.width + 1e-9 * max(1, clusters.width)) {
                violated("\(what) at \(w): a line \(m.width) wider than the width and than any cluster (\(clusters.width))", text)
            }
            if m.lines < natural.lines { violated("\(what) at \(w): \(m.lines) lines, fewer than its \(natural.lines) paragraphs", text) }
            if let p = previous, m.lines > p.lines { violated("\(what): \(p.lines) lines at \(p.width), \(m.lines) at the wider \(w)", text) }
            previous = (w, m.lines)
            for n in [2, 3] where w == 20 || w == 120 {
                let cut = measure(text, font, mode, lines: n, width: w)
                sound(cut, "at \(w), \(n) lines")
                if cut.lines != min(n, m.lines) { violated("\(what) at \(w): numberOfLines \(n) gives \(cut.lines) of \(m.lines)", text) }
                if cut.width > m.width { violated("\(what) at \(w): \(n) lines are wider (\(cut.width)) than all (\(m.width))", text) }
            }
        }
        for w in drawn {
            let style = TextStyle(font: font, numberOfLines: 0, lineBreak: mode)
            let m = measure(text, font, mode, lines: 0, width: w)
            let o: TextOutline
            do { o = try measurer.outline(text, style: style, width: w) } catch { violated("\(font.family) does not draw: \(error)") }
            if o.lines != m.lines || o.width != m.width || o.height != m.height {
                violated("\(what) at \(w.map { "\($0)" } ?? "nil"): drawn \(o.lines) lines \(o.width)×\(o.height), measured \(m)", text)
            }
            // Commands (M L Q C Z), digits, signs, points and spaces: an n is a nan or an inf
            // (memchr: the path is long, and a Swift scan of it is traced compare by compare).
            var path = o.path
            if path.withUTF8({ $0.count > 0 && memchr($0.baseAddress!, Int32(UInt8(ascii: "n")), $0.count) != nil }) {
                violated("\(what): a path that is not numbers", text)
            }
        }
    }
}
