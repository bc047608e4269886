import HTTPTransport
import InterfaceBuilder
import TextLayout

/// How `POST /v1/ib/layout` is asked to import: `device`, `orientation`, `root` and
/// `contentSizes` from the query.
enum ImportQuery {
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
}

extension Problem {
    /// A document the importer refused: 400 when it is not well-formed XML, 422 when it is not
    /// one layoutd can lay out; placed at the element's line and column.
    init(_ error: ImportError) {
        self.init(error.kind == .malformed ? 400 : 422, error.message)
        place = (error.line, error.column)
    }
}
