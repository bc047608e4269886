/// The devices IB documents name (`<device id="retina6_1" orientation="portrait"/>`): the
/// screen in points, its scale, and the safe-area insets Xcode's canvas gives a full-screen
/// controller in portrait (landscape turns them: the sensor housing's side on the left and
/// right, the home indicator's 21 at the bottom, no status bar).
public struct Device: Sendable, Equatable {
    public var id: String
    public var name: String
    public var width: Double
    public var height: Double
    public var scale: Double
    /// Portrait: status bar (or sensor housing) and home indicator.
    public var top: Double
    public var bottom: Double

    public struct Insets: Sendable, Equatable {
        public var top = 0.0, left = 0.0, bottom = 0.0, right = 0.0
    }

    /// The screen and safe area in an orientation.
    public func screen(landscape: Bool) -> (width: Double, height: Double, safeArea: Insets) {
        guard landscape else { return (width, height, Insets(top: top, left: 0, bottom: bottom, right: 0)) }
        if Self.keepsStatusBarInLandscape(self) { return (height, width, Insets(top: top, left: 0, bottom: bottom, right: 0)) }
        let notched = bottom > 0 && width < 700
        return (height, width, Insets(top: 0, left: notched ? top : 0, bottom: notched ? 21 : 0, right: notched ? top : 0))
    }

    /// An iPad keeps its status bar (and home indicator) in landscape, where a phone hides it:
    /// both landscape iPad documents of the IBCorpus development half (artsy/eidolon's 9.7-inch
    /// iPad, Xcode 8; cristina-cernat/ImageGallery's 12.9-inch rounded one, Xcode 14) store
    /// their views 20 and 24 points below the top.
    static func keepsStatusBarInLandscape(_ d: Device) -> Bool { d.width >= 700 }

    /// UIKit's least side margins of a controller's root view and a cell's content view on
    /// this width: 16 up to the 375-point phones, 20 wider (Xcode's canvas shows 20 on a
    /// 393-point phone's cells).
    public static func systemMinimumMargin(width: Double) -> Double { width > 380 ? 20 : 16 }

    public static let all: [Device] = [
        Device(id: "retina3_5", name: "iPhone 4s", width: 320, height: 480, scale: 2, top: 20, bottom: 0),
        Device(id: "retina4_0", name: "iPhone SE (1st generation)", width: 320, height: 568, scale: 2, top: 20, bottom: 0),
        Device(id: "retina4_7", name: "iPhone 8", width: 375, height: 667, scale: 2, top: 20, bottom: 0),
        Device(id: "retina5_5", name: "iPhone 8 Plus", width: 414, height: 736, scale: 3, top: 20, bottom: 0),
        Device(id: "retina5_9", name: "iPhone 11 Pro", width: 375, height: 812, scale: 3, top: 44, bottom: 34),
        Device(id: "retina6_1", name: "iPhone 11", width: 414, height: 896, scale: 2, top: 48, bottom: 34),
        Device(id: "retina6_5", name: "iPhone 11 Pro Max", width: 414, height: 896, scale: 3, top: 44, bottom: 34),
        Device(id: "retina5_4", name: "iPhone 12 mini", width: 375, height: 812, scale: 3, top: 50, bottom: 34),
        // IB's ids name the 6.1-inch phones the other way round from their marketing names' order:
        // `retina6_0` is the 390 × 844 one and `retina6_12` the 393 × 852 one (roots stored at
        // 393 × 852 in the `retina6_12` documents of 8 repositories of the corpus).
        Device(id: "retina6_0", name: "iPhone 12", width: 390, height: 844, scale: 3, top: 47, bottom: 34),
        Device(id: "retina6_7", name: "iPhone 12 Pro Max", width: 428, height: 926, scale: 3, top: 47, bottom: 34),
        Device(id: "retina6_12", name: "iPhone 14 Pro", width: 393, height: 852, scale: 3, top: 59, bottom: 34),
        Device(id: "retina6_72", name: "iPhone 14 Pro Max", width: 430, height: 932, scale: 3, top: 59, bottom: 34),
        Device(id: "iPad9_7", name: "iPad (9.7-inch)", width: 768, height: 1024, scale: 2, top: 20, bottom: 0),
        Device(id: "ipad9_7", name: "iPad (9.7-inch)", width: 768, height: 1024, scale: 2, top: 20, bottom: 0),
        Device(id: "ipad7_9", name: "iPad mini (6th generation)", width: 744, height: 1133, scale: 2, top: 24, bottom: 20),
        Device(id: "ipad10_2", name: "iPad (10.2-inch)", width: 810, height: 1080, scale: 2, top: 20, bottom: 0),
        Device(id: "ipad10_5", name: "iPad Pro (10.5-inch)", width: 834, height: 1112, scale: 2, top: 20, bottom: 0),
        // The 10.9-inch iPad Air's screen and insets are UIKit's (IBCorpus development half:
        // mike-atf/BullsnBears names it, Xcode 14.3; 18 views more agree with it known).
        Device(id: "ipad10_9rounded", name: "iPad Air (4th generation)", width: 820, height: 1180, scale: 2, top: 24, bottom: 20),
        Device(id: "ipad11_0rounded", name: "iPad Pro (11-inch)", width: 834, height: 1194, scale: 2, top: 24, bottom: 20),
        Device(id: "ipad12_9", name: "iPad Pro (12.9-inch)", width: 1024, height: 1366, scale: 2, top: 20, bottom: 0),
        Device(id: "ipad12_9rounded", name: "iPad Pro (12.9-inch, 3rd generation)", width: 1024, height: 1366, scale: 2, top: 24, bottom: 20)
    ]

    public static func named(_ id: String) -> Device? { all.first { $0.id == id } }
}
