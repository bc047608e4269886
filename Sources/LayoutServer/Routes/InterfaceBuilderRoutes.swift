import HTTPTransport
import IBCheck
import InterfaceBuilder
import JSON
import LayoutModel
import TextLayout

/// Interface Builder documents laid out as they are sent (`POST /v1/ib/layout`), and the
/// devices they are laid out on (`GET /v1/devices`).
struct InterfaceBuilderRoutes: Sendable {
    let sessions: SessionService

    func register(_ r: inout RouteTable) {
        r.on("GET", "/v1/devices") { _ in .json(200, Self.devices) }
        r.on("POST", "/v1/ib/layout") { [sessions] req throws(Problem) in
            try sessions.checkMemoryBudget()
            try checkXMLMedia(req)
            let options = try Self.options(req)
            let limits = sessions.configuration.layoutLimits
            let xml = RootLayout.xmlLimits(bytes: req.body.count, limits: limits)
            let document: ImportedDocument
            do throws(ImportError) { document = try Importer.read(req.body, options: options, limits: xml) } catch {
                var problem = Problem(error.kind == .malformed ? 400 : 422, error.message)
                problem.place = (error.line, error.column)
                throw problem
            }
            return .json(200, Self.answer(document, options: options, limits: limits))
        }
    }

    /// `device`, `orientation`, `root` and `contentSizes` from the query.
    static func options(_ req: Request) throws(Problem) -> ImportOptions {
        var o = ImportOptions(device: req.query("device"), root: req.query("root"))
        // Inter where the server has it (the Makefile and image install it), else its default family.
        o.fontFamily = TextMeasurer.shared.catalog.family(named: Importer.substituteFamily) ?? "DejaVu Sans"
        switch req.query("orientation") {
        case nil: break
        case "portrait": o.landscape = false
        case "landscape": o.landscape = true
        case let other?: throw Problem(400, "orientation is portrait or landscape, not \(other)")
        }
        if let sizes = req.query("contentSizes") {
            guard let c = ImportOptions.ContentSizes(rawValue: sizes) else {
                throw Problem(400, "contentSizes is measured or stored, not \(sizes)")
            }
            o.contentSizes = c
        }
        return o
    }

    /// Each root laid out one-shot: its frames, diagnostics and notes by IB ids, its findings
    /// placed in the XML, and its layoutd document (what `POST /v1/sessions` takes to keep it).
    /// A root layoutd refuses says why in its place; the others are answered.
    static func answer(_ document: ImportedDocument, options: ImportOptions, limits: SessionLimits) -> [UInt8] {
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("device")
        if let d = document.device {
            w.value(deviceJSON(d, landscape: document.landscape))
        } else {
            w.value(.null)
        }
        w.key("contentSizes")
        w.value(.string(options.contentSizes.rawValue))
        if options.contentSizes == .measured {
            w.key("fontSubstitute")
            w.value(.string(options.fontFamily))
        }
        w.key("roots")
        w.beginArray()
        for root in document.roots {
            w.beginObject()
            w.key("name")
            w.value(.string(root.name))
            w.key("kind")
            w.value(.string(root.kind.rawValue))
            w.key("root")
            w.value(.string(root.rootID))
            // The path `layoutd check` takes: the same layout, the same findings.
            let layout = RootLayout(root, limits: limits)
            if let error = layout.error {
                w.key("error")
                w.value(Problem(error).json)
            } else if let session = layout.framesSession {
                w.key(plain: "frames")
                WireFormat.frames(&w, of: session)
                w.key("diagnostics")
                WireFormat.diagnostics(&w, layout.diagnostics)
            }
            w.key("notes")
            w.value(.array(root.notes.map { .string($0.message) }))
            w.key("findings")
            let findings = layout.findings(storedFrames: RootLayout.comparesStoredFrames(options), tolerance: RootLayout.defaultTolerance)
            w.value(.array(findings.map(\.json)))
            w.key("document")
            w.value(root.document)
            w.endObject()
        }
        w.endArray()
        w.endObject()
        return w.bytes
    }

    static func deviceJSON(_ d: Device, landscape: Bool) -> JSON {
        let screen = d.screen(landscape: landscape)
        return .object([
            ("id", .string(d.id)), ("name", .string(d.name)), ("orientation", .string(landscape ? "landscape" : "portrait")),
            ("width", .number(screen.width)), ("height", .number(screen.height)), ("scale", .number(d.scale)),
            (
                "safeArea",
                .object([
                    ("top", .number(screen.safeArea.top)), ("left", .number(screen.safeArea.left)),
                    ("bottom", .number(screen.safeArea.bottom)), ("right", .number(screen.safeArea.right))
                ])
            )
        ])
    }

    static let devices: JSON = .object([
        ("devices", .array(Device.all.flatMap { d in [deviceJSON(d, landscape: false), deviceJSON(d, landscape: true)] }))
    ])
}
