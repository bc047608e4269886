/// A floating value into an integer, the one checked way: `Int(x)` of a Double traps on NaN,
/// an infinity or a value past the type's range, and a request's numbers reach such
/// conversions (a font size of 0 divided by, a coordinate of 1e308). `init?(checked:)` answers
/// nil instead, for the caller to refuse or clamp; `init(saturating:)` clamps.
extension FixedWidthInteger {
    /// `value` rounded toward zero, or nil when that is not a value of this type (NaN, an
    /// infinity, out of range). Two compares and the conversion: cheap enough for hot paths.
    @inlinable
    public init?<F: BinaryFloatingPoint>(checked value: F) {
        guard Self.holds(value) else { return nil }
        self = truncated(value)
    }

    /// `value` rounded toward zero and clamped to this type's range; NaN is 0. For figures
    /// where any answer beats a refusal (a metric, a pixel count already bounded).
    @inlinable
    public init<F: BinaryFloatingPoint>(saturating value: F) {
        if Self.holds(value) {
            self = truncated(value)
        } else {
            self = value.isNaN ? 0 : value < 0 ? Self.min : Self.max
        }
    }

    /// Whether `value` rounded toward zero is a value of this type: within (-2^63 - 1, 2^63)
    /// for Int64, (-1, 2^64) for UInt64 (the bounds are powers of two, exact in any F).
    @inlinable
    static func holds<F: BinaryFloatingPoint>(_ value: F) -> Bool {
        let top = F(sign: .plus, exponent: F.Exponent(bitWidth - (isSigned ? 1 : 0)), significand: 1)
        return isSigned ? (value >= -top && value < top) : (value > -1 && value < top)
    }
}

/// The standard library's conversion, reached through a generic parameter so the shadows in
/// UncheckedShadows.swift (concrete Double and Float) are not chosen. Only after `holds`.
@inlinable
func truncated<F: BinaryFloatingPoint, I: FixedWidthInteger>(_ value: F) -> I { I(value) }
