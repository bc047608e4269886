import CheckedNumbers
import HTTPTransport
import Rendering

/// Pictures as an answer: SVG, or PNG at a scale within the server's pixel limit.
struct PictureAnswer: Sendable {
    /// `--max-picture-pixels`: width × height × scale² of one PNG.
    let maxPixels: Int

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
