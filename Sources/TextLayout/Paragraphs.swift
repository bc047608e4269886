import WorkBudget

/// A text shaped once for a font: per paragraph (the text split at `\n`), each byte's
/// advance summed from the start (so any range's width is a subtraction), where lines may
/// break, and where clusters start. Wrapping at any width then needs no shaping.
struct ShapedText: Sendable {
    struct Paragraph: Sendable {
        /// `prefix[i]`: the advance of bytes 0..<i, in design units.
        var prefix: [Double]
        /// `breakAfter[i]`: a line may end after byte i (UAX #14, ICU).
        var breakAfter: [Bool]
        /// A grapheme cluster that the font also shapes as one starts at byte i: where
        /// `lineBreak: "char"` and a word too long for its line may break.
        var clusterStart: [Bool]
        /// Spaces and tabs: not counted at a line's end.
        var blank: [Bool]
        var count: Int { prefix.count - 1 }
    }

    var paragraphs: [Paragraph]

    init(_ text: String, face: FontFace) {
        var utf8 = Array(text.utf8)
        // A lone \r\n counts as one newline.
        if utf8.contains(13) { utf8 = Array(text.replacingCRLF().utf8) }
        paragraphs = utf8.split(separator: 10, omittingEmptySubsequences: false).map { slice in
            let bytes = Array(slice)
            return bytes.withUnsafeBufferPointer { p in
                let (advances, shaped) = face.advances(p)
                let found = Boundaries.find(p)
                var prefix = [Double](repeating: 0, count: bytes.count + 1)
                var clusterStart = [Bool](repeating: false, count: bytes.count)
                var breakAfter = [Bool](repeating: false, count: bytes.count)
                for i in 0..<bytes.count {
                    prefix[i + 1] = prefix[i] + advances[i]
                    // A line ends only where a grapheme cluster and a shaped cluster (a
                    // ligature) both start: never inside what reads, or is drawn, as one.
                    clusterStart[i] = i == 0 || (found.cluster[i] && shaped[i])
                }
                for i in 0..<bytes.count {
                    breakAfter[i] = found.lineBreak[i + 1] && (i + 1 == bytes.count || clusterStart[i + 1])
                }
                return Paragraph(
                    prefix: prefix, breakAfter: breakAfter, clusterStart: clusterStart,
                    blank: bytes.map { $0 == 32 || $0 == 9 })
            }
        }
    }
}

extension ShapedText {
    /// With `units` (design units) after each cluster: what tracking adds, a line's trailing
    /// cluster included, as Core Text tracks. Shaped texts are kept per family and weight,
    /// not per size, so tracking (points: units that vary with the size) is added here.
    func tracked(by units: Double) -> ShapedText {
        guard units != 0 else { return self }
        var out = self
        for k in out.paragraphs.indices {
            var added = 0.0
            let p = paragraphs[k]
            for i in 0..<p.count {
                if p.clusterStart[i] { added += units }
                out.paragraphs[k].prefix[i + 1] = p.prefix[i + 1] + added
            }
        }
        return out
    }
}

extension String {
    func replacingCRLF() -> String {
        var out = ""
        out.reserveCapacity(utf8.count)
        for ch in self { out.append(ch == "\r\n" ? "\n" : ch) }
        return out
    }
}

/// Greedy line filling, as a label does it: as many break opportunities as fit on a line;
/// a word longer than a line breaks between clusters (always at least one per line).
enum LineBreaker {
    /// The widths of the lines (design units), at most `limit` of them (0: all).
    static func lines(_ text: ShapedText, maxWidth: Double?, mode: LineBreakMode, limit: Int) -> [Double] {
        var widths: [Double] = []
        walk(text, maxWidth: maxWidth, mode: mode, limit: limit) { _, _, _, w in widths.append(w) }
        return widths
    }

    /// Each line in turn, at most `limit` (0: all): its paragraph, its bytes (trailing blanks
    /// included) and its width without them.
    @inline(__always)
    static func walk(
        _ text: ShapedText, maxWidth: Double?, mode: LineBreakMode, limit: Int,
        _ body: (_ paragraph: Int, _ start: Int, _ end: Int, _ width: Double) -> Void
    ) {
        var n = 0
        for (k, p) in text.paragraphs.enumerated() {
            var start = 0
            if p.count == 0 {
                if limit > 0 && n >= limit { return }
                body(k, 0, 0, 0)
                n += 1
            }
            while start < p.count {
                if limit > 0 && n >= limit { return }
                if WorkBudget.exhausted() { return }
                var end = lineEnd(p, from: start, maxWidth: maxWidth, mode: mode)
                body(k, start, end, width(p, start, end))
                n += 1
                // Blanks after a break end the line they follow (they never start one); not a
                // blank a combining mark is on (` \u{301}`): the next line starts with that
                // cluster, which a start inside it would leave undrawn and unmeasured.
                while end < p.count && p.blank[end] && (end + 1 == p.count || p.clusterStart[end + 1]) { end += 1 }
                start = end
            }
        }
    }

    /// A line's width without its trailing blanks.
    static func width(_ p: ShapedText.Paragraph, _ start: Int, _ end: Int) -> Double {
        var e = end
        while e > start && p.blank[e - 1] { e -= 1 }
        return p.prefix[e] - p.prefix[start]
    }

    private static func lineEnd(_ p: ShapedText.Paragraph, from start: Int, maxWidth: Double?, mode: LineBreakMode) -> Int {
        guard let maxWidth else { return p.count }
        // A tolerance for sums of advances compared with a width the engine computed.
        let limit = maxWidth + 1e-6 * max(1, maxWidth)
        var fit: Int? = nil
        var i = start
        while i < p.count {
            let candidate = i + 1
            let opportunity =
                mode == .word
                ? p.breakAfter[i] || candidate == p.count
                : candidate == p.count || p.clusterStart[candidate]
            if opportunity {
                if width(p, start, candidate) <= limit { fit = candidate } else { break }
            }
            i += 1
        }
        if let fit { return fit }
        // Nothing fits: as many clusters as fit, at least one.
        var end = start + 1
        while end < p.count && !p.clusterStart[end] { end += 1 }
        var next = end
        while next < p.count {
            var after = next + 1
            while after < p.count && !p.clusterStart[after] { after += 1 }
            if width(p, start, after) > limit { break }
            next = after
            end = after
        }
        return end
    }
}
