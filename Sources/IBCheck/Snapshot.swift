import Foundation
import InterfaceBuilder
import JSON
import LayoutModel
import Rendering

/// One root's frames at one size, kept between runs: `FOLDER/<document path>/<root>@<size>.json`,
/// `{document, root, size, frames: {id: {x, y, width, height, hidden?}}, parents: {id: parent}}`
/// (the frames in the shape of a layout answer's, which `POST /v1/compare` takes too).
struct Snapshot {
    let file: String
    let root: ImportedRoot
    let size: String

    /// The document's path as a relative one: a snapshot folder names documents as the check did.
    static func key(_ file: String) -> String {
        var parts = file.split(separator: "/").filter { $0 != "." && !$0.isEmpty }
        parts = parts.map { $0 == ".." ? "__" : $0 }
        return parts.joined(separator: "/")
    }

    func path(under folder: String, ext: String = ".json") -> String {
        "\(folder)/\(Self.key(file))/\(Self.safe(root.name))@\(Self.safe(size))\(ext)"
    }

    /// A name as a file name: `/`, control characters and a leading dot replaced.
    static func safe(_ name: String) -> String {
        var out = String(name.unicodeScalars.map { $0 == "/" || $0.value < 0x20 ? "_" : Character($0) })
        if out.hasPrefix(".") { out = "_" + out.dropFirst() }
        return out.isEmpty ? "_" : out
    }

    func write(_ layout: RootLayout, under folder: String) throws(CheckFailure) {
        var frames: [(key: String, value: JSON)] = []
        var parents: [(key: String, value: JSON)] = []
        for f in layout.frames {
            var members: [(key: String, value: JSON)] = [
                ("x", .number(f.frame.x)), ("y", .number(f.frame.y)), ("width", .number(f.frame.width)), ("height", .number(f.frame.height))
            ]
            if f.hidden { members.append(("hidden", .bool(true))) }
            frames.append((f.id, .object(members)))
        }
        for v in layout.session?.sketch() ?? [] { if let p = v.parent { parents.append((v.id, .string(p))) } }
        let json = JSON.object([
            ("document", .string(Self.key(file))), ("root", .string(root.name)), ("kind", .string(root.kind.rawValue)), ("size", .string(size)),
            ("frames", .object(frames)), ("parents", .object(parents))
        ])
        var w = JSONWriter()
        w.value(json)
        try Files.write(w.bytes + [UInt8(ascii: "\n")], to: path(under: folder))
    }

    /// What moved past `tolerance` from the snapshot, view by view (a view gone, new, shown
    /// or hidden counts too), and a picture of the two over each other when anything did.
    func compare(_ layout: RootLayout, under folder: String, tolerance: Double) -> (findings: [Finding], picture: Picture?) {
        let at = path(under: folder)
        guard let data = FileManager.default.contents(atPath: at), let json = try? JSONParser.parse([UInt8](data)),
            let recorded = json["frames"]?.members
        else {
            let message = "no snapshot of root '\(root.name)' at \(size) (\(at)): record one with --record"
            return ([Finding(.moved, message, at: root.place, ids: [root.rootID], root: root.name, size: size)], nil)
        }
        var expected: [FrameEntry] = []
        for (id, f) in recorded {
            let r = Rect(x: f["x"]?.number ?? 0, y: f["y"]?.number ?? 0, width: f["width"]?.number ?? 0, height: f["height"]?.number ?? 0)
            expected.append(FrameEntry(id: id, frame: r, hidden: f["hidden"]?.bool ?? false))
        }
        let actual = layout.frames
        var now: [String: FrameEntry] = [:]
        for f in actual { now[f.id] = f }
        var findings: [Finding] = []
        var moved = Set<String>()
        func found(_ id: String, _ message: String) {
            moved.insert(id)
            findings.append(Finding(.moved, message, at: root.places[id] ?? root.place, ids: [id], root: root.name, size: size))
        }
        var seen = Set<String>()
        for e in expected {
            seen.insert(e.id)
            guard let a = now[e.id] else {
                found(e.id, "'\(e.id)' is in the snapshot, not in the layout")
                continue
            }
            let d = delta(e.frame, a.frame)
            if d > tolerance {
                found(e.id, "'\(e.id)' moved from its snapshot: \(text(e.frame)) then, \(text(a.frame)) now (\(pointsText(d)) pt)")
            } else if e.hidden != a.hidden {
                found(e.id, "'\(e.id)' was \(e.hidden ? "hidden" : "shown") in the snapshot, is \(a.hidden ? "hidden" : "shown") now")
            }
        }
        for a in actual where !seen.contains(a.id) { found(a.id, "'\(a.id)' is new: not in the snapshot") }
        guard !findings.isEmpty else { return ([], nil) }
        var parents: [String: String] = [:]
        for (id, p) in json["parents"]?.members ?? [] { parents[id] = p.string }
        for v in layout.session?.sketch() ?? [] { parents[v.id] = v.parent ?? parents[v.id] }
        let picture = Picture(name: "\(root.name) \(size)", expected: expected, actual: actual, moved: moved, parents: parents)
        return (findings, picture)
    }
}

/// The largest move of any of a frame's four edges (as `POST /v1/compare` measures it).
func delta(_ a: Rect, _ b: Rect) -> Double {
    max(abs(a.x - b.x), abs(a.y - b.y), abs(a.x + a.width - b.x - b.width), abs(a.y + a.height - b.y - b.height))
}
