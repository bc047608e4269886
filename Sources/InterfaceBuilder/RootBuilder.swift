import JSON

/// One root's views and constraints, with UIKit's conventions made explicit: the root fills
/// the screen (or keeps its stored size), guides become guide views pinned where UIKit puts
/// them, frame-positioned views keep their stored frames.
struct RootBuilder {
    let kind: ImportedRoot.Kind
    let name: String
    let root: XMLElement
    let controller: XMLElement?
    /// A table cell stored without a frame: its table's width and its row height.
    let unstoredCellSize: Size?
    /// A table cell in a table that is a controller's view.
    let inControllersTable: Bool
    /// A cell in a scene: the scene's view's width.
    let sceneWidth: Double?
    let isOwnersView: Bool
    let context: DocumentContext
    /// The top and bottom bars over a controller's root (`Bars`).
    let bars: ControllerBars

    /// The views as read, what is made of them, what Xcode stored, and the guides made for
    /// areas constraints reach.
    var tree = ViewTree()
    var emitted = EmittedLayout()
    var stored = StoredGeometry()
    var areas = AreaGuides()

    init(found: FoundRoot, context: DocumentContext, bars: ControllerBars) {
        (kind, name, root, controller, unstoredCellSize) = (found.kind, found.name, found.view, found.owner, found.unstoredCellSize)
        (inControllersTable, sceneWidth, isOwnersView) = (found.inControllersTable, found.sceneWidth, found.isOwnersView)
        (self.context, self.bars) = (context, bars)
    }

    var device: Device? { context.device }
    var xcode: ToolsVersion { context.xcode }

    mutating func build() throws(ImportError) -> ImportedRoot {
        let cellSize = kind == .cell ? controller.flatMap { storedFrame($0) }.map(\.size) ?? unstoredCellSize : nil
        // A cell's content view written without a frame fills its cell.
        let filling = cellSize.map { Frame(width: $0.width, height: $0.height) }
        // A root without an id or a stored frame is laid out all the same, named by its place
        // and on the canvas, where it refused the whole document (one public document of 758).
        let rootID = Importer.rootID(root, cell: kind == .cell ? controller : nil) ?? "root-\(root.line)-\(root.column)"
        var frame: Frame
        if let stored = storedFrame(root, in: cellSize) ?? filling {
            frame = stored
        } else {
            frame = Self.unstoredRootFrame(device: device, landscape: context.landscape)
            emitted.note("stored without a frame: laid out on the device's screen, \(frame.width) × \(frame.height)", id: rootID, at: root)
        }
        if let cellSize, controller?.name == "tableViewCell", let laidOut = Self.templateContentViewLaidOut(frame, cell: cellSize, xcode: xcode) {
            frame = laidOut
        }
        tree.collectExclusions(root, sizeClasses: context.sizeClasses)
        tree.collectConstrained(root, owner: rootID)
        // A cell's own constraints name the cell, which is where its content view is.
        if kind == .cell, let cell = controller, let cellID = cell["id"], cellID != rootID {
            tree.aliases[cellID] = rootID
            for c in cell.list("constraints") where c.name == "constraint" { tree.held.append(HeldConstraint(owner: cellID, element: c)) }
        }
        let canvas = rootCanvas(stored: frame)
        let safe = canvas.safeArea
        visit(root, id: rootID, frame: frame, parentID: nil, arranged: false, rootSize: Size(width: canvas.width, height: canvas.height), safe: safe)
        legacyGuides(rootID: rootID, safe: safe)
        if let cellSize, let cellID = controller?["id"], cellID != rootID,
            let guide = cellBoundsGuide(cellID: cellID, rootID: rootID, content: frame, cell: cellSize)
        {
            areas.cellBounds = CellBounds(cell: cellID, guide: guide)
        }
        for held in tree.inFileOrder where !tree.excluded.contains(held.element["id"] ?? "") {
            if let json = constraint(held.element, owner: held.owner) { emitted.constraints.append(json) }
        }
        emitted.constraints = listingStoredBreaksFirst(emitted.constraints)
        let scale = xcode.frameScale(device: device?.scale ?? 2)
        return ImportedRoot(
            kind: kind, name: name, rootID: rootID, document: emitted.document(scale: scale), storedFrames: stored.frames,
            unreconciled: stored.unreconciled, notes: emitted.notes, place: SourcePlace(kind == .view ? root : controller ?? root),
            places: emitted.places, staleViews: storedStaleViews(),
            symbolViews: Set(tree.elements.filter { Self.showsSymbol($0.value) }.keys))
    }

    /// A root stored without a frame takes the device's screen, or, naming none, the 4-inch
    /// phone's that Xcode 5 to 7 simulated by default.
    static func unstoredRootFrame(device: Device?, landscape: Bool) -> Frame {
        guard let device else { return Frame(width: 320, height: 568) }
        let screen = device.screen(landscape: landscape)
        return Frame(width: screen.width, height: screen.height)
    }

    private mutating func visit(
        _ e: XMLElement, id: String? = nil, frame: Frame, parentID: String?, parentSize: Size = Size(), arranged: Bool, rootSize: Size,
        safe: Device.Insets
    ) {
        guard let id = id ?? e["id"], !tree.excluded.contains(id) else { return }
        tree.known.insert(id)
        tree.elements[id] = e
        emitted.places[id] = SourcePlace(e)
        // A view's first parent: an id used twice (a view nested in one of its own id, or in
        // one it holds) makes no cycle for the walks up the tree (`isInside`); the document it
        // makes is refused for the repeated id.
        if let parentID, tree.parent[id] == nil { tree.parent[id] = parentID }
        if e["misplaced"] == "YES" || e["ambiguous"] == "YES" { stored.unreconciled.insert(id) }
        stored.frames.append(StoredFrame(id: id, x: frame.x, y: frame.y, width: frame.width, height: frame.height))
        let isRoot = parentID == nil
        var members: [(String, JSON)] = [("id", .string(id))]
        if let parentID { members.append(("parent", .string(parentID))) }
        let isStack = e.name == "stackView"
        if isStack { members.append(("kind", .string("stack"))) }
        // Positioned by its frame; a `fixedFrame` view no constraint names is where Xcode's canvas keeps it.
        let byFrame =
            !isRoot && !arranged
            && (e["translatesAutoresizingMaskIntoConstraints"] != "NO" || (e["fixedFrame"] == "YES" && !tree.constrained.contains(id)))
        if isRoot {
            members.append(
                ("frame", object([("x", number(0)), ("y", number(0)), ("width", number(rootSize.width)), ("height", number(rootSize.height))])))
        } else if byFrame, let parentID {
            autoresizing(e, id: id, in: parentID, frame: frame, parentSize: parentSize)
        }
        if e["hidden"] == "YES" { members.append(("hidden", .bool(true))) }
        members += content(e, frame: frame, byFrame: byFrame)
        // UIStackView's fillProportionally shares by intrinsic size, and a view without one by
        // its current size: a nib's view, the frame it was stored with (Xcode's frames show it).
        if arranged, let stack = parentID.flatMap({ tree.elements[$0] }), stack["distribution"] == "fillProportionally",
            !members.contains(where: { $0.0 == "intrinsicSize" || $0.0 == "text" })
        {
            let vertical = stack["axis"] == "vertical"
            members.append(("intrinsicSize", object([(vertical ? "height" : "width", number(vertical ? frame.height : frame.width))])))
        }
        // Where the view sits in the root (stored): the part of the root's safe area it overlaps.
        let origin = parentID.flatMap { stored.origins[$0] }.map { Point(x: $0.x + frame.x, y: $0.y + frame.y) } ?? Point()
        stored.origins[id] = origin
        stored.rects[id] = Frame(
            x: origin.x, y: origin.y, width: isRoot ? rootSize.width : frame.width, height: isRoot ? rootSize.height : frame.height)
        let ownSafe =
            isRoot
            ? safe
            : Device.Insets(
                top: min(frame.height, max(0, safe.top - origin.y)), left: min(frame.width, max(0, safe.left - origin.x)),
                bottom: min(frame.height, max(0, origin.y + frame.height - (rootSize.height - safe.bottom))),
                right: min(frame.width, max(0, origin.x + frame.width - (rootSize.width - safe.right))))
        if let m = margins(e, id: id, parentID: parentID, frame: frame, parentSize: parentSize, rootWidth: rootSize.width, safe: ownSafe) {
            members.append(("margins", m))
        }
        let subviews = (e.list("subviews") + Self.effectContent(e)).filter { Importer.isView($0) && !tree.excluded.contains($0["id"] ?? "") }
        if isStack { members.append(("stack", stackSpec(e, arranged: subviews.compactMap { $0["id"] }))) }
        emitted.views.append(object(members))
        guides(e, owner: id, safe: ownSafe)
        for c in e.list("constraints") where c.name == "constraint" { tree.held.append(HeldConstraint(owner: id, element: c)) }
        for s in subviews {
            guard let f = storedFrame(s, in: frame.size) else { continue }
            visit(s, frame: f, parentID: id, parentSize: frame.size, arranged: isStack, rootSize: rootSize, safe: safe)
        }
    }

    /// A visual-effect view holds what it shows in its `contentView`, outside its subviews:
    /// laid out as its subview (5 documents of the development half have one).
    static func effectContent(_ e: XMLElement) -> [XMLElement] {
        e.name == "visualEffectView" ? e.children.filter { $0["key"] == "contentView" } : []
    }
}
