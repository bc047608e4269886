/// Which view and axis each engine variable belongs to. Variable ids are dense (the
/// engine reuses freed ones), so an array indexed by id replaces a hashed dictionary on
/// the per-change path.
struct VariableOwners {
    struct Owner {
        var view: String
        var axis: Axis
        /// All four of the view's variables: a moved one leads to its frame with no lookup.
        var variables: ViewVariables
    }

    private var owners: [Owner?] = []

    subscript(id: Int32) -> Owner? {
        get { Int(id) < owners.count ? owners[Int(id)] : nil }
        set {
            let i = Int(id)
            if i >= owners.count {
                guard newValue != nil else { return }
                owners.append(contentsOf: repeatElement(nil, count: i + 1 - owners.count))
            }
            owners[i] = newValue
        }
    }

    mutating func reserveCapacity(_ n: Int) { owners.reserveCapacity(n) }
    var count: Int { owners.count }
}
