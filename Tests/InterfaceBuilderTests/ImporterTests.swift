import JSON
import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// IB documents written for these tests (`Fixtures/`, and scenes inline), their frames derived
/// from UIKit's documented rules: imported, laid out, and compared with what the file stores.
final class ImporterTests: XCTestCase {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")

    func fixture(_ name: String) throws -> [UInt8] { Array(try Data(contentsOf: Self.fixtures.appendingPathComponent(name))) }

    /// A storyboard of one controller whose root view holds `body` (subviews, guides, constraints).
    static func scene(_ body: String, device: String = "retina4_7", size: (Int, Int) = (375, 667), controller: String = "", tools: String? = nil)
        -> [UInt8]
    {
        Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" \(tools.map { "toolsVersion=\"\($0)\" " } ?? "")targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                <device id="\(device)" orientation="portrait" appearance="light"/>
                <scenes><scene sceneID="s"><objects>
                    <viewController id="vc" sceneMemberID="viewController">
                        \(controller)
                        <view key="view" contentMode="scaleToFill" id="root">
                            <rect key="frame" x="0.0" y="0.0" width="\(size.0)" height="\(size.1)"/>
            \(body)
                        </view>
                    </viewController>
                </objects></scene></scenes>
            </document>
            """.utf8)
    }

    /// The one root of `Self.scene(body)`, its content at its stored sizes.
    func storedRoot(_ body: String) throws -> ImportedRoot {
        try XCTUnwrap(try Importer.read(Self.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
    }

    func assertAgrees(_ root: ImportedRoot, file: StaticString = #filePath, line: UInt = #line) throws {
        let frames = try laidOut(root)
        for s in root.storedFrames {
            let f = try XCTUnwrap(frames[s.id], s.id, file: file, line: line)
            XCTAssertEqual(f, Rect(x: s.x, y: s.y, width: s.width, height: s.height), s.id, file: file, line: line)
        }
    }

    func testTheFixtureLaysOutAsXcodeStoredIt() throws {
        let document = try Importer.read(try fixture("scene.storyboard"), options: ImportOptions(contentSizes: .stored))
        XCTAssertEqual(document.device?.id, "retina4_7")
        XCTAssertEqual(document.roots.map(\.name), ["vc1"])
        let root = try XCTUnwrap(document.roots.first)
        XCTAssertEqual(root.storedFrames.count, 7)
        XCTAssertEqual(root.notes, [])
        try assertAgrees(root)
    }

    /// The importer's document and one written by hand for the same layout answer the same frames.
    func testTheImportedLayoutIsTheJSONPaths() throws {
        let stored = ImportOptions(contentSizes: .stored)
        let imported = try laidOut(try XCTUnwrap(try Importer.read(try fixture("scene.storyboard"), options: stored).roots.first))
        let json = """
            {"options": {"scale": 2}, "views": [
              {"id": "root", "frame": {"x": 0, "y": 0, "width": 375, "height": 667}, "margins": {"top": 20, "left": 16, "bottom": 0, "right": 16}},
              {"id": "safe", "parent": "root", "kind": "guide"},
              {"id": "card", "parent": "root"},
              {"id": "avatar", "parent": "card", "intrinsicSize": {"width": 40, "height": 40}},
              {"id": "column", "parent": "card", "kind": "stack", "stack": {"axis": "vertical", "spacing": 4, "arrangedSubviews": ["title", "subtitle"]}},
              {"id": "title", "parent": "column", "intrinsicSize": {"width": 267, "height": 20}, "hugging": {"horizontal": 251, "vertical": 251}},
              {"id": "subtitle", "parent": "column", "intrinsicSize": {"width": 267, "height": 20}, "hugging": {"horizontal": 251, "vertical": 251}},
              {"id": "footer", "parent": "root"}],
             "constraints": [
              {"expr": "safe.top == root.top + 20"}, {"expr": "safe.left == root.left"}, {"expr": "safe.bottom == root.bottom"}, {"expr": "safe.right == root.right"},
              {"expr": "card.height == 100"}, {"expr": "avatar.leading == card.leadingMargin"}, {"expr": "avatar.top == card.topMargin"},
              {"expr": "column.leading == avatar.trailing + 12"}, {"expr": "column.top == avatar.top"}, {"expr": "card.trailingMargin == column.trailing"},
              {"expr": "avatar.width == avatar.height"}, {"expr": "avatar.width == 40"}, {"expr": "footer.height == 60"},
              {"expr": "card.top == safe.top + 20"}, {"expr": "card.leading == safe.leading + 20"}, {"expr": "safe.trailing == card.trailing + 20"},
              {"expr": "footer.leading == root.leadingMargin"}, {"expr": "root.trailingMargin == footer.trailing"}, {"expr": "safe.bottom == footer.bottom"}]}
            """
        let session = try XCTUnwrap(try LayoutSession.make(documentBytes: Array(json.utf8), oneShot: true))
        var frames: [String: Rect] = [:]
        session.forEachFrame { id, frame, _ in frames[id] = frame }
        XCTAssertEqual(imported, frames)
    }

    /// The device's screen and safe area, in either orientation, and the system margins of a
    /// controller's root by the screen's width.
    func testDevicesOrientationsAndRootMargins() throws {
        let bytes = try fixture("scene.storyboard")
        let x = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(device: "retina5_9", contentSizes: .stored)).roots.first)
        var f = try laidOut(x)
        XCTAssertEqual(f["root"], Rect(x: 0, y: 0, width: 375, height: 812))
        XCTAssertEqual(f["card"], Rect(x: 20, y: 64, width: 335, height: 100))
        XCTAssertEqual(f["footer"], Rect(x: 16, y: 812 - 34 - 60, width: 343, height: 60))
        let landscape = ImportOptions(device: "retina5_9", landscape: true, contentSizes: .stored)
        let side = try XCTUnwrap(try Importer.read(bytes, options: landscape).roots.first)
        f = try laidOut(side)
        XCTAssertEqual(f["root"], Rect(x: 0, y: 0, width: 812, height: 375))
        XCTAssertEqual(f["card"], Rect(x: 44 + 20, y: 20, width: 812 - 88 - 40, height: 100))
        XCTAssertEqual(f["footer"], Rect(x: 44 + 20, y: 375 - 21 - 60, width: 812 - 88 - 40, height: 60))
        let plus = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(device: "retina5_5", contentSizes: .stored)).roots.first)
        XCTAssertEqual(try laidOut(plus)["footer"], Rect(x: 20, y: 736 - 60, width: 374, height: 60))
        // A navigation bar its simulated metrics show is under the safe area's top.
        let pushed = try XCTUnwrap(
            try Importer.read(
                Self.scene(
                    """
                    <subviews><view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="64" width="375" height="10"/></view></subviews>
                    <viewLayoutGuide key="safeArea" id="g"/>
                    <constraints>
                        <constraint firstItem="v" firstAttribute="top" secondItem="g" secondAttribute="top" id="a"/>
                        <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="b"/>
                        <constraint firstItem="v" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="c"/>
                        <constraint firstItem="v" firstAttribute="height" constant="10" id="d"/>
                    </constraints>
                    """, controller: "<simulatedNavigationBarMetrics key=\"simulatedTopBarMetrics\" prompted=\"NO\"/>")
            ).roots.first)
        try assertAgrees(pushed)
    }

    /// Bars as Xcode infers them: a controller in a navigation controller's stack (its root,
    /// and what that shows) is under a navigation bar, one of a tab bar controller's above a
    /// tab bar; a root shorter than the screen starts below the bars; a switch's and a
    /// slider's frames reach past their alignment rects.
    func testInferredBarsAndControlsAlignmentInsets() throws {
        func controller(_ id: String, root: String, height: Int = 667, segue: String = "", body: String) -> String {
            """
            <scene sceneID="s-\(id)"><objects><viewController id="\(id)" sceneMemberID="viewController">
                <view key="view" contentMode="scaleToFill" id="\(root)">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="\(height)"/>
                    \(body)
                </view>
                <connections>\(segue)</connections>
            </viewController></objects></scene>
            """
        }
        func pinned(_ root: String, _ v: String, _ y: Double, _ tag: String = "view", _ extra: String = "") -> String {
            """
            <subviews><\(tag) translatesAutoresizingMaskIntoConstraints="NO" id="\(v)"><rect key="frame" x="0" y="\(y)" width="10" height="10"/></\(tag)>\(extra)</subviews>
            <viewLayoutGuide key="safeArea" id="\(root)-safe"/>
            <constraints>
                <constraint firstItem="\(v)" firstAttribute="top" secondItem="\(root)-safe" secondAttribute="top" id="\(v)-t"/>
                <constraint firstItem="\(v)" firstAttribute="leading" secondItem="\(root)" secondAttribute="leading" id="\(v)-l"/>
                <constraint firstItem="\(v)" firstAttribute="width" constant="10" id="\(v)-w"/>
                <constraint firstItem="\(v)" firstAttribute="height" constant="10" id="\(v)-h"/>
            </constraints>
            """
        }
        // A segue from a button inside the controller's view shows `third` in the same stack; a
        // navigation bar stored 54 tall (Xcode 26's) is that tall over its stack. A root short by
        // its top bars (`below`) starts under them; one short by something else (`short`, above
        // an opaque bottom bar) keeps its status bar and loses the difference at the bottom.
        let showing = """
            <button translatesAutoresizingMaskIntoConstraints="NO" id="go"><rect key="frame" x="0" y="0" width="10" height="10"/>
                <connections><segue destination="third" kind="show" id="sh3"/></connections>
            </button>
            """
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useSafeAreas="YES">
                <device id="retina4_7" orientation="portrait" appearance="light"/>
                <scenes>
                    <scene sceneID="n"><objects><navigationController id="nav" sceneMemberID="viewController">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar"><rect key="frame" x="0.0" y="20" width="375" height="44"/></navigationBar>
                        <connections><segue destination="first" kind="relationship" relationship="rootViewController" id="r"/></connections>
                    </navigationController></objects></scene>
                    \(controller("first", root: "a", segue: #"<segue destination="second" kind="show" id="sh"/><segue destination="below" kind="show" id="sh2"/>"#, body: pinned("a", "va", 64)))
                    \(controller("second", root: "b", body: pinned("b", "vb", 64, "view", showing)))
                    \(controller("third", root: "e", body: pinned("e", "ve", 64)))
                    \(controller("alone", root: "c", body: pinned("c", "vc", 20)))
                    \(controller("below", root: "d", height: 603, body: pinned("d", "vd", 0)))
                    \(controller("short", root: "g", height: 618, body: pinned("g", "vg", 20)))
                    <scene sceneID="n2"><objects><navigationController id="nav2" sceneMemberID="viewController">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" id="bar2"><rect key="frame" x="0.0" y="20" width="375" height="54"/></navigationBar>
                        <connections><segue destination="tall" kind="relationship" relationship="rootViewController" id="r2"/></connections>
                    </navigationController></objects></scene>
                    \(controller("tall", root: "f", body: pinned("f", "vf", 74)))
                    <scene sceneID="n3"><objects><navigationController id="nav3" sceneMemberID="viewController">
                        <navigationBar key="navigationBar" contentMode="scaleToFill" translucent="NO" id="bar3"><rect key="frame" x="0.0" y="20" width="375" height="44"/></navigationBar>
                        <connections><segue destination="opaque" kind="relationship" relationship="rootViewController" id="r3"/></connections>
                    </navigationController></objects></scene>
                    \(controller("opaque", root: "o", height: 600, body: pinned("o", "vo", 0)).replacingOccurrences(of: #"id="o">"#, with: #"misplaced="YES" id="o">"#))
                </scenes>
            </document>
            """
        let document = try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored))
        XCTAssertEqual(document.roots.map(\.name), ["first", "second", "third", "alone", "below", "short", "tall", "opaque"])
        for root in document.roots.dropLast() { try assertAgrees(root) }
        // Under an opaque bar the root starts below it, at the height left (its stored 600 is misplaced).
        let opaque = try laidOut(try XCTUnwrap(document.roots.last))
        XCTAssertEqual(opaque["o"], Rect(x: 0, y: 0, width: 375, height: 603))
        XCTAssertEqual(opaque["vo"], Rect(x: 0, y: 0, width: 10, height: 10))
        // A switch pinned by its trailing edge, a slider centred, a segmented control above a view:
        // their alignment rects are what the constraints place. A picker keeps its size; a
        // `fixedFrame` button no constraint names stays where the canvas has it.
        let controls = try XCTUnwrap(
            try Importer.read(
                Self.scene(
                    """
                    <subviews>
                        <switch translatesAutoresizingMaskIntoConstraints="NO" id="sw"><rect key="frame" x="318" y="40" width="51" height="31"/></switch>
                        <slider translatesAutoresizingMaskIntoConstraints="NO" id="sl"><rect key="frame" x="14" y="100" width="347" height="31"/></slider>
                        <segmentedControl translatesAutoresizingMaskIntoConstraints="NO" id="seg"><rect key="frame" x="16" y="200" width="200" height="32"/></segmentedControl>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="under"><rect key="frame" x="16" y="239" width="10" height="10"/></view>
                        <pickerView translatesAutoresizingMaskIntoConstraints="NO" id="pick"><rect key="frame" x="0.0" y="300" width="320" height="216"/></pickerView>
                        <button fixedFrame="YES" translatesAutoresizingMaskIntoConstraints="NO" id="fixed"><rect key="frame" x="88" y="540" width="46" height="30"/></button>
                    </subviews>
                    <constraints>
                        <constraint firstAttribute="trailing" secondItem="sw" secondAttribute="trailing" constant="8" id="a"/>
                        <constraint firstItem="sw" firstAttribute="top" secondItem="root" secondAttribute="top" constant="40" id="b"/>
                        <constraint firstItem="sl" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="c"/>
                        <constraint firstAttribute="trailing" secondItem="sl" secondAttribute="trailing" constant="16" id="d"/>
                        <constraint firstItem="sl" firstAttribute="centerY" secondItem="root" secondAttribute="top" constant="115" id="e"/>
                        <constraint firstItem="seg" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="f"/>
                        <constraint firstItem="seg" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="16" id="g"/>
                        <constraint firstItem="under" firstAttribute="top" secondItem="seg" secondAttribute="bottom" constant="8" id="h"/>
                        <constraint firstItem="under" firstAttribute="leading" secondItem="seg" secondAttribute="leading" id="i"/>
                        <constraint firstItem="under" firstAttribute="width" constant="10" id="j"/>
                        <constraint firstItem="under" firstAttribute="height" constant="10" id="k"/>
                        <constraint firstItem="pick" firstAttribute="top" secondItem="root" secondAttribute="top" constant="300" id="m"/>
                        <constraint firstItem="pick" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="n"/>
                    </constraints>
                    """)
            ).roots.first)
        try assertAgrees(controls)
    }

    /// A symbol stretched over a view (an image view's, a button's background image) is
    /// stored at its image rect: the alignment rect the constraints place, outset evenly by
    /// `−0.5 − 12.8 × (1 − height ÷ width)` of its `<resources>` size, whatever the view's size.
    /// A centred foreground symbol, or one with a configuration of its own, has no insets.
    func testAStretchedSymbolIsStoredAtItsImageRect() throws {
        func pinned(_ id: String, top: Int, leading: Int = 20, width: Int, height: Int) -> String {
            """
            <constraint firstItem="\(id)" firstAttribute="top" secondItem="root" secondAttribute="top" constant="\(top)" id="\(id)-t"/>
            <constraint firstItem="\(id)" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="\(leading)" id="\(id)-l"/>
            <constraint firstItem="\(id)" firstAttribute="width" constant="\(width)" id="\(id)-w"/>
            <constraint firstItem="\(id)" firstAttribute="height" constant="\(height)" id="\(id)-h"/>
            """
        }
        let body = """
            <subviews>
                <imageView contentMode="scaleAspectFit" translatesAutoresizingMaskIntoConstraints="NO" image="wide.glyph" catalog="system" id="wide"><rect key="frame" x="20" y="102" width="60" height="36.5"/></imageView>
                <imageView contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="tall"><rect key="frame" x="20" y="200.5" width="200" height="199.5"/><imageReference key="image" image="tall.glyph" catalog="system"/></imageView>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="back"><rect key="frame" x="20" y="20.5" width="40" height="39.5"/><state key="normal" backgroundImage="square.glyph" catalog="system"/></button>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="front"><rect key="frame" x="100" y="20" width="40" height="40"/><state key="normal" image="wide.glyph" catalog="system"/></button>
                <imageView contentMode="scaleAspectFit" translatesAutoresizingMaskIntoConstraints="NO" image="wide.glyph" catalog="system" id="sized"><rect key="frame" x="20" y="420" width="40" height="40"/><imageSymbolConfiguration key="preferredSymbolConfiguration" configurationType="pointSize" pointSize="40"/></imageView>
            </subviews>
            <constraints>
                \(pinned("wide", top: 100, width: 60, height: 40))
                \(pinned("tall", top: 200, width: 200, height: 200))
                \(pinned("back", top: 20, width: 40, height: 40))
                \(pinned("front", top: 20, leading: 100, width: 40, height: 40))
                \(pinned("sized", top: 420, width: 40, height: 40))
            </constraints>
            """
        // The symbols' sizes, as Xcode lists them under `<resources>` (the longer side 128).
        let resources = """
            <resources>
                <image name="wide.glyph" catalog="system" width="128" height="98"/>
                <image name="tall.glyph" catalog="system" width="100" height="128"/>
                <image name="square.glyph" catalog="system" width="128" height="128"/>
            </resources>
            """
        let xml = String(decoding: Self.scene(body), as: UTF8.self).replacingOccurrences(of: "</document>", with: resources + "</document>")
        let root = try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
        let frames = try laidOut(root)
        // 30 of 128 flatter than square: 0.5 + 3 points shorter, 1.75 at each edge (101.75 and
        // 138.25 on the 2× screen's half points); a square or taller symbol 0.25 at each edge.
        for (id, expected) in [
            ("wide", Rect(x: 20, y: 102, width: 60, height: 36.5)), ("tall", Rect(x: 20, y: 200.5, width: 200, height: 199.5)),
            ("back", Rect(x: 20, y: 20.5, width: 40, height: 39.5)), ("front", Rect(x: 100, y: 20, width: 40, height: 40)),
            ("sized", Rect(x: 20, y: 420, width: 40, height: 40))
        ] {
            let f = try XCTUnwrap(frames[id], id)
            for (a, b) in [(f.x, expected.x), (f.y, expected.y), (f.width, expected.width), (f.height, expected.height)] {
                XCTAssertEqual(a, b, accuracy: 1e-9, id)
            }
        }
    }

    /// Symbols whose overhang was measured take it, not the estimate: `sun.max` 0.5 above,
    /// `cloud.rain` drawn 126 × 128 1 above and 0.5 below, at any size; `cloud.rain` in its
    /// older 128 × 125 drawing keeps the estimate (0.25 inside at each edge).
    func testMeasuredSymbolsOverhangTheirAlignmentRect() throws {
        func pinned(_ id: String, top: Int, width: Int, height: Int) -> String {
            """
            <constraint firstItem="\(id)" firstAttribute="top" secondItem="root" secondAttribute="top" constant="\(top)" id="\(id)-t"/>
            <constraint firstItem="\(id)" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="40" id="\(id)-l"/>
            <constraint firstItem="\(id)" firstAttribute="width" constant="\(width)" id="\(id)-w"/>
            <constraint firstItem="\(id)" firstAttribute="height" constant="\(height)" id="\(id)-h"/>
            """
        }
        func symbol(_ id: String, _ name: String) -> String {
            """
            <imageView contentMode="scaleAspectFit" translatesAutoresizingMaskIntoConstraints="NO" image="\(name)" catalog="system" id="\(id)"><rect key="frame" x="40" y="0" width="10" height="10"/></imageView>
            """
        }
        let body = """
            <subviews>
                \(symbol("sun", "sun.max"))
                \(symbol("rain", "cloud.rain.fill"))
            </subviews>
            <constraints>
                \(pinned("sun", top: 60, width: 90, height: 90))
                \(pinned("rain", top: 200, width: 30, height: 30))
            </constraints>
            """
        func frames(rain: (Int, Int)) throws -> [String: Rect] {
            let resources = """
                <resources>
                    <image name="sun.max" catalog="system" width="128" height="124"/>
                    <image name="cloud.rain.fill" catalog="system" width="\(rain.0)" height="\(rain.1)"/>
                </resources>
                """
            let xml = String(decoding: Self.scene(body), as: UTF8.self).replacingOccurrences(of: "</document>", with: resources + "</document>")
            return try laidOut(try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first))
        }
        let newer = try frames(rain: (126, 128)), older = try frames(rain: (128, 125))
        for (f, expected) in [
            (newer["sun"], Rect(x: 40, y: 59.5, width: 90, height: 90.5)), (newer["rain"], Rect(x: 40, y: 199, width: 30, height: 31.5)),
            (older["rain"], Rect(x: 40, y: 200.5, width: 30, height: 29))
        ] {
            let f = try XCTUnwrap(f)
            for (a, b) in [(f.x, expected.x), (f.y, expected.y), (f.width, expected.width), (f.height, expected.height)] {
                XCTAssertEqual(a, b, accuracy: 1e-9)
            }
        }
    }

    /// A scroll view's edges, constrained to what it holds, are its content area's: the
    /// content's size is the scroll view's content size, not its frame; its centre stays its
    /// frame's (`middle` sits at the middle of the screen, not of the 1,200-point content).
    func testAScrollViewsEdgesAreItsContentArea() throws {
        let root = try XCTUnwrap(
            try Importer.read(
                Self.scene(
                    """
                    <subviews>
                        <scrollView translatesAutoresizingMaskIntoConstraints="NO" id="scroll">
                            <rect key="frame" x="0.0" y="0.0" width="375" height="667"/>
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="content">
                                    <rect key="frame" x="0.0" y="0.0" width="375" height="1200"/>
                                    <constraints><constraint firstAttribute="height" constant="1200" id="h"/></constraints>
                                </view>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="middle">
                                    <rect key="frame" x="20" y="308.5" width="100" height="50"/>
                                    <constraints>
                                        <constraint firstAttribute="width" constant="100" id="mw"/>
                                        <constraint firstAttribute="height" constant="50" id="mh"/>
                                    </constraints>
                                </view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="content" firstAttribute="top" secondItem="scroll" secondAttribute="top" id="t"/>
                                <constraint firstItem="content" firstAttribute="leading" secondItem="scroll" secondAttribute="leading" id="l"/>
                                <constraint firstAttribute="bottom" secondItem="content" secondAttribute="bottom" id="b"/>
                                <constraint firstAttribute="trailing" secondItem="content" secondAttribute="trailing" id="r"/>
                                <constraint firstItem="content" firstAttribute="width" secondItem="scroll" secondAttribute="width" id="w"/>
                                <constraint firstItem="middle" firstAttribute="leading" secondItem="scroll" secondAttribute="leading" constant="20" id="ml"/>
                                <constraint firstItem="middle" firstAttribute="centerY" secondItem="scroll" secondAttribute="centerY" id="mc"/>
                            </constraints>
                        </scrollView>
                    </subviews>
                    <constraints>
                        <constraint firstItem="scroll" firstAttribute="top" secondItem="root" secondAttribute="top" id="st"/>
                        <constraint firstItem="scroll" firstAttribute="bottom" secondItem="root" secondAttribute="bottom" id="sb"/>
                        <constraint firstItem="scroll" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="sl"/>
                        <constraint firstItem="scroll" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="sr"/>
                    </constraints>
                    """)
            ).roots.first)
        try assertAgrees(root)
    }

    /// iOS 7–10's top and bottom layout guides, and what the any-width, any-height
    /// configuration leaves out of a size-class variation.
    func testLegacyGuidesAndVariations() throws {
        let root = try XCTUnwrap(
            try Importer.read(
                Self.scene(
                    """
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="bar"><rect key="frame" x="0.0" y="20" width="375" height="30"/></view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="bar" firstAttribute="top" secondItem="topGuide" secondAttribute="bottom" id="t"/>
                        <constraint firstItem="bar" firstAttribute="top" secondItem="topGuide" secondAttribute="bottom" constant="100" id="compactOnly"/>
                        <constraint firstItem="bar" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="l"/>
                        <constraint firstItem="bar" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="r"/>
                        <constraint firstItem="bar" firstAttribute="height" constant="30" id="h"/>
                    </constraints>
                    <variation key="default"><mask key="constraints"><exclude reference="compactOnly"/></mask></variation>
                    """,
                    controller: """
                        <layoutGuides>
                            <viewControllerLayoutGuide type="top" id="topGuide"/>
                            <viewControllerLayoutGuide type="bottom" id="bottomGuide"/>
                        </layoutGuides>
                        """)
            ).roots.first)
        try assertAgrees(root)
        XCTAssertEqual(try laidOut(root)["bottomGuide"], Rect(x: 0, y: 667, width: 0, height: 0))
    }

    /// Size classes: a variation for the layout's classes includes what the any-width,
    /// any-height configuration leaves out, excludes what it keeps, and sets a constraint's
    /// constant; a phone in landscape is compact in height.
    func testSizeClassVariations() throws {
        let bytes = Self.scene(
            """
            <subviews><view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="20" width="10" height="10"/></view></subviews>
            <constraints>
                <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="l"/>
                <constraint firstItem="v" firstAttribute="width" constant="10" id="w">
                    <variation key="heightClass=compact" constant="30"/>
                </constraint>
                <constraint firstItem="v" firstAttribute="height" constant="10" id="h"/>
                <constraint firstItem="v" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="portraitTop"/>
                <constraint firstItem="v" firstAttribute="top" secondItem="root" secondAttribute="top" constant="5" id="landscapeTop"/>
            </constraints>
            <variation key="default"><mask key="constraints"><exclude reference="landscapeTop"/></mask></variation>
            <variation key="heightClass=compact"><mask key="constraints"><include reference="landscapeTop"/><exclude reference="portraitTop"/></mask></variation>
            """)
        let portrait = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(try laidOut(portrait)["v"], Rect(x: 0, y: 20, width: 10, height: 10))
        let landscape = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(landscape: true, contentSizes: .stored)).roots.first)
        XCTAssertEqual(try laidOut(landscape)["v"], Rect(x: 0, y: 5, width: 30, height: 10))
        let max = SizeClasses(device: Device.named("retina6_5"), landscape: true)
        XCTAssertEqual([max.compactWidth, max.compactHeight], [false, true], "a Max phone in landscape: regular width, compact height")
        XCTAssertFalse(SizeClasses(device: Device.named("ipad12_9"), landscape: false).applies("widthClass=compact"))
        XCTAssertFalse(SizeClasses(device: nil, landscape: false).applies("userInterfaceIdiom=mac"))
    }

    /// A document naming no device is laid out in the any-width, any-height configuration its
    /// frames are stored in: what `<variation key="default">` excludes is not installed, though
    /// a compact width's variation includes it, and no size class's constant applies
    /// (`SizeClasses.isAnyWidthAnyHeight`).
    func testADocumentWithoutADeviceIsAnyWidthAnyHeight() throws {
        let xml = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="10117" targetRuntime="iOS.CocoaTouch" useAutolayout="YES" useTraitCollections="YES">
                <scenes><scene sceneID="s"><objects>
                    <viewController id="vc" sceneMemberID="viewController">
                        <view key="view" contentMode="scaleToFill" id="root">
                            <rect key="frame" x="0.0" y="0.0" width="600" height="600"/>
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="20" width="10" height="10"/></view>
                                <label opaque="NO" text="Compact" translatesAutoresizingMaskIntoConstraints="NO" id="onlyCompact">
                                    <rect key="frame" x="-42" y="-21" width="42" height="21"/>
                                </label>
                            </subviews>
                            <constraints>
                                <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="l"/>
                                <constraint firstItem="v" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" id="t"/>
                                <constraint firstItem="v" firstAttribute="height" constant="10" id="h"/>
                                <constraint firstItem="v" firstAttribute="width" constant="10" id="w">
                                    <variation key="widthClass=compact" constant="30"/>
                                </constraint>
                                <constraint firstItem="onlyCompact" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="100" id="cl"/>
                                <constraint firstItem="onlyCompact" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="ct"/>
                            </constraints>
                            <variation key="default">
                                <mask key="subviews"><exclude reference="onlyCompact"/></mask>
                                <mask key="constraints"><exclude reference="cl"/><exclude reference="ct"/></mask>
                            </variation>
                            <variation key="widthClass=compact">
                                <mask key="subviews"><include reference="onlyCompact"/></mask>
                                <mask key="constraints"><include reference="cl"/><include reference="ct"/></mask>
                            </variation>
                        </view>
                    </viewController>
                </objects></scene></scenes>
            </document>
            """
        let root = try XCTUnwrap(try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
        let frames = try laidOut(root)
        XCTAssertEqual(frames["v"], Rect(x: 0, y: 20, width: 10, height: 10))
        XCTAssertNil(frames["onlyCompact"], "not installed in the any-width, any-height configuration")
        let phone = try XCTUnwrap(
            try Importer.read(Array(xml.utf8), options: ImportOptions(device: "retina4_7", contentSizes: .stored)).roots.first)
        let onPhone = try laidOut(phone)
        XCTAssertEqual(onPhone["v"]?.width, 30, "a phone asked for is compact in width")
        XCTAssertNotNil(onPhone["onlyCompact"])
        XCTAssertTrue(SizeClasses.isAnyWidthAnyHeight(device: nil))
        XCTAssertFalse(SizeClasses(device: nil, landscape: true).applies("heightClass=compact"))
    }

    /// Measured, a label is text wrapped as UIKit would: in the system font when the document
    /// names none (the server's, tracked as San Francisco is), a named font in the server's
    /// substitute family.
    func testLabelsAreMeasuredAsText() throws {
        let document = try Importer.read(try fixture("scene.storyboard"))
        let root = try XCTUnwrap(document.roots.first)
        let views = try XCTUnwrap(root.document["views"]?.array)
        let title = try XCTUnwrap(views.first { $0["id"]?.string == "title" })
        XCTAssertEqual(title["text"]?["string"]?.string, "Title")
        XCTAssertNil(title["text"]?["font"]?["family"], "the system font")
        XCTAssertEqual(title["text"]?["font"]?["weight"]?.number, 700)
        XCTAssertNil(title["intrinsicSize"])
        let frames = try laidOut(root)
        XCTAssertGreaterThan(try XCTUnwrap(frames["title"]).height, 15)
        XCTAssertEqual(frames["card"], Rect(x: 20, y: 40, width: 335, height: 100))
        let named = try XCTUnwrap(
            try Importer.read(
                Self.scene(
                    """
                                    <subviews>
                                        <label id="l" text="Title">
                                            <rect key="frame" x="16" y="20" width="100" height="20.5"/>
                                            <fontDescription key="fontDescription" name="Avenir-Book" family="Avenir" pointSize="17"/>
                                        </label>
                                    </subviews>
                    """)
            ).roots.first)
        let label = try XCTUnwrap(named.document["views"]?.array?.first { $0["id"]?.string == "l" })
        XCTAssertEqual(label["text"]?["font"]?["family"]?.string, Importer.substituteFamily)
    }

    /// A xib's table cell: its content view (written without a frame) fills the cell and
    /// answers for the cell in the cell's own constraints, Xcode 8's
    /// `frameInset` places a subview from its parent's edges, and a custom view's stated
    /// intrinsic size holds it up.
    func testCellsFrameInsetsAndStatedIntrinsicSizes() throws {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <tableViewCell contentMode="scaleToFill" id="cell">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="60"/>
                        <tableViewCellContentView key="contentView" id="content">
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="badge" customClass="Badge">
                                    <frame key="frameInset" minX="16" minY="11" width="30" height="20"/>
                                    <size key="intrinsicContentSize" width="30" height="20"/>
                                </view>
                                <view contentMode="scaleToFill" id="strip">
                                    <frame key="frameInset" minY="56" maxX="0.0" width="100" height="4"/>
                                </view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="badge" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="l"/>
                                <constraint firstItem="badge" firstAttribute="top" secondItem="content" secondAttribute="topMargin" id="t"/>
                            </constraints>
                        </tableViewCellContentView>
                        <constraints>
                            <constraint firstItem="badge" firstAttribute="height" secondItem="cell" secondAttribute="height" multiplier="1:3" id="third"/>
                        </constraints>
                    </tableViewCell>
                </objects>
            </document>
            """
        let document = try Importer.read(Array(xib.utf8), options: ImportOptions(contentSizes: .stored))
        let root = try XCTUnwrap(document.roots.first)
        XCTAssertEqual(root.kind, .cell)
        XCTAssertEqual(root.name, "cell")
        XCTAssertEqual(root.notes, [], "the cell's own constraint names the cell: its content view")
        XCTAssertEqual(root.storedFrames.first { $0.id == "strip" }.map { [$0.x, $0.y, $0.width, $0.height] }, [220, 56, 100, 4])
        let frames = try laidOut(root)
        XCTAssertEqual(frames["content"], Rect(x: 0, y: 0, width: 320, height: 60))
        XCTAssertEqual(frames["badge"], Rect(x: 16, y: 11, width: 30, height: 20))
        XCTAssertEqual(frames["strip"], Rect(x: 220, y: 56, width: 100, height: 4))
    }

    /// Xcode's standard constants (`symbolic`) and a stack's `spacingType="standard"` become
    /// layoutd's `"standard"`, resolved as Xcode resolved them (8 between views, 20 to the
    /// superview's edge); a baseline-relative vertical stack keeps its flag.
    func testStandardSpacingAndBaselineRelativeStacks() throws {
        let bytes = Self.scene(
            """
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="a">
                    <rect key="frame" x="20" y="20" width="50" height="40"/>
                </view>
                <stackView opaque="NO" contentMode="scaleToFill" spacingType="standard" translatesAutoresizingMaskIntoConstraints="NO" id="row">
                    <rect key="frame" x="78" y="20" width="108" height="40"/>
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="b">
                            <rect key="frame" x="0.0" y="0.0" width="50" height="40"/>
                            <constraints>
                                <constraint firstAttribute="width" constant="50" id="bw"/>
                                <constraint firstAttribute="height" constant="40" id="bh"/>
                            </constraints>
                        </view>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="c">
                            <rect key="frame" x="58" y="0.0" width="50" height="40"/>
                            <constraints>
                                <constraint firstAttribute="width" constant="50" id="cw"/>
                            </constraints>
                        </view>
                    </subviews>
                </stackView>
                <stackView opaque="NO" contentMode="scaleToFill" axis="vertical" spacing="12" baselineRelativeArrangement="YES" translatesAutoresizingMaskIntoConstraints="NO" id="col">
                    <rect key="frame" x="20" y="100" width="10" height="10"/>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" symbolic="YES" id="l"/>
                <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="20" symbolic="YES" id="t"/>
                <constraint firstItem="a" firstAttribute="width" constant="50" id="aw"/>
                <constraint firstItem="a" firstAttribute="height" constant="40" id="ah"/>
                <constraint firstItem="row" firstAttribute="leading" secondItem="a" secondAttribute="trailing" constant="8" symbolic="YES" id="gap"/>
                <constraint firstItem="row" firstAttribute="top" secondItem="a" secondAttribute="top" id="rt"/>
                <constraint firstItem="col" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="cl"/>
                <constraint firstItem="col" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="ct"/>
                <constraint firstItem="col" firstAttribute="width" constant="10" id="cw2"/>
                <constraint firstItem="col" firstAttribute="height" constant="10" id="ch2"/>
            </constraints>
            """)
        let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first)
        let constraints = try XCTUnwrap(root.document["constraints"]?.array)
        XCTAssertEqual(constraints.first { $0["id"]?.string == "gap" }?["constant"]?.string, "standard")
        XCTAssertEqual(constraints.first { $0["id"]?.string == "l" }?["constant"]?.string, "standard")
        let views = try XCTUnwrap(root.document["views"]?.array)
        XCTAssertEqual(views.first { $0["id"]?.string == "row" }?["stack"]?["spacing"]?.string, "standard")
        XCTAssertEqual(views.first { $0["id"]?.string == "col" }?["stack"]?["baselineRelativeArrangement"]?.bool, true)
        try assertAgrees(root)
    }

    /// Views positioned by their frames follow their autoresizing masks when the root is laid
    /// out at another size: the change is shared by the flexible parts in proportion to their
    /// stored sizes (UIView.autoresizingMask); with no flexible part the frame stays.
    func testAutoresizingMasksAsConstraints() throws {
        let bytes = Self.scene(
            """
            <subviews>
                <view contentMode="scaleToFill" id="pinned">
                    <rect key="frame" x="295" y="20" width="60" height="30"/>
                    <autoresizingMask key="autoresizingMask" flexibleMinX="YES" flexibleMaxY="YES"/>
                </view>
                <view contentMode="scaleToFill" id="banner">
                    <rect key="frame" x="20" y="100" width="335" height="40"/>
                    <autoresizingMask key="autoresizingMask" widthSizable="YES" flexibleMaxY="YES"/>
                </view>
                <view contentMode="scaleToFill" id="centred">
                    <rect key="frame" x="100" y="300" width="175" height="67"/>
                    <autoresizingMask key="autoresizingMask" flexibleMinX="YES" flexibleMaxX="YES" flexibleMinY="YES" heightSizable="YES" flexibleMaxY="YES"/>
                </view>
                <view contentMode="scaleToFill" id="fixed">
                    <rect key="frame" x="10" y="600" width="30" height="30"/>
                </view>
            </subviews>
            """)
        // At the stored size: the stored frames.
        try assertAgrees(try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first))
        // On a 414 × 896 screen: 39 wider, 229 taller.
        let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(device: "retina6_5", contentSizes: .stored)).roots.first)
        let frames = try laidOut(root)
        XCTAssertEqual(frames["root"], Rect(x: 0, y: 0, width: 414, height: 896))
        XCTAssertEqual(frames["pinned"], Rect(x: 334, y: 20, width: 60, height: 30))
        XCTAssertEqual(frames["banner"], Rect(x: 20, y: 100, width: 374, height: 40))
        // x: margins 100 and 100 share 39 equally; y: 300, 67 and 300 share 229 by 300:67:300.
        let f = try XCTUnwrap(frames["centred"])
        XCTAssertEqual(f.x, 119.5, accuracy: 0.5)
        XCTAssertEqual(f.width, 175)
        XCTAssertEqual(f.y, 300 + 229 * 300 / 667, accuracy: 0.5)
        XCTAssertEqual(f.height, 67 + 229 * 67 / 667, accuracy: 0.5)
        XCTAssertEqual(frames["fixed"], Rect(x: 10, y: 600, width: 30, height: 30))
    }

    /// Canvas rules that changed with Xcode, keyed by the document's `toolsVersion`: a table
    /// cell's content margins (8 all round before Xcode 9.1, then 11 and 16, 15 at the sides in
    /// Xcode 10), a collection
    /// cell's (a plain view's 8), the 6.1-inch phone's status bar (44 up to Xcode 14.0, then
    /// 48, doubled by Xcode 26 as on every phone with a sensor housing), and the 20-point
    /// status bar of documents that name no device.
    func testCanvasRulesThatChangedWithXcode() throws {
        func cell(_ tools: String, _ kind: String, content: String) -> [UInt8] {
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <\(kind) contentMode="scaleToFill" id="cell">
                            <rect key="frame" x="0.0" y="0.0" width="320" height="60"/>
                            <\(content) key="contentView" id="content">
                                <rect key="frame" x="0.0" y="0.0" width="320" height="60"/>
                                <subviews>
                                    <view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="v" firstAttribute="leading" secondItem="content" secondAttribute="leadingMargin" id="l"/>
                                    <constraint firstItem="v" firstAttribute="top" secondItem="content" secondAttribute="topMargin" id="t"/>
                                    <constraint firstItem="v" firstAttribute="width" constant="10" id="w"/>
                                    <constraint firstItem="v" firstAttribute="height" constant="10" id="h"/>
                                </constraints>
                            </\(content)>
                        </\(kind)>
                    </objects>
                </document>
                """.utf8)
        }
        func origin(_ bytes: [UInt8], _ id: String, device: String? = nil) throws -> [Double] {
            let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(device: device, contentSizes: .stored)).roots.first)
            let f = try XCTUnwrap(try laidOut(root)[id])
            return [f.x, f.y]
        }
        XCTAssertEqual(try origin(cell("13196", "tableViewCell", content: "tableViewCellContentView"), "v"), [8, 8])
        // Xcode 10's narrow cells: 15 at the sides (`Device.tableCellSideMargin`); then 16.
        XCTAssertEqual(try origin(cell("14490", "tableViewCell", content: "tableViewCellContentView"), "v"), [15, 11])
        XCTAssertEqual(try origin(cell("13529", "tableViewCell", content: "tableViewCellContentView"), "v"), [16, 11])
        XCTAssertEqual(try origin(cell("14868", "tableViewCell", content: "tableViewCellContentView"), "v"), [16, 11])
        XCTAssertEqual(try origin(cell("20037", "collectionViewCell", content: "collectionViewCellContentView"), "v"), [8, 8])

        func phone(_ tools: String, device: String) -> [UInt8] {
            let element = device.isEmpty ? "" : #"<device id="\#(device)" orientation="portrait" appearance="light"/>"#
            let size = device.isEmpty ? (320, 568) : device == "retina4_7" ? (375, 667) : (414, 896)
            return Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    \(element)
                    <scenes><scene sceneID="s"><objects>
                        <viewController id="vc" sceneMemberID="viewController">
                            <layoutGuides><viewControllerLayoutGuide type="top" id="top"/></layoutGuides>
                            <view key="view" contentMode="scaleToFill" id="root">
                                <rect key="frame" x="0.0" y="0.0" width="\(size.0)" height="\(size.1)"/>
                                <subviews>
                                    <view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="0" width="10" height="10"/></view>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="v" firstAttribute="top" secondItem="top" secondAttribute="bottom" id="t"/>
                                    <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="l"/>
                                    <constraint firstItem="v" firstAttribute="width" constant="10" id="w"/>
                                    <constraint firstItem="v" firstAttribute="height" constant="10" id="h"/>
                                </constraints>
                            </view>
                        </viewController>
                    </objects></scene></scenes>
                </document>
                """.utf8)
        }
        XCTAssertEqual(try origin(phone("20037", device: "retina6_1"), "v"), [0, 44])
        XCTAssertEqual(try origin(phone("21225", device: "retina6_1"), "v"), [0, 48])
        XCTAssertEqual(try origin(phone("24127", device: "retina6_1"), "v"), [0, 96])
        XCTAssertEqual(try origin(phone("24127", device: "retina4_7"), "v"), [0, 20])
        XCTAssertEqual(try origin(phone("4514", device: ""), "v"), [0, 20])
    }

    /// With stored sizes, text views have the system font's baselines: a label's at the
    /// ascender's share of each stored line, a button's title centred in its height.
    func testStoredTextHasTheSystemFontsBaselines() throws {
        let root = try storedRoot(
            """
            <subviews>
                <label text="Title" translatesAutoresizingMaskIntoConstraints="NO" id="a">
                    <rect key="frame" x="20" y="100" width="40" height="20.5"/>
                    <fontDescription key="fontDescription" type="system" pointSize="17"/>
                </label>
                <label text="note" translatesAutoresizingMaskIntoConstraints="NO" id="b">
                    <rect key="frame" x="100" y="102" width="30" height="18"/>
                    <fontDescription key="fontDescription" type="system" pointSize="15"/>
                </label>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="go">
                    <rect key="frame" x="20" y="200" width="46" height="30"/>
                    <fontDescription key="fontDescription" type="system" pointSize="15"/>
                </button>
                <label text="Go" translatesAutoresizingMaskIntoConstraints="NO" id="c">
                    <rect key="frame" x="100" y="204" width="30" height="20.5"/>
                    <fontDescription key="fontDescription" type="system" pointSize="17"/>
                </label>
            </subviews>
            <constraints>
                <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="1"/>
                <constraint firstItem="a" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="2"/>
                <constraint firstItem="b" firstAttribute="firstBaseline" secondItem="a" secondAttribute="firstBaseline" id="3"/>
                <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="100" id="4"/>
                <constraint firstItem="go" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="5"/>
                <constraint firstItem="go" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="6"/>
                <constraint firstItem="c" firstAttribute="baseline" secondItem="go" secondAttribute="baseline" id="7"/>
                <constraint firstItem="c" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="100" id="8"/>
            </constraints>
            """)
        try assertAgrees(root)
    }

    /// A subview's safe area is what of the root's it overlaps, and its margins are inset by
    /// it; `preservesSuperviewLayoutMargins` keeps at least what of the superview's margins
    /// reaches over its edge (the root's 16 at the sides, where 8 is a plain view's own).
    func testSubviewsSafeAreasAndPreservedMargins() throws {
        let root = try storedRoot(
            """
            <subviews>
                <view preservesSuperviewLayoutMargins="YES" translatesAutoresizingMaskIntoConstraints="NO" id="box">
                    <rect key="frame" x="0.0" y="0.0" width="375" height="200"/>
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="a"><rect key="frame" x="16" y="30" width="10" height="10"/></view>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="b"><rect key="frame" x="16" y="28" width="10" height="10"/></view>
                    </subviews>
                    <viewLayoutGuide key="safeArea" id="box-safe"/>
                    <constraints>
                        <constraint firstItem="a" firstAttribute="top" secondItem="box-safe" secondAttribute="top" constant="10" id="at"/>
                        <constraint firstItem="a" firstAttribute="leading" secondItem="box" secondAttribute="leadingMargin" id="al"/>
                        <constraint firstItem="a" firstAttribute="width" constant="10" id="aw"/>
                        <constraint firstItem="a" firstAttribute="height" constant="10" id="ah"/>
                        <constraint firstItem="b" firstAttribute="top" secondItem="box" secondAttribute="topMargin" id="bt"/>
                        <constraint firstItem="b" firstAttribute="leading" secondItem="box" secondAttribute="leadingMargin" id="bl"/>
                        <constraint firstItem="b" firstAttribute="width" constant="10" id="bw"/>
                        <constraint firstItem="b" firstAttribute="height" constant="10" id="bh"/>
                    </constraints>
                </view>
            </subviews>
            <constraints>
                <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" id="1"/>
                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="2"/>
                <constraint firstItem="box" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="3"/>
                <constraint firstItem="box" firstAttribute="height" constant="200" id="4"/>
            </constraints>
            """)
        try assertAgrees(root)
    }

    /// `fillProportionally` shares by intrinsic size, and a view without one by its current
    /// size: a nib's view, its stored frame. A label stored 25 tall and a plain view stored 75
    /// share the stack 1 : 3 when it is made 200 tall.
    func testFillProportionallySharesByStoredSizeWithoutIntrinsic() throws {
        let root = try storedRoot(
            """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" axis="vertical" distribution="fillProportionally" translatesAutoresizingMaskIntoConstraints="NO" id="col">
                    <rect key="frame" x="20" y="40" width="200" height="100"/>
                    <subviews>
                        <label text="Title" translatesAutoresizingMaskIntoConstraints="NO" id="t">
                            <rect key="frame" x="0.0" y="0.0" width="200" height="25"/>
                        </label>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="v">
                            <rect key="frame" x="0.0" y="25" width="200" height="75"/>
                        </view>
                    </subviews>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="col" firstAttribute="top" secondItem="root" secondAttribute="top" constant="40" id="1"/>
                <constraint firstItem="col" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="2"/>
                <constraint firstItem="col" firstAttribute="width" constant="200" id="3"/>
                <constraint firstItem="col" firstAttribute="height" constant="200" id="4"/>
            </constraints>
            """)
        let frames = try laidOut(root)
        XCTAssertEqual(frames["t"], Rect(x: 0, y: 0, width: 200, height: 50))
        XCTAssertEqual(frames["v"], Rect(x: 0, y: 50, width: 200, height: 150))
    }

    func testRefusals() throws {
        func refusal(_ bytes: [UInt8], _ options: ImportOptions = ImportOptions()) -> ImportError? {
            do {
                _ = try Importer.read(bytes, options: options)
                return nil
            } catch { return error }
        }
        XCTAssertEqual(refusal(Array("<plist/>".utf8))?.message.contains("not an Interface Builder document"), true)
        XCTAssertEqual(refusal(Self.scene(""), ImportOptions(device: "nokia3310"))?.message.contains("unknown device"), true)
        XCTAssertEqual(refusal(Self.scene(""), ImportOptions(root: "nothing"))?.message.contains("no scene"), true)
        let broken = try XCTUnwrap(refusal(Self.scene("<subviews><view id=\"x\"></subviews>")))
        XCTAssertEqual(broken.line, 9)
        let mac = Array("<document targetRuntime=\"MacOSX.Cocoa\"><objects/></document>".utf8)
        XCTAssertEqual(refusal(mac)?.message.contains("only UIKit"), true)
    }

    /// An id used twice, by a view and one nested in it (or in what it holds), once looped
    /// forever walking up the tree (a standard space asks whether one view is inside another).
    /// It is imported, and its root's document refused for the repeated id.
    func testAViewNestedInOneOfItsOwnIdIsRefusedNotWalkedForever() throws {
        for nested in ["<view id=\"a\">", "<view id=\"c\"><rect key=\"frame\" x=\"0\" y=\"0\" width=\"5\" height=\"5\"/><subviews><view id=\"a\">"] {
            let close = nested.hasPrefix("<view id=\"c\"") ? "</view></subviews></view>" : "</view>"
            let root = try storedRoot(
                """
                                <subviews>
                                    <view id="a" translatesAutoresizingMaskIntoConstraints="NO"><rect key="frame" x="0" y="0" width="50" height="50"/>
                                        <subviews>\(nested)<rect key="frame" x="0" y="0" width="10" height="10"/>\(close)</subviews>
                                    </view>
                                    <view id="b" translatesAutoresizingMaskIntoConstraints="NO"><rect key="frame" x="0" y="60" width="50" height="20"/></view>
                                </subviews>
                                <constraints>
                                    <constraint firstItem="b" firstAttribute="top" secondItem="a" secondAttribute="bottom" constant="8" symbolic="YES" id="s"/>
                                </constraints>
                """)
            XCTAssertThrowsError(try LayoutSession.make(document: root.document, oneShot: true)) { error in
                XCTAssertEqual((error as? LayoutError)?.detail, "a view 'a' exists already")
            }
        }
    }

    /// Every numeric attribute the importer reads is a finite number in range, or the document
    /// is refused at the element that holds it; none reaches a conversion or a division.
    func testNumbersThatCannotBeReadAreRefusedWhereTheyStand() throws {
        let label = { (attributes: String, font: String) in
            """
                            <subviews>
                                <label id="l" text="Title" \(attributes)>
                                    <rect key="frame" x="16" y="20" width="100" height="20.5"/>
                                    <fontDescription key="fontDescription" type="system" \(font)/>
                                </label>
                            </subviews>
            """
        }
        let bad: [(String, String, String)] = [
            ("", "pointSize=\"nan\"", "pointSize"), ("", "pointSize=\"inf\"", "pointSize"), ("", "pointSize=\"-3\"", "pointSize"),
            ("", "pointSize=\"1e308\"", "pointSize"), ("", "pointSize=\"\"", "pointSize"), ("", "pointSize=\"big\"", "pointSize"),
            ("numberOfLines=\"1.5\"", "pointSize=\"17\"", "numberOfLines"), ("numberOfLines=\"-1\"", "pointSize=\"17\"", "numberOfLines"),
            ("horizontalHuggingPriority=\"NaN\"", "pointSize=\"17\"", "horizontalHuggingPriority")
        ]
        for (attributes, font, name) in bad {
            do {
                _ = try Importer.read(Self.scene(label(attributes, font)), options: ImportOptions(contentSizes: .stored))
                XCTFail("\(attributes) \(font) was read")
            } catch {
                XCTAssertTrue(error.message.contains(name), error.message)
                XCTAssertEqual(error.kind, .malformed, "answered 400: the document cannot be read")
                // The element that holds it: the label's line (10), or its font's (12).
                XCTAssertEqual(error.line, name == "pointSize" ? 12 : 10, error.message)
                XCTAssertGreaterThan(error.column, 1)
            }
        }
        let frame = { (x: String) in "<subviews><view id=\"v\"><rect key=\"frame\" x=\"\(x)\" y=\"0\" width=\"1\" height=\"1\"/></view></subviews>" }
        for x in ["-inf", "1e300", "0x1p3000", "--1"] {
            XCTAssertThrowsError(try Importer.read(Self.scene(frame(x))), x)
        }
        // A size class's constant or priority is checked as the constraint's own is.
        let variation = { (a: String) in
            """
                            <subviews><view id="v"><rect key="frame" x="0" y="0" width="10" height="10"/></view></subviews>
                            <constraints><constraint firstItem="v" firstAttribute="width" constant="10" id="w">
                                <variation key="widthClass=compact" \(a)/>
                            </constraint></constraints>
            """
        }
        for a in ["constant=\"1e300\"", "constant=\"nan\"", "priority=\"-1\"", "priority=\"inf\""] {
            XCTAssertThrowsError(try Importer.read(Self.scene(variation(a))), a) { error in
                XCTAssertEqual((error as? ImportError)?.line, 11, a)
            }
        }
        XCTAssertNoThrow(try Importer.read(Self.scene(variation("constant=\"-20\" priority=\"750\""))))
        // A multiplier that is not a finite number leaves its constraint out, with a note.
        let ratio = try storedRoot(
            """
                            <subviews><view id="v"><rect key="frame" x="0" y="0" width="10" height="10"/></view></subviews>
                            <constraints><constraint firstItem="v" firstAttribute="width" secondItem="v" secondAttribute="height" multiplier="1:0" id="r"/></constraints>
            """)
        XCTAssertTrue(ratio.notes.contains { $0.message.contains("multiplier") }, "\(ratio.notes)")
        // A fraction, as IB keeps one that was typed, is a number.
        let third = try storedRoot(
            """
                            <subviews><view translatesAutoresizingMaskIntoConstraints="NO" id="v"><rect key="frame" x="0" y="0" width="125" height="10"/></view></subviews>
                            <constraints>
                                <constraint firstItem="v" firstAttribute="width" secondItem="root" secondAttribute="width" multiplier="1/3" id="w"/>
                                <constraint firstItem="v" firstAttribute="height" constant="10" id="h"/>
                                <constraint firstItem="v" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="x"/>
                                <constraint firstItem="v" firstAttribute="top" secondItem="root" secondAttribute="top" id="y"/>
                            </constraints>
            """)
        XCTAssertEqual(third.notes, [])
        XCTAssertEqual(try laidOut(third)["v"], Rect(x: 0, y: 0, width: 125, height: 10))
        XCTAssertNil(RootBuilder.multiplier("1/0"))
    }

    /// Xcode writes `pointSize="0.0"` for the labels of its built-in cell styles: 12 pt from
    /// Xcode 12 on, the style's own size before; never a division by zero.
    func testAZeroFontSizeIsWhatXcodeLaysOut() throws {
        func cell(style: String, tools: String) -> [UInt8] {
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <tableViewCell style="\(style)" textLabel="t" detailTextLabel="d" id="c">
                            <rect key="frame" x="0.0" y="0.0" width="375" height="44"/>
                            <tableViewCellContentView key="contentView" id="cv">
                                <rect key="frame" x="0.0" y="0.0" width="375" height="44"/>
                                <subviews>
                                    <label text="Title" id="t">
                                        <rect key="frame" x="16" y="15" width="25" height="14.5"/>
                                        <fontDescription key="fontDescription" type="system" pointSize="0.0"/>
                                    </label>
                                    <label text="Detail" id="d">
                                        <rect key="frame" x="326" y="15" width="33" height="14.5"/>
                                        <fontDescription key="fontDescription" type="system" pointSize="0.0"/>
                                    </label>
                                </subviews>
                            </tableViewCellContentView>
                        </tableViewCell>
                    </objects>
                </document>
                """.utf8)
        }
        func sizes(_ bytes: [UInt8]) throws -> [String: Double] {
            let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .measured)).roots.first)
            var out: [String: Double] = [:]
            for v in root.document["views"]?.array ?? [] {
                if let id = v["id"]?.string, let size = v["text"]?["font"]?["size"]?.number { out[id] = size }
            }
            return out
        }
        let expected: [(String, String, Double, Double)] = [
            ("IBUITableViewCellStyleSubtitle", "21701", 12, 12), ("IBUITableViewCellStyleValue1", "20037", 12, 12),
            ("IBUITableViewCellStyleSubtitle", "11762", 17, 12), ("IBUITableViewCellStyleValue1", "11762", 17, 17),
            ("IBUITableViewCellStyleValue2", "11762", 12, 12), ("IBUITableViewCellStyleDefault", "14868", 17, 17)
        ]
        for (style, tools, text, detail) in expected {
            XCTAssertEqual(try sizes(cell(style: style, tools: tools)), ["t": text, "d": detail], "\(style) at \(tools)")
        }
        // With stored sizes, the stored frames: no division by the zero.
        let root = try XCTUnwrap(
            try Importer.read(cell(style: "IBUITableViewCellStyleValue1", tools: "20037"), options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(try laidOut(root)["d"]?.height, 14.5)
    }
}
