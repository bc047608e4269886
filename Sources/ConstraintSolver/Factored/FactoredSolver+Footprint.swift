/// Where an engine's memory goes, for the document benchmark: each structure is released in
/// turn and the heap measured around it (`heap` reads the allocator's bytes in use). The
/// engine is empty and unusable afterwards.
extension FactoredSolver {
    @_spi(Benchmarks)
    public func releaseMeasuringFootprint(heap: @escaping () -> Int) -> [(structure: String, bytes: Int)] {
        var meter = FootprintMeter(heap: heap)
        // The columns first: a write to the rows makes dropped column lists again.
        meter.release("columns") { columnRows = SparseLists<Int32>() }
        meter.release("rows: cells") { rows = SparseLists<Entry>() }
        meter.release("rows: right-hand sides, handles") {
            rowLive = BitVector(); rhs = []; handleOfRow = []; batchBreakOrder = []; batchBreakOrderByHandle = [:]
        }
        meter.release("records") { records = HandleTable() }
        meter.release("column state: values") { value = [] }
        meter.release("column state: cost priorities") { costPriority = CostPriorities() }
        meter.release("column state: kinds, flags, touched") {
            kind = []; isUser = BitVector(); touched = []; touchedList = []; touchedBefore = []
        }
        meter.release("dependents") { dependents = Dependents() }
        meter.release("tie stars") { tieStars = TieStars() }
        meter.release("duals and reduced costs") {
            duals = []; reduced = []; columnLevels.removeAll()
        }
        basis.releaseMeasuringFootprint(&meter)
        return meter.structures
    }
}

/// Measures structures as they are released: the heap read before and after each.
@_spi(Benchmarks)
public struct FootprintMeter {
    let heap: () -> Int
    public private(set) var structures: [(structure: String, bytes: Int)] = []

    public init(heap: @escaping () -> Int) { self.heap = heap }

    public mutating func release(_ name: String, _ body: () -> Void) {
        let before = heap()
        body()
        structures.append((name, before - heap()))
    }
}
