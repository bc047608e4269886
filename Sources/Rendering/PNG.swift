#if canImport(Glibc)
    import Glibc
#endif
import CRsvg
import CheckedNumbers

/// An SVG document rasterized by librsvg on cairo, on white, at `scale` pixels a point.
public enum PNG {
    public struct Failure: Error, CustomStringConvertible { public let description: String }

    public static func render(svg: [UInt8], width: Double, height: Double, scale: Double) throws(Failure) -> [UInt8] {
        guard let w = Int32(checked: (width * scale).rounded(.up)), let h = Int32(checked: (height * scale).rounded(.up)) else {
            throw Failure(description: "a picture of \(width) × \(height) points at \(scale)× is too large to draw")
        }
        var png: UnsafeMutablePointer<UInt8>?
        var count = 0
        var error: UnsafeMutablePointer<CChar>?
        let status = svg.withUnsafeBufferPointer { b in layoutd_svg_to_png(b.baseAddress, b.count, w, h, &png, &count, &error) }
        defer {
            free(png)
            free(error)
        }
        guard status == 0, let png else { throw Failure(description: error.map { String(cString: $0) } ?? "the picture could not be drawn") }
        return Array(UnsafeBufferPointer(start: png, count: count))
    }
}
