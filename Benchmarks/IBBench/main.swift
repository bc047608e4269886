import Foundation
import InterfaceBuilder
import JSON
import LayoutModel

// Interface Builder documents imported and laid out: each view's frame beside the one Xcode
// stored (agreement within 0.5 pt, views Xcode marked misplaced or ambiguous left out), and
// the importer's time beside the same documents posted as JSON.
//
//   layoutd-ib-bench [--stored] [--device ID] [--landscape] [--verbose] FILE...
//
// One line a document, then the totals as JSON on the last line.

var files: [String] = []
var options = ImportOptions()
var verbose = false
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    switch a {
    case "--stored": options.contentSizes = .stored
    case "--device": options.device = arguments.popFirst()
    case "--landscape": options.landscape = true
    case "--verbose": verbose = true
    default: files.append(a)
    }
}

func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }

var (views, agreeing, documentsFull, roots, refused) = (0, 0, 0, 0, 0)
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
    var (docViews, docAgreeing) = (0, 0)
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
        var frames: [String: Rect] = [:]
        session.forEachFrame { id, frame, _ in frames[id] = frame }
        for s in root.storedFrames where !root.unreconciled.contains(s.id) && s.id != root.rootID {
            guard let f = frames[s.id] else { continue }
            docViews += 1
            let ok = abs(f.x - s.x) <= 0.5 && abs(f.y - s.y) <= 0.5 && abs(f.width - s.width) <= 0.5 && abs(f.height - s.height) <= 0.5
            if ok {
                docAgreeing += 1
            } else if verbose {
                print(
                    "  \(root.name) \(s.id): layoutd \(f.x), \(f.y), \(f.width) × \(f.height)  Xcode \(s.x), \(s.y), \(s.width) × \(s.height)")
            }
        }
        if verbose {
            for n in root.notes { print("  note \(root.name): \(n)") }
            for d in session.diagnostics() { print("  diagnostic \(root.name): \(d)") }
        }
    }
    views += docViews
    agreeing += docAgreeing
    if docViews == docAgreeing { documentsFull += 1 } else { misses[path] = docViews - docAgreeing }
    print("\(path): \(document.roots.count) roots, \(docAgreeing) of \(docViews) views agree")
}
let share = views == 0 ? 0 : Double(agreeing) / Double(views)
print(
    "{\"documents\":\(files.count),\"refused\":\(refused),\"roots\":\(roots),\"views\":\(views),\"agreeing\":\(agreeing),"
        + "\"share\":\(share),\"documents_full\":\(documentsFull),\"import_ms\":\(Double(importNanos) / 1e6),"
        + "\"layout_ms\":\(Double(buildNanos) / 1e6),\"json_layout_ms\":\(Double(jsonNanos) / 1e6)}")
