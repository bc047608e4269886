/// Where an engine's memory goes, for the document benchmark: each structure is released in
/// turn and the heap measured around it (`heap` reads the allocator's bytes in use). The
/// engine is empty and unusable afterwards.
extension FactoredSolver {
    @_spi(Benchmarks)
    public func releaseMeasuringFootprint(heap: () -> Int) -> [(structure: String, bytes: Int)] {
        var out: [(structure: String, bytes: Int)] = []
        func release(_ name: String, _ body: () -> Void) {
            let before = heap()
            body()
            out.append((name, before - heap()))
        }
        release("rows") {
            rows = SparseLists(); rowLive = []; rhs = []; handleOfRow = []
        }
        release("columns") { columnRows = SparseLists() }
        release("records") { records = HandleTable() }
        release("column state") {
            kind = []; costPriority = []; value = []; isUser = []; touched = []; touchedList = []; touchedBefore = []
        }
        release("duals and reduced costs") {
            duals = []; reduced = []
        }
        release("work vectors") {
            columnWork = WorkVector(); rowWork = WorkVector(); extraWork = WorkVector(); alphaWork = WorkVector()
        }
        release("basis (L, U, etas, step maps)") { basis.reset() }
        return out
    }
}
