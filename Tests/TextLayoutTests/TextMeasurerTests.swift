import Synchronization
import XCTest
@testable import TextLayout

final class TextMeasurerTests: XCTestCase {
    let measurer = TextMeasurer.shared
    let sans = Font(family: "DejaVu Sans", size: 17)

    func style(_ lines: Int = 0, _ mode: LineBreakMode = .word, font: Font? = nil) -> TextStyle {
        TextStyle(font: font ?? sans, numberOfLines: lines, lineBreak: mode)
    }

    func testTheCatalogListsTheSystemsFamilies() throws {
        let dejavu = try XCTUnwrap(measurer.catalog.families.first { $0.name == "DejaVu Sans" })
        XCTAssertTrue(dejavu.weights.contains(400))
        XCTAssertTrue(dejavu.weights.contains(700))
        XCTAssertTrue(dejavu.italic)
        XCTAssertEqual(measurer.catalog.family(named: "dejavu sans"), "DejaVu Sans")
        XCTAssertThrowsError(try measurer.check(Font(family: "No Such Family", size: 12)))
    }

    func testOneLineWidthGrowsWithTheTextAndScalesWithTheSize() throws {
        let a = try measurer.measure("Hello", style: style(1), width: nil)
        let b = try measurer.measure("Hello, world", style: style(1), width: nil)
        XCTAssertGreaterThan(a.width, 30)
        XCTAssertGreaterThan(b.width, a.width)
        XCTAssertEqual(a.lines, 1)
        var big = sans
        big.size = 34
        let c = try measurer.measure("Hello", style: style(1, font: big), width: nil)
        XCTAssertEqual(c.width, 2 * a.width, accuracy: 1e-9, "unhinted advances scale exactly")
        XCTAssertEqual(c.height, 2 * a.height, accuracy: 1e-9)
        // The font's own line height: DejaVu Sans' ascender − descender is about 1.164 em.
        XCTAssertEqual(a.height / 17, 1.164, accuracy: 0.01)
    }

    /// A Hangul syllable and its two jamo are canonically equivalent (equal as Strings) but
    /// not the same text to a font: each is measured as itself, not as the other one cached.
    func testCanonicallyEquivalentTextsAreMeasuredEachAsItself() throws {
        let syllable = "\u{AC00}\u{AC00}", jamo = "\u{1100}\u{1161}\u{1100}\u{1161}"
        XCTAssertEqual(syllable, jamo)
        let alone = try TextMeasurer(catalog: .shared).measure(jamo, style: style(1), width: nil)
        let shared = TextMeasurer(catalog: .shared)
        let first = try shared.measure(syllable, style: style(1), width: nil)
        XCTAssertNotEqual(first.width, alone.width, "the two forms should measure apart in DejaVu Sans")
        XCTAssertEqual(try shared.measure(jamo, style: style(1), width: nil), alone)
        XCTAssertEqual(try shared.measure(jamo, style: style(0, .char), width: 1).lines, 2, "one cluster a syllable")
    }

    func testBoldIsWiderAndTrailingSpacesDoNotCount() throws {
        var bold = sans
        bold.weight = 700
        XCTAssertGreaterThan(
            try measurer.measure("Hello", style: style(1, font: bold), width: nil).width,
            try measurer.measure("Hello", style: style(1), width: nil).width)
        XCTAssertEqual(
            try measurer.measure("Hello   ", style: style(1), width: nil).width,
            try measurer.measure("Hello", style: style(1), width: nil).width)
    }

    func testWrapsAtWordsWithinTheWidth() throws {
        let text = "Ken Ferry liked your post about the layout engine"
        let one = try measurer.measure(text, style: style(0), width: nil)
        XCTAssertEqual(one.lines, 1)
        let narrow = try measurer.measure(text, style: style(0), width: one.width / 2.5)
        XCTAssertGreaterThanOrEqual(narrow.lines, 3)
        XCTAssertLessThanOrEqual(narrow.width, one.width / 2.5)
        XCTAssertEqual(narrow.height, Double(narrow.lines) * one.lineHeight, accuracy: 1e-9)
        // Each line ends at a word: the widest is at least the widest word's width.
        let widestWord = try text.split(separator: " ").map { try measurer.measure(String($0), style: style(1), width: nil).width }.max()!
        XCTAssertGreaterThanOrEqual(narrow.width, widestWord - 1e-9)
        // At the one-line width exactly, one line.
        XCTAssertEqual(try measurer.measure(text, style: style(0), width: one.width).lines, 1)
    }

    func testNumberOfLinesCutsAndALongWordBreaksBetweenCharacters() throws {
        let text = "one two three four five six seven eight nine ten"
        let all = try measurer.measure(text, style: style(0), width: 80)
        let two = try measurer.measure(text, style: style(2), width: 80)
        XCTAssertGreaterThan(all.lines, 2)
        XCTAssertEqual(two.lines, 2)
        XCTAssertEqual(two.height, 2 * all.lineHeight, accuracy: 1e-9)
        let word = String(repeating: "W", count: 40)
        let broken = try measurer.measure(word, style: style(0), width: 100)
        XCTAssertGreaterThan(broken.lines, 4)
        XCTAssertLessThanOrEqual(broken.width, 100)
        let chars = try measurer.measure("ab cd", style: style(0, .char), width: 1)
        XCTAssertEqual(chars.lines, 4, "one cluster a line (the blank ends a line and does not count)")
    }

    func testNewlinesStartLines() throws {
        let m = try measurer.measure("first\nsecond line\n\nfourth", style: style(0), width: nil)
        XCTAssertEqual(m.lines, 4)
        XCTAssertEqual(m.width, try measurer.measure("second line", style: style(1), width: nil).width, accuracy: 1e-9)
        XCTAssertEqual(try measurer.measure("a\r\nb", style: style(0), width: nil).lines, 2)
        let one = try measurer.measure("first\nsecond", style: style(1), width: nil)
        XCTAssertEqual(one.lines, 1)
        XCTAssertEqual(try measurer.measure("", style: style(0), width: 10).height, 0)
    }

    /// The outline is SVG path data: commands, then numbers in points to two decimals (no
    /// exponent, no trailing zero, a minus only before a number that is not zero), which
    /// place the glyphs inside the text's box.
    func testAnOutlineIsPathDataOfNumbersToTwoDecimals() throws {
        let o = try measurer.outline("Hig, 1/3 -0.05 Ω", style: style(0), width: 40)
        let tokens = o.path.split(whereSeparator: { "MLQCZ ".contains($0) })
        XCTAssertGreaterThan(tokens.count, 100)
        let number = try Regex(#"^-?(0|[1-9][0-9]*)(\.[0-9]?[1-9])?$"#)
        for t in tokens {
            XCTAssertNotNil(try number.wholeMatch(in: t), "\(t)")
            XCTAssertNotEqual(t, "-0")
        }
        let values = tokens.compactMap { Double($0) }
        XCTAssertEqual(values.count, tokens.count)
        XCTAssertLessThanOrEqual(values.max()!, max(o.width, o.height) + 20)
        XCTAssertGreaterThanOrEqual(values.min()!, -20)
        XCTAssertTrue(values.contains { $0 != $0.rounded() }, "hundredths are kept")
    }

    /// Tracking adds its points after every cluster (an emoji sequence or a letter with its
    /// mark is one), the last included, wraps at the widths it makes, and draws where it measures.
    func testTrackingAddsAfterEachCluster() throws {
        var tight = sans
        tight.tracking = -0.5
        for text in ["Hello, world", "e\u{301}te\u{301} 🇫🇷👩‍👩‍👧"] {
            let plain = try measurer.measure(text, style: style(1), width: nil)
            let tracked = try measurer.measure(text, style: style(1, font: tight), width: nil)
            XCTAssertEqual(tracked.width, plain.width - 0.5 * Double(text.count), accuracy: 1e-9, text)
            XCTAssertEqual(tracked.height, plain.height)
        }
        let words = "one two three four five six seven eight nine ten"
        var loose = sans
        loose.tracking = 3
        let narrow = try measurer.measure(words, style: style(0), width: 150)
        let wide = try measurer.measure(words, style: style(0, font: loose), width: 150)
        XCTAssertGreaterThan(wide.lines, narrow.lines)
        XCTAssertLessThanOrEqual(wide.width, 150)
        let drawn = try measurer.outline(words, style: style(0, font: loose), width: 150)
        XCTAssertEqual(drawn.lines, wide.lines)
        XCTAssertEqual(drawn.width, wide.width, accuracy: 1e-9)
        // The glyphs move with it: the last one is further right than untracked.
        let lastX = { (o: TextOutline) in o.path.split(separator: "M").last!.split(separator: " ").first.flatMap { Double($0) } ?? 0 }
        let one = try measurer.outline("abcdef", style: style(1), width: nil)
        let spread = try measurer.outline("abcdef", style: style(1, font: loose), width: nil)
        XCTAssertEqual(lastX(spread) - lastX(one), 15, accuracy: 0.02)
        var crushed = sans
        crushed.tracking = -1_000
        XCTAssertEqual(try measurer.measure("Hello", style: style(1, font: crushed), width: nil).width, 0)
        XCTAssertEqual(try measurer.outline("Hello", style: style(1, font: crushed), width: nil).width, 0)
    }

    /// The system font's stand-in tracks as San Francisco does by point size; other families,
    /// bold weights and sizes past the text sizes keep their own spacing.
    func testTheSystemFontTracksBySize() {
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 17, weight: 400), -0.40)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 12, weight: 400), 0)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 14.5, weight: 500), -0.215, accuracy: 1e-12)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 20, weight: 300), -0.40)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 17, weight: 700), 0)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 28, weight: 400), 0)
        XCTAssertEqual(SystemFont.tracking(family: "Inter", size: 9.5, weight: 400), 0)
        XCTAssertEqual(SystemFont.tracking(family: "DejaVu Sans", size: 17, weight: 400), 0)
    }

    func testAnEmptyTextIsDrawnAsItMeasures() throws {
        for width in [nil, 0, 50] as [Double?] {
            let m = try measurer.measure("", style: style(0), width: width)
            let o = try measurer.outline("", style: style(0), width: width)
            XCTAssertEqual(o.lines, m.lines)
            XCTAssertEqual(o.lines, 0)
            XCTAssertEqual(o.height, m.height)
            XCTAssertEqual(o.path, "")
        }
        // An empty paragraph after a newline is a line in both.
        XCTAssertEqual(try measurer.outline("\n", style: style(0), width: nil).lines, try measurer.measure("\n", style: style(0), width: nil).lines)
    }

    /// Every cluster is on a line, at every width, but the blanks a line ends with: a blank a
    /// combining mark is on starts the next line whole (a line that started after the blank,
    /// inside its cluster, drew neither it nor its mark).
    func testEveryClusterButTrailingBlanksIsOnALine() throws {
        let face = try XCTUnwrap(FontFace(try XCTUnwrap(measurer.catalog.file(for: sans))))
        for text in ["ab \u{301}cd", "x \u{301}\u{302} \u{301}", "ab  \u{20DD}c", "a \u{301}", "\u{301} \u{301}"] {
            let shaped = ShapedText(text, face: face)
            let p = shaped.paragraphs[0]
            for width in stride(from: 0.0, through: p.prefix[p.count] + 1, by: 37) {
                for mode in [LineBreakMode.word, .char] {
                    var covered = [Bool](repeating: false, count: p.count)
                    LineBreaker.walk(shaped, maxWidth: width, mode: mode, limit: 0) { _, start, end, _ in
                        XCTAssertTrue(start == 0 || p.clusterStart[start], "\(text) starts a line inside a cluster")
                        for i in start..<end { covered[i] = true }
                    }
                    for i in 0..<p.count where !covered[i] {
                        XCTAssertTrue(p.blank[i] && (i + 1 == p.count || p.clusterStart[i + 1]), "\(text): byte \(i) on no line at \(width)")
                    }
                }
            }
        }
        // Drawn, the mark comes with its blank: the narrow lines' path holds the glyphs the
        // unwrapped line does.
        let st = style(0, .char)
        let ab = try measurer.measure("ab", style: st, width: nil).width
        let narrow = try measurer.outline("ab \u{301}cd", style: st, width: ab + 0.5)
        XCTAssertGreaterThan(narrow.lines, 1)
        let wide = try measurer.outline("ab \u{301}cd", style: st, width: nil)
        XCTAssertEqual(narrow.path.filter { $0 == "M" }.count, wide.path.filter { $0 == "M" }.count, "each contour drawn")
    }

    func testArabicAndCJKMeasureAndWrap() throws {
        let arabic = "مرحبا بالعالم هذا نص طويل للاختبار"
        let a = try measurer.measure(arabic, style: style(0), width: nil)
        XCTAssertGreaterThan(a.width, 50)
        XCTAssertGreaterThan(try measurer.measure(arabic, style: style(0), width: a.width / 2).lines, 1)
        let cjk = "日本語のテキストは単語の間に空白がありません"
        let c = try measurer.measure(cjk, style: style(0), width: nil)
        XCTAssertGreaterThan(c.width, 0)
        // CJK breaks between ideographs (UAX #14), with no spaces in the text.
        XCTAssertGreaterThan(try measurer.measure(cjk, style: style(0), width: c.width / 3).lines, 2)
    }

    /// The caches are bounded in bytes, not only in entries: long texts, each shaped to twelve
    /// bytes a byte, once stayed until 100,000 others came.
    func testTheCachesHoldAtMostTheirBytes() throws {
        let small = TextMeasurer(catalog: .shared, maxCachedBytes: 100_000)
        for k in 0..<40 {
            let text = String(repeating: "word\(k) ", count: 500)
            _ = try small.measure(text, style: style(0), width: 200)
            XCTAssertLessThanOrEqual(small.cachedBytes.shaped, 100_000)
            XCTAssertLessThanOrEqual(small.cachedBytes.measured, 100_000)
            XCTAssertGreaterThan(small.cachedBytes.shaped, 12 * text.utf8.count - 1, "the last one is kept")
        }
        // A text past the budget alone is measured, the same each time, and not kept.
        let huge = String(repeating: "x ", count: 10_000)
        let m = try small.measure(huge, style: style(0), width: 100)
        XCTAssertGreaterThan(m.lines, 100)
        XCTAssertEqual(small.cachedBytes.shaped, 0)
        XCTAssertEqual(try small.measure(huge, style: style(0), width: 100), m)
        XCTAssertEqual(m, try measurer.measure(huge, style: style(0), width: 100))
    }

    func testMeasurementsAreCachedAndCounted() throws {
        let text = "cached \(UUID().uuidString)"
        let before = measurer.measurements.load(ordering: .relaxed)
        _ = try measurer.measure(text, style: style(0), width: 50)
        _ = try measurer.measure(text, style: style(0), width: 50)
        XCTAssertEqual(measurer.measurements.load(ordering: .relaxed), before + 1)
    }
}
