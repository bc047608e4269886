// The unchecked conversions, shadowed: a file that imports this module and writes `Int(x)` of
// a Double or Float gets this deprecation, which the build treats as an error
// (`-Werror DeprecatedDeclaration`, Package.swift). `Tests/lint/check_conversions.py` checks
// that every file converting to an integer imports the module. Nothing calls these bodies.

extension Int {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int(checked:) or Int(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension Int {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int(checked:) or Int(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension Int8 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int8(checked:) or Int8(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension Int8 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int8(checked:) or Int8(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension Int16 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int16(checked:) or Int16(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension Int16 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int16(checked:) or Int16(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension Int32 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int32(checked:) or Int32(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension Int32 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int32(checked:) or Int32(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension Int64 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int64(checked:) or Int64(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension Int64 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use Int64(checked:) or Int64(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension UInt {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt(checked:) or UInt(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension UInt {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt(checked:) or UInt(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension UInt8 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt8(checked:) or UInt8(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension UInt8 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt8(checked:) or UInt8(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension UInt16 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt16(checked:) or UInt16(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension UInt16 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt16(checked:) or UInt16(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension UInt32 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt32(checked:) or UInt32(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension UInt32 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt32(checked:) or UInt32(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}

extension UInt64 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt64(checked:) or UInt64(saturating:)")
    @inlinable public init(_ source: Double) { self.init(saturating: source) }
}

extension UInt64 {
    @available(*, deprecated, message: "traps on NaN, infinities and overflow: use UInt64(checked:) or UInt64(saturating:)")
    @inlinable public init(_ source: Float) { self.init(saturating: source) }
}
