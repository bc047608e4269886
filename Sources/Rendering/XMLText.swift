/// Text for XML (SVG pictures, JUnit reports): markup characters as entities, the characters
/// XML 1.0 cannot hold at all replaced, and in an attribute the blanks a parser would turn
/// into spaces written as references.
public enum XMLText {
    public static func escaped(_ s: String, attribute: Bool = true) -> String {
        var out = ""
        for c in s.unicodeScalars {
            switch c {
            // XML 1.0 has no way to write these, not even as references.
            case "\u{0}"..."\u{8}", "\u{B}", "\u{C}", "\u{E}"..."\u{1F}", "\u{FFFE}", "\u{FFFF}": out += "\u{FFFD}"
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\n" where attribute: out += "&#10;"
            case "\r" where attribute: out += "&#13;"
            case "\t" where attribute: out += "&#9;"
            default: out.unicodeScalars.append(c)
            }
        }
        return out
    }
}
