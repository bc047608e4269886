import Foundation
import InterfaceBuilder
import JSON
import LayoutModel

// Interface Builder documents imported and laid out: each view's frame beside the one Xcode
// stored (agreement within 0.5 pt, views Xcode marked misplaced or ambiguous, and what they
// hold, left out), and the importer's time beside the same documents posted as JSON.
//
//   layoutd-ib-bench [--stored] [--device ID] [--landscape] [--verbose] [--drive N] FILE...
//
// One line a document, then the totals as JSON on the last line. `--drive N`: each root as a
// session on each engine, driven by N random set-constants; every answer's frames (pixel
// rounded, at the device's scale) against a fresh layout of the document it then holds.

var files: [String] = []
var options = ImportOptions()
var verbose = false
var drive = 0
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "--stored": options.contentSizes = .stored
    case "--device": options.device = arguments.popFirst()
    case "--landscape": options.landscape = true
    case "--verbose": verbose = true
    case "--drive": drive = arguments.popFirst().flatMap(Int.init) ?? 0
    default: files.append(a)
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

/// Frames of a session, by id.
func framesOf(_ s: LayoutSession) -> [String: Rect] {
    var out: [String: Rect] = [:]
    s.forEachFrame { id, frame, _ in out[id] = frame }
    return out
}

/// What driving found: steps, frames compared, frames apart from a fresh layout, answers that
/// did not list exactly the views that moved.
struct Driven {
    var steps = 0, frames = 0, apart = 0, misreported = 0, conflicted = 0
    mutating func add(_ o: Driven) {
        (steps, frames, apart, misreported, conflicted) = (
            steps + o.steps, frames + o.frames, apart + o.apart, misreported + o.misreported, conflicted + o.conflicted
        )
    }
}
var driven = Driven()
/// A fixed-seed LCG: the same steps every run.
struct Steps {
    var seed: UInt64 = 0x5eed_1b
    mutating func next(_ n: Int) -> Int {
        seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        return Int((seed >> 33) % UInt64(n))
    }
}

/// The root's document as a session on each engine, driven by random set-constants of its
/// constraints with a numeric constant; each answer against a fresh layout.
func drive(_ document: JSON, steps: Int) -> Driven {
    var out = Driven()
    var random = Steps()
    let ids = (document["constraints"]?.array ?? []).compactMap { c -> String? in
        guard c["constant"]?.number != nil, let id = c["id"]?.string else { return nil }
        return id
    }
    guard !ids.isEmpty else { return out }
    for engine in EngineKind.allCases {
        let limits = SessionLimits(engine: engine, factoredFromViews: nil)
        guard let session = try? LayoutSession.make(document: document, limits: limits) else { continue }
        var before = framesOf(session)
        for _ in 0..<steps {
            let id = ids[random.next(ids.count)]
            let body = JSON.object([(key: id, value: .number(Double(random.next(41) - 20) + 0.25 * Double(random.next(4))))])
            guard let answer = try? session.setConstants(body) else { continue }
            let after = framesOf(session)
            let moved = Set(after.keys.filter { before[$0] != after[$0] })
            if moved != Set(answer.frames.map(\.id)) { out.misreported += 1 }
            before = after
            guard let fresh = try? LayoutSession.make(document: session.document.json, limits: limits, oneShot: true) else { continue }
            let expected = framesOf(fresh)
            // A conflict the constants made: the fast path breaks the constraint it set, a fresh
            // build the one UIKit's order picks; those steps are counted apart.
            if answer.diagnostics.contains(where: {
                if case .unsatisfiable = $0 { return true }; return false
            }) {
                out.conflicted += 1
                continue
            }
            out.steps += 1
            // An ambiguous view may take another of its layouts: left out.
            let loose = Set(
                answer.diagnostics.compactMap {
                    if case .ambiguous(let v, _) = $0 { return v }; return nil
                })
            for (id, f) in after where !loose.contains(id) {
                out.frames += 1
                if expected[id] != f { out.apart += 1 }
            }
        }
    }
    return out
}

var (views, agreeing, documentsFull, roots, refused) = (0, 0, 0, 0, 0)
var (conflictingRoots, conflictingViews, conflictingAgreeing, conflictingFull) = (0, 0, 0, 0)
// Disagreeing views of roots without conflicts whose stored frames break their own required
// constraints (`ImportedRoot.staleViews`), and documents where every disagreeing view is one.
var (staleViews, staleOnlyDocuments) = (0, 0)
// Disagreeing views showing an SF Symbol (`ImportedRoot.symbolViews`), of roots without conflicts.
var symbolViews = 0
// Documents some view of which disagrees, every such view counted apart (a conflicting root's,
// stale or showing a symbol).
var apartOnlyDocuments = 0
var (importNanos, buildNanos, jsonNanos) = (UInt64(0), UInt64(0), UInt64(0))
var misses: [String: Int] = [:]
for path in files {
    guard let data = FileManager.default.contents(atPath: path) else {
        print("\(path): cannot read")
        continue
    }
    let t0 = now()
    let document: ImportedDocument
    do { document = try Importer.read(Array(data), options: options) } catch {
        print("\(path): refused at \(error.line):\(error.column): \(error.message)")
        refused += 1
        continue
    }
    importNanos += now() - t0
    var (docViews, docAgreeing, docStale, docSymbols) = (0, 0, 0, 0)
    // Roots whose required constraints conflict: which constraint Xcode broke is weak evidence
    // (issue 62), so they are counted apart as well.
    var (conflictRoots, conflictViews, conflictAgreeing, conflictFull) = (0, 0, 0, 0)
    for root in document.roots {
        roots += 1
        // As `POST /v1/ib/layout` does: the session from the tree the importer made.
        let t1 = now()
        let session: LayoutSession
        do { session = try LayoutSession.make(document: root.document, oneShot: true) } catch {
            print("\(path) \(root.name): layoutd refused its document: \(error)")
            continue
        }
        buildNanos += now() - t1
        // The JSON path for the same layout: the document posted as bytes, read and built.
        var writer = JSONWriter()
        writer.value(root.document)
        let bytes = writer.bytes
        let t2 = now()
        _ = try? LayoutSession.make(documentBytes: bytes, oneShot: true)
        jsonNanos += now() - t2
        if drive > 0 { driven.add(drive(root.document, steps: drive)) }
        var frames: [String: Rect] = [:]
        // As the route answers: ambiguous views where Xcode stored them (`holdingAmbiguousViews`).
        let ambiguous = session.diagnostics().compactMap { d -> (view: String, horizontal: Bool)? in
            if case .ambiguous(let v, let axis) = d { return (v, axis == .horizontal) }; return nil
        }
        let held = ambiguous.isEmpty ? nil : try? LayoutSession.make(document: root.holdingAmbiguousViews(ambiguous), oneShot: true)
        (held ?? session).forEachFrame { id, frame, _ in frames[id] = frame }
        let conflicting = session.diagnostics().contains {
            if case .unsatisfiable = $0 { return true }; return false
        }
        let (viewsBefore, agreeingBefore) = (docViews, docAgreeing)
        defer {
            if conflicting {
                conflictRoots += 1
                conflictViews += docViews - viewsBefore
                conflictAgreeing += docAgreeing - agreeingBefore
                // Fully agreeing: the break Xcode's frames show is the one layoutd chose.
                if docViews > viewsBefore && docAgreeing - agreeingBefore == docViews - viewsBefore { conflictFull += 1 }
            }
        }
        let setAside = root.unreconciledSubtrees
        for s in root.storedFrames where !setAside.contains(s.id) && s.id != root.rootID {
            guard let f = frames[s.id] else { continue }
            docViews += 1
            let ok = abs(f.x - s.x) <= 0.5 && abs(f.y - s.y) <= 0.5 && abs(f.width - s.width) <= 0.5 && abs(f.height - s.height) <= 0.5
            if ok {
                docAgreeing += 1
                continue
            }
            if verbose {
                print(
                    "  \(root.name) \(s.id): layoutd \(f.x), \(f.y), \(f.width) × \(f.height)  Xcode \(s.x), \(s.y), \(s.width) × \(s.height)")
            }
            if !conflicting && root.symbolViews.contains(s.id) {
                docSymbols += 1
                if verbose { print("  symbol \(root.name) \(s.id): it shows an SF Symbol") }
            } else if !conflicting && root.staleViews.contains(s.id) {
                docStale += 1
                if verbose { print("  stale \(root.name) \(s.id): its stored frame breaks a required constraint of its own") }
            }
        }
        if verbose {
            for n in root.notes { print("  note \(root.name) \(n.place.line):\(n.place.column): \(n.message)") }
            for d in session.diagnostics() { print("  diagnostic \(root.name): \(d)") }
        }
    }
    views += docViews
    agreeing += docAgreeing
    (conflictingRoots, conflictingViews, conflictingAgreeing, conflictingFull) = (
        conflictingRoots + conflictRoots, conflictingViews + conflictViews, conflictingAgreeing + conflictAgreeing, conflictingFull + conflictFull
    )
    if conflictRoots > 0 {
        print("  conflicting roots \(conflictRoots) (\(conflictFull) fully agree): \(conflictAgreeing) of \(conflictViews) views agree")
    }
    if docSymbols > 0 {
        print("  symbol views \(docSymbols) of the \(docViews - docAgreeing) disagreeing")
        symbolViews += docSymbols
    }
    if docStale > 0 {
        print("  stale views \(docStale) of the \(docViews - docAgreeing) disagreeing")
        staleViews += docStale
        if docStale == docViews - docAgreeing { staleOnlyDocuments += 1 }
    }
    let apart = (conflictViews - conflictAgreeing) + docStale + docSymbols
    if docViews > docAgreeing && apart == docViews - docAgreeing {
        print("  every disagreeing view counted apart")
        apartOnlyDocuments += 1
    }
    if docViews == docAgreeing { documentsFull += 1 } else { misses[path] = docViews - docAgreeing }
    print("\(path): \(document.roots.count) roots, \(docAgreeing) of \(docViews) views agree")
}
let share = views == 0 ? 0 : Double(agreeing) / Double(views)
print(
    "{\"documents\":\(files.count),\"refused\":\(refused),\"roots\":\(roots),\"views\":\(views),\"agreeing\":\(agreeing),"
        + "\"share\":\(share),\"documents_full\":\(documentsFull),"
        + "\"conflicting_roots\":\(conflictingRoots),\"conflicting_full\":\(conflictingFull),\"conflicting_views\":\(conflictingViews),\"conflicting_agreeing\":\(conflictingAgreeing),"
        + "\"stale_views\":\(staleViews),\"stale_only_documents\":\(staleOnlyDocuments),\"symbol_views\":\(symbolViews),\"apart_only_documents\":\(apartOnlyDocuments),\"import_ms\":\(Double(importNanos) / 1e6),"
        + "\"layout_ms\":\(Double(buildNanos) / 1e6),\"json_layout_ms\":\(Double(jsonNanos) / 1e6)"
        + (drive > 0
            ? ",\"driven_steps\":\(driven.steps),\"driven_frames\":\(driven.frames),\"apart_from_fresh\":\(driven.apart),\"misreported\":\(driven.misreported),\"conflicted_steps\":\(driven.conflicted)"
            : "") + "}")
