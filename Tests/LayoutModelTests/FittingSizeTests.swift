import XCTest
import JSON
import TextLayout
@testable import LayoutModel
import ConstraintSolver

/// systemLayoutSizeFitting: a self-sizing cell's height for a width, compressed and expanded
/// sizes, and a session left exactly as it was.
final class FittingSizeTests: XCTestCase {
    func cell(tableWidth: Double) -> String {
        #"""
        {"views":[{"id":"table","frame":{"x":0,"y":0,"width":\#(tableWidth),"height":800}},
         {"id":"cell","parent":"table"},{"id":"avatar","parent":"cell"},
         {"id":"title","parent":"cell","text":{"string":"Ken Ferry liked your post about the internals of Auto Layout","font":{"family":"DejaVu Sans","size":17},"numberOfLines":0}},
         {"id":"body","parent":"cell","text":{"string":"Each view is four variables. Adding a constraint is algebra, and a change updates exactly what depends on it.","font":{"family":"DejaVu Sans","size":14},"numberOfLines":0}},
         {"id":"other","parent":"table","intrinsicSize":{"width":10,"height":10}}],
         "constraints":[{"expr":"cell.top == table.top"},{"expr":"cell.leading == table.leading"},{"expr":"cell.width == table.width"},
         {"expr":"avatar.leading == cell.leading + 12"},{"expr":"avatar.top == cell.top + 12"},{"expr":"avatar.width == 40"},{"expr":"avatar.height == 40"},
         {"expr":"title.leading == avatar.trailing + 10"},{"expr":"title.trailing == cell.trailing - 12"},{"expr":"title.top == cell.top + 12"},
         {"expr":"body.leading == title.leading"},{"expr":"body.trailing == title.trailing"},{"expr":"body.top == title.bottom + 6"},
         {"expr":"cell.bottom >= body.bottom + 12"},{"expr":"cell.bottom >= avatar.bottom + 12"},{"expr":"cell.bottom == body.bottom + 12 @250"},
         {"id":"outside","expr":"other.top == cell.bottom + 1000"},{"expr":"other.leading == table.leading"}]}
        """#
    }

    func testACellFitsToTheHeightAFullLayoutGivesItAtThatWidth() throws {
        let s = session(cell(tableWidth: 375))
        for width in [375.0, 300, 220] {
            let full = session(cell(tableWidth: width)).frame("cell")!
            let fitted = try s.fittingSize(json(#"{"view":"cell","targetSize":{"width":\#(width),"height":0}}"#))
            XCTAssertEqual(fitted.width, width, accuracy: 1e-9)
            XCTAssertEqual(fitted.height, full.height, accuracy: 1e-9, "at \(width)")
        }
        // Narrower wraps more: taller.
        let narrow = try s.fittingSize(json(#"{"view":"cell","targetSize":{"width":220,"height":0}}"#))
        XCTAssertGreaterThan(narrow.height, s.frame("cell")!.height)
    }

    func testCompressedAndExpandedSizes() throws {
        let s = session(cell(tableWidth: 375))
        // Compressed both ways: every label on one line, the cell as small as its content allows.
        let compressed = try s.fittingSize(json(#"{"view":"cell","horizontalFittingPriority":50}"#))
        XCTAssertGreaterThan(compressed.width, 375, "one-line labels are wider than the table")
        let title = try TextMeasurer.shared.measure(
            "Ken Ferry liked your post about the internals of Auto Layout",
            style: TextStyle(font: Font(family: "DejaVu Sans", size: 17), numberOfLines: 0), width: nil)
        let body = try TextMeasurer.shared.measure(
            "Each view is four variables. Adding a constraint is algebra, and a change updates exactly what depends on it.",
            style: TextStyle(font: Font(family: "DejaVu Sans", size: 14), numberOfLines: 0), width: nil)
        XCTAssertEqual(compressed.width, 12 + 40 + 10 + max(title.width, body.width) + 12, accuracy: 1e-9)
        XCTAssertEqual(compressed.height, max(12 + 40, 12 + title.height + 6 + body.height) + 12, accuracy: 1e-9)
        // Expanded height at a low priority loses to the cell's own bottom constraint (@250).
        let expanded = try s.fittingSize(json(#"{"view":"cell","targetSize":{"width":375,"height":5000},"verticalFittingPriority":50}"#))
        XCTAssertEqual(expanded.height, s.frame("cell")!.height, accuracy: 1e-9)
        // At a priority above it, the target wins.
        let tall = try s.fittingSize(json(#"{"view":"cell","targetSize":{"width":375,"height":5000},"verticalFittingPriority":500}"#))
        XCTAssertEqual(tall.height, 5000, accuracy: 1e-9)
    }

    func testTheSessionIsLeftAsItWas() throws {
        let s = session(cell(tableWidth: 375))
        let frames = s.allFrames, revision = s.revision, stats = s.solver.stats, document = s.document.json
        _ = try s.fittingSize(json(#"{"view":"cell","targetSize":{"width":200,"height":0}}"#))
        _ = try s.fittingSize(json(#"{"view":"table"}"#))
        XCTAssertEqual(s.allFrames, frames)
        XCTAssertEqual(s.revision, revision)
        XCTAssertEqual(s.solver.stats, stats)
        XCTAssertEqual(s.document.json, document)
        XCTAssertTrue(s.solver.takeChanges().isEmpty, "the engine moved nothing")
    }

    func testOneShotAndRefusals() throws {
        let body = #"{"document":\#(cell(tableWidth: 375)),"view":"cell","targetSize":{"width":375,"height":0}}"#
        let one = try LayoutSession.fittingSize(json(body))
        XCTAssertEqual(one.height, session(cell(tableWidth: 375)).frame("cell")!.height, accuracy: 1e-9)
        let s = session(cell(tableWidth: 375))
        for (request, pointer) in [
            (#"{"view":"nope"}"#, "/view"), (#"{"view":"cell","targetSize":{"width":-1}}"#, "/targetSize/width"),
            (#"{"view":"cell","verticalFittingPriority":0}"#, "/verticalFittingPriority"), (#"{"view":"cell","x":1}"#, "/x")
        ] {
            XCTAssertThrowsError(try s.fittingSize(json(request))) { XCTAssertEqual(($0 as? LayoutError)?.pointer, pointer, request) }
        }
        XCTAssertThrowsError(try LayoutSession.fittingSize(json(#"{"document":{"views":[{"id":"a","parent":"zz"}]},"view":"a"}"#))) {
            XCTAssertEqual(($0 as? LayoutError)?.pointer, "/document/views/0/parent")
        }
    }
}
