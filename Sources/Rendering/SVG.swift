import CheckedNumbers
import LayoutModel

/// Pictures as an SVG document: one, or many as a contact sheet (rows of up to six, each
/// with its name and size above it). Boxes are styled as the playground draws them: views
/// outlined, guides dashed, ambiguous views amber, a conflict's views red.
public enum SVG {
    static let gap = 24.0, caption = 22.0, perRow = 6

    /// Where each picture goes on the sheet, and the sheet's size.
    public static func arrange(_ pictures: [Picture]) -> (origins: [(x: Double, y: Double)], width: Double, height: Double) {
        let captioned = pictures.count > 1 || pictures.first?.name != nil
        let top = captioned ? caption : 0
        var origins: [(x: Double, y: Double)] = []
        var y = 0.0, width = 0.0
        for row in stride(from: 0, to: pictures.count, by: perRow) {
            let items = pictures[row..<min(row + perRow, pictures.count)]
            var x = 0.0
            for p in items {
                origins.append((x, y + top))
                x += p.width + gap
            }
            width = max(width, x - gap)
            y += top + (items.map(\.height).max() ?? 0) + gap
        }
        return (origins, max(1, width), max(1, y - gap))
    }

    public static func document(_ pictures: [Picture]) -> [UInt8] {
        let (origins, width, height) = arrange(pictures)
        var out = """
            <svg xmlns="http://www.w3.org/2000/svg" width="\(n(width))" height="\(n(height))" viewBox="0 0 \(n(width)) \(n(height))">
            <style>
            rect.root{fill:#ffffff;stroke:#d7dbe2}
            rect.view{fill:none;stroke:#3b82f6;stroke-width:1}
            rect.guide{fill:none;stroke:#10b981;stroke-width:1;stroke-dasharray:4 3}
            rect.ambiguous{stroke:#f59e0b;stroke-width:2;fill:rgba(245,158,11,0.12)}
            rect.conflict{stroke:#dc2626;stroke-width:2;fill:rgba(220,38,38,0.1)}
            rect.expected{fill:none;stroke:#9ca3af;stroke-width:1;stroke-dasharray:3 2}
            rect.moved{fill:none;stroke:#dc2626;stroke-width:2}
            path.text{fill:#1d2330}
            text{font-family:'DejaVu Sans',sans-serif}
            text.id{font-size:8px;fill:#6b7280}
            text.caption{font-size:13px;fill:#1d2330}
            </style>

            """
        for (p, o) in zip(pictures, origins) {
            out += "<g class=\"size\" transform=\"translate(\(n(o.x)) \(n(o.y)))\">\n"
            if pictures.count > 1 || p.name != nil {
                let size = "\(n(p.width))×\(n(p.height))"
                let name = p.name.map { $0 == "\(n(p.width))x\(n(p.height))" ? size : "\($0) \(size)" } ?? size
                out += "<text class=\"caption\" x=\"0\" y=\"-7\">\(escape(name))</text>\n"
            }
            out += "<rect class=\"root\" x=\"0\" y=\"0\" width=\"\(n(p.width))\" height=\"\(n(p.height))\"/>\n"
            for b in p.boxes {
                let kind = b.isGuide ? "guide" : "view"
                let mark: String
                switch b.mark {
                case .none: mark = ""
                case .ambiguous: mark = " ambiguous"
                case .conflict: mark = " conflict"
                case .expected: mark = " expected"
                case .moved: mark = " moved"
                }
                let f = b.frame
                out += "<rect class=\"\(kind)\(mark)\" data-view-id=\"\(escape(b.id))\" x=\"\(n(f.x))\" y=\"\(n(f.y))\" "
                out += "width=\"\(n(f.width))\" height=\"\(n(f.height))\"/>\n"
                if let t = b.text, !t.path.isEmpty {
                    out += "<path class=\"text\" data-view-id=\"\(escape(b.id))\" data-lines=\"\(t.lines)\" "
                    out += "transform=\"translate(\(n(t.x)) \(n(t.y)))\" d=\"\(t.path)\"/>\n"
                }
                if !b.isGuide && b.mark != .expected && f.width >= 24 && f.height >= 10 {
                    out += "<text class=\"id\" x=\"\(n(f.x + 2))\" y=\"\(n(f.y + 8))\">\(escape(b.id))</text>\n"
                }
            }
            out += "</g>\n"
        }
        out += "</svg>\n"
        return Array(out.utf8)
    }

    /// Up to three decimals, no exponent below 1e12 (what a frame holds; larger, or not
    /// finite, can come only from a document's extreme multipliers, and is written as Swift
    /// prints it, an exponent SVG reads).
    static func n(_ v: Double) -> String {
        guard v.isFinite else { return "0" }
        guard abs(v) < 1e12 else { return String(v) }
        let r = (v * 1000).rounded() / 1000
        if r == r.rounded(), let whole = Int64(checked: r) { return String(whole) }
        var s = String(format3: r)
        while s.hasSuffix("0") { s.removeLast() }
        return s
    }

    static func escape(_ s: String) -> String { XMLText.escaped(s) }
}

extension String {
    /// `v` with three decimals (no exponent: SVG numbers allow one, but keep them readable).
    init(format3 v: Double) {
        // Callers pass |v| < 1e12 (`n` above); past Int64 it saturates rather than traps.
        let scaled = Int64(saturating: (abs(v) * 1000).rounded())
        let whole = scaled / 1000, frac = scaled % 1000
        let digits = String(frac)
        self = (v < 0 ? "-" : "") + String(whole) + "." + String(repeating: "0", count: 3 - digits.count) + digits
    }
}
