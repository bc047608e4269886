import JSON
import LayoutModel
import XCTest

@testable import InterfaceBuilder

/// Conflicting required constraints: the one Xcode's stored frames do not satisfy breaks
/// (`RootBuilder.listingStoredBreaksFirst`).
final class StoredBreakTests: XCTestCase {
    /// A box whose own width (first in the file) fights its superview's leading and trailing:
    /// stored 100 wide at x 20, so Xcode broke the trailing constraint, not the width.
    private static let box = """
        <subviews>
            <view translatesAutoresizingMaskIntoConstraints="NO" id="box"><rect key="frame" x="20" y="100" width="100" height="50"/>
                <constraints><constraint firstAttribute="width" constant="100" id="own"/></constraints>
            </view>
        </subviews>
        <constraints>
            <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="lead"/>
            <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="top"/>
            <constraint firstItem="box" firstAttribute="height" constant="50" id="tall"/>
            <constraint firstAttribute="trailing" secondItem="box" secondAttribute="trailing" constant="20" id="trail"/>
        </constraints>
        """

    func testTheConstraintTheStoredFramesBreakIsTheOneBroken() throws {
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(Self.box), options: ImportOptions(contentSizes: .stored)).roots.first)
        let session = try LayoutSession.make(document: root.document, oneShot: true)
        var frames: [String: Rect] = [:]
        session.forEachFrame { id, frame, _ in frames[id] = frame }
        XCTAssertEqual(frames["box"], Rect(x: 20, y: 100, width: 100, height: 50))
        let broken = session.diagnostics().compactMap { d -> String? in
            if case .unsatisfiable(let c, _, _) = d { return c }
            return nil
        }
        XCTAssertEqual(broken, ["trail"])
    }

    func testStoredFramesWithinAQuarterPointSatisfyAConstraint() throws {
        // Stored a quarter point off its centring (pixel rounding): not a break.
        let body = """
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="dot"><rect key="frame" x="177.75" y="10" width="20" height="20"/></view>
            </subviews>
            <constraints>
                <constraint firstItem="dot" firstAttribute="centerX" secondItem="root" secondAttribute="centerX" id="mid"/>
                <constraint firstItem="dot" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="180" id="far"/>
            </constraints>
            """
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
        let ids = (root.document["constraints"]?.array ?? []).compactMap { $0["id"]?.string }
        // `far` (x 180) is stored 2.25 points off: listed first, before `mid` though the file lists it after.
        XCTAssertEqual(ids.first, "far")
        XCTAssertEqual(ids.filter { $0 == "mid" || $0 == "far" }, ["far", "mid"])
    }

    func testTheOthersAreListedLastInTheFileFirst() throws {
        // `wide` is stored 10 points off (listed first); the rest, which the stored frames
        // satisfy, follow last-listed first, so where they conflict the last in the file breaks.
        let body = """
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="box"><rect key="frame" x="20" y="100" width="100" height="50"/></view>
            </subviews>
            <constraints>
                <constraint firstItem="box" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="lead"/>
                <constraint firstItem="box" firstAttribute="top" secondItem="root" secondAttribute="top" constant="100" id="top"/>
                <constraint firstItem="box" firstAttribute="width" constant="110" id="wide"/>
                <constraint firstItem="box" firstAttribute="height" constant="50" id="tall"/>
            </constraints>
            """
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
        let ids = (root.document["constraints"]?.array ?? []).compactMap { $0["id"]?.string }
        XCTAssertEqual(ids.filter { ["lead", "top", "wide", "tall"].contains($0) }, ["wide", "tall", "top", "lead"])
    }

    /// Views whose stored frames break a required constraint between them are stale
    /// (`RootBuilder.storedStaleViews`); a constraint to the root, or on a view showing an SF
    /// Symbol (stored at its image rect), does not say so.
    func testViewsWhoseStoredFramesBreakTheirConstraintsAreStale() throws {
        let body = """
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="a"><rect key="frame" x="20" y="100" width="100" height="50"/></view>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="b"><rect key="frame" x="140" y="100" width="100" height="50"/></view>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="c"><rect key="frame" x="20" y="300" width="100" height="50"/></view>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="icon"><rect key="frame" x="20" y="400.5" width="40" height="39"/>
                    <state key="normal" image="magnifyingglass" catalog="system"/>
                </button>
            </subviews>
            <constraints>
                <constraint firstItem="b" firstAttribute="leading" secondItem="a" secondAttribute="trailing" constant="8" id="gap"/>
                <constraint firstItem="c" firstAttribute="top" secondItem="root" secondAttribute="top" constant="200" id="toRoot"/>
                <constraint firstItem="icon" firstAttribute="height" constant="40" id="iconHeight"/>
            </constraints>
            """
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
        // b is stored 20 after a's trailing edge where the constraint says 8.
        XCTAssertEqual(root.staleViews, ["a", "b"])
    }

    /// A xib's top-level view is laid out at its stored size: a constraint to it counts. Stored
    /// 441 wide between a 20-point leading inset and centring in 480 (440 wide): stale.
    func testAXibRootsStoredSizeCountsForStaleViews() throws {
        let xib = Array(
            """
            <?xml version="1.0" encoding="UTF-8"?>
            <document type="com.apple.InterfaceBuilder3.CocoaTouch.XIB" version="3.0" toolsVersion="6214" targetRuntime="iOS.CocoaTouch" useAutolayout="YES">
                <objects>
                    <view contentMode="scaleToFill" id="root">
                        <rect key="frame" x="0.0" y="0.0" width="480" height="480"/>
                        <subviews>
                            <view translatesAutoresizingMaskIntoConstraints="NO" id="line"><rect key="frame" x="20" y="439" width="441" height="21"/></view>
                        </subviews>
                        <constraints>
                            <constraint firstItem="line" firstAttribute="leading" secondItem="root" secondAttribute="leading" constant="20" id="lead"/>
                            <constraint firstAttribute="centerX" secondItem="line" secondAttribute="centerX" id="mid"/>
                            <constraint firstAttribute="bottom" secondItem="line" secondAttribute="bottom" constant="20" id="low"/>
                            <constraint firstItem="line" firstAttribute="height" constant="21" id="tall"/>
                        </constraints>
                    </view>
                </objects>
            </document>
            """.utf8)
        let root = try XCTUnwrap(try Importer.read(xib, options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(root.staleViews, ["line", "root"])
        XCTAssertEqual(try laidOut(root)["line"], Rect(x: 20, y: 439, width: 440, height: 21))
    }

    /// Views showing an SF Symbol are listed (`RootBuilder.showsSymbol`): an image view's
    /// symbol, a button's state image; not the view that holds one.
    func testViewsShowingASymbolAreListed() throws {
        let body = """
            <subviews>
                <view translatesAutoresizingMaskIntoConstraints="NO" id="holder"><rect key="frame" x="0" y="0" width="100" height="100"/>
                    <subviews>
                        <imageView translatesAutoresizingMaskIntoConstraints="NO" image="sun.max" catalog="system" id="sun"><rect key="frame" x="0" y="-0.5" width="40" height="40.5"/></imageView>
                    </subviews>
                </view>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="find"><rect key="frame" x="200" y="0.5" width="40" height="38.5"/>
                    <state key="normal" backgroundImage="magnifyingglass" catalog="system"/>
                </button>
                <button translatesAutoresizingMaskIntoConstraints="NO" id="plain"><rect key="frame" x="200" y="100" width="40" height="30"/>
                    <state key="normal" title="Go"/>
                </button>
            </subviews>
            """
        let root = try XCTUnwrap(try Importer.read(ImporterTests.scene(body), options: ImportOptions(contentSizes: .stored)).roots.first)
        XCTAssertEqual(root.symbolViews, ["sun", "find"])
    }
}
