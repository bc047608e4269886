import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// The device table and the canvas rules that depend on the Xcode that wrote a document
/// (`CanvasRules.swift`, `RootBuilder+Canvas.swift`, `Bars.swift`), on documents written for
/// these tests: a view pinned to the safe area's top and one to its bottom show the insets.
final class CanvasRuleTests: XCTestCase {
    /// Two 10-point views in the root `root`: `t` under the safe area's top, `b` on its bottom.
    static let pinnedToTheSafeArea = """
        <subviews>
            <view translatesAutoresizingMaskIntoConstraints="NO" id="t"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
            <view translatesAutoresizingMaskIntoConstraints="NO" id="b"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
        </subviews>
        <viewLayoutGuide key="safeArea" id="safe"/>
        <constraints>
            <constraint firstItem="t" firstAttribute="top" secondItem="safe" secondAttribute="top" id="c1"/>
            <constraint firstItem="t" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
            <constraint firstItem="t" firstAttribute="width" constant="10" id="c3"/>
            <constraint firstItem="t" firstAttribute="height" constant="10" id="c4"/>
            <constraint firstItem="b" firstAttribute="bottom" secondItem="safe" secondAttribute="bottom" id="c5"/>
            <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c6"/>
            <constraint firstItem="b" firstAttribute="width" constant="10" id="c7"/>
            <constraint firstItem="b" firstAttribute="height" constant="10" id="c8"/>
        </constraints>
        """

    /// A storyboard whose controller `vc` has a root of `size` with two 10-point views: `t`
    /// under the safe area's top, `b` on its bottom; `more` adds scenes.
    static func storyboard(
        tools: String, device: String, size: (Double, Double), controller: String = "", more: String = ""
    ) -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                <device id="\(device)" orientation="portrait" appearance="light"/>
                <scenes><scene sceneID="s"><objects>
                    <viewController id="vc" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="root">
                            <rect key="frame" x="0.0" y="0.0" width="\(size.0)" height="\(size.1)"/>
                            \(pinnedToTheSafeArea)
                        </view>
                        \(controller)
                    </viewController>
                </objects></scene>
                \(more)
                </scenes>
            </document>
            """.utf8)
    }

    /// The root `vc`'s size and the safe area's top and bottom insets, as laid out.
    func insets(_ bytes: [UInt8], landscape: Bool? = nil) throws -> (size: [Double], top: Double, bottom: Double, notes: [ImportNote]) {
        let options = ImportOptions(landscape: landscape, contentSizes: .stored)
        let root = try XCTUnwrap(try Importer.read(bytes, options: options).roots.first { $0.name == "vc" })
        let frames = try laidOut(root)
        let r = try XCTUnwrap(frames["root"]), t = try XCTUnwrap(frames["t"]), b = try XCTUnwrap(frames["b"])
        return ([r.width, r.height], t.y, r.height - b.y - b.height, root.notes)
    }

    func testTheSixPointOneInchPhonesAndTheIPadMini() throws {
        var i = try insets(Self.storyboard(tools: "21701", device: "retina6_12", size: (393, 852)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[393, 852], [59, 34]])
        i = try insets(Self.storyboard(tools: "21701", device: "retina6_0", size: (390, 844)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[390, 844], [47, 34]])
        i = try insets(Self.storyboard(tools: "22505", device: "ipad7_9", size: (744, 1133)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[744, 1133], [24, 20]])
        i = try insets(Self.storyboard(tools: "22505", device: "ipad10_9rounded", size: (820, 1180)))
        XCTAssertEqual([i.size, [i.top, i.bottom], [Double(i.notes.count)]], [[820, 1180], [24, 20], [0]])
    }

    /// A device the table lacks is said, not silently replaced.
    func testAnUnknownDeviceIsNoted() throws {
        let i = try insets(Self.storyboard(tools: "22505", device: "retina9_9", size: (400, 900)))
        XCTAssertEqual(i.size, [400, 900])
        XCTAssertTrue(i.notes.contains { $0.message.contains("retina9_9") }, "\(i.notes)")
    }

    /// Xcode 11 to 14.2 draw a phone or an iPad with a home button without a status bar;
    /// Xcode 10 and Xcode 14.3 on with it. Sensor-housing phones have 44 before Xcode 14.0.
    func testStatusBarsByXcode() throws {
        for (tools, top) in [("14490.70", 20.0), ("15505", 0), ("17156", 0), ("21507", 0), ("21701", 20), ("22505", 20)] {
            XCTAssertEqual(try insets(Self.storyboard(tools: tools, device: "retina4_7", size: (375, 667))).top, top, tools)
            XCTAssertEqual(try insets(Self.storyboard(tools: tools, device: "ipad10_5", size: (834, 1112))).top, top, tools)
        }
        XCTAssertEqual(try insets(Self.storyboard(tools: "19162", device: "retina6_7", size: (428, 926))).top, 44)
        XCTAssertEqual(try insets(Self.storyboard(tools: "21225", device: "retina6_7", size: (428, 926))).top, 47)
    }

    /// The templates' `32700.99.1234` is no Xcode 26: insets are not doubled.
    func testATemplatesToolsVersionIsNoXcode26() throws {
        var i = try insets(Self.storyboard(tools: "32700.99.1234", device: "retina6_1", size: (414, 896)))
        XCTAssertEqual([i.top, i.bottom], [48, 34])
        i = try insets(Self.storyboard(tools: "24127", device: "retina6_1", size: (414, 896)))
        XCTAssertEqual([i.top, i.bottom], [96, 68])
    }

    /// A sheet's card is 10 points below the status bar (Xcode 11 to 13), or its root stored 10
    /// points shorter than the screen (Xcode 14 on): no status bar over it, the home indicator
    /// still under it.
    func testASheetHasNoStatusBar() throws {
        var i = try insets(Self.storyboard(tools: "16096", device: "retina6_1", size: (414, 842)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[414, 842], [0, 34]])
        i = try insets(Self.storyboard(tools: "15505", device: "retina5_9", size: (375, 758)))
        XCTAssertEqual([i.top, i.bottom], [0, 34])
        // Xcode 14 on: the card's root stored 10 points shorter than the screen.
        i = try insets(Self.storyboard(tools: "22155", device: "retina6_12", size: (393, 842)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[393, 842], [0, 34]])
        i = try insets(Self.storyboard(tools: "23504", device: "retina6_0", size: (390, 834)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[390, 834], [0, 34]])
    }

    /// A scene of a navigation controller `id` whose root is `root`, its bar stored `height`
    /// tall and `width` wide.
    static func navigationScene(_ id: String = "nav", root: String = "vc", height: Int = 44, width: Int = 375) -> String {
        """
        <scene sceneID="\(id)-scene"><objects>
            <navigationController id="\(id)" sceneMemberID="viewController">
                <navigationBar key="navigationBar" contentMode="scaleToFill" id="\(id)-bar"><rect key="frame" x="0.0" y="20" width="\(width)" height="\(height)"/></navigationBar>
                <connections><segue destination="\(root)" kind="relationship" relationship="rootViewController" id="\(id)-root"/></connections>
            </navigationController>
        </objects></scene>
        """
    }

    /// A navigation controller's simulated tab bar is under its whole stack.
    func testANavigationControllersSimulatedTabBarIsItsStacks() throws {
        let nav = """
            <scene sceneID="n"><objects>
                <navigationController navigationBarHidden="YES" id="nav" sceneMemberID="viewController">
                    <tabBarItem key="tabBarItem" title="" id="item"/>
                    <simulatedTabBarMetrics key="simulatedBottomBarMetrics"/>
                    <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar">
                        <rect key="frame" x="0.0" y="20" width="375" height="44"/>
                    </navigationBar>
                    <connections><segue destination="vc" kind="relationship" relationship="rootViewController" id="root-segue"/></connections>
                </navigationController>
            </objects></scene>
            """
        var i = try insets(Self.storyboard(tools: "12121", device: "retina4_7", size: (375, 667), more: nav))
        XCTAssertEqual([i.top, i.bottom], [20, 49])
        // A member's own metrics win.
        i = try insets(
            Self.storyboard(tools: "12121", device: "retina4_7", size: (375, 667), controller: #"<nil key="simulatedBottomBarMetrics"/>"#, more: nav))
        XCTAssertEqual([i.top, i.bottom], [20, 0])
    }

    /// A navigation bar's stored height counts where it is one UIKit gives a bar (a sheet's
    /// 56, an iPad's 50); another is a leftover, and the canvas draws 44.
    func testANavigationBarsStoredHeight() throws {
        for (height, top) in [(44, 64.0), (56, 76), (1000, 64), (50, 64)] {
            let i = try insets(Self.storyboard(tools: "12121", device: "retina4_7", size: (375, 667), more: Self.navigationScene(height: height)))
            XCTAssertEqual(i.top, top, "\(height)")
        }
        let i = try insets(
            Self.storyboard(tools: "14490.70", device: "ipad9_7", size: (768, 1024), more: Self.navigationScene(height: 50, width: 768)))
        XCTAssertEqual(i.top, 70)
    }

    /// A controller in two navigation stacks takes the bar of the first in the document, the
    /// same from one run to the next (it went by the order of a dictionary, which each process
    /// seeds anew).
    func testAControllerInTwoStacksTakesTheFirstStacksBar() throws {
        let sheetFirst = try insets(
            Self.storyboard(
                tools: "12121", device: "retina4_7", size: (375, 667), more: Self.navigationScene("n1", height: 56) + Self.navigationScene("n2")))
        let plainFirst = try insets(
            Self.storyboard(
                tools: "12121", device: "retina4_7", size: (375, 667), more: Self.navigationScene("n1") + Self.navigationScene("n2", height: 56)))
        XCTAssertEqual([sheetFirst.top, plainFirst.top], [76, 64])
    }

    /// What a controller shows is pushed onto its navigation stack: the bar over it is over
    /// what it shows, and over the tabs of a tab bar controller it shows.
    func testWhatAControllerShowsHasItsNavigationBar() throws {
        let simulated = """
            <scene sceneID="a"><objects>
                <viewController id="a" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="a-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                    <simulatedNavigationBarMetrics key="simulatedTopBarMetrics" prompted="NO"/>
                    <connections><segue destination="vc" kind="show" id="a-show"/></connections>
                </viewController>
            </objects></scene>
            """
        var i = try insets(Self.storyboard(tools: "13771", device: "retina4_7", size: (375, 667), more: simulated))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        let tabs =
            Self.navigationScene(root: "a") + """
                <scene sceneID="a"><objects>
                    <viewController id="a" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="a-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                        <connections><segue destination="tabs" kind="show" id="a-show"/></connections>
                    </viewController>
                </objects></scene>
                <scene sceneID="t"><objects>
                    <tabBarController id="tabs" sceneMemberID="viewController">
                        <tabBar key="tabBar" contentMode="scaleToFill" id="tab-bar"><rect key="frame" x="0.0" y="0.0" width="375" height="49"/></tabBar>
                        <connections><segue destination="vc" kind="relationship" relationship="viewControllers" id="tab-segue"/></connections>
                    </tabBarController>
                </objects></scene>
                """
        i = try insets(Self.storyboard(tools: "21701", device: "retina4_7", size: (375, 667), more: tabs))
        XCTAssertEqual([i.top, i.bottom], [64, 49])
        // Its own simulated metrics win.
        i = try insets(
            Self.storyboard(
                tools: "13771", device: "retina4_7", size: (375, 667), controller: #"<nil key="simulatedTopBarMetrics"/>"#, more: simulated))
        XCTAssertEqual([i.top, i.bottom], [20, 0])
    }

    /// A navigation controller's own show segue pushes onto its stack: the bar is over the
    /// controller it shows, as over its root.
    func testWhatANavigationControllerShowsHasItsBar() throws {
        let nav = """
            <scene sceneID="n"><objects>
                <navigationController id="nav" sceneMemberID="viewController">
                    <navigationBar key="navigationBar" contentMode="scaleToFill" id="nav-bar"><rect key="frame" x="0.0" y="20" width="375" height="44"/></navigationBar>
                    <connections>
                        <segue destination="a" kind="relationship" relationship="rootViewController" id="nav-root"/>
                        <segue destination="vc" kind="show" id="nav-show"/>
                    </connections>
                </navigationController>
            </objects></scene>
            <scene sceneID="a"><objects>
                <viewController id="a" sceneMemberID="viewController">
                    <view key="view" contentMode="scaleToFill" id="a-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                </viewController>
            </objects></scene>
            """
        var i = try insets(Self.storyboard(tools: "13771", device: "retina4_7", size: (375, 667), more: nav))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        // Presented from it, not pushed: no bar.
        i = try insets(
            Self.storyboard(
                tools: "13771", device: "retina4_7", size: (375, 667),
                more: nav.replacingOccurrences(of: #"kind="show""#, with: #"kind="presentation""#)))
        XCTAssertEqual([i.top, i.bottom], [20, 0])
    }

    /// A stack's root that hides its navigation bar in its simulated metrics passes that to
    /// what it pushes: no bar over the pushed controller, and none over what that one pushes.
    func testWhatAControllerWithoutATopBarShowsHasNone() throws {
        func hidden(then: String) -> String {
            Self.navigationScene(root: "a") + """
                <scene sceneID="a"><objects>
                    <viewController id="a" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="a-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                        <nil key="simulatedTopBarMetrics"/>
                        <connections><segue destination="\(then)" kind="show" id="a-show"/></connections>
                    </viewController>
                </objects></scene>
                """
        }
        var i = try insets(Self.storyboard(tools: "13196", device: "retina4_7", size: (375, 667), more: hidden(then: "vc")))
        XCTAssertEqual([i.top, i.bottom], [20, 0])
        let twice =
            hidden(then: "m") + """
                <scene sceneID="m"><objects>
                    <viewController id="m" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="m-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                        <connections><segue destination="vc" kind="show" id="m-show"/></connections>
                    </viewController>
                </objects></scene>
                """
        i = try insets(Self.storyboard(tools: "13196", device: "retina4_7", size: (375, 667), more: twice))
        XCTAssertEqual([i.top, i.bottom], [20, 0])
        // Pushed from a stack's root that keeps the bar, it has the bar.
        i = try insets(Self.storyboard(tools: "13196", device: "retina4_7", size: (375, 667), more: Self.navigationScene(root: "vc")))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        // Its own simulated navigation bar wins.
        i = try insets(
            Self.storyboard(
                tools: "13196", device: "retina4_7", size: (375, 667),
                controller: #"<simulatedNavigationBarMetrics key="simulatedTopBarMetrics" prompted="NO"/>"#, more: hidden(then: "vc")))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
    }

    /// Before Xcode 10, a controller shown from one whose own simulated metrics set a bottom
    /// bar has that bar (through what it shows in turn), over its stack's; Xcode 10 on, not.
    func testWhatAControllerWithABottomBarShowsHasIt() throws {
        /// A stack whose root `a` sets `bar` and shows `m`, which shows `vc`.
        func shown(bar: String) -> String {
            Self.navigationScene(root: "a") + """
                <scene sceneID="a"><objects>
                    <viewController id="a" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="a-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                        \(bar)
                        <connections><segue destination="m" kind="show" id="a-show"/></connections>
                    </viewController>
                </objects></scene>
                <scene sceneID="m"><objects>
                    <viewController id="m" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="m-root"><rect key="frame" x="0.0" y="0.0" width="375" height="667"/></view>
                        <connections><segue destination="vc" kind="push" id="m-show"/></connections>
                    </viewController>
                </objects></scene>
                """
        }
        let tabBar = #"<simulatedTabBarMetrics key="simulatedBottomBarMetrics"/>"#
        let toolbar = #"<simulatedToolbarMetrics key="simulatedBottomBarMetrics"/>"#
        var i = try insets(Self.storyboard(tools: "12121", device: "retina4_7", size: (375, 667), more: shown(bar: tabBar)))
        XCTAssertEqual([i.top, i.bottom], [64, 49])
        i = try insets(Self.storyboard(tools: "14109", device: "retina4_7", size: (375, 667), more: shown(bar: toolbar)))
        XCTAssertEqual([i.top, i.bottom], [64, 44])
        // Xcode 10 on draws none.
        i = try insets(Self.storyboard(tools: "14460.31", device: "retina4_7", size: (375, 667), more: shown(bar: tabBar)))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        // Its own simulated metrics win.
        i = try insets(
            Self.storyboard(
                tools: "12121", device: "retina4_7", size: (375, 667), controller: #"<nil key="simulatedBottomBarMetrics"/>"#,
                more: shown(bar: tabBar)))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        // A bottom bar set to None wins over the tab bar of a tab's stack.
        let tabs = """
            <scene sceneID="tabs"><objects>
                <tabBarController id="tabs" sceneMemberID="viewController">
                    <tabBar key="tabBar" contentMode="scaleToFill" id="tabs-bar"><rect key="frame" x="0.0" y="0.0" width="375" height="49"/></tabBar>
                    <connections><segue destination="nav" kind="relationship" relationship="viewControllers" id="tabs-nav"/></connections>
                </tabBarController>
            </objects></scene>
            """
        i = try insets(Self.storyboard(tools: "13196", device: "retina4_7", size: (375, 667), more: shown(bar: tabBar) + tabs))
        XCTAssertEqual([i.top, i.bottom], [64, 49])
        i = try insets(
            Self.storyboard(
                tools: "13196", device: "retina4_7", size: (375, 667), more: shown(bar: #"<nil key="simulatedBottomBarMetrics"/>"#) + tabs))
        XCTAssertEqual([i.top, i.bottom], [64, 0])
        i = try insets(
            Self.storyboard(
                tools: "14460.31", device: "retina4_7", size: (375, 667), more: shown(bar: #"<nil key="simulatedBottomBarMetrics"/>"#) + tabs))
        XCTAssertEqual([i.top, i.bottom], [64, 49])
    }

    /// A xib's top-level view that is its File's Owner's `view` is a controller's root: the
    /// system minimum margins at its sides and none above and below beyond the safe area; a
    /// view no owner loads keeps a plain view's 8.
    static func ownersXib(view outlet: Bool, bars: String = "") -> [UInt8] {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="19162" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                <device id="retina4_7" orientation="portrait" appearance="light"/>
                <objects>
                    <placeholder placeholderIdentifier="IBFilesOwner" id="-1" customClass="SomeViewController">
                        <connections>\(outlet ? #"<outlet property="view" destination="root" id="o1"/>"# : "")</connections>
                    </placeholder>
                    <view contentMode="scaleToFill" id="root">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                        <subviews>\(PinnedBox.view("t"))\(PinnedBox.view("b"))</subviews>
                        <viewLayoutGuide key="safeArea" id="safe"/>
                        <constraints>
                            \(PinnedBox.constraints("t", edge: #"firstItem="t" firstAttribute="top" secondItem="root" secondAttribute="topMargin""#, leading: #"secondItem="root" secondAttribute="leadingMargin""#))
                            \(PinnedBox.constraints("b", edge: #"firstItem="b" firstAttribute="bottom" secondItem="root" secondAttribute="bottomMargin""#))
                        </constraints>
                        \(bars)
                    </view>
                </objects>
            </document>
            """.utf8)
    }

    /// The margins `t` and `b` of `ownersXib` show: leading, top, bottom.
    func ownersXibMargins(_ bytes: [UInt8]) throws -> [Double] {
        let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first)
        let frames = try laidOut(root)
        let t = try XCTUnwrap(frames["t"]), b = try XCTUnwrap(frames["b"])
        return [t.x, t.y, 667 - b.y - b.height]
    }

    func testAFilesOwnersViewHasAControllersMargins() throws {
        XCTAssertEqual(try ownersXibMargins(Self.ownersXib(view: true)), [16, 0, 0])
        XCTAssertEqual(try ownersXibMargins(Self.ownersXib(view: false)), [8, 8, 8])
    }

    /// A File's Owner's view that sets a navigation bar and a tab bar in its simulated metrics
    /// has them over it, as a controller's root; a view no owner loads does not.
    func testAFilesOwnersViewHasItsSimulatedBars() throws {
        let bars = """
            <simulatedNavigationBarMetrics key="simulatedTopBarMetrics" prompted="NO"/>
            <simulatedTabBarMetrics key="simulatedBottomBarMetrics"/>
            """
        XCTAssertEqual(try ownersXibMargins(Self.ownersXib(view: true, bars: bars)), [16, 44, 49])
        XCTAssertEqual(try ownersXibMargins(Self.ownersXib(view: false, bars: bars)), [8, 8, 8])
    }

    /// A document without safe areas (iOS 7–10's layout guides): a root's top and bottom
    /// margins are 0 under the status bar and a navigation bar; with safe areas they are
    /// inset by them.
    func testRootMarginsOfADocumentWithoutSafeAreas() throws {
        func margins(safeAreas: Bool, nav: Bool) throws -> (top: Double, bottom: Double) {
            let navScene = Self.navigationScene()
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="11542" targetRuntime="iOS.CocoaTouch" useAutolayout="YES"\(safeAreas ? #" useSafeAreas="YES""# : "")>
                    <device id="retina4_7" orientation="portrait"/>
                    <scenes><scene sceneID="s"><objects>
                        <viewController id="vc" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="root">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                <subviews>
                                    \(PinnedBox.view("t"))
                                    \(PinnedBox.view("b"))
                                </subviews>
                                <constraints>
                                    \(PinnedBox.constraints("t", edge: #"firstItem="t" firstAttribute="top" secondItem="root" secondAttribute="topMargin""#))
                                    \(PinnedBox.constraints("b", edge: #"firstAttribute="bottomMargin" secondItem="b" secondAttribute="bottom""#))
                                </constraints>
                            </view>
                        </viewController>
                    </objects></scene>\(nav ? navScene : "")</scenes>
                </document>
                """
            let root = try XCTUnwrap(
                try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first { $0.name == "vc" })
            let frames = try laidOut(root)
            let r = try XCTUnwrap(frames["root"]), t = try XCTUnwrap(frames["t"]), b = try XCTUnwrap(frames["b"])
            return (t.y, r.height - b.y - b.height)
        }
        var m = try margins(safeAreas: false, nav: false)
        XCTAssertEqual([m.top, m.bottom], [0, 0])
        m = try margins(safeAreas: false, nav: true)
        XCTAssertEqual([m.top, m.bottom], [0, 0])
        m = try margins(safeAreas: true, nav: false)
        XCTAssertEqual([m.top, m.bottom], [20, 0])
        m = try margins(safeAreas: true, nav: true)
        XCTAssertEqual([m.top, m.bottom], [64, 0])
    }

    /// A document naming no device: a root stored below the bars keeps a stored height that is
    /// what is left of the screen; one stored there at the whole screen's height is laid out on
    /// the whole screen, the bars over its top.
    func testARootStoredBelowTheBarsOfNoDevice() throws {
        func canvas(rootY: Int, height: Int) throws -> (root: Double, t: Double, b: Double) {
            let root = try guidedControllerRoot(
                tools: "4510", guides: ["top"], frame: (rootY, 320, height),
                boxes: [
                    ("t", #"firstItem="t" firstAttribute="top" secondItem="top" secondAttribute="bottom""#),
                    ("b", #"firstItem="b" firstAttribute="bottom" secondItem="root" secondAttribute="bottom""#)
                ],
                metrics: #"<simulatedNavigationBarMetrics key="simulatedTopBarMetrics" prompted="NO"/>"#)
            let frames = try laidOut(root)
            let r = try XCTUnwrap(frames["root"]), t = try XCTUnwrap(frames["t"]), b = try XCTUnwrap(frames["b"])
            return (r.height, t.y, b.y + b.height)
        }
        var i = try canvas(rootY: 64, height: 504)
        XCTAssertEqual([i.root, i.t, i.b], [504, 0, 504])
        i = try canvas(rootY: 64, height: 568)
        XCTAssertEqual([i.root, i.t, i.b], [568, 64, 568])
    }

    /// A document naming no device: a root stored below the top bars and above a bottom bar
    /// (the screen's height less both) has its bottom layout guide at its bottom; one stored
    /// taller has the bar over its bottom.
    func testARootStoredAboveTheBottomBarOfNoDevice() throws {
        func bottom(height: Int) throws -> Double {
            let root = try guidedControllerRoot(
                tools: "10117", guides: ["bottom"], frame: (64, 320, height),
                boxes: [("b", #"firstItem="bottom" firstAttribute="top" secondItem="b" secondAttribute="bottom""#)],
                metrics: """
                    <simulatedNavigationBarMetrics key="simulatedTopBarMetrics" translucent="NO" prompted="NO"/>
                    <simulatedTabBarMetrics key="simulatedBottomBarMetrics" translucent="NO"/>
                    """)
            let b = try XCTUnwrap(try laidOut(root)["b"])
            return b.y + b.height
        }
        XCTAssertEqual(try bottom(height: 455), 455)
        XCTAssertEqual(try bottom(height: 470), 421)
    }

    /// A document naming no device: a controller that sets no simulated status bar infers
    /// its navigation controller's (as the stack's root) or the one showing it; its own wins.
    func testNoStatusBarIsInferredDownTheStack() throws {
        func top(of id: String, pushedOwn: String = "") throws -> Double {
            func scene(_ id: String, _ more: String) -> String {
                """
                <scene sceneID="\(id)-s"><objects>
                    <viewController id="\(id)" sceneMemberID="viewController">
                        <layoutGuides><viewControllerLayoutGuide type="top" id="\(id)-top"/></layoutGuides>
                        <view key="view" contentMode="scaleToFill" id="\(id)-root">
                            <rect key="frame" x="0.0" y="0.0" width="320" height="568"/>
                            <subviews>\(PinnedBox.view("\(id)-t"))</subviews>
                            <constraints>
                                \(PinnedBox.constraints("\(id)-t", edge: #"firstItem="\#(id)-t" firstAttribute="top" secondItem="\#(id)-top" secondAttribute="bottom""#, leading: #"secondItem="\#(id)-root" secondAttribute="leading""#))
                            </constraints>
                        </view>
                        \(more)
                    </viewController>
                </objects></scene>
                """
            }
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="6254" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <scenes>
                    <scene sceneID="n"><objects>
                        <navigationController navigationBarHidden="YES" id="nav" sceneMemberID="viewController">
                            <navigationBar key="navigationBar" contentMode="scaleToFill" id="nav-bar"><rect key="frame" x="0.0" y="0.0" width="320" height="44"/></navigationBar>
                            <nil key="simulatedStatusBarMetrics"/>
                            <connections><segue destination="a" kind="relationship" relationship="rootViewController" id="nav-root"/></connections>
                        </navigationController>
                    </objects></scene>
                    \(scene("a", #"<connections><segue destination="b" kind="push" id="a-push"/></connections>"#))
                    \(scene("b", pushedOwn))
                    </scenes>
                </document>
                """
            let root = try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first { $0.name == id })
            return try XCTUnwrap(try laidOut(root)["\(id)-t"]).y
        }
        XCTAssertEqual(try top(of: "a"), 0)
        XCTAssertEqual(try top(of: "b"), 0)
        XCTAssertEqual(try top(of: "b", pushedOwn: #"<simulatedStatusBarMetrics key="simulatedStatusBarMetrics"/>"#), 20)
    }

    /// Xcode 8 draws no status bar over a controller whose simulated status bar is None where
    /// the document names a device; later Xcodes' documents keep it.
    func testXcode8DrawsNoStatusBarSetToNone() throws {
        func top(tools: String, metrics: String) throws -> Double {
            let root = try guidedControllerRoot(
                tools: tools, device: #"<device id="retina4_7" orientation="portrait"><adaptation id="fullscreen"/></device>"#,
                guides: ["top"], frame: (0, 375, 667),
                boxes: [("t", #"firstItem="t" firstAttribute="top" secondItem="top" secondAttribute="bottom""#)], metrics: metrics)
            return try XCTUnwrap(try laidOut(root)["t"]).y
        }
        let none = #"<nil key="simulatedStatusBarMetrics"/>"#
        XCTAssertEqual(try top(tools: "12121", metrics: none), 0)
        XCTAssertEqual(try top(tools: "12121", metrics: ""), 20)
        XCTAssertEqual(try top(tools: "13771", metrics: none), 20)
    }

    /// An iPad in landscape keeps its status bar; a phone hides it.
    func testAnIPadKeepsItsStatusBarInLandscape() throws {
        var i = try insets(Self.storyboard(tools: "12118", device: "ipad9_7", size: (768, 1024)), landscape: true)
        XCTAssertEqual(i.size + [i.top, i.bottom], [1024, 768, 20, 0])
        i = try insets(Self.storyboard(tools: "21501", device: "ipad12_9rounded", size: (1024, 1366)), landscape: true)
        XCTAssertEqual(i.size + [i.top, i.bottom], [1366, 1024, 24, 20])
        i = try insets(Self.storyboard(tools: "21701", device: "retina4_7", size: (375, 667)), landscape: true)
        XCTAssertEqual(i.size + [i.top, i.bottom], [667, 375, 0, 0])
    }

    /// A controller sized freeform is drawn on a screen of its freeform size: a root as tall
    /// keeps the home indicator's inset, shorter or taller than the device's screen; one
    /// stored shorter than its freeform size by the bars under it and the home indicator has
    /// neither; one smaller than a phone with a home button has no status bar. A top-level
    /// view sized freeform keeps the home indicator (no status bar over it); without freeform
    /// metrics neither has it.
    func testAFreeformRootIsOnAScreenOfItsSize() throws {
        func freeform(_ h: Int) -> String { #"<size key="freeformSize" width="375" height="\#(h)"/>"# }
        var i = try insets(Self.storyboard(tools: "21701", device: "retina6_1", size: (375, 778), controller: freeform(778)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[375, 778], [48, 34]])
        i = try insets(Self.storyboard(tools: "21701", device: "retina6_1", size: (375, 778)))
        XCTAssertEqual([i.top, i.bottom], [48, 0])
        i = try insets(Self.storyboard(tools: "17156", device: "retina6_1", size: (375, 1000), controller: freeform(1000)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[375, 1000], [44, 34]])
        i = try insets(Self.storyboard(tools: "17156", device: "retina6_1", size: (375, 917), controller: freeform(1000)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[375, 917], [44, 0]])
        // Smaller than a phone with a home button: no status bar; as tall as it: the status bar.
        func small(_ w: Int, _ h: Int) -> String { #"<size key="freeformSize" width="\#(w)" height="\#(h)"/>"# }
        i = try insets(Self.storyboard(tools: "14460.31", device: "retina4_7", size: (320, 220), controller: small(320, 220)))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[320, 220], [0, 0]])
        i = try insets(Self.storyboard(tools: "13771", device: "retina4_7", size: (375, 667), controller: small(375, 667)))
        XCTAssertEqual([i.top, i.bottom], [20, 0])

        func xibBottom(freeform: Bool) throws -> [Double] {
            let xml = """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                    <device id="retina6_12" orientation="portrait" appearance="light"/>
                    <objects>
                        <view contentMode="scaleToFill" id="root">
                            <rect key="frame" x="0.0" y="0.0" width="500" height="120"/>
                            \(Self.pinnedToTheSafeArea)
                            \(freeform ? "<freeformSimulatedSizeMetrics key=\"simulatedDestinationMetrics\"/>" : "")
                        </view>
                    </objects>
                </document>
                """
            let root = try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
            let frames = try laidOut(root)
            let t = try XCTUnwrap(frames["t"]), b = try XCTUnwrap(frames["b"])
            return [t.y, 120 - b.y - b.height]
        }
        XCTAssertEqual(try xibBottom(freeform: true), [0, 34])
        XCTAssertEqual(try xibBottom(freeform: false), [0, 0])
    }

    /// A today extension's root (`simulatedAppContext="notificationCenter"`) is the widget in
    /// Notification Center: no status bar and no home indicator; a phone with a sensor housing
    /// keeps the housing's inset at the top. Its top layout guide (before safe areas) is at
    /// the root's top too.
    func testATodayWidgetHasNoStatusBar() throws {
        func widget(_ tools: String, _ device: String) -> [UInt8] {
            let xml = String(
                decoding: Self.storyboard(
                    tools: tools, device: device, size: (320, 110), controller: #"<size key="freeformSize" width="320" height="110"/>"#),
                as: UTF8.self)
            return Array(xml.replacingOccurrences(of: #"id="root""#, with: #"simulatedAppContext="notificationCenter" id="root""#).utf8)
        }
        var i = try insets(widget("14490.70", "retina4_7"))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[320, 110], [0, 0]])
        i = try insets(widget("15505", "retina6_1"))
        XCTAssertEqual([i.size, [i.top, i.bottom]], [[320, 110], [44, 0]])
        i = try insets(Self.storyboard(tools: "14490.70", device: "retina4_7", size: (320, 110)))
        XCTAssertEqual([i.top, i.bottom], [20, 0])

        let legacy = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="11762" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <device id="retina4_7" orientation="portrait"><adaptation id="fullscreen"/></device>
                <scenes><scene sceneID="s"><objects>
                    <viewController id="vc" sceneMemberID="viewController">
                        <layoutGuides>
                            <viewControllerLayoutGuide type="top" id="top"/>
                            <viewControllerLayoutGuide type="bottom" id="bottom"/>
                        </layoutGuides>
                        <view key="view" contentMode="scaleToFill" simulatedAppContext="notificationCenter" id="root">
                            <rect key="frame" x="0.0" y="0.0" width="320" height="110"/>
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="t"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="t" firstAttribute="top" secondItem="top" secondAttribute="bottom" id="c1"/>
                                <constraint firstItem="t" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c2"/>
                                <constraint firstItem="t" firstAttribute="width" constant="10" id="c3"/>
                                <constraint firstItem="t" firstAttribute="height" constant="10" id="c4"/>
                            </constraints>
                        </view>
                        <freeformSimulatedSizeMetrics key="simulatedDestinationMetrics"/>
                        <size key="freeformSize" width="320" height="110"/>
                    </viewController>
                </objects></scene></scenes>
            </document>
            """
        let root = try XCTUnwrap(try Importer.read(Array(legacy.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(try XCTUnwrap(try laidOut(root)["t"]).y, 0)
    }

    /// Xcode 10 on a 375-point phone: a cell in a table view controller's table has the
    /// controller's 16-point side margins, one in a table inside another view 15.
    func testACellInAControllersTableHasItsMargins() throws {
        func cell(_ id: String) -> String {
            """
            <prototypes>
                <tableViewCell contentMode="scaleToFill" id="cell-\(id)">
                    <rect key="frame" x="0.0" y="28" width="375" height="44"/>
                    <tableViewCellContentView key="contentView" id="content-\(id)">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="44"/>
                        <subviews>\(PinnedBox.view(id))</subviews>
                        <constraints>
                            \(PinnedBox.constraints(id, edge: #"firstItem="\#(id)" firstAttribute="top" secondItem="content-\#(id)" secondAttribute="top""#,
                                leading: #"secondItem="content-\#(id)" secondAttribute="leadingMargin""#))
                        </constraints>
                    </tableViewCellContentView>
                </tableViewCell>
            </prototypes>
            """
        }
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="14490.70" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                <device id="retina4_7" orientation="portrait"/>
                <scenes>
                    <scene sceneID="s1"><objects>
                        <tableViewController id="tvc" sceneMemberID="viewController">
                            <tableView key="view" contentMode="scaleToFill" style="plain" id="table">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                \(cell("own"))
                            </tableView>
                        </tableViewController>
                    </objects></scene>
                    <scene sceneID="s2"><objects>
                        <viewController id="vc" sceneMemberID="viewController">
                            <view key="view" contentMode="scaleToFill" id="root">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                <subviews>
                                    <tableView contentMode="scaleToFill" style="plain" translatesAutoresizingMaskIntoConstraints="NO" id="inner">
                                        <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                                        \(cell("inner"))
                                    </tableView>
                                </subviews>
                            </view>
                        </viewController>
                    </objects></scene>
                </scenes>
            </document>
            """
        let roots = try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots
        func x(_ id: String) throws -> Double {
            let root = try XCTUnwrap(roots.first { $0.name == "cell-\(id)" })
            return try XCTUnwrap(try laidOut(root)[id]).x
        }
        XCTAssertEqual(try x("own"), 16)
        XCTAssertEqual(try x("inner"), 15)
    }

    /// A cell with an accessory: its content view's trailing margin is UIView's 8; without
    /// one the cell's side margin (16 on a 375-point phone, Xcode 10).
    func testACellWithAnAccessoryHasAnEightPointTrailingMargin() throws {
        func right(accessory: String) throws -> Double {
            let xml = Self.tableControllerCell(
                tools: "14313.18", device: "retina4_7", table: ("plain", 375, 667), cell: (accessory, 0, 375), contentWidth: 341,
                leading: #"secondItem="content" secondAttribute="trailingMargin" constant="-10""#)
            let root = try XCTUnwrap(
                try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first { $0.name == "cell" })
            let b = try XCTUnwrap(try laidOut(root)["b"])
            return 341 - (b.x + 10)
        }
        XCTAssertEqual(try right(accessory: #"accessoryType="disclosureIndicator""#), 8)
        XCTAssertEqual(try right(accessory: ""), 16)
    }

    /// A cell's side margins follow the scene's width (its controller's traits), not the
    /// cell's: an inset-grouped table's 374-point cells in a 414-point scene have 20
    /// (CiscoDevNet/DNASpacesSDKSampleApp-IOS, IBCorpus development half: 25 views).
    func testACellsMarginsFollowItsScenesWidth() throws {
        let xml = Self.tableControllerCell(
            tools: "17701", device: "retina6_1", table: ("insetGrouped", 414, 896), cell: ("", 20, 374), contentWidth: 374,
            leading: #"secondItem="content" secondAttribute="leadingMargin""#)
        let roots = try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots
        let cell = try XCTUnwrap(roots.first { $0.name == "cell" })
        XCTAssertEqual(try XCTUnwrap(try laidOut(cell)["b"]).x, 20)
    }

    /// A storyboard of one table view controller whose one prototype cell (`cell`, its content
    /// view `content`) holds `PinnedBox` `b`, its leading edge placed by `leading`.
    static func tableControllerCell(
        tools: String, device: String, table: (style: String, width: Int, height: Int), cell: (attributes: String, x: Int, width: Int),
        contentWidth: Int, leading: String
    ) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
            <device id="\(device)" orientation="portrait"/>
            <scenes><scene sceneID="s"><objects>
                <tableViewController id="tvc" sceneMemberID="viewController">
                    <tableView key="view" contentMode="scaleToFill" style="\(table.style)" id="table">
                        <rect key="frame" x="0.0" y="0.0" width="\(table.width)" height="\(table.height)"/>
                        <prototypes>
                            <tableViewCell contentMode="scaleToFill" \(cell.attributes) id="cell">
                                <rect key="frame" x="\(cell.x)" y="28" width="\(cell.width)" height="44"/>
                                <tableViewCellContentView key="contentView" id="content">
                                    <rect key="frame" x="0.0" y="0.0" width="\(contentWidth)" height="44"/>
                                    <subviews>\(PinnedBox.view("b"))</subviews>
                                    <constraints>
                                        \(PinnedBox.constraints("b", edge: #"firstItem="b" firstAttribute="top" secondItem="content" secondAttribute="top""#, leading: leading))
                                    </constraints>
                                </tableViewCellContentView>
                            </tableViewCell>
                        </prototypes>
                    </tableView>
                </tableViewController>
            </objects></scene></scenes>
        </document>
        """
    }

    /// A 307-point view centred in a 414-point root: at a half point (53.5). Xcode 10 on rounds
    /// a 3× phone's frames to thirds (53⅔); an Xcode before 10 stored no finer than half
    /// points, so its documents are laid out on that grid (`ToolsVersion.frameScale`).
    func testFramesOfXcodesBeforeTenAreRoundedToHalfPoints() throws {
        func centredX(tools: String) throws -> Double {
            let body = """
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="c"><rect key="frame" x="53" y="100" width="307" height="10"/></view>
                </subviews>
                <constraints>
                    <constraint firstItem="c" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="c1"/>
                    <constraint firstItem="c" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="c2"/>
                    <constraint firstItem="c" firstAttribute="width" constant="307" id="c3"/>
                    <constraint firstItem="c" firstAttribute="height" constant="10" id="c4"/>
                </constraints>
                """
            return try storedX("c", in: body, device: "retina5_5", size: (414, 736), tools: tools)
        }
        XCTAssertEqual(try centredX(tools: "13196"), 53.5)
        XCTAssertEqual(try centredX(tools: "14490"), 161.0 / 3, accuracy: 0.001)
        XCTAssertEqual(ToolsVersion("14113").frameScale(device: 3), 2)
        XCTAssertEqual(ToolsVersion("32700.99.1234").frameScale(device: 3), 3)
        XCTAssertEqual(ToolsVersion("12120").frameScale(device: 2), 2)
    }

    /// A controller's root has UIKit's 16-point side margins on every phone narrower than 400
    /// points, the 390- and 393-point ones too, and 20 from 400 (`controllersRootSideMargin`):
    /// a view pinned to the root's leading margin sits 16 or 20 in from its edge.
    func testControllersRootSideMarginsAreSixteenBelowFourHundredPoints() throws {
        func leadingMargin(device: String, size: (Int, Int)) throws -> Double {
            let body = """
                <subviews>
                    <view translatesAutoresizingMaskIntoConstraints="NO" id="m"><rect key="frame" x="0" y="100" width="10" height="10"/></view>
                </subviews>
                <constraints>
                    <constraint firstItem="m" firstAttribute="leading" secondItem="root" secondAttribute="leadingMargin" id="m1"/>
                    <constraint firstItem="m" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="m2"/>
                    <constraint firstItem="m" firstAttribute="width" constant="10" id="m3"/>
                    <constraint firstItem="m" firstAttribute="height" constant="10" id="m4"/>
                </constraints>
                """
            return try storedX("m", in: body, device: device, size: size, tools: "21507")
        }
        XCTAssertEqual(try leadingMargin(device: "retina4_7", size: (375, 667)), 16)
        XCTAssertEqual(try leadingMargin(device: "retina6_0", size: (390, 844)), 16)
        XCTAssertEqual(try leadingMargin(device: "retina6_12", size: (393, 852)), 16)
        XCTAssertEqual(try leadingMargin(device: "retina6_1", size: (414, 896)), 20)
        XCTAssertEqual(try leadingMargin(device: "retina6_72", size: (430, 932)), 20)
    }

    /// View `id`'s x, laid out with stored sizes, in scene "vc" of a document whose root holds `body`.
    private func storedX(_ id: String, in body: String, device: String, size: (Int, Int), tools: String) throws -> Double {
        let bytes = ImporterTests.scene(body, device: device, size: size, tools: tools)
        let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first { $0.name == "vc" })
        return try XCTUnwrap(laidOut(root)[id]).x
    }
}
