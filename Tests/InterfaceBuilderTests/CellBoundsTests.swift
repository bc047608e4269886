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
                                    <rect key="frame" x="263" y="20" width="8" height="8"/>
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
        // Its margins stay the content view's (16 at the sides): 287 - 16, not 320 - 16.
        XCTAssertEqual(frames["dot"], Rect(x: 263, y: 20, width: 8, height: 8))
    }
}
