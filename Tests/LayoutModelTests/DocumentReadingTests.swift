import XCTest
import JSON
@testable import LayoutModel

/// A body read in place builds the session the parsed tree builds, or is left to the tree.
final class DocumentReadingTests: XCTestCase {
    /// The bytes' session and the tree's: the same document, frames, diagnostics and ids; or,
    /// when the bytes' path refuses (a limit), the same error. Returns whether it was read.
    @discardableResult
    func agree(_ text: String, limits: SessionLimits = SessionLimits(), oneShot: Bool = false, file: StaticString = #filePath, line: UInt = #line)
        -> Bool
    {
        let bytes = Array(text.utf8)
        let read: Result<LayoutSession?, LayoutError> = Result { () throws(LayoutError) in
            try LayoutSession.make(documentBytes: bytes, limits: limits, oneShot: oneShot)
        }
        guard let tree = try? JSONParser.parse(bytes) else {
            if case .success(.some) = read { XCTFail("a body that is not JSON was read", file: file, line: line) }
            return false
        }
        let built: Result<LayoutSession, LayoutError> = Result { () throws(LayoutError) in
            try LayoutSession.make(document: tree, limits: limits, oneShot: oneShot)
        }
        switch (read, built) {
        case (.success(nil), _): return false
        case (.success(let s?), .success(let t)):
            XCTAssertEqual(s.document.json, t.document.json, file: file, line: line)
            XCTAssertEqual(s.allFrames, t.allFrames, file: file, line: line)
            XCTAssertEqual(s.diagnostics(), t.diagnostics(), file: file, line: line)
            XCTAssertEqual(s.nextAutoID, t.nextAutoID, file: file, line: line)
            XCTAssertEqual(s.engineKind, t.engineKind, file: file, line: line)
        case (.failure(let e), .failure(let f)): XCTAssertEqual(e, f, file: file, line: line)
        default: XCTFail("the paths disagree: \(read) against \(built)", file: file, line: line)
        }
        return true
    }

    /// The feed's shape (ids, parents, intrinsic sizes, hugging, `expr` with and without
    /// ids, VFL with options) is read in place, one-shot and kept.
    func testAFeedIsReadInPlaceAsTheTreeBuildsIt() {
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":375,"height":1000}}"#]
        var constraints: [String] = []
        for i in 0..<4 {
            views += [
                #"{"id":"cell\#(i)","parent":"root"}"#, #"{"id":"avatar\#(i)","parent":"cell\#(i)"}"#,
                #"{"id":"title\#(i)","parent":"cell\#(i)","intrinsicSize":{"width":90,"height":20}}"#,
                #"{"id":"date\#(i)","parent":"cell\#(i)","intrinsicSize":{"width":48,"height":16},"hugging":{"horizontal":750,"vertical":250}}"#
            ]
            let top = i == 0 ? "root.top" : "cell\(i - 1).bottom"
            constraints += [
                #"{"id":"cell\#(i).top","expr":"cell\#(i).top == \#(top)"}"#, #"{"expr":"cell\#(i).leading == root.leading"}"#,
                #"{"expr":"cell\#(i).width == root.width"}"#,
                #"{"id":"cell\#(i).row","visual":"H:|-12-[avatar\#(i)(40)]-10-[title\#(i)]-(>=8)-[date\#(i)]-12-|","options":["alignAllTop"]}"#,
                #"{"expr":"avatar\#(i).height == avatar\#(i).width"}"#, #"{"expr":"avatar\#(i).top == cell\#(i).top + 12"}"#,
                #"{"expr":"cell\#(i).bottom >= avatar\#(i).bottom + 12"}"#
            ]
        }
        let doc = #"{"views":[\#(views.joined(separator: ",\n"))],"constraints":[\#(constraints.joined(separator: ", "))]}"#
        XCTAssertTrue(agree(doc))
        XCTAssertTrue(agree(doc, oneShot: true))
        XCTAssertTrue(agree(" \n" + doc + "\n "))
        // Its tables sized by a guess from the bytes left, a kept session holds no spare room.
        let s = try! XCTUnwrap(LayoutSession.make(documentBytes: Array(doc.utf8)))
        XCTAssertGreaterThan(s.document.atoms.capacity, s.document.atoms.count, "the build reserves by estimate")
        s.compact()
        for (what, count, capacity) in [
            ("atoms", s.document.atoms.count, s.document.atoms.capacity), ("entries", s.document.entries.count, s.document.entries.capacity)
        ] {
            XCTAssertLessThanOrEqual(capacity, count + count / 32 + 16, what)
        }
    }

    /// Every field the tree's path reads, in any order within an object; a name repeated in an
    /// object is refused by both (no reader's rule for which counts).
    func testEveryFieldAndOrderAgree() {
        XCTAssertTrue(
            agree(
                #"""
                {"options":{"layoutDirection":"rtl"},
                 "views":[{"parent":null,"id":"r","frame":{"x":0,"y":0,"width":300,"height":200},"margins":{"top":4}},
                          {"kind":"guide","id":"g","parent":"r"},
                          {"id":"s","parent":"r","kind":"stack","stack":{"axis":"vertical","arrangedSubviews":["a","b"],"spacing":4}},
                          {"id":"a","parent":"s","intrinsicSize":{"width":10,"height":5}},
                          {"id":"b","parent":"s","hidden":false,"compressionResistance":{"vertical":999.5},"baseline":{"first":3}},
                          {"id":"t","parent":"r","text":{"string":"Hello, world","font":{"family":"DejaVu Sans","size":15}}},
                          {"id":"\u0078y","parent":"r"}],
                 "constraints":[{"expr":"r.leading == g.leading", "id":"late"},{"id":null,"expr":"g.width == 10"},
                                {"expr":"g.top == r.top","active":false},{"first":"g.height","constant":5},
                                {"id":"é1","expr":"xy.width == 20"},{"expr":"xy.height == 2 * xy.width @750"},
                                {"expr":"xy.top == r.top + 1"},
                                {"expr":"xy.left  >=  r.left+2.50"},{"expr":"xy.bottom <= r.bottom - \u0031"},{"expr":"xy.right <= r.right"}]}
                """#))
        XCTAssertTrue(agree(#"{"constraints":[],"views":[{"id":"r"}]}"#) == false, "constraints before views are the tree's")
        for repeated in [
            #"{"views":[{"id":"a","id":"b"}]}"#, #"{"views":[{"id":"a","frame":{"x":1},"frame":{"x":2}}]}"#,
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"a.width == 1","expr":"a.width == 2"}]}"#,
            #"{"views":[{"id":"a"}],"views":[{"id":"b"}]}"#, #"{"views":[{"id":"a","frame":{"x":1,"x":2}}]}"#
        ] {
            XCTAssertFalse(agree(repeated), repeated)
        }
        XCTAssertTrue(agree(#"{}"#))
        XCTAssertTrue(agree(#"{"views":[],"constraints":[]}"#))
    }

    /// A view's objects of numbers, read in place or from their tree, land the same; those out
    /// of bounds are refused by the tree's path.
    func testAViewsNumbersAgreeWithTheirTree() {
        for field in [
            #""frame":{"height":4,"width":3,"y":-2,"x":1}"#, #""frame":{"x":0,"y":0,"width":-1,"height":1}"#,
            #""frame":{"x":0,"y":0,"width":1}"#, #""frame":{"x":0,"y":0,"width":1,"height":1,"x":5}"#,
            #""frame":{"x":1e8,"y":0,"width":1,"height":1}"#,
            #""frame":null"#, #""intrinsicSize":{"width":10}"#, #""intrinsicSize":{"height":0.5,"width":1e7}"#, #""intrinsicSize":{"width":null}"#,
            #""intrinsicSize":{}"#, #""intrinsicSize":{"width":-1}"#, #""intrinsicSize":{"depth":1}"#, #""hugging":{"vertical":1}"#,
            #""hugging":{"horizontal":1000,"vertical":999.25}"#, #""hugging":{"horizontal":0}"#, #""hugging":{}"#,
            #""compressionResistance":{"horizontal":751.123456789}"#, #""compressionResistance":{"vertical":"high"}"#,
            #""compressionResistance":{"vertical":1001}"#, #""intrinsicSize":{"width":10},"intrinsicSize":{"height":3}"#
        ] {
            agree(#"{"views":[{"id":"r","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"a","parent":"r",\#(field)}]}"#)
        }
    }

    /// A VFL entry read in place, or from its tree, makes the same group, options kept as sent.
    func testVisualEntriesAgreeWithTheirTree() {
        for entry in [
            #"{"visual":"H:|-[a]-[b]-|"}"#, #"{"options":["alignAllTop"],"id":"row","visual":"H:|-[a]-[b]-|"}"#,
            #"{"visual":"H:|-[a]-[b]-|","options":[]}"#, #"{"visual":"V:|-[a(20)]-(>=8)-[b(==a@750)]","id":"col"}"#,
            #"{"visual":"H:|-[a]-(m)-[b]-|","metrics":{"m":3}}"#, #"{"visual":"H:|-[a]-[b]-|","options":null}"#,
            #"{"visual":"H:|-[a]-[b]-|","options":[1]}"#, #"{"visual":"H:|-[a]-[b]-|","id":null}"#,
            #"{"visual":"H:|-[a]-[b]-|","visual":"H:[a]"}"#, #"{"visual":"H:|-[a]-[b]-|","options":["alignAllLeft"]}"#,
            #"{"visual":"H:|-[a]-[nobody]-|"}"#, #"{"id":"a.0","expr":"a.width == 1"},{"id":"a","visual":"H:[a]-[b]"}"#,
            #"{"visual":"H:|-[a]-[b]-|","active":false}"#, #"{"visual":"H:|-[a]-[b]-|","options":["alignAllTop"],"options":[]}"#,
            // Options of an entry left to its tree are not the next entry's.
            #"{"visual":"H:|-[a]-[b]-|","options":["alignAllTop"],"active":true},{"visual":"V:|-[a]-[b]"}"#,
            #"{"options":["alignAllTop"],"expr":"a.width == 3"},{"visual":"V:|-[a]-[b]"}"#,
            // A format with an escape is the tree's; the next is read in place.
            #"{"visual":"H:|-[a]-\u005bb]-|"},{"visual":"V:|-[a]-[b]"}"#
        ] {
            agree(
                #"{"views":[{"id":"r","frame":{"x":0,"y":0,"width":100,"height":100}},{"id":"a","parent":"r"},{"id":"b","parent":"r"}],"#
                    + #""constraints":[\#(entry)]}"#)
        }
        XCTAssertTrue(agree(#"{"views":[{"id":"a"},{"id":"b"}],"constraints":[{"id":"row","visual":"H:[a]-[b]","options":["alignAllTop"]}]}"#))
    }

    /// Parents read in place come from a memo of the two named last: interleaved, prefixes
    /// of one another, escaped (read by the tree's string path), and ids escaped or not, the
    /// session is the tree's.
    func testParentsAndIdsReadInPlaceAgreeWithTheTree() {
        let parents = ["p1", "p10", "p1", "p2", "p10", "p2", "p2", "p1", #"p1\u0030"#, "p10", "p3", "p1"]
        var views = [#"{"id":"root","frame":{"x":0,"y":0,"width":100,"height":100}}"#]
        for p in ["p1", "p10", "p2", "p3"] { views.append(#"{"id":"\#(p)","parent":"root"}"#) }
        for (k, p) in parents.enumerated() {
            let id = k % 3 == 0 ? #"v\u00\#(String(48 + k % 10, radix: 16))x\#(k)"# : "v\(k)"
            views.append(#"{"id":"\#(id)","parent":"\#(p)"}"#)
        }
        let doc = #"{"views":[\#(views.joined(separator: ","))]}"#
        XCTAssertTrue(agree(doc))
        let s = try! XCTUnwrap(LayoutSession.make(documentBytes: Array(doc.utf8)))
        for (k, p) in parents.enumerated() {
            let id = k % 3 == 0 ? "v\(k % 10)x\(k)" : "v\(k)"
            let v = try! XCTUnwrap(s.document.viewRef(id), id)
            XCTAssertEqual(s.document.views[Int(v)].spec.parent, p == "p1\\u0030" ? "p10" : p, id)
        }
        // An id that is not one (a dot), read plain and escaped: refused as the tree refuses it.
        for bad in [#"{"views":[{"id":"a.b"}]}"#, #"{"views":[{"id":"a\u002eb"}]}"#, #"{"views":[{"id":"é"}]}"#] {
            XCTAssertNil(try LayoutSession.make(documentBytes: Array(bad.utf8)), bad)
            agree(bad)
        }
    }

    /// Whatever is wrong is the tree's to answer: the reader builds nothing from it.
    func testWrongBodiesAreLeftToTheTree() {
        for bad in [
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"a.width == "}]}"#,
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"b.width == 1"}]}"#,
            #"{"views":[{"id":"a"},{"id":"a"}]}"#,
            #"{"views":[{"id":"a.b"}]}"#,
            #"{"views":[{"id":"a","parent":"nobody"}]}"#,
            #"{"views":[{"id":"a","frame":{"x":0}}]}"#,
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"a.width == 1"},{"id":"c2","expr":"a.height == 1"},{"id":"c2","expr":"a.top == 1"}]}"#,
            #"{"views":[{"id":"a"}],"views":[]}"#,
            #"{"views":[{"id":"a"}],"extra":1}"#,
            #"{"views":[{"id":"a"}]} x"#,
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"a.width == 1"}]"#,
            #"{"views":[{"id":"a"}],"constraints":[{"expr":"a.width == 1"}],}"#,
            #"{"views":[{"id":1}]}"#,
            #"[]"#
        ] {
            let bytes = Array(bad.utf8)
            XCTAssertNil(try LayoutSession.make(documentBytes: bytes), bad)
            agree(bad)
        }
    }

    /// A limit is a build's refusal, the same from both paths.
    func testLimitsRefuseAsTheTreesPathDoes() {
        let doc = #"{"views":[{"id":"a"},{"id":"b"}],"constraints":[{"expr":"a.width == 1"},{"expr":"b.width == 1"}]}"#
        XCTAssertTrue(agree(doc, limits: SessionLimits(maxViews: 1)))
        XCTAssertTrue(agree(doc, limits: SessionLimits(maxConstraints: 1)))
        XCTAssertThrowsError(try LayoutSession.make(documentBytes: Array(doc.utf8), limits: SessionLimits(maxViews: 1)))
    }
}
