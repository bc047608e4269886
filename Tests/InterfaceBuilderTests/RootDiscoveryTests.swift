import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// Every root Xcode shows is answered: cells stored without a frame, table header and footer
/// views, a visual-effect view's content; and controls positioned by their frame keep it.
final class RootDiscoveryTests: XCTestCase {
    func read(_ xml: String) throws -> [ImportedRoot] {
        try Importer.read(Array(xml.utf8), options: ImportOptions(contentSizes: .stored)).roots
    }

    static func tableController(_ inTable: String) -> String {
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.Storyboard.XIB" version="3.0" toolsVersion="7706" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <scenes><scene sceneID="s"><objects>
                <tableViewController id="tvc" sceneMemberID="viewController">
                    <tableView key="view" clipsSubviews="YES" contentMode="scaleToFill" rowHeight="50" id="table">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="568"/>
        \(inTable)
                    </tableView>
                </tableViewController>
            </objects></scene></scenes>
        </document>
        """
    }

    /// Xcode 5 and 6 wrote prototypes without a frame: the cell is its table's width at its row height.
    func testACellStoredWithoutAFrameFillsItsTablesWidthAtItsRowHeight() throws {
        let roots = try read(
            Self.tableController(
                """
                <prototypes>
                    <tableViewCell contentMode="scaleToFill" reuseIdentifier="Cell" id="cell">
                        <tableViewCellContentView key="contentView" opaque="NO" tableViewCell="cell" id="content">
                            <subviews>
                                <label text="Title" id="title"><rect key="frame" x="15" y="0.0" width="290" height="50"/>
                                    <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                                </label>
                            </subviews>
                        </tableViewCellContentView>
                    </tableViewCell>
                </prototypes>
                """))
        let cell = try XCTUnwrap(roots.first { $0.kind == .cell })
        let f = try laidOut(cell)
        XCTAssertEqual(f["content"], Rect(x: 0, y: 0, width: 320, height: 50))
        XCTAssertEqual(f["title"], Rect(x: 15, y: 0, width: 290, height: 50))
    }

    /// A table's header view is a root of its own, at its stored size.
    func testATableHeaderViewIsARoot() throws {
        let roots = try read(
            Self.tableController(
                """
                <view key="tableHeaderView" contentMode="scaleToFill" id="header">
                    <rect key="frame" x="0.0" y="0.0" width="320" height="80"/>
                    <subviews>
                        <label text="Head" translatesAutoresizingMaskIntoConstraints="NO" id="head"><rect key="frame" x="20" y="30" width="40" height="20"/></label>
                    </subviews>
                    <constraints>
                        <constraint firstItem="head" firstAttribute="leading" secondItem="header" secondAttribute="leading" constant="20" id="h1"/>
                        <constraint firstItem="head" firstAttribute="centerY" secondItem="header" secondAttribute="centerY" id="h2"/>
                    </constraints>
                </view>
                """))
        let header = try XCTUnwrap(roots.first { $0.rootID == "header" })
        XCTAssertEqual(try laidOut(header)["head"], Rect(x: 20, y: 30, width: 40, height: 20))
    }

    /// Cells stored without a frame take the size UIKit gives them: a collection cell its flow
    /// layout's `itemSize` (else the layout's default, 50 × 50), a table cell outside a table
    /// `UITableViewCell`'s 320 × 44. A collection cell so stored refused its whole document.
    func testCellsStoredWithoutAFrameTakeUIKitsSizes() throws {
        let box =
            #"<subviews><view translatesAutoresizingMaskIntoConstraints="NO" id="BOX"><rect key="frame" x="4" y="6" width="10" height="12"/></view></subviews>"#
        func collection(_ layout: String) -> String {
            """
            <collectionView clipsSubviews="YES" multipleTouchEnabled="YES" contentMode="scaleToFill" dataMode="prototypes" id="cv">
                <rect key="frame" x="0.0" y="0.0" width="320" height="400"/>
                <collectionViewFlowLayout key="collectionViewLayout" minimumLineSpacing="10" minimumInteritemSpacing="10" id="fl">\(layout)</collectionViewFlowLayout>
                <cells>
                    <collectionViewCell opaque="NO" clipsSubviews="YES" contentMode="center" reuseIdentifier="c" id="cell">
                        <view key="contentView" opaque="NO" clipsSubviews="YES" contentMode="center">\(box.replacingOccurrences(of: "BOX", with: "b"))</view>
                    </collectionViewCell>
                </cells>
            </collectionView>
            """
        }
        let xib = { (objects: String) in
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>\(objects)</objects>
            </document>
            """
        }
        let sized = try XCTUnwrap(read(xib(collection(#"<size key="itemSize" width="100" height="80"/>"#))).first { $0.kind == .cell })
        XCTAssertEqual(try laidOut(sized)[sized.rootID], Rect(x: 0, y: 0, width: 100, height: 80))
        let unsized = try XCTUnwrap(read(xib(collection(""))).first { $0.kind == .cell })
        XCTAssertEqual(try laidOut(unsized)[unsized.rootID], Rect(x: 0, y: 0, width: 50, height: 50))
        let tableCell = """
            <tableViewCell contentMode="scaleToFill" selectionStyle="default" id="tc">
                <tableViewCellContentView key="contentView" opaque="NO" clipsSubviews="YES" contentMode="center" tableViewCell="tc" id="tcc">\(box.replacingOccurrences(of: "BOX", with: "t"))</tableViewCellContentView>
            </tableViewCell>
            """
        let cell = try XCTUnwrap(read(xib(tableCell)).first { $0.kind == .cell })
        XCTAssertEqual(try laidOut(cell)[cell.rootID], Rect(x: 0, y: 0, width: 320, height: 44))
    }

    /// A visual-effect view's content view, and what it holds, are laid out.
    func testAVisualEffectViewsContentIsLaidOut() throws {
        let bytes = ImporterTests.scene(
            """
            <subviews>
                <visualEffectView opaque="NO" contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="blur">
                    <rect key="frame" x="0.0" y="100" width="375" height="100"/>
                    <view key="contentView" opaque="NO" contentMode="center" id="blur-content">
                        <rect key="frame" x="0.0" y="0.0" width="375" height="100"/>
                        <autoresizingMask key="autoresizingMask" widthSizable="YES" heightSizable="YES"/>
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="inside"><rect key="frame" x="10" y="10" width="80" height="80"/></view>
                        </subviews>
                        <constraints>
                            <constraint firstItem="inside" firstAttribute="leading" secondItem="blur-content" secondAttribute="leading" constant="10" id="e1"/>
                            <constraint firstItem="inside" firstAttribute="top" secondItem="blur-content" secondAttribute="top" constant="10" id="e2"/>
                            <constraint firstItem="inside" firstAttribute="width" constant="80" id="e3"/>
                            <constraint firstItem="inside" firstAttribute="height" constant="80" id="e4"/>
                        </constraints>
                    </view>
                    <blurEffect style="light"/>
                </visualEffectView>
            </subviews>
            <constraints>
                <constraint firstItem="blur" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="r1"/>
                <constraint firstItem="blur" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="r2"/>
                <constraint firstItem="blur" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="r3"/>
                <constraint firstItem="blur" firstAttribute="height" constant="100" id="r4"/>
            </constraints>
            """)
        let root = try XCTUnwrap(try Importer.read(bytes, options: ImportOptions(contentSizes: .stored)).roots.first)
        let f = try laidOut(root)
        XCTAssertEqual(f["blur-content"], Rect(x: 0, y: 0, width: 375, height: 100))
        XCTAssertEqual(f["inside"], Rect(x: 10, y: 10, width: 80, height: 80))
    }

    /// A control positioned by its frame keeps the stored frame; a constrained one has its
    /// alignment insets (a segmented control's frame 1 taller than its alignment rect).
    func testAControlPositionedByItsFrameKeepsIt() throws {
        let root = try XCTUnwrap(
            try Importer.read(
                ImporterTests.scene(
                    """
                    <subviews>
                        <segmentedControl opaque="NO" contentMode="scaleToFill" segmentControlStyle="plain" selectedSegmentIndex="0" id="byFrame">
                            <rect key="frame" x="20" y="100" width="200" height="29"/>
                            <autoresizingMask key="autoresizingMask" flexibleMaxX="YES" flexibleMaxY="YES"/>
                        </segmentedControl>
                        <segmentedControl opaque="NO" contentMode="scaleToFill" segmentControlStyle="plain" selectedSegmentIndex="0" translatesAutoresizingMaskIntoConstraints="NO" id="constrained">
                            <rect key="frame" x="20" y="200" width="200" height="32"/>
                        </segmentedControl>
                        <switch opaque="NO" contentMode="scaleToFill" fixedFrame="YES" on="YES" translatesAutoresizingMaskIntoConstraints="NO" id="switch">
                            <rect key="frame" x="20" y="300" width="51" height="31"/>
                        </switch>
                    </subviews>
                    <constraints>
                        <constraint firstItem="constrained" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="s1"/>
                        <constraint firstItem="constrained" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="s2"/>
                    </constraints>
                    """), options: ImportOptions(contentSizes: .stored)
            ).roots.first)
        let f = try laidOut(root)
        XCTAssertEqual(f["byFrame"], Rect(x: 20, y: 100, width: 200, height: 29))
        XCTAssertEqual(f["constrained"], Rect(x: 20, y: 200, width: 200, height: 32))
        XCTAssertEqual(f["switch"], Rect(x: 20, y: 300, width: 51, height: 31))
    }

    /// Of conflicting required constraints, the first in the IB file breaks: a subview's own
    /// constraint, written inside it, before its superview's.
    func testTheFirstInTheFileOfConflictingConstraintsBreaks() throws {
        let root = try XCTUnwrap(
            try Importer.read(
                ImporterTests.scene(
                    """
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="box"><rect key="frame" x="20" y="100" width="335" height="50"/>
                            <constraints><constraint firstAttribute="width" constant="100" id="own"/></constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="k1"/>
                        <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="k2"/>
                        <constraint firstItem="box" firstAttribute="height" constant="50" id="k3"/>
                        <constraint firstAttribute="trailing" secondItem="box" secondAttribute="trailing" constant="20" id="k4"/>
                    </constraints>
                    """), options: ImportOptions(contentSizes: .stored)
            ).roots.first)
        let session = try LayoutSession.make(document: root.document, oneShot: true)
        var frames: [String: Rect] = [:]
        session.forEachFrame { id, frame, _ in frames[id] = frame }
        XCTAssertEqual(frames["box"], Rect(x: 20, y: 100, width: 335, height: 50))
        let broken = session.diagnostics().compactMap { d -> String? in
            if case .unsatisfiable(let c, _, _) = d { return c }
            return nil
        }
        XCTAssertEqual(broken, ["own"])
    }
}
