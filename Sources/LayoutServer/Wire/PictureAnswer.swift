import CheckedNumbers
import HTTPTransport
import LayoutModel
import Rendering

/// Pictures as an answer: scenes drawn within the server's glyph limit, as SVG, or PNG at a
/// scale within its pixel limit.
struct PictureAnswer: Sendable {
    /// `--max-picture-pixels`: width × height × scale² of one PNG.
    let maxPixels: Int
    /// `--max-picture-glyphs`: the glyphs one answer's labels may draw, every size's together.
    let maxGlyphs: Int

    func response(_ scenes: [SessionScene], png: Bool, scale: Double) throws(Problem) -> Response {
        try response(pictures(scenes), png: png, scale: scale)
    }

    /// Each scene drawn, from one glyph budget: every size draws the labels again.
    func pictures(_ scenes: [SessionScene]) throws(Problem) -> [Picture] {
        var glyphsLeft = maxGlyphs
        var out: [Picture] = []
        for scene in scenes {
            let left = glyphsLeft
            let picture = try drawn { () throws(Picture.TooLarge) -> Picture in
                try Picture(
                    name: scene.name, sketch: scene.sketch, frames: scene.frames, diagnostics: scene.diagnostics,
                    viewsOf: { scene.conflictViews[$0] ?? [] }, maxGlyphs: left)
            }
            glyphsLeft -= picture.glyphs
            out.append(picture)
        }
        return out
    }

    /// A picture made, or 413 when its labels would take more glyphs than `--max-picture-glyphs`.
    private func drawn<T>(_ make: () throws(Picture.TooLarge) -> T) throws(Problem) -> T {
        do throws(Picture.TooLarge) { return try make() } catch {
            throw Problem(
                413, "the picture's labels are \(error.glyphs) glyphs or more; a picture draws at most \(error.limit) (--max-picture-glyphs)")
        }
    }

    func response(_ pictures: [Picture], png: Bool, scale: Double) throws(Problem) -> Response {
        let svg = SVG.document(pictures)
        guard png else { return Response(status: 200, contentType: "image/svg+xml", body: svg) }
        let sheet = SVG.arrange(pictures)
        let pixels = sheet.width * sheet.height * scale * scale
        // Cairo draws at most 32,767 pixels a side.
        guard sheet.width * scale <= 32_767, sheet.height * scale <= 32_767 else {
            throw Problem(413, "a PNG is at most 32767 pixels a side (cairo's limit); this one is \(sheet.width * scale) by \(sheet.height * scale)")
        }
        guard pixels <= Double(maxPixels) else {
            let w = Int(saturating: sheet.width * scale), h = Int(saturating: sheet.height * scale)
            throw Problem(413, "the picture would be \(w)×\(h) pixels; at most \(maxPixels) (--max-picture-pixels)")
        }
        do throws(PNG.Failure) {
            return Response(
                status: 200, contentType: "image/png", body: try PNG.render(svg: svg, width: sheet.width, height: sheet.height, scale: scale))
        } catch {
            throw Problem(500, "the picture could not be rasterized: \(error.description)")
        }
    }
}

/// What a request asks of a picture: its scale and format.
enum PictureQuery {
    /// `?scale=`: PNG pixels a point, 0.1 to 8 (1 when absent); checked whatever the answer's format.
    static func scale(_ req: Request) throws(Problem) -> Double {
        guard let s = req.query("scale") else { return 1 }
        guard let v = Double(s), v >= 0.1, v <= 8 else { throw Problem(400, "scale is a number from 0.1 to 8") }
        return v
    }

    /// SVG unless the request's `Accept` names `image/png` before SVG.
    static func wantsPNG(_ req: Request) -> Bool { firstAccepted(req, of: ["image/png", "image/svg+xml"]) == "image/png" }

    /// nil for JSON (the default); else whether PNG (true) or SVG was named first.
    static func wantedPicture(_ req: Request) -> Bool? {
        switch firstAccepted(req, of: ["image/png", "image/svg+xml", "application/json"]) {
        case "image/png": return true
        case "image/svg+xml": return false
        default: return nil
        }
    }
}
