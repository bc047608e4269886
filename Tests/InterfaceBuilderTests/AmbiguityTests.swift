import JSON
import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// An ambiguous view held where Xcode stored it (`StoredFrameHints.swift`), on a xib written
/// for this test.
final class AmbiguityTests: XCTestCase {
    /// `a` has a top, a height and a width but no horizontal position: stored at x 37.
    static let xib = Array(
        """
        <?xml version="1.0" encoding="UTF-8"?>
        <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="21701" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
            <objects>
                <view contentMode="scaleToFill" id="root">
                    <rect key="frame" x="0.0" y="0.0" width="200" height="100"/>
                    <subviews>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="a"><rect key="frame" x="37" y="10" width="50" height="20"/></view>
                        <view translatesAutoresizingMaskIntoConstraints="NO" id="b"><rect key="frame" x="5" y="50" width="30" height="20"/></view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="a" firstAttribute="top" secondItem="root" secondAttribute="top" constant="10" id="c1"/>
                        <constraint firstItem="a" firstAttribute="height" constant="20" id="c2"/>
                        <constraint firstItem="a" firstAttribute="width" constant="50" id="c3"/>
                        <constraint firstItem="b" firstAttribute="top" secondItem="root" secondAttribute="top" constant="50" id="c4"/>
                        <constraint firstItem="b" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="5" id="c5"/>
                        <constraint firstItem="b" firstAttribute="height" constant="20" id="c6"/>
                        <constraint firstItem="b" firstAttribute="width" constant="30" id="c7"/>
                    </constraints>
                </view>
            </objects>
        </document>
        """.utf8)

    func testAnAmbiguousViewIsHeldAtItsStoredFrame() throws {
        let root = try XCTUnwrap(try Importer.read(Self.xib, options: ImportOptions(contentSizes: .stored)).roots.first)
        let session = try LayoutSession.make(document: root.document, oneShot: true)
        let ambiguous = session.diagnostics().compactMap { d -> (view: String, horizontal: Bool)? in
            if case .ambiguous(let v, let axis) = d { return (v, axis == .horizontal) }
            return nil
        }
        XCTAssertEqual(ambiguous.map(\.view), ["a"])
        XCTAssertEqual(ambiguous.map(\.horizontal), [true])
        let held = try LayoutSession.make(document: root.holdingAmbiguousViews(ambiguous), oneShot: true)
        var frames: [String: Rect] = [:]
        held.forEachFrame { id, frame, _ in frames[id] = frame }
        XCTAssertEqual(frames["a"], Rect(x: 37, y: 10, width: 50, height: 20))
        // What decides is untouched, and the held layout has nothing left to choose.
        XCTAssertEqual(frames["b"], Rect(x: 5, y: 50, width: 30, height: 20))
        XCTAssertTrue(held.diagnostics().isEmpty)
        // Nothing ambiguous: the document as imported.
        XCTAssertEqual(root.holdingAmbiguousViews([]), root.document)
    }
}
