import XCTest
@testable import InterfaceBuilder

/// libxml2's reader as the importer uses it: elements with their places, and hostile
/// documents refused with a line and column, never expanded or followed.
final class XMLTreeTests: XCTestCase {
    func testElementsAttributesAndPlaces() throws {
        let xml = "<a x=\"1\">\n  <b key=\"k\" y=\"2\"/>\n  <c>text</c>\n</a>"
        let root = try XMLTree.parse(Array(xml.utf8))
        XCTAssertEqual(root.name, "a")
        XCTAssertEqual(root["x"], "1")
        XCTAssertEqual(root.child("b", key: "k")?["y"], "2")
        XCTAssertEqual(root.child("c")?.text, "text")
        XCTAssertEqual(root.child("b")?.line, 2)
        XCTAssertEqual(root.child("b")?.column, 3)
        XCTAssertEqual(root.child("c")?.line, 3)
    }

    func refusal(_ xml: String, limits: XMLLimits = XMLLimits()) -> XMLError? {
        do {
            _ = try XMLTree.parse(Array(xml.utf8), limits: limits)
            return nil
        } catch { return error }
    }

    func testMalformedXMLIsRefusedWithItsPlace() throws {
        let error = try XCTUnwrap(refusal("<a>\n  <b>\n</a>"))
        XCTAssertEqual(error.line, 3)
        XCTAssertGreaterThan(error.column, 1)
        XCTAssertFalse(error.message.isEmpty)
        XCTAssertNotNil(refusal(""))
        XCTAssertNotNil(refusal("<a x=\"1\" x=\"2\"/>"))
    }

    /// The billion laughs: refused at its DTD, before anything expands.
    func testADTDAndEntitiesAreRefused() throws {
        var xml = "<?xml version=\"1.0\"?>\n<!DOCTYPE lolz [\n<!ENTITY lol \"lol\">\n"
        for i in 1...9 { xml += "<!ENTITY lol\(i) \"" + String(repeating: "&lol\(i == 1 ? "" : String(i - 1));", count: 10) + "\">\n" }
        xml += "]>\n<lolz>&lol9;</lolz>"
        let started = Date()
        let error = try XCTUnwrap(refusal(xml))
        XCTAssertTrue(error.message.contains("DTD"), error.message)
        XCTAssertEqual(error.line, 2)
        XCTAssertEqual(error.column, 1)
        XCTAssertLessThan(Date().timeIntervalSince(started), 1)
        // An external entity is never fetched.
        XCTAssertNotNil(refusal("<!DOCTYPE a [<!ENTITY x SYSTEM \"file:///etc/passwd\">]><a>&x;</a>"))
    }

    func testLimitsAreEnforced() throws {
        let deep = String(repeating: "<a>", count: 40) + String(repeating: "</a>", count: 40)
        let depth = try XCTUnwrap(refusal(deep, limits: XMLLimits(maxDepth: 32)))
        XCTAssertTrue(depth.message.contains("deeper than 32"), depth.message)
        XCTAssertEqual(depth.line, 1)
        XCTAssertNil(refusal(deep, limits: XMLLimits(maxDepth: 64)))
        let wide = "<a>" + String(repeating: "<b/>", count: 100) + "</a>"
        XCTAssertTrue(try XCTUnwrap(refusal(wide, limits: XMLLimits(maxElements: 50))).message.contains("more than 50"))
        XCTAssertTrue(try XCTUnwrap(refusal(wide, limits: XMLLimits(maxBytes: 64))).message.contains("over the limit"))
        // libxml2's own nesting limit holds without ours.
        let abyss = String(repeating: "<a>", count: 100_000) + String(repeating: "</a>", count: 100_000)
        XCTAssertNotNil(refusal(abyss, limits: XMLLimits(maxDepth: 1_000_000)))
    }

    /// libxml2 compares each attribute with every one before it on its element: a start tag
    /// with too many is refused, where it is, before libxml2 reads the document.
    func testAnElementWithTooManyAttributesIsRefusedBeforeLibxml2() throws {
        func element(_ n: Int) -> String { "<a\n " + (0..<n).map { "a\($0)=\"\($0)\"" }.joined(separator: " ") + "/>" }
        XCTAssertNil(refusal("<r>" + element(256) + "</r>"))
        let crowded = try XCTUnwrap(refusal("<r>\n<b x='1'/>" + element(257) + "</r>"))
        XCTAssertTrue(crowded.message.contains("more than 256 attributes"), crowded.message)
        XCTAssertEqual(crowded.line, 2)
        XCTAssertEqual(crowded.column, 11)
        // `=` inside values, comments and CDATA is no attribute.
        let quoted =
            "<r a=\"" + String(repeating: "=", count: 1000) + "\" b='=='><!-- " + String(repeating: "x=1 ", count: 500)
            + " --><![CDATA[" + String(repeating: "y=2 ", count: 500) + "]]></r>"
        XCTAssertNil(refusal(quoted))
        // 60,000 on one element (6 s in libxml2) are refused at once.
        let start = ContinuousClock.now
        XCTAssertNotNil(refusal("<r>" + element(60_000) + "</r>"))
        XCTAssertLessThan(start.duration(to: .now), .seconds(2))
    }
}
