import CheckedNumbers
public import InterfaceBuilder
import JSON
import LayoutModel

extension RootLayout {
    /// Whether a layout made with `options` is the one Xcode stored the frames of: the
    /// document's own device and orientation (asked for, the root fills the screen), and
    /// content at its stored size (measured, labels are set in Inter, not San Francisco, so a
    /// stored label's width is not expected).
    public static func comparesStoredFrames(_ options: ImportOptions) -> Bool {
        options.device == nil && options.landscape == nil && options.contentSizes == .stored
    }

    /// What is wrong with this root, each at its element: a refusal, conflicts, ambiguous
    /// views, what the importer left out, and (`storedFrames`) views more than `tolerance`
    /// points from where Xcode stored them, those Xcode itself marked misplaced or ambiguous
    /// left out.
    public func findings(storedFrames: Bool, tolerance: Double) -> [Finding] {
        var out: [Finding] = []
        let name = root.name
        if let error {
            let id = elementID(at: error.pointer)
            out.append(
                Finding(
                    .refused, "layoutd refused the root's document: \(error.detail) (\(error.pointer))", at: place(of: id),
                    ids: id.map { [$0] } ?? [],
                    root: name))
        }
        var loose = Set<String>()
        for d in diagnostics {
            switch d {
            case .unsatisfiable(let broken, let conflicts, _):
                let ids = [broken] + conflicts.filter { $0 != broken }
                out.append(Finding(.conflict, d.message, at: place(ofConstraint: broken, or: conflicts), ids: ids, root: name))
            case .ambiguous(let view, _):
                loose.insert(view)
                out.append(Finding(.ambiguous, d.message, at: place(of: view), ids: [view], root: name))
            case .churn:
                break
            }
        }
        for n in root.notes {
            out.append(Finding(.unsupported, n.message, at: n.place, ids: n.id.map { [$0] } ?? [], root: name))
        }
        if storedFrames && error == nil { out += misplaced(tolerance: tolerance, skipping: loose) }
        return out
    }

    /// Views whose layout is more than `tolerance` from the frame Xcode stored (in the
    /// parent's coordinates, as both are): the root, views Xcode marked and views reported
    /// ambiguous (one of their layouts is as good as another) left out.
    private func misplaced(tolerance: Double, skipping loose: Set<String>) -> [Finding] {
        var laidOut: [String: Rect] = [:]
        for f in frames { laidOut[f.id] = f.frame }
        var out: [Finding] = []
        for s in root.storedFrames where s.id != root.rootID && !root.unreconciled.contains(s.id) && !loose.contains(s.id) {
            guard let f = laidOut[s.id] else { continue }
            let apart = max(abs(f.x - s.x), abs(f.y - s.y), abs(f.width - s.width), abs(f.height - s.height))
            guard apart > tolerance else { continue }
            let message =
                "'\(s.id)' is misplaced: Xcode stored it at \(text(Rect(x: s.x, y: s.y, width: s.width, height: s.height))), "
                + "the constraints put it at \(text(f)) (\(pointsText(apart)) pt apart); update its frame or its constraints."
            out.append(Finding(.misplaced, message, at: place(of: s.id), ids: [s.id], root: root.name))
        }
        return out
    }

    /// An id's element, else the root's.
    func place(of id: String?) -> SourcePlace { id.flatMap { root.places[$0] } ?? root.place }

    /// A constraint's element; one layoutd made (a stack's, a size's) is at the first view it
    /// relates, else at the first of its conflicting set that has one.
    private func place(ofConstraint id: String, or others: [String]) -> SourcePlace {
        if let p = root.places[id] { return p }
        if let v = session?.views(ofConstraint: id).first, let p = root.places[v] { return p }
        return others.lazy.compactMap { root.places[$0] }.first ?? root.place
    }

    /// The id of the view or constraint a pointer into the root's document names (`/views/3/…`).
    private func elementID(at pointer: String) -> String? {
        let parts = pointer.split(separator: "/")
        guard parts.count >= 2, let k = Int(parts[1]), let list = root.document[String(parts[0])]?.array, list.indices.contains(k) else {
            return nil
        }
        return list[k]["id"]?.string
    }
}

extension RootLayout {
    /// How far a view may be from its stored frame, in points, before it is misplaced (or
    /// has moved from its snapshot): Xcode's canvas rounds frames to half a point.
    public static let defaultTolerance = 0.5
}
