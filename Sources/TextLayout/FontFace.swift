import CHarfBuzz
import CheckedNumbers

/// One font file's face, shaped by HarfBuzz's own OpenType functions at its design units
/// (unhinted): advances scale exactly with the size, as in Core Text, since a layout in
/// points has no pixel size to hint for. HarfBuzz fonts are safe to shape with from several
/// threads once made; nothing here changes after `init`.
final class FontFace: @unchecked Sendable {
    private let font: OpaquePointer
    let unitsPerEm: Double
    /// In design units; `descender` is negative, as HarfBuzz gives it.
    let ascender: Double
    let descender: Double
    let lineGap: Double

    init?(_ file: FontCatalog.FileFace) {
        guard let blob = hb_blob_create_from_file(file.path) else { return nil }
        defer { hb_blob_destroy(blob) }
        guard hb_blob_get_length(blob) > 0, let face = hb_face_create(blob, UInt32(file.index)) else { return nil }
        defer { hb_face_destroy(face) }
        let upem = hb_face_get_upem(face)
        guard upem > 0, let font = hb_font_create(face) else { return nil }
        hb_font_set_scale(font, Int32(upem), Int32(upem))
        var extents = hb_font_extents_t()
        _ = hb_font_get_h_extents(font, &extents)
        self.font = font
        unitsPerEm = Double(upem)
        ascender = Double(extents.ascender)
        descender = Double(extents.descender)
        lineGap = Double(extents.line_gap)
    }

    deinit { hb_font_destroy(font) }

    /// Shapes a paragraph (no newline in it) and gives each byte of it the advance of the
    /// cluster starting there (0 inside a cluster), in design units: the line breaker sums
    /// ranges of it. Kerning and ligatures are applied, as shaping applies them to the whole.
    /// `starts[i]`: a cluster starts at byte i (a line may not end inside a ligature).
    func advances(_ utf8: UnsafeBufferPointer<UInt8>) -> (advances: [Double], starts: [Bool]) {
        var out = [Double](repeating: 0, count: utf8.count)
        var starts = [Bool](repeating: false, count: utf8.count)
        guard utf8.count > 0, let buffer = hb_buffer_create() else { return (out, starts) }
        defer { hb_buffer_destroy(buffer) }
        utf8.withMemoryRebound(to: CChar.self) { hb_buffer_add_utf8(buffer, $0.baseAddress, Int32(utf8.count), 0, Int32(utf8.count)) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else {
            return (out, starts)
        }
        for i in 0..<Int(count) {
            let cluster = Int(infos[i].cluster)
            if cluster < out.count {
                out[cluster] += Double(positions[i].x_advance)
                starts[cluster] = true
            }
        }
        return (out, starts)
    }

    /// A paragraph's glyphs as shaped for measuring (the same call): each glyph's id, the
    /// byte its cluster starts at, and its pen position plus offset, in design units.
    func glyphs(_ utf8: UnsafeBufferPointer<UInt8>) -> [(glyph: UInt32, cluster: Int, x: Double, y: Double)] {
        guard utf8.count > 0, let buffer = hb_buffer_create() else { return [] }
        defer { hb_buffer_destroy(buffer) }
        utf8.withMemoryRebound(to: CChar.self) { hb_buffer_add_utf8(buffer, $0.baseAddress, Int32(utf8.count), 0, Int32(utf8.count)) }
        hb_buffer_guess_segment_properties(buffer)
        hb_shape(font, buffer, nil, 0)
        var count: UInt32 = 0
        guard let infos = hb_buffer_get_glyph_infos(buffer, &count), let positions = hb_buffer_get_glyph_positions(buffer, &count) else { return [] }
        var out: [(glyph: UInt32, cluster: Int, x: Double, y: Double)] = []
        out.reserveCapacity(Int(count))
        var pen = 0.0
        for i in 0..<Int(count) {
            out.append((infos[i].codepoint, Int(infos[i].cluster), pen + Double(positions[i].x_offset), Double(positions[i].y_offset)))
            pen += Double(positions[i].x_advance)
        }
        return out
    }

    /// A glyph's outline, in design units (y up), drawn into `sink`.
    func drawGlyph(_ glyph: UInt32, into sink: OutlineSink) {
        withExtendedLifetime(sink) {
            hb_font_get_glyph_shape(font, glyph, OutlineSink.funcs, Unmanaged.passUnretained(sink).toOpaque())
        }
    }
}

/// Collects glyph outlines as SVG path data, in points: each glyph placed at `origin` (its pen
/// position on the baseline), scaled from design units, y turned down.
final class OutlineSink {
    var path: [UInt8] = []
    var origin = (x: 0.0, y: 0.0)
    var scale = 1.0

    private func point(_ command: UInt8, _ x: Float, _ y: Float) {
        path.append(command)
        pair(x, y)
    }

    private func pair(_ x: Float, _ y: Float) {
        append(origin.x + Double(x) * scale)
        path.append(32)
        append(origin.y - Double(y) * scale)
    }

    /// Two decimals: a hundredth of a point is far below a pixel at any scale drawn. The
    /// number's text is appended in place (an array of it a number was a fifth of the time;
    /// a digit-by-digit writer was faster optimized but four times slower in a debug build).
    private func append(_ v: Double) {
        let r = (v * 100).rounded() / 100
        if r == r.rounded() { path.append(contentsOf: String(Int(saturating: r)).utf8) } else { path.append(contentsOf: String(r).utf8) }
    }

    nonisolated(unsafe) static let funcs: OpaquePointer = {
        let f = hb_draw_funcs_create()!
        func sink(_ p: UnsafeMutableRawPointer?) -> OutlineSink { Unmanaged<OutlineSink>.fromOpaque(p!).takeUnretainedValue() }
        hb_draw_funcs_set_move_to_func(f, { _, data, _, x, y, _ in sink(data).point(77, x, y) }, nil, nil)
        hb_draw_funcs_set_line_to_func(f, { _, data, _, x, y, _ in sink(data).point(76, x, y) }, nil, nil)
        hb_draw_funcs_set_quadratic_to_func(
            f,
            { _, data, _, cx, cy, x, y, _ in
                let s = sink(data)
                s.point(81, cx, cy)
                s.path.append(32)
                s.pair(x, y)
            }, nil, nil)
        hb_draw_funcs_set_cubic_to_func(
            f,
            { _, data, _, c1x, c1y, c2x, c2y, x, y, _ in
                let s = sink(data)
                s.point(67, c1x, c1y)
                s.path.append(32)
                s.pair(c2x, c2y)
                s.path.append(32)
                s.pair(x, y)
            }, nil, nil)
        hb_draw_funcs_set_close_path_func(f, { _, data, _, _ in sink(data).path.append(90) }, nil, nil)
        hb_draw_funcs_make_immutable(f)
        return f
    }()
}
