import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// How Xcode's canvas arranges stacks where the document does not say it outright
/// (`RootBuilder+Stacks.swift`, `RootBuilder.visit`), on scenes written for these tests.
final class StackRuleTests: XCTestCase {
    /// `root`'s views laid out with stored content sizes, by id.
    func frames(_ body: String) throws -> [String: Rect] {
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
        let session = try LayoutSession.make(document: root.document, oneShot: true)
        var out: [String: Rect] = [:]
        session.forEachFrame { id, frame, _ in out[id] = frame }
        return out
    }

    /// A 375×50 fill-equally stack of `a` and `b` pinned at y 100, as `stored` has them and
    /// with what `extra` adds to the stack (its stored layout margins).
    func pair(_ stored: (a: String, b: String), extra: String = "") -> String {
        """
        <subviews>
            <stackView opaque="NO" contentMode="scaleToFill" distribution="fillEqually" translatesAutoresizingMaskIntoConstraints="NO" id="s">
                <rect key="frame" x="0.0" y="100" width="375" height="50"/>
                <subviews>
                    <view contentMode="scaleToFill" id="a"><rect key="frame" \(stored.a)/></view>
                    <view contentMode="scaleToFill" id="b"><rect key="frame" \(stored.b)/></view>
                </subviews>
                \(extra)
            </stackView>
        </subviews>
        <constraints>
            <constraint firstItem="s" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c1"/>
            <constraint firstItem="s" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="c2"/>
            <constraint firstItem="s" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="c3"/>
            <constraint firstItem="s" firstAttribute="height" constant="50" id="c4"/>
        </constraints>
        """
    }

    func testAStackWithStoredMarginsArrangesInsideThem() throws {
        let f = try frames(
            pair(
                (#"x="10" y="8" width="177.5" height="34""#, #"x="187.5" y="8" width="177.5" height="34""#),
                extra: #"<edgeInsets key="layoutMargins" top="8" left="10" bottom="8" right="10"/>"#))
        XCTAssertEqual(f["a"], Rect(x: 10, y: 8, width: 177.5, height: 34))
        XCTAssertEqual(f["b"], Rect(x: 187.5, y: 8, width: 177.5, height: 34))
    }

    func testAStackWithoutStoredMarginsArrangesToItsEdges() throws {
        let f = try frames(pair((#"x="0" y="0" width="187.5" height="50""#, #"x="187.5" y="0" width="187.5" height="50""#)))
        XCTAssertEqual(f["a"], Rect(x: 0, y: 0, width: 187.5, height: 50))
    }

    /// A document constraint pinning a top-aligned stack's first arranged view 12 below the
    /// stack's top holds against the stack's own tie of it (`StackShadow`), and the other
    /// arranged view follows the first; a pin of that other view 3 below the top breaks.
    func testAFirstArrangedViewPinnedAcrossItsStackTakesTheOthersAlong() throws {
        let f = try frames(
            """
            <subviews>
                <stackView opaque="NO" contentMode="scaleToFill" alignment="top" spacing="10" translatesAutoresizingMaskIntoConstraints="NO" id="s">
                    <rect key="frame" x="0.0" y="100" width="375" height="80"/>
                    <subviews>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="a">
                            <rect key="frame" x="0.0" y="12" width="40" height="40"/>
                            <constraints>
                                <constraint firstAttribute="width" constant="40" id="aw"/>
                                <constraint firstAttribute="height" constant="40" id="ah"/>
                            </constraints>
                        </view>
                        <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="b">
                            <rect key="frame" x="50" y="12" width="325" height="30"/>
                            <constraints>
                                <constraint firstAttribute="height" constant="30" id="bh"/>
                            </constraints>
                        </view>
                    </subviews>
                    <constraints>
                        <constraint firstItem="a" firstAttribute="top" secondItem="s" secondAttribute="top" constant="12" id="pinA"/>
                        <constraint firstItem="b" firstAttribute="top" secondItem="s" secondAttribute="top" constant="3" id="pinB"/>
                    </constraints>
                </stackView>
            </subviews>
            <constraints>
                <constraint firstItem="s" firstAttribute="leading" secondItem="root" secondAttribute="leading" id="c1"/>
                <constraint firstItem="s" firstAttribute="trailing" secondItem="root" secondAttribute="trailing" id="c2"/>
                <constraint firstItem="s" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="c3"/>
                <constraint firstItem="s" firstAttribute="height" constant="80" id="c4"/>
            </constraints>
            """)
        XCTAssertEqual(f["a"], Rect(x: 0, y: 12, width: 40, height: 40))
        XCTAssertEqual(f["b"], Rect(x: 50, y: 12, width: 325, height: 30))
    }
}
