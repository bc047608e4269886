import Foundation
import JSON
import XCTest

@testable import InterfaceBuilder

/// Where a root's ids come from in the XML: each view, guide and constraint at its element's
/// start tag, what the importer makes for one at that element, notes at theirs.
final class PlacesTests: XCTestCase {
    /// The line and column of the start tag of the element with `id="ident"` in `text`.
    func tag(_ ident: String, in text: String) throws -> SourcePlace {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        let n = try XCTUnwrap(lines.firstIndex { $0.contains(" id=\"\(ident)\"") }, ident)
        let column = try XCTUnwrap(lines[n].firstIndex(of: "<"))
        return SourcePlace(line: n + 1, column: lines[n].distance(from: lines[n].startIndex, to: column) + 1)
    }

    func testViewsGuidesAndConstraintsArePlacedAtTheirElements() throws {
        let bytes = Array(try Data(contentsOf: ImporterTests.fixtures.appendingPathComponent("scene.storyboard")))
        let text = String(decoding: bytes, as: UTF8.self)
        let root = try XCTUnwrap(try Importer.read(bytes).roots.first)
        XCTAssertEqual(root.place, try tag("vc1", in: text), "a scene is placed at its controller")
        for id in ["root", "card", "avatar", "column", "title", "safe", "c1", "c8", "card-h", "footer-h"] {
            XCTAssertEqual(root.places[id], try tag(id, in: text), id)
        }
        // A guide's pins and a view's autoresizing constraints are the guide's and the view's.
        XCTAssertEqual(root.places["safe.top"], try tag("safe", in: text))
        let constraints: [JSON] = root.document["constraints"]?.array ?? []
        let ids = Set(constraints.compactMap { $0["id"]?.string })
        for id in ids { XCTAssertNotNil(root.places[id], "\(id) has no place") }
    }

    func testANoteIsPlacedAtItsElement() throws {
        let body = """
                <subviews>
                    <view contentMode="scaleToFill" translatesAutoresizingMaskIntoConstraints="NO" id="v">
                        <rect key="frame" x="0" y="0" width="10" height="10"/>
                    </view>
                </subviews>
                <constraints>
                    <constraint firstItem="v" firstAttribute="top" secondItem="elsewhere" secondAttribute="top" id="away"/>
                </constraints>
            """
        let bytes = ImporterTests.scene(body)
        let root = try XCTUnwrap(try Importer.read(bytes).roots.first)
        let note = try XCTUnwrap(root.notes.first)
        XCTAssertEqual(note.id, "away")
        XCTAssertEqual(note.place, try tag("away", in: String(decoding: bytes, as: UTF8.self)))
        XCTAssertTrue(note.message.contains("elsewhere"), note.message)
    }
}
