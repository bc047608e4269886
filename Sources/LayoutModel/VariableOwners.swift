/// Which view (by its `ViewTable` slot) and axis each engine variable belongs to.
/// Variable ids are dense (the engine reuses freed ones), so an array indexed by id
/// replaces a hashed dictionary on the per-change path.
struct VariableOwners {
    struct Owner {
        var slot: Int32
        var axis: Axis
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
