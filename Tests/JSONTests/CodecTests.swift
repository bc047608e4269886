import Foundation
import XCTest
@testable import JSON

/// The purpose-built codec against Foundation's on the same inputs.
final class CodecTests: XCTestCase {
    func foundation(_ v: Any) -> JSON {
        switch v {
        case is NSNull: return .null
        case let n as NSNumber where ["c", "B"].contains(String(cString: n.objCType)): return .bool(n.boolValue)
        case let n as NSNumber: return .number(n.doubleValue)
        case let s as String: return .string(s)
        case let a as [Any]: return .array(a.map(foundation))
        case let o as [String: Any]: return .object(o.keys.sorted().map { ($0, foundation(o[$0]!)) })
        default: XCTFail("unexpected \(v)"); return .null
        }
    }

    func sorted(_ j: JSON) -> JSON {
        switch j {
        case .array(let a): return .array(a.map(sorted))
        case .object(let m): return .object(m.sorted { $0.key < $1.key }.map { ($0.key, sorted($0.value)) })
        default: return j
        }
    }

    let corpus = [
        #"{"avatarLeading": 42}"#, #"{"a": -0.5, "b": 1e3, "c": 12345678901234567, "d": 1.7976931348623157e308, "e": 5e-324}"#,
        #"{"ops":[{"op":"setConstant","id":"x","constant":-12.25}],"baseRevision":3}"#,
        #"["\u00e9\ud83d\ude00", "\"quoted\" \\ /slash\/ \b\f\n\r\t", "", "日本"]"#, "[true,false,null,[],{}]",
        #"  {"nested":{"deeper":[1,[2,[3,{"k":"v"}]]]}}  "#, "0", "-0", "[1.0, 2.50, 0.1, 100000000000000000000]"
    ]

    /// RFC 6901 escapes code points: a `/` or `~` that a combining mark follows (one Character
    /// with it) is escaped too, and the token splits on `/` back into the name.
    func testPointerTokensEscapeEverySlashAndTilde() {
        XCTAssertEqual(jsonPointerToken("plain"), "plain")
        XCTAssertEqual(jsonPointerToken("a/b~c"), "a~1b~0c")
        XCTAssertEqual(jsonPointerToken("a/\u{301}b"), "a~1\u{301}b")
        XCTAssertEqual(jsonPointerToken("~\u{301}/\u{20DD}"), "~0\u{301}~1\u{20DD}")
        XCTAssertEqual(jsonPointerToken("\u{301}options"), "\u{301}options")
        for name in ["x/\u{301}y", "/\u{301}", "~\u{300}~1", "🇫🇷/👨‍👩‍👧"] {
            let token = jsonPointerToken(name)
            XCTAssertFalse(token.utf8.contains(UInt8(ascii: "/")), name)
            var back: [Unicode.Scalar] = [], escaped = false
            for c in token.unicodeScalars {
                if escaped { back.append(c == "1" ? "/" : "~") } else if c != "~" { back.append(c) }
                escaped = !escaped && c == "~"
            }
            XCTAssertEqual(back, Array(name.unicodeScalars), name)
        }
    }

    func testParserAgreesWithFoundation() throws {
        for text in corpus {
            let ours = try JSONParser.parse(text)
            let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            XCTAssertEqual(sorted(ours), foundation(theirs), text)
        }
    }

    func testWriterOutputParsesBackIdentically() throws {
        for text in corpus {
            let ours = try JSONParser.parse(text)
            let written = ours.serialized
            let theirs = try JSONSerialization.jsonObject(with: Data(written), options: [.fragmentsAllowed])
            XCTAssertEqual(sorted(ours), foundation(theirs), text)
            XCTAssertEqual(try JSONParser.parse(written), ours)
        }
        var w = JSONWriter()
        w.beginObject(); w.key("x"); w.number(60); w.key("y"); w.number(-0.5); w.key("big"); w.number(1e20); w.key("s"); w.string("a\u{1}b");
        w.endObject()
        XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), #"{"x":60,"y":-0.5,"big":1e+20,"s":"a\u0001b"}"#)
        // The one-append member path against the general one, on the numbers a frame can hold.
        for v in [0.0, -0.0, 7, -7, 10, 99, 100, 1234.5, -1e-9, 8_999_999_999_999_998, -8_999_999_999_999_998, 9.5e15, 1e300, .infinity, .nan] {
            var fast = JSONWriter(), general = JSONWriter()
            fast.beginObject(); fast.member("a", 1); fast.member("width", v); fast.endObject()
            general.beginObject(); general.key("a"); general.number(1); general.key("width"); general.number(v); general.endObject()
            XCTAssertEqual(String(decoding: fast.bytes, as: UTF8.self), String(decoding: general.bytes, as: UTF8.self), "\(v)")
        }
    }

    /// A member written through the cursor (a frame's shape) against the general path: keys
    /// that need escaping, literals of every length the word stores take (and around them),
    /// numbers of every kind.
    func testCursorMemberMatchesTheGeneralPath() throws {
        let literals: [StaticString] = [
            "{", "[1", "abc", "true", "{\"x\":", ",\"y\":", "1234567", ",\"width\":", ",\"height\":", "0123456789abcdef",
            "0123456789abcdefg", ",\"a-key-of-twenty\":"
        ]
        let keys = ["plain", "", "quo\"te", "back\\slash", "tab\t", "nul\u{0}", "été", "日本語のビュー", String(repeating: "k", count: 40)]
        let numbers: [Double] = [0, -0.0, 7, -7, 99, 100, 1234.5, -1e-9, 8_999_999_999_999_998, 9.5e15, 1e300, .infinity, -.infinity, .nan]
        for (i, k) in keys.enumerated() {
            for (j, literal) in literals.enumerated() {
                let v = numbers[(i + j) % numbers.count]
                var fast = JSONWriter(capacity: 1)
                fast.beginObject()
                fast.member("first", 1)
                fast.member(k, room: literal.utf8CodeUnitCount + JSONWriter.Cursor.numberRoom) { c in
                    c.put(literal)
                    c.number(v)
                }
                fast.endObject()
                var number = JSONWriter()
                number.number(v)
                var general = JSONWriter(capacity: 1)
                general.beginObject()
                general.key("first"); general.number(1)
                general.key(k)
                general.raw(literal.withUTF8Buffer { Array($0) } + number.bytes)
                general.endObject()
                XCTAssertEqual(String(decoding: fast.bytes, as: UTF8.self), String(decoding: general.bytes, as: UTF8.self), "\(k) \(literal) \(v)")
            }
        }
        // The key reads back as sent.
        var w = JSONWriter()
        w.beginObject()
        for k in keys { w.member(k, room: 8) { $0.number(1) } }
        w.endObject()
        let back = try JSONParser.parse(w.bytes)
        XCTAssertEqual(back.members?.map { $0.key }, keys)
    }

    /// Integers go out two digits at a time: every digit count, both signs and the ends of
    /// Int's range must read as `String(v)` does.
    func testIntegersMatchStringFormatting() {
        var values: [Int] = [0, -1, Int.max, Int.min, Int.min + 1]
        var p = 1
        for _ in 0..<18 { values += [p - 1, p, p + 1, -p, 7 * p, -(7 * p) - 3]; p *= 10 }
        for v in values {
            var w = JSONWriter(capacity: 1)
            w.beginArray(); w.int(v); w.int(v); w.endArray()
            XCTAssertEqual(String(decoding: w.bytes, as: UTF8.self), "[\(v),\(v)]")
            if abs(Double(v)) < 9e15 {
                var m = JSONWriter(capacity: 1)
                m.beginObject(); m.member("k", Double(v)); m.endObject()
                XCTAssertEqual(String(decoding: m.bytes, as: UTF8.self), "{\"k\":\(v)}")
            }
        }
    }

    /// The writer keeps its comma flags as a 64-level bit stack and spills deeper levels:
    /// nesting well past 64, with members at every level, must still come out as JSON.
    func testDeepNestingWritesValidJSON() throws {
        for depth in [1, 63, 64, 65, 130] {
            var w = JSONWriter()
            for level in 0..<depth { w.beginObject(); w.key("a\(level)"); w.number(Double(level)); w.key(plain: "next") }
            w.beginArray(); w.number(1); w.string("x"); w.endArray()
            for level in (0..<depth).reversed() { w.key("b\(level)"); w.bool(true); w.endObject() }
            let parsed = try JSONParser.parse(w.bytes)
            _ = try JSONSerialization.jsonObject(with: Data(w.bytes), options: [])
            var node = parsed
            for level in 0..<depth {
                XCTAssertEqual(node["a\(level)"]?.number, Double(level), "depth \(depth)")
                XCTAssertEqual(node["b\(level)"]?.bool, true, "depth \(depth)")
                node = node["next"]!
            }
            XCTAssertEqual(node.array?.count, 2)
        }
    }

    /// Objects and arrays open inside each other, some past the room the parser reserves
    /// (they grow while outer ones wait): each closes with its own values, in order. Every
    /// cut short of the end fails, dropping what was open.
    func testInterleavedNestingKeepsEachValuesOwnMembers() throws {
        var seed: UInt64 = 7
        func next(_ n: UInt64) -> Int {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int((seed >> 33) % n)
        }
        func value(_ depth: Int) -> String {
            switch depth > 2 ? next(3) : next(5) {
            case 0: return "\(next(1000))"
            case 1: return "\"a long string value \(next(1000)) that lives on the heap\""
            case 2: return "null"
            case 3: return "[" + (0..<(1 + next(depth == 0 ? 90 : 12))).map { _ in value(depth + 1) }.joined(separator: ",") + "]"
            default:
                return "{" + (0..<(1 + next(depth == 0 ? 90 : 12))).map { k in "\"member \(k) of many\":" + value(depth + 1) }.joined(separator: ",")
                    + "}"
            }
        }
        let text = "[" + (0..<20).map { _ in value(0) }.joined(separator: ",") + "]"
        XCTAssertGreaterThan(text.utf8.count, 10_000)
        let ours = try JSONParser.parse(text)
        let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8))
        XCTAssertEqual(sorted(ours), foundation(theirs))
        XCTAssertEqual(try JSONParser.parse(ours.serialized), ours, "members in the order sent")
        let bytes = Array(text.utf8)
        for cut in stride(from: 1, to: bytes.count, by: max(1, bytes.count / 200)) {
            XCTAssertThrowsError(try JSONParser.parse(Array(bytes[..<cut])))
        }
    }

    /// A member name sent twice is refused (readers disagree on which counts), in a short
    /// object and past the point where the parser keeps a set.
    func testRepeatedMemberNamesAreRefused() throws {
        XCTAssertThrowsError(try JSONParser.parse(#"{"id":"a","frame":1,"id":"b"}"#))
        XCTAssertThrowsError(try JSONParser.parse(#"{"a":{"x":1,"x":2}}"#))
        let long = (0..<40).map { "\"k\($0)\":\($0)" }
        XCTAssertNoThrow(try JSONParser.parse("{" + long.joined(separator: ",") + "}"))
        XCTAssertThrowsError(try JSONParser.parse("{" + (long + ["\"k7\":0"]).joined(separator: ",") + "}"))
        XCTAssertThrowsError(try JSONParser.parse("{" + (long + ["\"k39\":0"]).joined(separator: ",") + "}"))
        XCTAssertNoThrow(try JSONParser.parse(#"[{"a":1},{"a":2}]"#), "the same name in two objects")
    }

    func testInvalidInputRejectedLikeFoundation() {
        // Trailing commas: Foundation here accepts them, RFC 8259 (and this parser) does not.
        for text in ["[1,]", #"{"a":1,}"#] { XCTAssertThrowsError(try JSONParser.parse(text), text) }
        let bad = [
            "", "{", "01", "1.", "-", "[1 2]", #"{"a" 1}"#, "nul", "\"\u{01}\"", #""\x""#, #""\ud800""#, "[1]x", "+1", ".5", "1e", "NaN", "[\"a\"]]"
        ]
        for text in bad {
            XCTAssertThrowsError(try JSONParser.parse(text), text)
            XCTAssertThrowsError(try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed]), "Foundation accepts \(text)")
        }
        XCTAssertThrowsError(try JSONParser.parse(String(repeating: "[", count: 300) + String(repeating: "]", count: 300)))
        XCTAssertThrowsError(try JSONParser.parse([0x22, 0xff, 0x22]), "invalid UTF-8")
    }

    /// Strings are scanned eight bytes at a time until a word holds a quote, a backslash, a
    /// control character or a byte beyond ASCII: each at every place of strings up to 40
    /// bytes reads as Foundation reads it, and a control character is reported where it is.
    func testEverySpecialByteAtEveryPlaceOfAString() throws {
        let specials = [#"\""#, #"\\"#, #"\n"#, #"\u00e9"#, "é", "日", "😀", "~", "\u{7f}"]
        for length in 0..<40 {
            for place in 0...length {
                let head = String(repeating: "a", count: place), tail = String(repeating: "b", count: length - place)
                for special in specials {
                    let text = "[\"" + head + special + tail + "\", \"x\"]"
                    let ours = try JSONParser.parse(text)
                    let theirs = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
                    XCTAssertEqual(ours, foundation(theirs), text)
                }
                let bad = Array(("[\"" + head).utf8) + [0x09] + Array((tail + "\"]").utf8)
                XCTAssertThrowsError(try JSONParser.parse(bad)) { XCTAssertEqual(($0 as? JSONParseError)?.offset, 2 + place, "\(length) \(place)") }
                let invalid = Array(("[\"" + head).utf8) + [0xC3] + Array((tail + "\"]").utf8)
                XCTAssertThrowsError(try JSONParser.parse(invalid), "\(length) \(place): a lone lead byte")
            }
        }
    }
}
