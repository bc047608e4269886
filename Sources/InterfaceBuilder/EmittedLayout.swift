import JSON

/// What the importer makes of a root: the layoutd document's views and constraints, the notes
/// on what it left out, and where in the XML each id it made comes from.
struct EmittedLayout {
    var views: [JSON] = []
    var constraints: [JSON] = []
    var notes: [ImportNote] = []
    /// Where each id of the document comes from (`ImportedRoot.places`).
    var places: [String: SourcePlace] = [:]

    /// A note on `e`, placed at its start tag.
    mutating func note(_ message: String, id: String?, at e: XMLElement) { notes.append(ImportNote(message, id: id, place: SourcePlace(e))) }

    /// The layoutd document at the device's scale.
    func document(scale: Double) -> JSON {
        object([("options", object([("scale", number(scale))])), ("views", .array(views)), ("constraints", .array(constraints))])
    }
}
