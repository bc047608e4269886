import CMalloc
@_spi(Benchmarks) import ConstraintSolver
import Foundation
import JSON
@_spi(Benchmarks) import LayoutModel

// layoutd-document-bench [--reps N] [--footprint] FILE...: for each layout document, in-process and in one
// run: the JSON parse, the whole session build (parse excluded: decode, validate, translate,
// engine, frames), and the engine alone adding the same constraints to a fresh solver; and
// the heap a built session holds (glibc's count before the parse and after the session is
// built and the parsed tree freed: what a server keeps); and the factored-basis engine's
// batch build of the same constraints, with its heap (and with --footprint, the session's heap
// by structure, its engine's included, and the separate engine's, bytes a view); and a
// one-shot layout as `POST /v1/layout` makes it (parse, build, diagnostics, every frame in
// document order, all of it freed) over that engine alone. One JSON line per file. The heap
// keeps freed memory as layoutd does (`--heap-keep-mb`).

// --change NAME=FILE (any number): a `changes` body applied to a session kept from each file,
// timed apart (`change_NAME_ms`: the median over reps, each on a session built afresh).
var reps = 3
var footprint = false
var files: [String] = []
var changes: [(name: String, body: [UInt8])] = []
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    if a == "--reps", let n = args.popFirst().flatMap({ Int($0) }) {
        reps = n
    } else if a == "--footprint" {
        footprint = true
    } else if a == "--change", let spec = args.popFirst(), let eq = spec.firstIndex(of: "=") {
        guard let data = FileManager.default.contents(atPath: String(spec[spec.index(after: eq)...])) else { fatalError("cannot read \(spec)") }
        changes.append((String(spec[..<eq]), [UInt8](data)))
    } else {
        files.append(a)
    }
}

func now() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

func ms(_ ns: UInt64) -> Double { (Double(ns) / 1e4).rounded() / 100 }
func median(_ xs: [Double]) -> Double { xs.sorted()[xs.count / 2] }

// The server's heap policy (`--heap-keep-mb`, default 128; LAYOUTD_HEAP_KEEP_MB as for the
// server): freed memory kept for the next build.
layoutd_heap_keep((ProcessInfo.processInfo.environment["LAYOUTD_HEAP_KEEP_MB"].flatMap { Int($0) } ?? 128) << 20)

let limits = SessionLimits(maxViews: 1 << 30, maxConstraints: 1 << 30)
for path in files {
    guard let data = FileManager.default.contents(atPath: path) else { fatalError("cannot read \(path)") }
    let bytes = [UInt8](data)
    var parse: [Double] = [], build: [Double] = [], engineOnly: [Double] = [], factoredOnly: [Double] = [], heap = 0, factoredHeap = 0
    var oneShot: [Double] = [], oneShotTeardown: [Double] = []
    var views = 0, constraints = 0
    var factorStats: FactoredSolver.FactorStats? = nil
    var structures: [(structure: String, bytes: Int)] = [], modelStructures: [(structure: String, bytes: Int)] = []
    for _ in 0..<reps {
        let heapBefore = Int(layoutd_heap_in_use())
        // The tree is released inside: a session shares strings with it, so the heap is
        // counted once the tree is gone, as a server holds it.
        let (session, parseNanos, buildNanos) = try { () throws -> (LayoutSession, UInt64, UInt64) in
            // The tree is parsed for its figure only: the server reads a body in place.
            let t0 = now()
            let json = try JSONParser.parse(bytes)
            let t1 = now()
            withExtendedLifetime(json) {}
            let t2 = now()
            guard let session = try LayoutSession.make(documentBytes: bytes, limits: limits) else { fatalError("\(path) is not read in place") }
            session.compact()  // as the server keeps a session it made
            return (session, t1 - t0, now() - t2)
        }()
        heap = Int(layoutd_heap_in_use()) - heapBefore
        let (variables, definitions) = session.engineConstraints
        views = variables / 4
        constraints = definitions.count
        // The solved form's build is quadratic on chains: skipped when the session itself
        // ran on the factored basis (`LAYOUTD_ENGINE=factored`), reported as -1.
        let t4 = now()
        let solver = Solver()
        if SessionLimits().engine == .solved {
            for _ in 0..<variables { _ = solver.addVariable() }
            for d in definitions { solver.add(d) }
            _ = solver.takeChanges()
        }
        let t5 = now()
        // The constraints as the session hands them over: one flat batch, made before the clock.
        let batch = ConstraintBatch(definitions)
        let heapFactored = Int(layoutd_heap_in_use())
        let t6 = now()
        let factored = FactoredSolver()
        for _ in 0..<variables { _ = factored.addVariable() }
        _ = factored.add(batch: batch)
        _ = factored.takeChanges()
        let t7 = now()
        factoredHeap = Int(layoutd_heap_in_use()) - heapFactored
        factorStats = factored.factorStats
        // The definitions live until here: freed right after their last use (the build), they
        // made the engine's heap read 588 bytes a view less than its structures hold.
        withExtendedLifetime((definitions, batch)) {}
        parse.append(ms(parseNanos)); build.append(ms(buildNanos)); engineOnly.append(SessionLimits().engine == .solved ? ms(t5 - t4) : -1);
        factoredOnly.append(ms(t7 - t6))
        // One shot, as the route: answered from the frames and diagnostics; the session and the
        // tree are freed after the answer (the route frees them once it is queued), timed apart.
        let layoutLimits = SessionLimits(maxViews: 1 << 30, maxConstraints: 1 << 30, engine: .factored, factoredFromViews: nil)
        let t8 = now()
        var leftover: LayoutSession? = try {
            guard let s = try LayoutSession.make(documentBytes: bytes, limits: layoutLimits, oneShot: true) else { fatalError() }
            let answer = (s.allFrames, s.diagnostics())
            precondition(answer.0.count == session.allFrames.count, "a one-shot layout answers every view")
            return s
        }()
        let t9 = now()
        leftover = nil
        oneShot.append(ms(t9 - t8)); oneShotTeardown.append(ms(now() - t9))
        withExtendedLifetime(leftover) {}
        if footprint { modelStructures = session.releaseMeasuringFootprint { Int(layoutd_heap_in_use()) } }
        withExtendedLifetime(session) {}
        withExtendedLifetime(solver) {}
        if footprint { structures = factored.releaseMeasuringFootprint { Int(layoutd_heap_in_use()) } }
        withExtendedLifetime(factored) {}
    }
    // Each change on a session of its own, built and compacted as the server keeps one.
    var changeTimes: [(name: String, ms: Double, moved: Int)] = []
    for change in changes {
        var times: [Double] = [], moved = 0
        for _ in 0..<reps {
            guard let session = try LayoutSession.make(documentBytes: bytes, limits: limits) else { fatalError() }
            session.compact()
            let json = try JSONParser.parse(change.body)
            let t0 = now()
            let result = try session.apply(changes: json)
            times.append(ms(now() - t0))
            moved = result.frames.count
        }
        changeTimes.append((change.name, median(times), moved))
    }
    let changeFields = changeTimes.map { (c: (name: String, ms: Double, moved: Int)) -> String in
        #","change_\#(c.name)_ms":\#(c.ms),"change_\#(c.name)_moved":\#(c.moved)"#
    }.joined()
    let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
    var line = #"{"document":"\#(name)","views":\#(views),"engine_constraints":\#(constraints),"reps":\#(reps),"#
    line += #""parse_ms":\#(median(parse)),"session_build_ms":\#(median(build)),"engine_only_ms":\#(median(engineOnly)),"#
    line += #""build_over_engine":\#((median(build) / median(engineOnly) * 100).rounded() / 100),"#
    line += #""session_heap_bytes_per_view":\#(heap / max(1, views)),"#
    line += #""factored_engine_ms":\#(median(factoredOnly)),"factored_engine_heap_bytes_per_view":\#(factoredHeap / max(1, views)),"#
    line += #""one_shot_layout_ms":\#(median(oneShot)),"one_shot_over_engine":\#((median(oneShot) / median(factoredOnly) * 100).rounded() / 100),"#
    line += #""one_shot_teardown_ms":\#(median(oneShotTeardown)),"#
    line += #""factored_pivots":\#(factorStats!.pivots),"factored_factorizations":\#(factorStats!.factorizations)"#
    line += changeFields
    if footprint {
        line += #","session_bytes_per_view_by_structure":{"#
        line += modelStructures.map { #""\#($0.structure)":\#($0.bytes / max(1, views))"# }.joined(separator: ",") + "}"
        line += #","factored_engine_bytes_per_view_by_structure":{"#
        line += structures.map { #""\#($0.structure)":\#($0.bytes / max(1, views))"# }.joined(separator: ",") + "}"
    }
    print(line + "}")
}
