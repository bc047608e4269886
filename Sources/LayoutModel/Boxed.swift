/// A value behind one pointer, still a value: an indirect case's payload is shared by
/// copies and never written in place (setting it makes a new box). For fields most records
/// leave empty, where an inline optional would cost its full size in every record.
enum Boxed<Value: Sendable>: Sendable {
    indirect case boxed(Value)

    init(_ value: Value) { self = .boxed(value) }

    var value: Value {
        switch self {
        case .boxed(let v): v
        }
    }
}
