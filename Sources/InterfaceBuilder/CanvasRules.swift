/// How a document's Xcode drew a device's canvas where it differs from the device: one
/// function per rule, each with the evidence it was found on (the corpus's development half,
/// `Benchmarks/IBCorpus`, and the documents the importer was built on).
extension Device {
    /// The device as the canvas of the Xcode that wrote the document shows it.
    func drawn(by xcode: ToolsVersion) -> Device {
        var d = self
        d.top = Self.notchedStatusBarBeforeXcode14(d, xcode) ?? d.top
        d.top = Self.noStatusBarOnHomeButtonDevices(d, xcode) ?? d.top
        if let doubled = Self.doubledInsetsOfXcode26(d, xcode) { (d.top, d.bottom) = doubled }
        return d
    }

    /// A phone with a sensor housing had a 44-point status bar on Xcode's canvas up to Xcode
    /// 14.0 (toolsVersion 21225), whatever its screen's own: the 6.1-inch phone's 44 in 13
    /// repositories at 15400–19529 and 48 after; the 6.7-inch phone's 44 at 19162.
    static func notchedStatusBarBeforeXcode14(_ d: Device, _ xcode: ToolsVersion) -> Double? {
        d.isPhone && d.bottom > 0 && d.top > 44 && xcode.isBefore(21225) ? 44 : nil
    }

    /// Xcode 11 to 14.2 (toolsVersion 14800 to 21700) draw a device with a home button without
    /// a status bar: its safe area starts at the top of the screen. Stored frames of 5
    /// repositories' phones (toolsVersion 14868–21507: navigation bars stored at y = 0, views 0
    /// below the safe area's top); Xcode 10 (14113–14490, 7 repositories) and Xcode 14.3 on
    /// (21701, 22505, 24506: 2 repositories) store the bar at y = 20. An iPad with a home
    /// button too: Senior-Design-Team-15/Senior-Design-App (the 10.5-inch iPad in landscape,
    /// Xcode 11: views on the safe area's top stored 50 down, below the iPad's navigation bar
    /// alone, 2 views), none the other way; no change on the validation half.
    static func noStatusBarOnHomeButtonDevices(_ d: Device, _ xcode: ToolsVersion) -> Double? {
        d.bottom == 0 && xcode.isFrom(14800) && xcode.isBefore(21701) ? 0 : nil
    }

    /// Xcode 26 gives a phone with a sensor housing twice its insets (48 -> 96, 59 -> 118,
    /// home indicator 34 -> 68), as its documents in public repositories store them; a
    /// template's version is no Xcode 26.
    static func doubledInsetsOfXcode26(_ d: Device, _ xcode: ToolsVersion) -> (top: Double, bottom: Double)? {
        xcode.isXcode26OrLater && d.bottom > 0 ? (2 * d.top, 2 * d.bottom) : nil
    }

    var isPhone: Bool { width < 700 }

    /// A table cell's content view's layout margins: 11 above and below and the system
    /// minimum at the sides since Xcode 9.1 (iOS 11, toolsVersion 13529), 8 all round before.
    static func tableCellContentMargins(width: Double, xcode: ToolsVersion, inControllersTable: Bool = false) -> Insets {
        if let old = eightPointCellMarginsBeforeXcode9_1(xcode) { return old }
        let side = controllersTableCellSideMargin(width: width, inControllersTable) ?? tableCellSideMargin(width: width, xcode: xcode)
        return Insets(top: 11, left: side, bottom: 11, right: side)
    }

    /// Before Xcode 9.1 (toolsVersion 13529) a table cell's content view had UIView's 8 all round.
    static func eightPointCellMarginsBeforeXcode9_1(_ xcode: ToolsVersion) -> Insets? {
        xcode.isBefore(13529) ? Insets(top: 8, left: 8, bottom: 8, right: 8) : nil
    }

    /// A table cell's content view's side margins: UIKit's system minimum (16, 20 on screens
    /// wider than 380 points), but 15 on the narrower ones in Xcode 10's documents (toolsVersion
    /// 14000 to 14799): the IBCorpus development half's cells at 14113–14490 store 15 in 4
    /// repositories (320 to 375 points wide) and 20 at 414. Not in a table that is a
    /// controller's view (`controllersTableCellSideMargin`).
    static func tableCellSideMargin(width: Double, xcode: ToolsVersion) -> Double {
        width <= 380 && xcode.isFrom(14000) && xcode.isBefore(14800) ? 15 : systemMinimumMargin(width: width)
    }

    /// Since iOS 11 a cell's content view takes its table's layout margins, and a table that
    /// is a controller's view (a table view controller's) has the controller's system minimum
    /// margins (16, 20 on screens wider than 380 points); a table inside another view has
    /// UIView's 8, and its cells keep UIKit's older 15 on narrow screens in Xcode 10's canvas
    /// (`tableCellSideMargin`). IBCorpus development half, Xcode 10 (14113–14490), cells
    /// whose views pin to their margins at 335–375 points: the 3 in a controller's table
    /// store 16 (KnightHacks/KnightHacks-Mobile-2.0, OceanLabs/Photobook-iOS), those in an
    /// embedded table 15 (4 repositories, 6 cells; OceanLabs's too). Later Xcodes give both
    /// the system minimum.
    static func controllersTableCellSideMargin(width: Double, _ inControllersTable: Bool) -> Double? {
        inControllersTable ? systemMinimumMargin(width: width) : nil
    }
}
