import Rendering

/// Pictures written as one file: a PNG (librsvg on cairo, a pixel a point), or the SVG where
/// the sheet is past what a PNG holds (cairo draws at most 32,767 pixels a side).
enum PictureFile {
    static let maxSide = 32_767.0, maxPixels = 64_000_000.0

    /// Writes `path.png` (or `path.svg`).
    static func write(_ pictures: [Picture], to path: String) throws(CheckFailure) {
        let svg = SVG.document(pictures)
        let sheet = SVG.arrange(pictures)
        guard sheet.width <= maxSide, sheet.height <= maxSide, sheet.width * sheet.height <= maxPixels else {
            try Files.write(svg, to: path + ".svg")
            return
        }
        let png: [UInt8]
        do throws(PNG.Failure) { png = try PNG.render(svg: svg, width: sheet.width, height: sheet.height, scale: 1) } catch {
            throw CheckFailure("\(path).png: \(error.description)")
        }
        try Files.write(png, to: path + ".png")
    }
}
