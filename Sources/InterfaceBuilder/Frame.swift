/// A view's frame as IB stores it, in its parent's coordinates.
struct Frame: Equatable {
    var x = 0.0, y = 0.0, width = 0.0, height = 0.0
}
