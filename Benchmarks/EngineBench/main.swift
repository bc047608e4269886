#if canImport(Glibc)
    import Glibc
#endif
import ConstraintSolver
import JSON

// Replays layout-bench/1 workloads and prints one JSON line per workload in the kiwi
// reference harness's schema (engine "layoutd"), so the two pair line by line.
// A step's time covers its ops and collecting the changed variables.

struct Stats {
    var median = 0.0, p99 = 0.0, mean = 0.0, min = 0.0, max = 0.0, total = 0.0
    init(_ xs: [Double]) {
        guard !xs.isEmpty else { return }
        let s = xs.sorted()
        median = s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
        p99 = s[Swift.min(s.count - 1, Int((Double(s.count) * 0.99).rounded(.up)) - 1)]
        total = s.reduce(0, +)
        mean = total / Double(s.count)
        min = s[0]
        max = s[s.count - 1]
    }
}

func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

func logErr(_ s: String, _: Int = 0) { FileHandleStderr.write(s) }
enum FileHandleStderr { static func write(_ s: String) { var b = Array(s.utf8); _ = Glibc.write(2, &b, b.count) } }

func median(_ xs: [Double]) -> Double { Stats(xs).median }

/// One replay of a workload on an engine. The build adds every constraint in list order:
/// one by one on the solved form, as one batch on the factored basis (its `add(batch:)`).
/// The factored engine's build is one batch; a phase that removes constraints runs on both.
final class Run {
    let w: Workload
    let solver: any ConstraintEngine
    var vars: [Variable] = []
    var handles: [ConstraintHandle?]
    var changed: [Variable] = []

    init(_ w: Workload, factored: Bool) {
        self.w = w
        solver = factored ? FactoredSolver() : Solver()
        handles = Array(repeating: nil, count: w.constraints.count)
        vars = (0..<w.variableCount).map { _ in solver.addVariable() }
    }

    func definition(_ i: Int) -> ConstraintDefinition {
        let c = w.constraints[i]
        return ConstraintDefinition(LinearExpression(c.terms.map { (vars[$0.0], $0.1) }, constant: c.constant), c.relation, priority: c.priority)
    }

    func build() -> Double {
        let t0 = now()
        for (i, h) in solver.add(batch: (0..<w.constraints.count).map(definition)).enumerated() { handles[i] = h }
        solver.takeChanges(into: &changed)
        return (now() - t0) / 1e6
    }

    func error(_ expected: [Double]) -> Double {
        guard expected.count == vars.count else { return -1 }
        var e = 0.0
        for (i, v) in vars.enumerated() { e = max(e, abs(solver.value(v) - expected[i])) }
        return e
    }

    struct PhaseResult { var stepUs: [Double] = []; var changedVars: [Double] = []; var changedViews: [Double] = []; var err = 0.0 }

    func run(_ p: Workload.Phase) -> PhaseResult {
        var r = PhaseResult()
        var viewSeen = Set<Int>()
        for step in p.steps {
            let t0 = now()
            for op in step.ops {
                switch op {
                case .setConstant(let c, let k): solver.setConstant(handles[c]!, k)
                case .remove(let cs): for c in cs { solver.remove(handles[c]!); handles[c] = nil }
                case .add(let cs): for c in cs { handles[c] = solver.add(definition(c)) }
                }
            }
            solver.takeChanges(into: &changed)
            r.stepUs.append((now() - t0) / 1e3)
            viewSeen.removeAll(keepingCapacity: true)
            for v in changed { viewSeen.insert(w.viewOfVariable[Int(v.id)]) }
            r.changedVars.append(Double(changed.count))
            r.changedViews.append(Double(viewSeen.count))
        }
        r.err = error(p.expectedFinal)
        return r
    }
}

func fmt(_ v: Double) -> JSON { .number((v * 1e6).rounded() / 1e6) }

func statsJSON(_ per: [Stats], total: Bool) -> JSON {
    var m: [(key: String, value: JSON)] = [
        ("median", fmt(median(per.map(\.median)))), ("p99", fmt(median(per.map(\.p99)))),
        ("mean", fmt(median(per.map(\.mean)))), ("min", fmt(median(per.map(\.min)))), ("max", fmt(median(per.map(\.max))))
    ]
    if total { m.append(("total", fmt(median(per.map(\.total))))) }
    return .object(m)
}

func peakRSSMB() -> Double {
    var ru = rusage()
    getrusage(RUSAGE_SELF.rawValue, &ru)
    return Double(ru.ru_maxrss) / 1024
}

func readFile(_ path: String) -> [UInt8]? {
    guard let f = fopen(path, "rb") else { return nil }
    defer { fclose(f) }
    var out: [UInt8] = []
    var buf = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let n = fread(&buf, 1, buf.count, f)
        if n <= 0 { break }
        out.append(contentsOf: buf[0..<n])
    }
    return out
}

var reps = 5
var factored = false
var paths: [String] = []
var args = CommandLine.arguments.dropFirst()
while let a = args.popFirst() {
    if a == "--reps", let n = args.popFirst().flatMap({ Int($0) }) {
        reps = max(1, n)
    } else if a == "--engine", let e = args.popFirst(), e == "solved" || e == "factored" {
        factored = e == "factored"
    } else if a == "--help" || a == "-h" {
        print("usage: layoutd-bench [--reps N] [--engine solved|factored] WORKLOAD.json...")
        exit(0)
    } else {
        paths.append(a)
    }
}
if paths.isEmpty { logErr("usage: layoutd-bench [--reps N] WORKLOAD.json...\n"); exit(2) }

var failed = false
for path in paths {
    guard let bytes = readFile(path), let w = try? Workload(bytes: bytes) else {
        logErr("layoutd-bench: cannot read \(path)\n"); exit(2)
    }
    var builds: [Double] = [], buildErr = 0.0
    var phaseResults: [[Run.PhaseResult]] = Array(repeating: [], count: w.phases.count)
    for rep in 0..<reps {
        let run = Run(w, factored: factored)
        let b = run.build()
        builds.append(b)
        buildErr = max(buildErr, run.error(w.expected))
        var line = "[layoutd-bench] \(w.id) rep \(rep + 1): build \(format3(b)) ms"
        line += " (pivots \(run.solver.stats.pivots))"
        for (i, p) in w.phases.enumerated() {
            let r = run.run(p)
            phaseResults[i].append(r)
            let s = Stats(r.stepUs)
            line += ", \(p.name) median \(format3(s.median)) us p99 \(format3(s.p99)) us"
        }
        if let f = run.solver as? FactoredSolver {
            let st = f.factorStats
            line += " (pivots \(st.pivots), factorizations \(st.factorizations), nonzeros \(st.rowNonzeros) rows + \(st.factorNonzeros) factor)"
        }
        logErr(line + "\n")
    }
    var phases: [JSON] = []
    for (i, p) in w.phases.enumerated() {
        let rs = phaseResults[i]
        let err = rs.map(\.err).max() ?? -1
        if err > 1e-6 || err < 0 { failed = true }
        phases.append(
            .object([
                ("name", .string(p.name)), ("steps", .number(Double(p.steps.count))),
                ("step_us", statsJSON(rs.map { Stats($0.stepUs) }, total: true)),
                ("changed_vars", statsJSON(rs.map { Stats($0.changedVars) }, total: false)),
                ("changed_views", statsJSON(rs.map { Stats($0.changedViews) }, total: false)),
                ("final_max_abs_err", fmt(err))
            ]))
    }
    if buildErr > 1e-6 { failed = true }
    let line: JSON = .object([
        ("engine", .string(factored ? "layoutd-factored" : "layoutd")), ("workload", .string(w.id)), ("reps", .number(Double(reps))),
        ("variables", .number(Double(w.variableCount))), ("constraints", .number(Double(w.constraints.count))),
        ("build_ms", .object([("median", fmt(median(builds))), ("min", fmt(builds.min()!)), ("all", .array(builds.map(fmt)))])),
        ("build_max_abs_err", fmt(buildErr)),
        ("phases", .array(phases)),
        ("peak_rss_mb", fmt(peakRSSMB()))
    ])
    print(String(decoding: line.serialized, as: UTF8.self))
}

func format3(_ v: Double) -> String { String(Int((v * 1000).rounded())).count > 0 ? "\((v * 1000).rounded() / 1000)" : "0" }
exit(failed ? 1 : 0)
