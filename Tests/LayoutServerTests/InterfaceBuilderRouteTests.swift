import Foundation
import XCTest

@testable import LayoutServer

/// `POST /v1/ib/layout` and `GET /v1/devices` over loopback: an IB document laid out as
/// Xcode stored it, its document kept as a session, and bad documents answered with their place.
final class InterfaceBuilderRouteTests: XCTestCase {
    let storyboard = try! Data(contentsOf: URL(fileURLWithPath: repoRoot + "/Tests/InterfaceBuilderTests/Fixtures/scene.storyboard"))

    func post(_ c: HTTPTestClient, _ query: String = "", _ body: [UInt8], type: String = "application/xml") -> HTTPTestClient.Reply {
        c.request("POST", "/v1/ib/layout" + query, headers: ["Content-Type": type], body: body)
    }

    func testAStoryboardLaysOutAsXcodeStoredItAndItsDocumentMakesASession() throws {
        let t = try TestServer()
        let c = t.client()
        let r = post(c, "?contentSizes=stored", Array(storyboard))
        XCTAssertEqual(r.status, 200, r.text)
        let device = try XCTUnwrap(r.object["device"] as? [String: Any])
        XCTAssertEqual(device["id"] as? String, "retina4_7")
        let roots = try XCTUnwrap(r.object["roots"] as? [[String: Any]])
        XCTAssertEqual(roots.count, 1)
        let root = roots[0]
        XCTAssertEqual(root["name"] as? String, "vc1")
        XCTAssertEqual(root["kind"] as? String, "scene")
        XCTAssertEqual((root["diagnostics"] as? [Any])?.count, 0)
        let frames = try XCTUnwrap(root["frames"] as? [String: [String: Double]])
        XCTAssertEqual(frames["card"], ["x": 20, "y": 40, "width": 335, "height": 100])
        XCTAssertEqual(frames["column"], ["x": 60, "y": 8, "width": 267, "height": 44])
        XCTAssertEqual(frames["footer"], ["x": 16, "y": 607, "width": 343, "height": 60])
        // The document it answers makes a session with the same frames, which a drag can follow.
        let document = try JSONSerialization.data(withJSONObject: try XCTUnwrap(root["document"]))
        let s = c.request("POST", "/v1/sessions", json: String(decoding: document, as: UTF8.self))
        XCTAssertEqual(s.status, 201, s.text)
        XCTAssertEqual((s.object["frames"] as? [String: [String: Double]])?["card"], frames["card"])
        let id = try XCTUnwrap(s.object["session"] as? String)
        let moved = c.request("POST", "/v1/sessions/\(id)/constants", json: #"{"c8": 50}"#)
        XCTAssertEqual((moved.object["frames"] as? [String: [String: Double]])?["card"]?["y"], 70, moved.text)
        // Measured, labels are text in the substitute family; another device moves the root.
        let measured = post(c, "?device=retina5_9&orientation=landscape", Array(storyboard))
        XCTAssertEqual(measured.status, 200, measured.text)
        XCTAssertEqual(measured.object["fontSubstitute"] as? String, "Inter")
        let other = try XCTUnwrap((measured.object["roots"] as? [[String: Any]])?.first?["frames"] as? [String: [String: Double]])
        XCTAssertEqual(other["root"], ["x": 0, "y": 0, "width": 812, "height": 375])
        XCTAssertEqual(other["card"]?["x"], 64)
    }

    /// An import's layouts count in the metrics as a session's do: a conflict is a diagnostic.
    func testAnImportsDiagnosticsAreCounted() throws {
        let t = try TestServer()
        let c = t.client()
        let conflict = try Data(contentsOf: URL(fileURLWithPath: repoRoot + "/Tests/fixtures/check/conflict.storyboard"))
        let r = post(c, "", Array(conflict))
        XCTAssertEqual(r.status, 200, r.text)
        let answered = try XCTUnwrap(r.object["roots"] as? [[String: Any]]).flatMap { ($0["diagnostics"] as? [[String: Any]]) ?? [] }
        let unsatisfiable = answered.filter { $0["kind"] as? String == "unsatisfiable" }.count
        XCTAssertGreaterThan(unsatisfiable, 0, r.text)
        let metrics = c.request("GET", "/metrics").text
        XCTAssertTrue(metrics.contains(#"layoutd_diagnostics_total{kind="unsatisfiable"} \#(unsatisfiable)"#), metrics)
    }

    func testDevicesAreListedInBothOrientations() throws {
        let t = try TestServer()
        let r = t.client().request("GET", "/v1/devices")
        XCTAssertEqual(r.status, 200)
        let devices = try XCTUnwrap(r.object["devices"] as? [[String: Any]])
        let x = devices.filter { $0["id"] as? String == "retina5_9" }
        XCTAssertEqual(x.map { $0["orientation"] as? String }, ["portrait", "landscape"])
        XCTAssertEqual((x.first?["safeArea"] as? [String: Double])?["top"], 44)
        XCTAssertEqual((x.last?["safeArea"] as? [String: Double])?["left"], 44)
    }

    /// Bad documents and bad queries: the problem says where, and the server goes on.
    func testBadDocumentsAreAnsweredWithTheirPlace() throws {
        let t = try TestServer()
        let c = t.client()
        var r = post(c, "", Array("<document>\n  <objects>\n</document>".utf8))
        XCTAssertEqual(r.status, 400, r.text)
        XCTAssertEqual(r.headers["content-type"], "application/problem+json")
        XCTAssertEqual(r.object["line"] as? Int, 3)
        XCTAssertNotNil(r.object["column"] as? Int)
        r = post(c, "", Array("<?xml version=\"1.0\"?>\n<!DOCTYPE d [<!ENTITY a \"aaaa\">]>\n<document>&a;</document>".utf8))
        XCTAssertEqual(r.status, 400)
        XCTAssertEqual(r.object["line"] as? Int, 2)
        XCTAssertTrue((r.object["detail"] as? String ?? "").contains("DTD"))
        let deep = String(repeating: "<a>", count: 300) + String(repeating: "</a>", count: 300)
        XCTAssertEqual(post(c, "", Array(deep.utf8)).status, 400)
        XCTAssertEqual(post(c, "", Array(storyboard), type: "application/json").status, 415)
        XCTAssertEqual(post(c, "?device=nokia3310", Array(storyboard)).status, 422)
        XCTAssertEqual(post(c, "?root=nothing", Array(storyboard)).status, 422)
        XCTAssertEqual(post(c, "?orientation=sideways", Array(storyboard)).status, 400)
        XCTAssertEqual(post(c, "?contentSizes=guessed", Array(storyboard)).status, 400)
        XCTAssertEqual(post(c, "", Array("<plist/>".utf8)).status, 422)
        XCTAssertEqual(c.request("GET", "/healthz").status, 200)
    }
}
