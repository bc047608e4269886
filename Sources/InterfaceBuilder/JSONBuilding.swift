import JSON

/// A number member of a layoutd document.
func number(_ x: Double) -> JSON { .number(x) }

/// An object of a layoutd document, its members in the order given.
func object(_ members: [(String, JSON)]) -> JSON { .object(members.map { (key: $0.0, value: $0.1) }) }
