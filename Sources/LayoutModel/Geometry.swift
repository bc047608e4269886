public struct Rect: Equatable, Sendable {
    public var x, y, width, height: Double
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

public struct Insets: Equatable, Sendable {
    public var top, left, bottom, right: Double
    public init(top: Double, left: Double, bottom: Double, right: Double) {
        self.top = top; self.left = left; self.bottom = bottom; self.right = right
    }
    public static let zero = Insets(top: 0, left: 0, bottom: 0, right: 0)
    public static let defaultMargins = Insets(top: 8, left: 8, bottom: 8, right: 8)
}

public enum Axis: String, Sendable, CaseIterable {
    case horizontal, vertical
}

public enum LayoutDirection: String, Sendable {
    case ltr, rtl
}
