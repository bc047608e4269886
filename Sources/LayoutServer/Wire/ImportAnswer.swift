import IBCheck
import InterfaceBuilder
import JSON
import LayoutModel

/// The answer of `POST /v1/ib/layout`. Each root is laid out one-shot as it is written (one
/// at a time, so that only one root's engine is alive): its frames, diagnostics and notes by
/// IB ids, its findings placed in the XML, and its layoutd document (what `POST /v1/sessions`
/// takes to keep it). A root layoutd refuses says why in its place; the others are answered.
enum ImportAnswer {
    static func encode(_ imported: ImportedLayouts) -> [UInt8] {
        let (document, options) = (imported.document, imported.options)
        var w = JSONWriter(capacity: 4096)
        w.beginObject()
        w.key("device")
        if let d = document.device {
            w.value(DeviceList.json(d, landscape: document.landscape))
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
            let layout = imported.layOut(root)
            if let error = layout.error {
                w.key("error")
                w.value(Problem(error).json)
            } else {
                w.key(plain: "frames")
                WireFormat.frames(&w, of: layout)
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
}
