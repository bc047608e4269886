import JSON

/// One root's views and constraints, with UIKit's conventions made explicit: the root fills
/// the screen (or keeps its stored size), guides become guide views pinned where UIKit puts
/// them, frame-positioned views keep their stored frames.
struct RootBuilder {
    let kind: ImportedRoot.Kind
    let root: XMLElement
    let controller: XMLElement?
    let device: Device?
    let landscape: Bool
    let options: ImportOptions
    /// A table cell stored without a frame: its table's width and its row height.
    var unstoredCellSize: (width: Double, height: Double)?
    /// The Xcode that wrote the document: some canvas rules changed with it.
    var xcode = ToolsVersion(nil)

    /// The document's images by name: an image view's intrinsic size when content is measured.
    var images: [String: (Double, Double)] = [:]
    let sizeClasses: SizeClasses
    /// The top and bottom bars over a controller's root (`Bars`).
    var bars = ControllerBars()
    var views: [JSON] = []
    var constraints: [JSON] = []
    var stored: [StoredFrame] = []
    var unreconciled: Set<String> = []
    var notes: [ImportNote] = []
    /// Where each id of the document comes from (`ImportedRoot.places`).
    var places: [String: SourcePlace] = [:]
    /// Every view and guide of this root, by IB id.
    var known: Set<String> = []
    var elements: [String: XMLElement] = [:]
    var parent: [String: String] = [:]
    /// A scroll view's content area: the guide its subviews' edge constraints reach.
    var contentGuide: [String: String] = [:]
    /// Views that scroll: their content guide is made when a constraint first reaches it.
    var scrollers: Set<String> = []
    /// Constraint elements with the view that holds them (an omitted `firstItem`).
    var pending: [(owner: String, element: XMLElement)] = []
    /// Views some constraint of this root names.
    var constrained: Set<String> = []
    /// Ids that name another view of the root (a cell's, its content view).
    var aliases: [String: String] = [:]
    /// A table cell stored wider than its content view, and the guide of its bounds.
    var cellBounds: (cell: String, guide: String)?
    /// Each view's origin in the root and its layout margins as laid out (stored geometry):
    /// what its subviews' safe areas and preserved margins come from.
    var origins: [String: (x: Double, y: Double)] = [:]
    var effectiveMargins: [String: Device.Insets] = [:]
    /// Each view's and guide's stored frame in the root's coordinates (`StoredBreaks`).
    var storedRects: [String: Frame] = [:]
    /// Constraints and views not installed in the any-width, any-height configuration.
    var excluded: Set<String> = []

    init(kind: ImportedRoot.Kind, root: XMLElement, controller: XMLElement?, device: Device?, landscape: Bool, options: ImportOptions) {
        (self.kind, self.root, self.controller, self.device, self.landscape, self.options) = (kind, root, controller, device, landscape, options)
        sizeClasses = SizeClasses(device: device, landscape: landscape)
    }

    mutating func build(name: String) throws(ImportError) -> ImportedRoot {
        let cellSize = kind == .cell ? controller.flatMap { storedFrame($0) }.map { ($0.width, $0.height) } ?? unstoredCellSize : nil
        // A cell's content view written without a frame fills its cell.
        let filling = cellSize.map { Frame(width: $0.0, height: $0.1) }
        guard let rootID = Importer.rootID(root, cell: kind == .cell ? controller : nil), let frame = storedFrame(root, in: cellSize) ?? filling
        else {
            throw ImportError(message: "a root view without an id or a frame", line: root.line, column: root.column)
        }
        collectExclusions(root)
        collectConstrained(root, owner: rootID)
        // A cell's own constraints name the cell, which is where its content view is.
        if kind == .cell, let cell = controller, let cellID = cell["id"], cellID != rootID {
            aliases[cellID] = rootID
            for c in cell.list("constraints") where c.name == "constraint" { pending.append((cellID, c)) }
        }
        let canvas = rootCanvas(stored: frame)
        let safe = canvas.safeArea
        visit(root, id: rootID, frame: frame, parentID: nil, arranged: false, rootSize: (canvas.width, canvas.height), safe: safe)
        legacyGuides(rootID: rootID, safe: safe)
        if let cellSize, let cellID = controller?["id"], cellID != rootID,
            let guide = cellBoundsGuide(cellID: cellID, rootID: rootID, content: frame, cell: cellSize)
        {
            cellBounds = (cellID, guide)
        }
        for (owner, c) in Self.inFileOrder(pending) where !excluded.contains(c["id"] ?? "") {
            if let json = constraint(c, owner: owner) { constraints.append(json) }
        }
        constraints = listingStoredBreaksFirst(constraints)
        let document = object([
            ("options", object([("scale", number(device?.scale ?? 2))])),
            ("views", .array(views)),
            ("constraints", .array(constraints))
        ])
        return ImportedRoot(
            kind: kind, name: name, rootID: rootID, document: document, storedFrames: stored, unreconciled: unreconciled, notes: notes,
            place: SourcePlace(kind == .view ? root : controller ?? root), places: places)
    }

    /// Every view a constraint under `e` names (one without `firstItem` names the view holding it).
    private mutating func collectConstrained(_ e: XMLElement, owner: String) {
        for child in e.children {
            if child.name == "constraint" {
                constrained.insert(child["firstItem"] ?? owner)
                if let s = child["secondItem"] { constrained.insert(s) }
            } else {
                collectConstrained(child, owner: Importer.isView(child) ? child["id"] ?? owner : owner)
            }
        }
    }

    /// What is not installed in the layout's size classes: what `<variation key="default">`
    /// leaves out of the any-width, any-height configuration, less what a variation for these
    /// size classes includes, plus what one excludes.
    private mutating func collectExclusions(_ e: XMLElement) {
        var included: Set<String> = [], excludedHere: Set<String> = []
        func walk(_ e: XMLElement) {
            for child in e.children {
                guard child.name == "variation", let key = child["key"] else {
                    walk(child)
                    continue
                }
                let specific = sizeClasses.applies(key)
                guard key == "default" || specific else { continue }
                for mask in child.children where mask.name == "mask" {
                    for item in mask.children {
                        guard let r = item["reference"] else { continue }
                        if item.name == "exclude" {
                            if specific { excludedHere.insert(r) } else { excluded.insert(r) }
                        } else if item.name == "include" && specific {
                            included.insert(r)
                        }
                    }
                }
            }
        }
        walk(e)
        excluded.subtract(included)
        excluded.formUnion(excludedHere)
    }

    private mutating func visit(
        _ e: XMLElement, id: String? = nil, frame: Frame, parentID: String?,
        parentSize: (width: Double, height: Double) = (0, 0), arranged: Bool, rootSize: (Double, Double), safe: Device.Insets
    ) {
        guard let id = id ?? e["id"], !excluded.contains(id) else { return }
        known.insert(id)
        elements[id] = e
        places[id] = SourcePlace(e)
        // A view's first parent: an id used twice (a view nested in one of its own id, or in
        // one it holds) makes no cycle for the walks up the tree (`isInside`); the document it
        // makes is refused for the repeated id.
        if let parentID, parent[id] == nil { parent[id] = parentID }
        if e["misplaced"] == "YES" || e["ambiguous"] == "YES" { unreconciled.insert(id) }
        stored.append(StoredFrame(id: id, x: frame.x, y: frame.y, width: frame.width, height: frame.height))
        let isRoot = parentID == nil
        var members: [(String, JSON)] = [("id", .string(id))]
        if let parentID { members.append(("parent", .string(parentID))) }
        let isStack = e.name == "stackView"
        if isStack { members.append(("kind", .string("stack"))) }
        // Positioned by its frame; a `fixedFrame` view no constraint names is where Xcode's canvas keeps it.
        let byFrame =
            !isRoot && !arranged
            && (e["translatesAutoresizingMaskIntoConstraints"] != "NO" || (e["fixedFrame"] == "YES" && !constrained.contains(id)))
        if isRoot {
            members.append(("frame", object([("x", number(0)), ("y", number(0)), ("width", number(rootSize.0)), ("height", number(rootSize.1))])))
        } else if byFrame, let parentID {
            autoresizing(e, id: id, in: parentID, frame: frame, parentSize: parentSize)
        }
        if e["hidden"] == "YES" { members.append(("hidden", .bool(true))) }
        members += content(e, frame: frame, byFrame: byFrame)
        // UIStackView's fillProportionally shares by intrinsic size, and a view without one by
        // its current size: a nib's view, the frame it was stored with (Xcode's frames show it).
        if arranged, let stack = parentID.flatMap({ elements[$0] }), stack["distribution"] == "fillProportionally",
            !members.contains(where: { $0.0 == "intrinsicSize" || $0.0 == "text" })
        {
            let vertical = stack["axis"] == "vertical"
            members.append(("intrinsicSize", object([(vertical ? "height" : "width", number(vertical ? frame.height : frame.width))])))
        }
        // Where the view sits in the root (stored): the part of the root's safe area it overlaps.
        let origin: (x: Double, y: Double) = parentID.flatMap { origins[$0] }.map { (x: $0.x + frame.x, y: $0.y + frame.y) } ?? (0, 0)
        origins[id] = origin
        storedRects[id] = Frame(x: origin.x, y: origin.y, width: isRoot ? rootSize.0 : frame.width, height: isRoot ? rootSize.1 : frame.height)
        let ownSafe =
            isRoot
            ? safe
            : Device.Insets(
                top: min(frame.height, max(0, safe.top - origin.y)), left: min(frame.width, max(0, safe.left - origin.x)),
                bottom: min(frame.height, max(0, origin.y + frame.height - (rootSize.1 - safe.bottom))),
                right: min(frame.width, max(0, origin.x + frame.width - (rootSize.0 - safe.right))))
        if let m = margins(e, id: id, parentID: parentID, frame: frame, parentSize: parentSize, rootWidth: rootSize.0, safe: ownSafe) {
            members.append(("margins", m))
        }
        let subviews = (e.list("subviews") + Self.effectContent(e)).filter { Importer.isView($0) && !excluded.contains($0["id"] ?? "") }
        if isStack { members.append(("stack", stackSpec(e, arranged: subviews.compactMap { $0["id"] }))) }
        views.append(object(members))
        guides(e, owner: id, safe: ownSafe)
        for c in e.list("constraints") where c.name == "constraint" { pending.append((id, c)) }
        for s in subviews {
            guard let f = storedFrame(s, in: (frame.width, frame.height)) else { continue }
            visit(s, frame: f, parentID: id, parentSize: (frame.width, frame.height), arranged: isStack, rootSize: rootSize, safe: safe)
        }
    }

    /// Layout margins: as the document sets them, else UIKit's (a controller's root: the
    /// system minimum beside its safe area; a table cell's content view 11 above and below
    /// and the same at the sides; any other view 8). `preservesSuperviewLayoutMargins`: at
    /// least what of the superview's margins reaches over the view's edge; and a view's
    /// margins are inset by the safe area it overlaps (`insetsLayoutMarginsFromSafeArea`).
    /// nil: the engine's default (8, no safe area).
    private mutating func margins(
        _ e: XMLElement, id: String, parentID: String?, frame: Frame,
        parentSize: (width: Double, height: Double), rootWidth width: Double, safe: Device.Insets
    ) -> JSON? {
        func n(_ x: XMLElement, _ k: String) -> Double { x.number(k) ?? 0 }
        let isRoot = parentID == nil
        var m: Device.Insets
        if let insets = e.child("edgeInsets", key: "layoutMargins") {
            m = Device.Insets(top: n(insets, "top"), left: n(insets, "left"), bottom: n(insets, "bottom"), right: n(insets, "right"))
        } else if let insets = e.child("directionalEdgeInsets", key: "directionalLayoutMargins") {
            m = Device.Insets(top: n(insets, "top"), left: n(insets, "leading"), bottom: n(insets, "bottom"), right: n(insets, "trailing"))
        } else if isRoot && kind == .scene {
            let side = Device.systemMinimumMargin(width: width)
            m = Device.Insets(top: 0, left: side, bottom: 0, right: side)
        } else if isRoot && kind == .cell && controller?.name == "tableViewCell" {
            // A table cell's content view: 11 above and below and the system minimum at the
            // sides since Xcode 9.1 (iOS 11); 8 all round in documents from before.
            let side = Self.tableCellSideMargin(width: width, xcode: xcode)
            m =
                !xcode.isBefore(13529)
                ? Device.Insets(top: 11, left: side, bottom: 11, right: side) : Device.Insets(top: 8, left: 8, bottom: 8, right: 8)
        } else {
            m = Device.Insets(top: 8, left: 8, bottom: 8, right: 8)
        }
        if e["insetsLayoutMarginsFromSafeArea"] != "NO" {
            m = Device.Insets(top: m.top + safe.top, left: m.left + safe.left, bottom: m.bottom + safe.bottom, right: m.right + safe.right)
        }
        if e["preservesSuperviewLayoutMargins"] == "YES", let parentID, let p = effectiveMargins[parentID] {
            m.top = max(m.top, p.top - frame.y)
            m.left = max(m.left, p.left - frame.x)
            m.bottom = max(m.bottom, p.bottom - (parentSize.height - frame.y - frame.height))
            m.right = max(m.right, p.right - (parentSize.width - frame.x - frame.width))
        }
        effectiveMargins[id] = m
        if m == Device.Insets(top: 8, left: 8, bottom: 8, right: 8) { return nil }
        return object([("top", number(m.top)), ("left", number(m.left)), ("bottom", number(m.bottom)), ("right", number(m.right))])
    }

    /// A table cell's content view's side margins: UIKit's system minimum (16, 20 on screens
    /// wider than 380 points), but 15 on the narrower ones in Xcode 10's documents (toolsVersion
    /// 14000 to 14799): the IBCorpus development half's cells at 14113–14490 store 15 in 4
    /// repositories (320 to 375 points wide) and 20 at 414; one cell that preserves its
    /// superview's margins stores 16.
    static func tableCellSideMargin(width: Double, xcode: ToolsVersion) -> Double {
        width <= 380 && xcode.isFrom(14000) && xcode.isBefore(14800) ? 15 : Device.systemMinimumMargin(width: width)
    }

    /// A view's guides as guide views: the safe area (on a root the screen's; on another view
    /// what of the root's it overlaps, as UIKit insets a subview's), a scroll view's frame guide
    /// (its bounds) and content guide (its content area, sized by what its subviews'
    /// constraints say).
    private mutating func guides(_ e: XMLElement, owner: String, safe: Device.Insets) {
        for g in e.children where g.name == "viewLayoutGuide" {
            guard let gid = g["id"] else { continue }
            places[gid] = SourcePlace(g)
            switch g["key"] {
            case "safeArea":
                addGuide(gid, in: owner, top: safe.top, left: safe.left, bottom: safe.bottom, right: safe.right)
            case "frameLayoutGuide":
                addGuide(gid, in: owner, top: 0, left: 0, bottom: 0, right: 0)
            case "contentLayoutGuide":
                addGuide(gid, in: owner, top: 0, left: 0, bottom: nil, right: nil)
                contentGuide[owner] = gid
            default:
                note("guide \(gid) (\(g["key"] ?? "?")) of \(owner) is not laid out", id: gid, at: g)
            }
        }
        if e.name == "scrollView" || e.name == "tableView" || e.name == "collectionView" || e.name == "textView" { scrollers.insert(owner) }
    }

    /// A guide view in `owner`, its edges inset from the owner's (nil: that edge is free).
    mutating func addGuide(_ gid: String, in owner: String, top: Double, left: Double, bottom: Double?, right: Double?) {
        guideView(gid, in: owner)
        if let o = storedRects[owner], let bottom, let right {
            storedRects[gid] = Frame(x: o.x + left, y: o.y + top, width: o.width - left - right, height: o.height - top - bottom)
        }
        pin(gid, "top", to: owner, top)
        pin(gid, "left", to: owner, left)
        if let bottom { pin(gid, "bottom", to: owner, -bottom) }
        if let right { pin(gid, "right", to: owner, -right) }
    }

    private mutating func guideView(_ gid: String, in owner: String) {
        known.insert(gid)
        if places[gid] == nil { places[gid] = places[owner] }
        views.append(object([("id", .string(gid)), ("parent", .string(owner)), ("kind", .string("guide"))]))
    }

    /// `guide.attribute == owner.attribute + constant` (a constant alone without an owner),
    /// named `guide.attribute`.
    private mutating func pin(_ guide: String, _ attribute: String, to owner: String?, _ constant: Double = 0) {
        var members: [(String, JSON)] = [
            ("id", .string("\(guide).\(attribute)")), ("first", .string("\(guide).\(attribute)")), ("relation", .string("=="))
        ]
        if let owner { members.append(("second", .string("\(owner).\(attribute)"))) }
        members.append(("constant", number(constant)))
        constraints.append(object(members))
        places["\(guide).\(attribute)"] = places[guide]
    }

    /// A note on `e`, placed at its start tag.
    mutating func note(_ message: String, id: String?, at e: XMLElement) { notes.append(ImportNote(message, id: id, place: SourcePlace(e))) }

    /// iOS 7–10's top and bottom layout guides: zero-width strips at the root's left, under
    /// the status and top bars and over the bottom bar.
    private mutating func legacyGuides(rootID: String, safe: Device.Insets) {
        guard let list = controller?.child("layoutGuides") else { return }
        for g in list.children where g.name == "viewControllerLayoutGuide" {
            guard let gid = g["id"] else { continue }
            places[gid] = SourcePlace(g)
            guideView(gid, in: rootID)
            let (edge, size) = g["type"] == "bottom" ? ("bottom", safe.bottom) : ("top", safe.top)
            if let r = storedRects[rootID] { storedRects[gid] = Frame(x: 0, y: edge == "top" ? 0 : r.height - size, width: 0, height: size) }
            pin(gid, edge, to: rootID)
            pin(gid, "left", to: rootID)
            pin(gid, "height", to: nil, size)
            pin(gid, "width", to: nil)
        }
    }

    /// A visual-effect view holds what it shows in its `contentView`, outside its subviews:
    /// laid out as its subview (5 documents of the development half have one).
    static func effectContent(_ e: XMLElement) -> [XMLElement] {
        e.name == "visualEffectView" ? e.children.filter { $0["key"] == "contentView" } : []
    }

    /// The document's constraints in the order the IB file lists them (a view's own, written
    /// inside it, before its superview's), so that where required constraints conflict and the
    /// stored frames satisfy them all (`listingStoredBreaksFirst`), the first in the file breaks
    /// (the engine breaks the first listed; frames, guides, content sizes and stacks keep their
    /// places). The views' order (a superview's first) and either order reversed matched fewer
    /// conflicting roots of the IBCorpus development half. Stored frames of a conflicting root
    /// are weak evidence: the benchmark reports those roots apart.
    static func inFileOrder(_ pending: [(owner: String, element: XMLElement)]) -> [(owner: String, element: XMLElement)] {
        pending.sorted { ($0.element.line, $0.element.column) < ($1.element.line, $1.element.column) }
    }
}
