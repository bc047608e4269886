/// The size classes a layout is made in, and which of IB's `<variation key="…">` apply to
/// them: `default` is the any-width, any-height configuration; a key such as
/// `heightClass=compact` or `heightClass=regular-widthClass=compact` applies when each of its
/// conditions holds.
struct SizeClasses: Equatable {
    var compactWidth: Bool
    var compactHeight: Bool

    /// UIKit's: a phone is compact in width (but a Plus or Max phone in landscape) and compact
    /// in height in landscape; an iPad is regular in both. With no device, a phone in portrait.
    init(device: Device?, landscape: Bool) {
        guard let device, device.width < 700 else {
            (compactWidth, compactHeight) = (device == nil, false)
            return
        }
        compactWidth = !(landscape && device.width >= 414)
        compactHeight = landscape
    }

    func applies(_ key: String) -> Bool {
        guard key != "default" else { return false }
        for condition in key.split(separator: "-") {
            let parts = condition.split(separator: "=")
            guard parts.count == 2 else { return false }
            switch (parts[0], parts[1]) {
            case ("widthClass", let v): if (v == "compact") != compactWidth { return false }
            case ("heightClass", let v): if (v == "compact") != compactHeight { return false }
            default: return false  // an idiom (mac), a gamut or anything else: not this layout's
            }
        }
        return true
    }
}
