import XCTest
import TestSupport
import JSON
@testable import LayoutModel

/// A session laid out at many sizes (`frames-at`, a one-shot layout's `sizes`): at each size
/// the frames and diagnostics of a fresh build of the document with its root at that size,
/// labels re-wrapped included; afterwards the session answers exactly as before, and as a
/// session that never did it, on both engines.
final class SizesTests: XCTestCase {
    static let words = ["layout", "a", "constraint", "engine", "wraps", "text", "at", "every", "width", "given", "to", "it"]

    /// A root, a few boxes and wrapping labels, random constraints among them (some
    /// optional, some conflicting), the root `width` × `height`.
    func randomDocument(_ rng: inout LCG, width: Double = 400, height: Double = 300, scale: Double? = nil) -> String {
        let n = Int.random(in: 2...6, using: &rng)
        let options = scale.map { #","options":{"scale":\#($0)}"# } ?? ""
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":\#(width),"height":\#(height)}}"#]
        for i in 0..<n {
            if Bool.random(using: &rng) {
                let text = (0..<Int.random(in: 3...14, using: &rng)).map { _ in Self.words.randomElement(using: &rng)! }.joined(separator: " ")
                views.append(
                    #"{"id":"v\#(i)","parent":"root","text":{"string":"\#(text)","font":{"family":"DejaVu Sans","size":15},"numberOfLines":0}}"#)
            } else {
                let intrinsic =
                    #","intrinsicSize":{"width":\#(Int.random(in: 10...80, using: &rng)),"height":\#(Int.random(in: 10...40, using: &rng))}"#
                views.append(#"{"id":"v\#(i)","parent":"root"\#(Bool.random(using: &rng) ? intrinsic : "")}"#)
            }
        }
        var constraints: [String] = []
        for i in 0..<n {  // each view pinned on both axes somewhere, so most are not ambiguous
            constraints.append(#"{"expr":"v\#(i).leading == root.leading + \#(Int.random(in: 0...40, using: &rng))"}"#)
            constraints.append(#"{"expr":"v\#(i).top == root.top + \#(Int.random(in: 0...200, using: &rng))"}"#)
            if Bool.random(using: &rng) {
                let priority = [1000, 750, 250].randomElement(using: &rng)!
                constraints.append(#"{"expr":"v\#(i).trailing <= root.trailing - \#(Int.random(in: 0...40, using: &rng)) @\#(priority)"}"#)
            }
        }
        for _ in 0..<Int.random(in: 0...n, using: &rng) {
            let a = Int.random(in: 0..<n, using: &rng), b = Int.random(in: 0..<n, using: &rng)
            let expr =
                Bool.random(using: &rng)
                ? "v\(a).width == root.width * 0.\(Int.random(in: 2...9, using: &rng)) @\([1000, 500].randomElement(using: &rng)!)"
                : "v\(a).top >= v\(b).bottom + \(Int.random(in: 0...20, using: &rng)) @\([1000, 750].randomElement(using: &rng)!)"
            constraints.append(#"{"expr":"\#(expr)"}"#)
        }
        return #"{"views":[\#(views.joined(separator: ","))],"constraints":[\#(constraints.joined(separator: ","))]\#(options)}"#
    }

    struct Outcome: Equatable {
        var frames: [String: Rect]
        var diagnostics: [String]
    }

    static func outcome(_ frames: [FrameEntry], _ diagnostics: [Diagnostic]) -> Outcome {
        func r(_ x: Double) -> Double { (x * 1e6).rounded() / 1e6 }
        var ambiguous = Set<String>()
        for case .ambiguous(let v, _) in diagnostics { ambiguous.insert(v) }
        var out: [String: Rect] = [:]
        for f in frames where !ambiguous.contains(f.id) {
            out[f.id] = Rect(x: r(f.frame.x), y: r(f.frame.y), width: r(f.frame.width), height: r(f.frame.height))
        }
        return Outcome(frames: out, diagnostics: diagnostics.map(\.message).sorted())
    }

    func testEachSizeIsAFreshBuildAtThatSizeAndTheSessionStaysAsItWas() throws {
        var rng = LCG(state: 46)
        let sizes = [
            LayoutSize(width: 320, height: 568), LayoutSize(width: 120, height: 900), LayoutSize(width: 1024, height: 200),
            LayoutSize(width: 400, height: 300)
        ]
        for engine in [EngineKind.solved, .factored] {
            for trial in 0..<60 {
                var docRNG = rng
                let scale: Double? = trial % 3 == 0 ? 2 : nil
                let text = randomDocument(&docRNG, scale: scale)
                let limits = SessionLimits(engine: engine)
                let session = try LayoutSession(document: JSONParser.parse(text), limits: limits)
                let before = (session.allFrames, session.diagnostics(), session.revision)
                let layouts = try session.layouts(at: sizes)
                for (size, layout) in zip(sizes, layouts) {
                    var again = rng
                    let fresh = try LayoutSession(
                        document: JSONParser.parse(randomDocument(&again, width: size.width, height: size.height, scale: scale)), limits: limits)
                    let broken = fresh.diagnostics().filter { if case .unsatisfiable = $0 { true } else { false } }.count
                    guard broken == 0 else {
                        // Which required constraint breaks follows the order of changes (as in
                        // UIKit): only how many is the same.
                        XCTAssertEqual(layout.diagnostics.filter { if case .unsatisfiable = $0 { true } else { false } }.count, broken)
                        continue
                    }
                    XCTAssertEqual(
                        Self.outcome(layout.frames, layout.diagnostics), Self.outcome(fresh.allFrames, fresh.diagnostics()),
                        "\(engine) trial \(trial) at \(size.width)x\(size.height): \(text)")
                }
                // As it was: frames (exactly), diagnostics, revision, nothing new since.
                XCTAssertEqual(session.allFrames, before.0, "\(engine) trial \(trial)")
                XCTAssertEqual(session.diagnostics().map(\.message), before.1.map(\.message))
                XCTAssertEqual(session.revision, before.2)
                XCTAssertEqual(try session.frames(since: before.2).frames, [])
                // And the next change answers as on a session that never did it.
                let never = try LayoutSession(document: JSONParser.parse(text), limits: limits)
                let change = #"{"ops":[{"op":"updateView","id":"root","frame":{"x":0,"y":0,"width":250,"height":300}}]}"#
                let a = try session.apply(changes: JSONParser.parse(change))
                let b = try never.apply(changes: JSONParser.parse(change))
                XCTAssertEqual(Self.outcome(a.frames, a.diagnostics), Self.outcome(b.frames, b.diagnostics), "\(engine) trial \(trial)")
                rng = docRNG
            }
        }
    }

    func testASizeSetsTheScaleAndDirectionForItsAnswerOnly() throws {
        let doc = #"""
            {"views":[{"id":"root","frame":{"x":0,"y":0,"width":300,"height":100}},{"id":"a","parent":"root"}],
             "constraints":[{"expr":"a.leading == root.leading + 10"},{"expr":"a.width == root.width / 3"},
                            {"expr":"a.top == root.top"},{"expr":"a.height == 10"}]}
            """#
        let s = try LayoutSession(document: JSONParser.parse(doc))
        let at = try s.layouts(at: [LayoutSize(width: 100, height: 100, scale: 2, layoutDirection: .rtl), LayoutSize(width: 100, height: 100)])
        XCTAssertEqual(at[0].frames.first { $0.id == "a" }?.frame, Rect(x: 56.5, y: 0, width: 33.5, height: 10))
        XCTAssertEqual(at[1].frames.first { $0.id == "a" }?.frame.x, 10)
        XCTAssertEqual(s.allFrames.first { $0.id == "a" }?.frame, Rect(x: 10, y: 0, width: 100, height: 10))
        XCTAssertNil(s.document.options.scale)
    }

    func testADocumentWithoutARootFrameIsRefused() throws {
        let s = try LayoutSession(document: JSONParser.parse(#"{"views":[{"id":"root"}]}"#))
        XCTAssertThrowsError(try s.layouts(at: [LayoutSize(width: 10, height: 10)])) { e in
            XCTAssertEqual((e as? LayoutError)?.pointer, "/sizes")
        }
    }
}
