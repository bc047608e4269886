import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// A table cell stored wider than its content view, beside an accessory: constraints naming
/// the cell relate to its bounds (`RootBuilder.cellBoundsGuide`).
final class CellBoundsTests: XCTestCase {
    func testAViewPinnedToTheCellReachesPastTheAccessory() throws {
        let xib = """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <tableViewCell contentMode="scaleToFill" accessoryType="disclosureIndicator" id="cell">
                        <rect key="frame" x="0.0" y="0.0" width="320" height="50"/>
                        <tableViewCellContentView key="contentView" id="content">
                            <rect key="frame" x="0.0" y="0.0" width="287" height="49.5"/>
                            <subviews>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="line">
                                    <rect key="frame" x="10" y="0.0" width="300" height="1"/>
                                    <constraints><constraint firstAttribute="height" constant="1" id="h"/></constraints>
                                </view>
                                <view translatesAutoresizingMaskIntoConstraints="NO" id="dot">
                                    <rect key="frame" x="271" y="20" width="8" height="8"/>
                                    <constraints>
                                        <constraint firstAttribute="width" constant="8" id="w"/>
                                        <constraint firstAttribute="height" constant="8" id="dh"/>
                                    </constraints>
                                </view>
                            </subviews>
                            <constraints>
                                <constraint firstItem="line" firstAttribute="leading" secondItem="content" secondAttribute="leading" constant="10" id="l"/>
                                <constraint firstItem="line" firstAttribute="top" secondItem="content" secondAttribute="top" id="t"/>
                                <constraint firstItem="dot" firstAttribute="top" secondItem="content" secondAttribute="top" constant="20" id="dt"/>
                            </constraints>
                        </tableViewCellContentView>
                        <constraints>
                            <constraint firstAttribute="trailing" secondItem="line" secondAttribute="trailing" constant="10" id="edge"/>
                            <constraint firstAttribute="trailingMargin" secondItem="dot" secondAttribute="trailing" id="margin"/>
                        </constraints>
                    </tableViewCell>
                </objects>
            </document>
            """
        let root = try XCTUnwrap(try Importer.read(Array(xib.utf8), options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(root.notes, [])
        let frames = try laidOut(root)
        XCTAssertEqual(frames["content"], Rect(x: 0, y: 0, width: 287, height: 49.5))
        // The cell's trailing edge is 320 in the content view's coordinates, past its 287.
        XCTAssertEqual(frames["line"], Rect(x: 10, y: 0, width: 300, height: 1))
        // Its margins stay the content view's (8 at the trailing side beside the accessory,
        // `RootBuilder.accessoryTrailingMargin`): 287 - 8, not 320 - 16.
        XCTAssertEqual(frames["dot"], Rect(x: 271, y: 20, width: 8, height: 8))
    }

    /// An Xcode 6 or 7 cell made 300 x 120 whose content view the file keeps at the template's
    /// 320 x 43: the content view is laid out at the cell's width and its height less the
    /// separator, so a view pinned to its bottom right sits where the cell's corner is.
    func testAnOldCellsTemplateContentViewTakesTheCellsSize() throws {
        func xib(tools: String) -> [UInt8] {
            Array(
                """
                <?xml version="1.0" encoding="UTF-8"?>
                <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="\(tools)" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                    <objects>
                        <tableViewCell contentMode="scaleToFill" rowHeight="120" id="cell">
                            <rect key="frame" x="0.0" y="0.0" width="300" height="120"/>
                            <tableViewCellContentView key="contentView" id="content">
                                <rect key="frame" x="0.0" y="0.0" width="320" height="43"/>
                                <subviews>
                                    <view translatesAutoresizingMaskIntoConstraints="NO" id="corner">
                                        <rect key="frame" x="280" y="99" width="10" height="10"/>
                                        <constraints>
                                            <constraint firstAttribute="width" constant="10" id="w"/>
                                            <constraint firstAttribute="height" constant="10" id="h"/>
                                        </constraints>
                                    </view>
                                </subviews>
                                <constraints>
                                    <constraint firstAttribute="trailing" secondItem="corner" secondAttribute="trailing" constant="10" id="r"/>
                                    <constraint firstAttribute="bottom" secondItem="corner" secondAttribute="bottom" constant="10" id="b"/>
                                </constraints>
                            </tableViewCellContentView>
                        </tableViewCell>
                    </objects>
                </document>
                """.utf8)
        }
        func corner(_ tools: String) throws -> Rect? {
            let root = try XCTUnwrap(try Importer.read(xib(tools: tools), options: ImportOptions(contentSizes: .stored)).roots.first)
            return try laidOut(root)["corner"]
        }
        XCTAssertEqual(try corner("6254"), Rect(x: 280, y: 99, width: 10, height: 10))
        // From Xcode 8 on the content view's stored frame stands.
        XCTAssertEqual(try corner("11762"), Rect(x: 300, y: 23, width: 10, height: 10))
    }
}
