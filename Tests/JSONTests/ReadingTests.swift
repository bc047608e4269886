import XCTest
@testable import JSON

/// The pull reader: the same grammar as the parser, a step at a time.
final class ReadingTests: XCTestCase {
    /// Walks any value with the reader's steps, writing it back as a tree (objects and arrays
    /// by the steps, everything else by `readValue`).
    func walk(_ r: inout JSONParser) throws -> JSON {
        switch r.peek() {
        case UInt8(ascii: "{"):
            var members: [(key: String, value: JSON)] = []
            if try r.beginObject() {
                repeat {
                    let k = String(decoding: try r.key(), as: UTF8.self)
                    members.append((k, try walk(&r)))
                } while try r.nextMember()
            }
            return .object(members)
        case UInt8(ascii: "["):
            var items: [JSON] = []
            if try r.beginArray() { repeat { items.append(try walk(&r)) } while try r.nextElement() }
            return .array(items)
        default: return try r.readValue()
        }
    }

    func read(_ text: String) throws -> JSON {
        try JSONParser.reading(Array(text.utf8)) { r throws -> JSON in
            let v = try walk(&r)
            try r.finish()
            return v
        }
    }

    func testTheStepsReadWhatTheParserParses() throws {
        for text in [
            #"{}"#, #"[]"#, #" { "a" : [ 1 , -2.5e3 , "x\"y" , true , null , { } ] , "b" : { "c" : [ [ ] ] } } "#,
            #"[{"id":"v","frame":{"x":0,"y":0,"width":375,"height":10}},"é",1e-7]"#, #""alone""#, "42"
        ] {
            XCTAssertEqual(try read(text), try JSONParser.parse(text), text)
        }
    }

    /// What the parser refuses the steps refuse; so is a name with an escape or beyond ASCII,
    /// which the reader's callers never compare (they parse the body whole instead).
    func testTheStepsRefuseWhatTheParserRefusesAndEscapedNames() {
        for text in [#"{"a":1,}"#, #"[1,]"#, #"{"a" 1}"#, #"{"a":1} x"#, #"[1"#, #"{"a":"#, String(repeating: "[", count: 300)] {
            XCTAssertThrowsError(try JSONParser.parse(text), text)
            XCTAssertThrowsError(try read(text), text)
        }
        for text in [#"{"\u0061":1}"#, #"{"é":1}"#] {
            XCTAssertNoThrow(try JSONParser.parse(text), text)
            XCTAssertThrowsError(try read(text), text)
        }
    }

    /// A plain ASCII string is the body's own bytes; any other value leaves the reader where it was.
    func testPlainStringsAreTheBodysBytes() throws {
        let text = #"["a.top == b.top + 12 long enough for words","x\"y","é",7,"",""#
        try JSONParser.reading(Array(text.utf8)) { r throws in
            XCTAssertTrue(try r.beginArray())
            XCTAssertEqual(r.readPlainString().map { String(decoding: $0, as: UTF8.self) }, "a.top == b.top + 12 long enough for words")
            for expected: JSON in [.string("x\"y"), .string("é"), .number(7)] {
                XCTAssertTrue(try r.nextElement())
                XCTAssertNil(r.readPlainString())
                XCTAssertEqual(try r.readValue(), expected)
            }
            XCTAssertTrue(try r.nextElement())
            XCTAssertEqual(r.readPlainString()?.count, 0)
            XCTAssertTrue(try r.nextElement())
            XCTAssertNil(r.readPlainString(), "unterminated")
        }
    }

    /// Strings of every length around a word (the first word's path and the loop's), each
    /// with a byte that makes it not plain at every place: plain ones are their own bytes and
    /// the reader goes past them; others are nil, the reader not moved.
    func testPlainStringsAcrossTheirFirstWord() throws {
        for n in 0...20 {
            for bad in [nil, 0x5C, 0x0A, 0xC3] as [UInt8?] {
                for at in 0..<max(1, n) {
                    var body = Array("[\"".utf8) + Array(repeating: UInt8(ascii: "a"), count: n)
                    if let bad, n > 0 { body[2 + at] = bad }
                    body += Array("\",1]".utf8)
                    let plain = bad == nil || n == 0
                    try JSONParser.reading(body) { r throws in
                        XCTAssertTrue(try r.beginArray())
                        let before = r.remaining
                        let got = r.readPlainString()
                        XCTAssertEqual(got.map(Array.init), plain ? Array(body[2..<(2 + n)]) : nil, "\(n) \(String(describing: bad)) at \(at)")
                        if plain {
                            XCTAssertTrue(try r.nextElement())
                            XCTAssertEqual(try r.readNumber(), 1)
                        } else {
                            XCTAssertEqual(r.remaining, before, "not moved")
                        }
                    }
                }
            }
        }
    }

    /// Back at a mark, the reader reads the same value again, at the same depth.
    func testARewoundReaderReadsTheValueAgain() throws {
        let text = #"[{"a":[1,2],"b":"c"},3]"#
        try JSONParser.reading(Array(text.utf8)) { r throws in
            XCTAssertTrue(try r.beginArray())
            let start = r.mark
            XCTAssertTrue(try r.beginObject())
            XCTAssertEqual(String(decoding: try r.key(), as: UTF8.self), "a")
            XCTAssertTrue(try r.beginArray())
            r.rewind(to: start)
            XCTAssertEqual(try r.readValue(), try JSONParser.parse(#"{"a":[1,2],"b":"c"}"#))
            XCTAssertTrue(try r.nextElement())
            XCTAssertEqual(try r.readValue(), .number(3))
            XCTAssertFalse(try r.nextElement())
            try r.finish()
        }
    }
}
