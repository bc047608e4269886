/// Explains a broken required constraint: a set of required constraints it conflicts
/// with, minimal when it can be found at a bounded cost.
///
/// Candidates grow ring by ring outward from the broken constraint's variables (a
/// conflict is local in practice), each ring tested in a throw-away solver; the first
/// infeasible set is shrunk by a deletion filter (drop each member that is not needed).
extension Solver {
    static let explanationCap = 200

    func explainConflict(_ h: Int32) -> [Int32] {
        let definition = records[h]!.definition
        var seen: Set<Int32> = [h]
        var seenVariables: Set<Int32> = []
        var candidates: [Int32] = []
        var frontier = definition.expression.terms.map { $0.variable.symbol }
        while !frontier.isEmpty && candidates.count < Self.explanationCap {
            var next: [Symbol] = []
            for v in frontier where seenVariables.insert(v.id).inserted && candidates.count < Self.explanationCap {
                // The variable's required constraints in force (broken ones are kept apart, in
                // `brokenOf`), oldest first, up to the cap. Sorting, hashing and skipping every
                // broken one for each break was most of building n constraints at odds on one
                // view (2,000: 4.6 s, debug build).
                var ring = constraintsOf[v.index].elements.filter { c in
                    guard !seen.contains(c), let rec = records[c], rec.definition.isRequired else { return false }
                    return rec.state == .active || rec.state == .redundant
                }
                ring.sort()
                for c in ring.prefix(Self.explanationCap - candidates.count) {
                    seen.insert(c)
                    candidates.append(c)
                    next.append(contentsOf: records[c]!.definition.expression.terms.map { $0.variable.symbol })
                }
            }
            if infeasible(candidates, with: definition) {
                var set = candidates
                for c in candidates {
                    let without = set.filter { $0 != c }
                    if infeasible(without, with: definition) { set = without }
                }
                return ([h] + set).sorted()
            }
            frontier = next
        }
        return [h]
    }

    private func infeasible(_ set: [Int32], with definition: ConstraintDefinition) -> Bool {
        let scratch = Solver()
        scratch.explainsConflicts = false
        var map: [Int32: Variable] = [:]
        func translate(_ d: ConstraintDefinition) -> ConstraintDefinition {
            var e = LinearExpression([], constant: d.expression.constant)
            for (v, c) in d.expression.terms {
                let w = map[v.id] ?? scratch.addVariable()
                map[v.id] = w
                e.terms.append((w, c))
            }
            return ConstraintDefinition(e, d.relation)
        }
        for c in set { scratch.add(translate(records[c]!.definition)) }
        let t = scratch.add(translate(definition))
        if case .broken? = scratch.state(t) { return true }
        return false
    }
}
