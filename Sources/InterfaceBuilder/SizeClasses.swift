/// The size classes a layout is made in, and which of IB's `<variation key="…">` apply to
/// them: `default` is the any-width, any-height configuration; a key such as
/// `heightClass=compact` or `heightClass=regular-widthClass=compact` applies when each of its
/// conditions holds.
struct SizeClasses: Equatable {
    var compactWidth: Bool
    var compactHeight: Bool
    /// Any width and any height: no variation applies (`isAnyWidthAnyHeight`).
    var anyWidthAnyHeight = false

    /// UIKit's: a phone is compact in width (but a Plus or Max phone in landscape) and compact
    /// in height in landscape; an iPad is regular in both. With no device, any width and any
    /// height.
    init(device: Device?, landscape: Bool) {
        guard let device, device.width < 700 else {
            (compactWidth, compactHeight) = (false, false)
            anyWidthAnyHeight = Self.isAnyWidthAnyHeight(device: device)
            return
        }
        compactWidth = !(landscape && device.width >= 414)
        compactHeight = landscape
    }

    /// A document naming no device (Xcode 6 to 8 before a device was chosen) stores the
    /// any-width, any-height configuration's frames: a view or constraint its
    /// `<variation key="default">` excludes is not installed there (stored at IB's placeholder
    /// frame, a label's −42, −21, 42 × 21), whatever a size class's variation includes. No
    /// variation applies, as none applies in Xcode's canvas. IBCorpus development half: the 4
    /// repositories whose no-device documents have size-class variations; 3 of them
    /// (lkvsky/kindr, mansoorriaaz/Zonnexions, mcrgdlexi/Brain_Power; Xcode 6.3 and 8.0, 6
    /// documents) agree so where a phone's compact width made 42 views disagree (31 of them not
    /// installed, so not compared), the fourth the same either way; validation half: 36 views
    /// fewer disagreeing (none installed), one document more agreeing fully.
    static func isAnyWidthAnyHeight(device: Device?) -> Bool { device == nil }

    func applies(_ key: String) -> Bool {
        guard key != "default", !anyWidthAnyHeight else { return false }
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
