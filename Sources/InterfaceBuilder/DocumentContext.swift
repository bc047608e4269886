/// What a document says for every root of it: the device and orientation it is laid out on,
/// how, the Xcode that wrote it (some canvas rules changed with it) and its images.
struct DocumentContext {
    var device: Device?
    var landscape: Bool
    var options: ImportOptions
    var xcode: ToolsVersion
    /// The document's images by name: an image view's intrinsic size when content is measured.
    var images: [String: Size]
    var sizeClasses: SizeClasses
    /// The document lays out with safe areas (`useSafeAreas="YES"`, Xcode 9 on): else with
    /// iOS 7–10's top and bottom layout guides.
    var usesSafeAreas = true

    init(device: Device?, landscape: Bool, options: ImportOptions, xcode: ToolsVersion, images: [String: Size]) {
        (self.device, self.landscape, self.options, self.xcode, self.images) = (device, landscape, options, xcode, images)
        sizeClasses = SizeClasses(device: device, landscape: landscape)
    }

    /// The images the document names under `<resources>`, with their sizes.
    static func images(of document: XMLElement) -> [String: Size] {
        var images: [String: Size] = [:]
        for image in document.list("resources") where image.name == "image" {
            if let name = image["name"], let w = image.number("width"), let h = image.number("height") {
                images[name] = Size(width: w, height: h)
            }
        }
        return images
    }
}
