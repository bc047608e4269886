import XCTest
import JSON
@testable import LayoutModel

func json(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> JSON {
    do { return try JSONParser.parse(s) } catch { XCTFail("bad test JSON: \(error)", file: file, line: line); return .null }
}

func session(_ s: String, file: StaticString = #filePath, line: UInt = #line) -> LayoutSession {
    do { return try LayoutSession(document: json(s)) } catch { XCTFail("\(error)", file: file, line: line); fatalError() }
}

extension LayoutSession {
    func frame(_ id: String) -> Rect? { allFrames.first { $0.id == id }?.frame }
    func change(_ s: String) throws(LayoutError) -> ChangeResult { try apply(changes: json(s)) }
}

func R(_ x: Double, _ y: Double, _ w: Double, _ h: Double) -> Rect { Rect(x: x, y: y, width: w, height: h) }

func ambiguous(_ d: [Diagnostic]) -> [String] {
    d.compactMap {
        if case .ambiguous(let v, let a) = $0 { return "\(v).\(a.rawValue)" }; return nil
    }
}

func unsatisfiable(_ d: [Diagnostic]) -> [(String, [String])] {
    d.compactMap {
        if case .unsatisfiable(let c, let cs, _) = $0 { return (c, cs) }; return nil
    }
}
