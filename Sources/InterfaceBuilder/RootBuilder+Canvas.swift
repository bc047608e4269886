/// Where a root is laid out: a controller's root fills the device's screen in the orientation
/// asked for (less the bars its controller shows), another root keeps its stored size and has
/// the screen's safe area only when it is the screen's size.
extension RootBuilder {
    func rootCanvas(stored frame: Frame) -> RootCanvas {
        var canvas = screenCanvas(stored: frame)
        if Self.isTodayWidget(root) { canvas.safeArea = Self.todayWidgetInsets(device) }
        return canvas
    }

    /// A today extension's root (`simulatedAppContext="notificationCenter"`) is drawn as the
    /// widget it is, in Notification Center: no status bar and no home indicator, its safe area
    /// and top layout guide at its edges; a phone with a sensor housing keeps the housing's
    /// inset at the top. IBCorpus development half, 41 repositories with such a root: on
    /// phones with a home button (toolsVersion 11542–14490, layout guides and safe areas
    /// alike) views on the top guide are stored at the root's top in 19 documents of 19
    /// repositories (47 views; e.g. sseitov/iNear-Swift, simpleapples/VPNSwitch,
    /// trenskow/AKAIRemote), one the other way (QSCTech/qsc-mobile-ios-v3, Xcode 9.1, 7 views);
    /// on the 6.1-inch phone 44 down (amin-heidari/age-ios, Xcode 10.1;
    /// nettrash/NETTRASH.Geo, Xcode 11.3; WataruSuzuki/APNAssistant, Xcode 11.2), views on the
    /// safe area's bottom at the root's bottom in Xcode 11 (nettrash, emac62/tasksplus) and 34
    /// above it in Xcode 10 (amin-heidari, 2 views: one repository, a note).
    static func isTodayWidget(_ root: XMLElement) -> Bool {
        root["simulatedAppContext"] == "notificationCenter"
    }

    static func todayWidgetInsets(_ device: Device?) -> Device.Insets {
        guard let device, device.bottom > 0, device.isPhone else { return Device.Insets() }
        return Device.Insets(top: device.top, left: 0, bottom: 0, right: 0)
    }

    private func screenCanvas(stored frame: Frame) -> RootCanvas {
        guard let device else { return noDeviceCanvas(stored: frame) }
        let screen = device.screen(landscape: context.landscape)
        switch kind {
        case .scene:
            return sceneCanvas(stored: frame, device: device, screen: screen)
        case .view:
            let full = frame.width == screen.width && frame.height == screen.height
            let homeIndicator = Self.freeformKeepsHomeIndicator(isFreeform, screen: screen.safeArea) ?? 0
            var safe = full ? screen.safeArea : Device.Insets(top: 0, left: 0, bottom: homeIndicator, right: 0)
            if full && isOwnersView {
                let bars = Self.simulatedBars(of: root)
                (safe.top, safe.bottom) = (safe.top + bars.top, safe.bottom + bars.bottom)
            }
            return RootCanvas(width: frame.width, height: frame.height, safeArea: safe)
        case .cell:
            return RootCanvas(width: frame.width, height: frame.height, safeArea: Device.Insets())
        }
    }

    /// No device named (before Xcode 8): the stored height is the screen's, less what the root
    /// sits below; a controller's root has the 20-point status bar (unless its simulated
    /// metrics, set or inferred, say None: `Bars.inferredWithoutStatusBar`) and its bars (not
    /// the bottom one where it is stored above it: `isStoredAboveTheBottomBar`).
    private func noDeviceCanvas(stored frame: Frame) -> RootCanvas {
        let below = kind == .scene && Self.isStoredBelowTheBars(frame)
        var safe = Device.Insets()
        if kind == .scene {
            let status = bars.noStatusBar ? 0.0 : 20
            safe.top = max(0, status + bars.top - (below ? frame.y : 0))
            safe.bottom = below && Self.isStoredAboveTheBottomBar(frame, bar: bars.bottom) ? 0 : bars.bottom
        }
        return RootCanvas(width: frame.width, height: frame.height, safeArea: safe)
    }

    /// A controller's root of a document that names no device, stored below the bars (y > 0)
    /// at what is left of the screen: Xcode 4 to 6 store such roots there (y 64 and 504 high
    /// on a 568-point screen, 455 above a tab bar; 20 and 548) and lay them out at that
    /// height, the bars over them already left out: 9 repositories of the IBCorpus development
    /// half, 3 of them with views that show it (CSAILVision/DetectMeApp,
    /// GerardFogarty/Metronome-iOS, Latrops/Party-Maker), none the other way. A root stored
    /// there at a whole screen's height is not below them: Xcode lays it out on the whole
    /// screen, the status bar and the bars over its top: TuckerSherman/Swipr (375 × 667 at
    /// y 64, Xcode 6.1: views on the bottom layout guide stored 667 down, 4 views) and
    /// firatsertgoz/Bitirme (320 × 568 at y 64, Xcode 7: a table from the top layout guide
    /// stored at y 64 and 504 high), none the other way; no change on the validation half.
    static func isStoredBelowTheBars(_ frame: Frame) -> Bool {
        frame.y > 0 && frame.y < frame.height && !isScreenHeight(frame.height)
    }

    /// A root of a document naming no device stored below the top bars and above the bottom
    /// one (its height the screen's less both) is laid out above the bottom bar: nothing of
    /// it is under the bar, its bottom layout guide is at its bottom. IBCorpus development
    /// half: Latrops/Party-Maker (toolsVersion 9531, 320 × 455 at y 64 above a tab bar, 13
    /// views) and krazdax5/ETSMobile-iOS (10117, 320 × 460 above an opaque toolbar and
    /// 768 × 911 above an opaque tab bar, 4 views), none the other way; no change on the
    /// validation half.
    static func isStoredAboveTheBottomBar(_ frame: Frame, bar: Double) -> Bool {
        bar > 0 && isScreenHeight(frame.y + frame.height + bar)
    }

    static func isScreenHeight(_ h: Double) -> Bool { Device.all.contains { $0.height == h || $0.width == h } }

    private func sceneCanvas(stored frame: Frame, device: Device, screen: (width: Double, height: Double, safeArea: Device.Insets))
        -> RootCanvas
    {
        let asked = context.options.device != nil || context.options.landscape != nil
        var screen = screen
        if !asked, let size = freeformScreen { (screen.width, screen.height) = (size.width, size.height) }
        if !asked, let size = freeformScreen, Self.smallFreeformHasNoStatusBar(size, device: device) { screen.safeArea.top = 0 }
        // A root stored below the bars (y > 0) with the screen's whole height is an old
        // document's leftover: Xcode lays it out in what is left of the screen.
        var stored = (frame.width, frame.y > 0 ? min(frame.height, screen.height - frame.y) : frame.height)
        var safe = screen.safeArea
        if Self.drawsNoStatusBar(setToNone: bars.noStatusBar, xcode: context.xcode) { safe.top = 0 }
        // The bars Xcode's canvas shows over the controller (a phone's navigation bar is
        // 32 in landscape).
        safe.top += bars.top == 44 && context.landscape && device.isPhone ? 32 : bars.top
        safe.bottom += bars.bottom
        // Under an opaque navigation bar the root starts below it: Xcode lays it out there
        // even where the height it stored for the root is off (marked misplaced).
        if bars.opaqueTop && root["misplaced"] == "YES" { stored.1 = screen.height - safe.top }
        let (w, h) = asked ? (screen.width, screen.height) : stored
        if !asked && h < screen.height - 0.5 {
            let missing = screen.height - h
            if Self.isSheet(missing: missing, statusBar: screen.safeArea.top, storedY: frame.y) {
                safe.top -= screen.safeArea.top
            } else {
                // A root shorter than the screen leaves out the bars it does not extend under:
                // below the top bars (stored below them, or short by exactly their height), its
                // top inset is what of them is left over it and the rest comes off the bottom;
                // otherwise (above an opaque bottom bar, in a child controller's container) it
                // all comes off the bottom.
                let underTop = frame.y > 0 || bars.opaqueTop || abs(missing - safe.top) < 0.5
                let fromTop = underTop ? min(missing, safe.top) : 0
                safe.top -= fromTop
                safe.bottom = max(0, safe.bottom - (missing - fromTop))
            }
        }
        return RootCanvas(width: w, height: h, safeArea: safe)
    }

    /// Xcode 8 (toolsVersion below 13000; the first Xcode to name a device) draws no status bar
    /// over a controller whose simulated status bar is None, set or inferred
    /// (`Bars.inferredWithoutStatusBar`): its top layout guide is at the root's top. IBCorpus
    /// development half: IBAnimatable/IBAnimatable (DemoApp.storyboard, 12120, labels below the
    /// top guide stored 20 higher than under a status bar, 2 views) and elpwasys/Cetelem-IOS
    /// (Menu.storyboard, 12121, a header on the top guide stored at y 0, 2 views), none the
    /// other way. Not applied to later Xcodes: the development half has no root of theirs set
    /// to None whose views pin to its top guide, and with any Xcode the validation half loses
    /// views (BENCHMARKS §15: 10 views and 3 documents).
    static func drawsNoStatusBar(setToNone: Bool, xcode: ToolsVersion) -> Bool {
        setToNone && xcode.isBefore(13000)
    }

    /// A controller presented as a sheet (iOS 13's default, Xcode 11 on): its root is stored 10
    /// points shorter than the screen below the status bar, the card's top (from Xcode 14, 10
    /// shorter than the screen: `isSheetStoredTenShorter`). The status bar is
    /// not over the card, the home indicator is: Xcode's frames in 20 such roots of 4
    /// repositories (842 on a 896-point phone, 758 on a 812-point one, 872 on a 926-point one;
    /// a navigation bar in the card stored at y = 0).
    static func isSheet(missing: Double, statusBar: Double, storedY: Double) -> Bool {
        statusBar > 0 && storedY == 0 && (abs(missing - (statusBar + 10)) < 0.5 || isSheetStoredTenShorter(missing: missing))
    }

    /// From Xcode 14 a sheet's root is stored 10 points shorter than the whole screen (842 on
    /// the 852-point phone, 834 on the 844-point one), no longer below the status bar; the
    /// canvas still draws no status bar over the card, the home indicator under it. IBCorpus
    /// development half: hanamido/ios101-project4-trivia (toolsVersion 22154, 7 views 59
    /// points up), krrgit/CodePath-iOS101-Capstone (21701, 2 views), aparkl/iOS101-SP25
    /// (23504, a card's view under its 56-point bar stored at y 72, 1 view),
    /// azimmmmismail/GroSelfie and scenee/FloatingPanel (the template's 32700.99.1234; a
    /// 375 × 778 freeform card stored 768 high), 14 views of 5 repositories, none the other
    /// way.
    static func isSheetStoredTenShorter(missing: Double) -> Bool {
        abs(missing - 10) < 0.5
    }
}

extension RootBuilder {
    /// Sized freeform in Xcode's simulated metrics: a controller's `freeformSize`, a top-level
    /// view's `freeformSimulatedSizeMetrics`.
    var isFreeform: Bool {
        switch kind {
        case .scene: controller?.children.contains { $0.name == "size" && $0["key"] == "freeformSize" } == true
        case .view: root.children.contains { $0.name == "freeformSimulatedSizeMetrics" }
        case .cell: false
        }
    }

    /// A controller sized freeform (`<size key="freeformSize">`) is drawn on a screen of that
    /// size with the device's insets: its root is laid out as on the device's screen, and one
    /// stored shorter than that size leaves out what is not over it, as a root shorter than
    /// the device's screen does (a root as tall as its freeform size keeps the home indicator
    /// wherever that is shorter than the device). IBCorpus development half:
    /// arum2yo/ShoppingMall (414 × 1000 and 1300 on the 6.1-inch phone, roots stored 83
    /// shorter above a tab bar and the home indicator, tables on the safe area's bottom stored
    /// at the roots' bottoms: 2 views, 2 documents) and scenee/FloatingPanel (7 roots as tall as
    /// their 375 × 778, a view on the safe area's bottom stored 34 above the root's), none the
    /// other way. Validation half: 7844 → 7846 views, 251 → 252 documents.
    var freeformScreen: Size? {
        guard kind == .scene, let size = controller?.children.first(where: { $0.name == "size" && $0["key"] == "freeformSize" }),
            let width = size.number("width"), let height = size.number("height")
        else { return nil }
        return Size(width: width, height: height)
    }

    /// A controller sized freeform smaller than a phone with a home button (no wider, less
    /// tall) is drawn without the status bar: views on its top guide are stored at its top.
    /// IBCorpus development half: AmbiLabs/AmbiWidget-iOS (a today extension's 320 × 220
    /// whose root has no widget context, toolsVersion 14460, 14 views), Ramiz69/HackerNews
    /// (likewise, 375 × 100, 13771, 2 views) and cgranthovey/bucketList (375 × 180, 14113,
    /// 1 view) on the 4.7-inch phone; the other way an iMessage extension's 320 × 528
    /// (MotoXakep/Vkontakte_GeekBrains, 13771, 1 view). Validation half: 1 view and 1
    /// document more agree.
    static func smallFreeformHasNoStatusBar(_ size: Size, device: Device) -> Bool {
        device.bottom == 0 && device.isPhone && size.width <= device.width && size.height < device.height
    }

    /// The bars a xib's top-level view sets in its own simulated metrics (a navigation bar,
    /// 74 with a prompt; a tab bar or toolbar): Xcode draws them over a File's Owner's view
    /// (`isOwnersView`) as over a controller's root. IBCorpus development half:
    /// Automattic/pocket-casts-ios (a 375 × 667 controller's view under a simulated
    /// navigation bar, Xcode 13: a divider on its top margin stored at y 44, 3 views).
    static func simulatedBars(of view: XMLElement) -> (top: Double, bottom: Double) {
        var bars = (top: 0.0, bottom: 0.0)
        for child in view.children {
            switch (child.name, child["key"]) {
            case ("simulatedNavigationBarMetrics", "simulatedTopBarMetrics"): bars.top = child["prompted"] == "YES" ? 74 : 44
            case ("simulatedTabBarMetrics", "simulatedBottomBarMetrics"): bars.bottom = 49
            case ("simulatedToolbarMetrics", "simulatedBottomBarMetrics"): bars.bottom = 44
            default: break
            }
        }
        return bars
    }

    /// A top-level view sized freeform has the device's home-indicator inset at its bottom,
    /// whatever its height, but no status bar (a controller sized freeform has its screen:
    /// `freeformScreen`). IBCorpus development half: taiseiogura/Homelax2023 (two input
    /// accessory views of 581 x 174 on the 6.1-inch Pro, a text view 20 above the safe
    /// area's bottom stored 54 above the view's). A top-level view given the status bar as
    /// well lost views on the validation half: not kept.
    static func freeformKeepsHomeIndicator(_ freeform: Bool, screen safe: Device.Insets) -> Double? {
        freeform && safe.bottom > 0 ? safe.bottom : nil
    }
}

/// Where a root is laid out: its size and the safe area its controller's canvas gives it.
struct RootCanvas {
    var width: Double
    var height: Double
    var safeArea: Device.Insets
}
