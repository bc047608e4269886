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
        let bars = Bars(objects: lists, xcode: xcode)
        var context = DocumentContext(
            device: device, landscape: landscape, options: options, xcode: xcode, images: DocumentContext.images(of: root))
        context.usesSafeAreas = root["useSafeAreas"] == "YES"
        for found in RootDiscovery.roots(in: lists) {
            if let only = options.root, only != found.name && only != found.view["id"] { continue }
            var builder = RootBuilder(found: found, context: context, bars: found.kind == .scene ? bars.of(found.name) : ControllerBars())
            var imported = try builder.build()
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
