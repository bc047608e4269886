/// Where an engine's memory goes, for the document benchmark: each structure is released in
/// turn and the heap measured around it (`heap` reads the allocator's bytes in use). The
/// engine is empty and unusable afterwards.
extension FactoredSolver {
    @_spi(Benchmarks)
    public func releaseMeasuringFootprint(heap: @escaping () -> Int) -> [(structure: String, bytes: Int)] {
        var meter = FootprintMeter(heap: heap)
        meter.release("rows") {
            rows = SparseLists<Entry>(); rowLive = []; rhs = []; handleOfRow = []
        }
        meter.release("columns") { columnRows = SparseLists<Int32>() }
        meter.release("records") { records = HandleTable() }
        meter.release("column state") {
            kind = []; costPriority = []; value = []; isUser = []; touched = []; touchedList = []; touchedBefore = []
        }
        meter.release("duals and reduced costs") {
            duals = []; reduced = []
        }
        meter.release("basis (L, U, etas, step maps)") { basis.reset() }
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
