import JSON

/// Interface Builder documents (`.storyboard`, `.xib`) into layoutd documents, one a root:
/// the views under it with IB's ids, their constraints, and what UIKit supplies that the file
/// does not say (the device's safe area, system margins, scroll views' content area).
public enum Importer {
    /// The family every IB font is set in when labels are measured: the closest to the system
    /// font (San Francisco) a Debian server has. Inter's vertical metrics are within 2% of San
    /// Francisco's and its text about 3.5% wider (DejaVu Sans: 15%); `contentSizes=stored`
    /// reproduces Xcode's canvas exactly.
    public static let substituteFamily = "Inter"

    public static func read(_ bytes: [UInt8], options: ImportOptions = ImportOptions(), limits: XMLLimits = XMLLimits())
        throws(ImportError) -> ImportedDocument
    {
        let root: XMLElement
        do { root = try XMLTree.parse(bytes, limits: limits) } catch { throw ImportError(error) }
        guard root.name == "document" else {
            throw ImportError(message: "not an Interface Builder document: its root element is <\(root.name)>", line: root.line, column: root.column)
        }
        if let runtime = root["targetRuntime"], !runtime.hasPrefix("iOS") && runtime != "AppleTV" {
            throw ImportError(
                message: "targetRuntime \(runtime): only UIKit documents (iOS, tvOS) are laid out", line: root.line, column: root.column)
        }
        try NumericAttributes.check(root)
        let deviceElement = root.child("device")
        let deviceID = options.device ?? deviceElement?["id"]
        let xcode = ToolsVersion(root["toolsVersion"])
        var device: Device? = nil
        var documentNotes: [ImportNote] = []
        if let deviceID {
            device = Device.named(deviceID)?.drawn(by: xcode)
            if device == nil && options.device != nil {
                throw ImportError(message: "unknown device \(deviceID) (GET /v1/devices lists them)", line: 1, column: 1)
            }
            if device == nil, let e = deviceElement {
                let message = "device \(deviceID) is not one layoutd knows: roots keep their stored sizes, with a 20-point status bar"
                documentNotes.append(ImportNote(message, id: nil, place: SourcePlace(e)))
            }
        }
        let landscape = options.landscape ?? (deviceElement?["orientation"] == "landscape")
        var roots: [ImportedRoot] = []
        let lists = objectLists(root)
        let bars = Bars(objects: lists)
        // The images the document names, with their sizes: an image view's content.
        var images: [String: (Double, Double)] = [:]
        for image in root.list("resources") where image.name == "image" {
            if let name = image["name"], let w = image.number("width"), let h = image.number("height") {
                images[name] = (w, h)
            }
        }
        for found in RootDiscovery.roots(in: lists) {
            let (kind, name, view, controller) = (found.kind, found.name, found.view, found.owner)
            if let only = options.root, only != name && only != view["id"] { continue }
            var builder = RootBuilder(kind: kind, root: view, controller: controller, device: device, landscape: landscape, options: options)
            if kind == .scene { builder.bars = bars.of(name) }
            builder.images = images
            builder.xcode = xcode
            builder.unstoredCellSize = found.unstoredCellSize
            var imported = try builder.build(name: name)
            imported.notes = documentNotes + imported.notes
            roots.append(imported)
        }
        if let only = options.root, roots.isEmpty {
            throw ImportError(message: "no scene, controller or view \(only) in the document", line: 1, column: 1)
        }
        return ImportedDocument(device: device, landscape: landscape, roots: roots)
    }

    /// `<objects>` of every scene of a storyboard, or of a xib.
    private static func objectLists(_ document: XMLElement) -> [[XMLElement]] {
        if let scenes = document.child("scenes") { return scenes.children.compactMap { $0.child("objects")?.children } }
        return document.child("objects").map { [$0.children] } ?? []
    }

    static func isCell(_ e: XMLElement) -> Bool { e.name == "tableViewCell" || e.name == "collectionViewCell" }

    /// A view element: it has an id and a stored frame (guides, constraints and resources do not).
    static func isView(_ e: XMLElement) -> Bool { e["id"] != nil && hasFrame(e) }

    /// A root's id: its own, or (a collection cell's content view has none) its cell's with `-content`.
    static func rootID(_ view: XMLElement, cell: XMLElement?) -> String? { view["id"] ?? cell?["id"].map { "\($0)-content" } }
}

/// Stored frame of a view element: `<rect key="frame" x y width height/>`, or Xcode 8's
/// `<frame key="frameInset">`: insets from the parent's edges (`minX`, `maxY`…) with the size
/// when it is fixed.
func storedFrame(_ e: XMLElement, in parent: (width: Double, height: Double)? = nil) -> Frame? {
    if let r = e.child("rect", key: "frame") {
        func n(_ k: String) -> Double { r.number(k) ?? 0 }
        return Frame(x: n("x"), y: n("y"), width: n("width"), height: n("height"))
    }
    guard let f = e.child("frame", key: "frameInset") else { return nil }
    func n(_ k: String) -> Double? { f.number(k) }
    let (pw, ph) = parent ?? (n("width") ?? 0, n("height") ?? 0)
    let width = n("width") ?? max(0, pw - (n("minX") ?? 0) - (n("maxX") ?? 0))
    let height = n("height") ?? max(0, ph - (n("minY") ?? 0) - (n("maxY") ?? 0))
    let x = n("minX") ?? n("maxX").map { pw - $0 - width } ?? 0
    let y = n("minY") ?? n("maxY").map { ph - $0 - height } ?? 0
    return Frame(x: x, y: y, width: width, height: height)
}

/// A view element's stored frame's presence, in either of IB's forms.
func hasFrame(_ e: XMLElement) -> Bool { e.child("rect", key: "frame") != nil || e.child("frame", key: "frameInset") != nil }

func number(_ x: Double) -> JSON { .number(x) }

func object(_ members: [(String, JSON)]) -> JSON { .object(members.map { (key: $0.0, value: $0.1) }) }
