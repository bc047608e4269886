import LayoutModel
import Rendering

extension RootLayout {
    /// The layout drawn as `POST /v1/render` draws one (labels at the widths they were wrapped
    /// at here, ambiguous and conflicting views marked); nil for a refused root.
    func picture(named name: String) -> Picture? {
        guard let session else { return nil }
        let sketch = session.sketch().map { v in
            var v = v
            if v.text != nil, let widths = wrapWidths { v.wrapWidth = widths[v.id] }
            return v
        }
        return try? Picture(name: name, sketch: sketch, frames: frames, diagnostics: diagnostics, viewsOf: session.views(ofConstraint:))
    }
}
