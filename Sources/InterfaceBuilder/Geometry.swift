/// A view's frame as IB stores it, in its parent's coordinates.
struct Frame: Equatable {
    var x = 0.0, y = 0.0, width = 0.0, height = 0.0

    var size: Size { Size(width: width, height: height) }
}

/// A width and a height: a parent's, a root's, a cell's or an image's.
struct Size: Equatable {
    var width = 0.0, height = 0.0
}

/// A point: a view's origin in its root's coordinates.
struct Point: Equatable {
    var x = 0.0, y = 0.0
}
