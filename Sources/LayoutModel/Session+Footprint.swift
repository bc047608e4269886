@_spi(Benchmarks) import ConstraintSolver

/// Where a session's memory goes, for the document benchmark: each
/// structure is released in turn and the heap measured around it (`heap` reads the
/// allocator's bytes in use). The session is unusable afterwards.
extension LayoutSession {
    @_spi(Benchmarks)
    public func releaseMeasuringFootprint(heap: @escaping () -> Int) -> [(structure: String, bytes: Int)] {
        var meter = FootprintMeter(heap: heap)
        meter.release("view records") { document.views = [] }
        meter.release("view ids") { document.viewNamed = NameTable() }
        meter.release("atoms") { document.atoms = [] }
        meter.release("entry ids") { (document.entryNamed, document.autoEntries) = (NameTable(), []) }
        meter.release("entries: VFL options and metrics") {
            document.groupExtras = GroupExtras()
        }
        meter.release("entries: texts") { document.texts = StringPool() }
        meter.release("entries (ids, VFL members)") { (document.entries, document.groupMembers) = ([], []) }
        meter.release("stacks") { document.stacks = [:] }
        meter.release("document scratch") {
            document.changes = ChangeLog(); document.freeViews = []; document.freeAtoms = []
            document.freeEntries = []; document.exprScratch = []; document.formatScratch = VisualShape()
        }
        meter.release("frames and variables") {
            views = ViewTable(); viewOfVariable = VariableOwners()
        }
        meter.release("engine links") {
            links = EngineLinks()
        }
        meter.release("session scratch") {
            movedScratch = []; carriedMoves = []; slotScratch = []; earlierScratch = []; removals = []; lastChurn = []
        }
        var out = meter.structures
        if let engine = solver as? FactoredSolver {
            out += engine.releaseMeasuringFootprint(heap: heap).map { ("engine: " + $0.structure, $0.bytes) }
        }
        return out
    }
}
