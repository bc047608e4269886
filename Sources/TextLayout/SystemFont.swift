import CheckedNumbers

/// San Francisco, which UIKit's labels are set in, stood in for by Inter: close in its glyphs
/// at text sizes, but SF tracks by point size (its font tracks text sizes apart by a table;
/// Apple's typography guidelines publish it) and Inter does not.
public enum SystemFont {
    /// The family the table was fitted for.
    public static let standIn = "Inter"

    /// Points a grapheme cluster, by whole point size from 10 to 20 (between them, linearly;
    /// outside, none: below Apple's minimum text size and past the Text optical size, where
    /// SF's glyphs, not its tracking, set it apart from Inter). Fitted on the single-line
    /// labels in the system font of the Interface Builder corpus's development half (1,430
    /// labels, 184 repositories): Xcode's stored widths against Inter's, agreeing within half
    /// a point 212 → 478 (the validation half, not looked at: 89 → 370 of 1,283). It follows
    /// the published table (0 at 12 points, −0.43 at 17) within 0.05. Weights past medium
    /// keep none: Inter's bold is narrower than SF's by about what SF's tracking takes away
    /// (development: 9 labels fewer with it).
    static let table: [Double] = [0.12, 0.05, 0, -0.03, -0.17, -0.26, -0.34, -0.40, -0.40, -0.40, -0.40]

    /// The tracking the system font's stand-in takes in `family` at `size` and `weight`: none
    /// in another family (DejaVu Sans, where Inter is not installed).
    public static func tracking(family: String, size: Double, weight: Int) -> Double {
        guard family == standIn, weight <= 500, size >= 10, size <= 20 else { return 0 }
        let below = size.rounded(.down)
        guard let k = Int(checked: below - 10) else { return 0 }
        guard k + 1 < table.count else { return table[k] }
        return table[k] + (table[k + 1] - table[k]) * (size - below)
    }
}
