import CheckedNumbers
public import Synchronization
import WorkBudget

/// Measures texts for layout: shaped once per (text, font) and wrapped per width, both
/// kept (a drag that narrows a label re-wraps it without shaping it again). Safe from any
/// thread: the caches are behind locks, and faces are shared read-only.
public final class TextMeasurer: Sendable {
    public enum Failure: Error, Equatable {
        /// The system has no such family (`GET /v1/fonts` lists those it has).
        case unknownFamily(String)
        /// The family's file could not be read.
        case unreadableFont(String)
        /// Drawing it would take more glyphs than the caller allows.
        case tooManyGlyphs(Int)
    }

    public static let shared = TextMeasurer(catalog: .shared)

    public let catalog: FontCatalog
    private let faces = Mutex<[FontCatalog.FileFace: FontFace]>([:])
    private let shaped = Mutex(Kept<ShapeKey, ShapedText>())
    private let measured = Mutex(Kept<MeasureKey, TextMeasurement>())
    /// Measurements made (cache misses) and the time they took: what a metric reports.
    public let measurements = Atomic<Int>(0)
    public let nanoseconds = Atomic<Int>(0)
    /// Past this many entries, or this many bytes (estimated) in a cache, it starts again.
    private let capacity = 100_000
    let maxCachedBytes: Int

    private struct ShapeKey: Hashable { var text: Bytes; var font: Font.Key }
    private struct MeasureKey: Hashable { var text: Bytes; var style: TextStyle; var width: Double? }

    /// A text compared and hashed by its UTF-8 bytes. A `String` key is compared by canonical
    /// equivalence: `é` and `e` with a combining acute are one key, and the second text got
    /// the first's shaping (other clusters, other glyphs where the font lacks one form). Bytes
    /// are also cheaper: hashing a String normalizes it first.
    private struct Bytes: Hashable {
        var text: String
        static func == (a: Bytes, b: Bytes) -> Bool { a.text.utf8.elementsEqual(b.text.utf8) }
        func hash(into hasher: inout Hasher) {
            var text = text
            text.withUTF8 {
                hasher.combine($0.count)
                hasher.combine(bytes: UnsafeRawBufferPointer($0))
            }
        }
    }

    /// `maxCachedBytes`: what each cache may hold. A count alone let long texts hold gigabytes
    /// (a megabyte's label shapes to 12 MB, kept until 100,000 others came).
    public init(catalog: FontCatalog, maxCachedBytes: Int = 64 << 20) { (self.catalog, self.maxCachedBytes) = (catalog, maxCachedBytes) }

    /// The bytes the caches hold (estimated): shaped texts, and measurements.
    var cachedBytes: (shaped: Int, measured: Int) { (shaped.withLock { $0.bytes }, measured.withLock { $0.bytes }) }

    /// Checks that a font can be measured with (the family exists and its file reads).
    public func check(_ font: Font) throws(Failure) { _ = try face(font) }

    /// The text set in `style`, wrapped at `width` when it wraps (nil: on its natural lines).
    public func measure(_ text: String, style: TextStyle, width: Double?) throws(Failure) -> TextMeasurement {
        let wrapAt = style.wraps ? width : nil
        let key = MeasureKey(text: Bytes(text: text), style: style, width: wrapAt)
        if let m = measured.withLock({ $0.entries[key] }) { return m }
        let start = ContinuousClock.now
        let face = try face(style.font)
        let shapeKey = ShapeKey(text: Bytes(text: text), font: style.font.key)
        let shapedText: ShapedText
        if let s = shaped.withLock({ $0.entries[shapeKey] }) {
            shapedText = s
        } else {
            shapedText = ShapedText(text, face: face)
            // A byte's advance, its three flags and the key's copy of it.
            let bytes = 12 * text.utf8.count + 64 * shapedText.paragraphs.count + 128
            shaped.withLock { $0.keep(shapedText, at: shapeKey, bytes: bytes, entries: capacity, budget: maxCachedBytes) }
        }
        let scale = style.font.size / face.unitsPerEm
        let widths = LineBreaker.lines(
            shapedText.tracked(by: style.font.tracking / scale), maxWidth: wrapAt.map { $0 / scale }, mode: style.lineBreak,
            limit: style.numberOfLines)
        let lineHeight = style.lineHeight ?? (face.ascender - face.descender + face.lineGap) * scale
        let lines = text.isEmpty ? 0 : widths.count
        // Tracking far below zero sums a line's advances under zero: no text is narrower than nothing.
        let m = TextMeasurement(
            width: max(0, widths.max() ?? 0) * scale, height: Double(lines) * lineHeight, lines: lines,
            ascender: face.ascender * scale, lineHeight: lineHeight)
        // Cut short by the request's work budget: not the text's measurement, never kept.
        if WorkBudget.exhausted() { return m }
        measured.withLock { $0.keep(m, at: key, bytes: text.utf8.count + 128, entries: capacity, budget: maxCachedBytes) }
        let elapsed = start.duration(to: .now).components
        measurements.add(1, ordering: .relaxed)
        nanoseconds.add(Int(elapsed.seconds) * 1_000_000_000 + Int(elapsed.attoseconds / 1_000_000_000), ordering: .relaxed)
        return m
    }

    /// The text drawn as it is measured: the same shaping and the same lines at `width`, each
    /// glyph's outline as SVG path data in points, from the text's top left (y down). What a
    /// picture of a layout draws, so it shows exactly the wrapping the layout used.
    public func outline(_ text: String, style: TextStyle, width: Double?, maxGlyphs: Int = .max) throws(Failure) -> TextOutline {
        let face = try face(style.font)
        let scale = style.font.size / face.unitsPerEm
        let untracked = ShapedText(text, face: face), shapedText = untracked.tracked(by: style.font.tracking / scale)
        let lineHeight = style.lineHeight ?? (face.ascender - face.descender + face.lineGap) * scale
        let sink = OutlineSink()
        sink.scale = scale
        var utf8 = Array(text.utf8)
        if utf8.contains(13) { utf8 = Array(text.replacingCRLF().utf8) }
        // Each paragraph's glyphs by the byte their cluster starts at (shaping gives them in
        // visual order, right to left for Arabic): a line's are then one range, found by a
        // binary search. Scanning them all for each line was lines × glyphs: 32,000 one-word
        // lines took seconds.
        var glyphCount = 0
        let paragraphs = utf8.split(separator: 10, omittingEmptySubsequences: false).map { bytes in
            let glyphs = Array(bytes).withUnsafeBufferPointer { face.glyphs($0) }.sorted { $0.cluster < $1.cluster }
            glyphCount += glyphs.count
            return glyphs
        }
        if glyphCount > maxGlyphs { throw .tooManyGlyphs(glyphCount) }
        var lines = 0, widest = 0.0
        LineBreaker.walk(shapedText, maxWidth: (style.wraps ? width : nil).map { $0 / scale }, mode: style.lineBreak, limit: style.numberOfLines) {
            k, start, end, w in
            let p = shapedText.paragraphs[k], shaped = untracked.paragraphs[k]
            let baseline = Double(lines) * lineHeight + face.ascender * scale
            let glyphs = paragraphs[k]
            var lo = 0, hi = glyphs.count
            while lo < hi {
                let mid = (lo + hi) / 2
                if glyphs[mid].cluster < start { lo = mid + 1 } else { hi = mid }
            }
            while lo < glyphs.count && glyphs[lo].cluster < end {
                let g = glyphs[lo]
                // Tracking moves each glyph by what the clusters before its own added.
                let added = p.prefix[g.cluster] - shaped.prefix[g.cluster]
                sink.origin = ((g.x + added - p.prefix[start]) * scale, baseline - g.y * scale)
                face.drawGlyph(g.glyph, into: sink)
                lo += 1
            }
            lines += 1
            widest = max(widest, w * scale)
        }
        // An empty text has no line, as it measures (its one empty paragraph is not drawn).
        if text.isEmpty { lines = 0 }
        return TextOutline(
            path: String(decoding: sink.path, as: UTF8.self), width: widest, height: Double(lines) * lineHeight, lines: lines, glyphs: glyphCount)
    }

    private func face(_ font: Font) throws(Failure) -> FontFace {
        guard let file = catalog.file(for: font) else { throw .unknownFamily(font.family) }
        if let f = faces.withLock({ $0[file] }) { return f }
        guard let f = FontFace(file) else { throw .unreadableFont(file.path) }
        return faces.withLock { cache in
            if let existing = cache[file] { return existing }
            cache[file] = f
            return f
        }
    }
}

/// A cache that starts again once it holds `entries` entries or `budget` bytes (as its
/// caller estimates them).
private struct Kept<Key: Hashable, Value> {
    var entries: [Key: Value] = [:]
    var bytes = 0

    mutating func keep(_ value: Value, at key: Key, bytes cost: Int, entries most: Int, budget: Int) {
        if entries.count >= most || bytes + cost > budget {
            entries.removeAll(keepingCapacity: true)
            bytes = 0
        }
        // One text past the budget alone is not kept.
        guard cost <= budget else { return }
        if entries.updateValue(value, forKey: key) == nil { bytes += cost }
    }
}
