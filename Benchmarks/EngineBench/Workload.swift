import ConstraintSolver
import JSON

/// A `layout-bench/1` file from Benchmarks/engine/workloads.py.
struct Workload {
    struct Step { enum Op { case setConstant(Int, Double), remove([Int]), add([Int]) }; var ops: [Op] }
    struct Phase { var name: String; var steps: [Step]; var expectedFinal: [Double] }

    var id: String
    var variableCount: Int
    var viewOfVariable: [Int]
    var constraints: [(terms: [(Int, Double)], constant: Double, relation: Relation, priority: Double)]
    var expected: [Double]
    var phases: [Phase]

    init(bytes: [UInt8]) throws {
        let doc = try JSONParser.parse(bytes)
        id = doc["id"]?.string ?? "?"
        variableCount = doc["variables"]?.array?.count ?? 0
        viewOfVariable = Array(repeating: 0, count: variableCount)
        for (k, v) in (doc["views"]?.array ?? []).enumerated() {
            for x in v["vars"]?.array ?? [] { viewOfVariable[Int(x.number!)] = k }
        }
        constraints = (doc["constraints"]?.array ?? []).map { c in
            let terms = (c["terms"]?.array ?? []).map { t in (Int(t.array![0].number!), t.array![1].number!) }
            let r = Relation(rawValue: c["op"]!.string!)!
            return (terms, c["constant"]!.number!, r, c["priority"]!.number!)
        }
        expected = (doc["expected"]?.array ?? []).map { $0.number! }
        phases = (doc["phases"]?.array ?? []).map { p in
            let steps = (p["steps"]?.array ?? []).map { s in
                Step(
                    ops: (s.array ?? []).map { op in
                        switch op["op"]!.string! {
                        case "set_constant": return .setConstant(Int(op["constraint"]!.number!), op["constant"]!.number!)
                        case "remove": return .remove(op["constraints"]!.array!.map { Int($0.number!) })
                        default: return .add(op["constraints"]!.array!.map { Int($0.number!) })
                        }
                    })
            }
            return Phase(
                name: p["name"]?.string ?? "?", steps: steps,
                expectedFinal: (p["expected_final"]?.array ?? []).map { $0.number! })
        }
    }
}
