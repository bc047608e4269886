import CLibXML2
import CheckedNumbers

/// An element of an XML document, as the importer reads it: name, attributes in document
/// order, child elements, its text, and where its start tag is (line, column).
public struct XMLElement: Sendable {
    public var name: String
    public var attributes: [(name: String, value: String)] = []
    public var children: [XMLElement] = []
    public var text = ""
    public var line: Int
    public var column: Int

    public subscript(_ attribute: String) -> String? { attributes.first { $0.name == attribute }?.value }

    /// The first child element named `name` (with `key="…"` when given).
    public func child(_ name: String, key: String? = nil) -> XMLElement? {
        children.first { $0.name == name && (key == nil || $0["key"] == key) }
    }

    /// The children of the first child named `name` (`<subviews>`, `<constraints>`), or none.
    public func list(_ name: String) -> [XMLElement] { child(name)?.children ?? [] }
}

/// Why a document was refused, and where (1-based line and column).
public struct XMLError: Error, Equatable, Sendable {
    public var message: String
    public var line: Int
    public var column: Int
}

/// What one XML document may cost. A DTD or an entity reference is always refused: IB never
/// writes one, and entity expansion is how small documents grow huge.
public struct XMLLimits: Sendable {
    public var maxBytes = 32 << 20
    public var maxDepth = 256
    public var maxElements = 1_000_000
    /// Attributes on one element: libxml2 checks each new one against all before it (60,000
    /// on one element took 6 s), so a start tag past this is refused before libxml2 reads it.
    /// IB writes at most a few dozen.
    public var maxAttributes = 256

    public init(maxBytes: Int = 32 << 20, maxDepth: Int = 256, maxElements: Int = 1_000_000, maxAttributes: Int = 256) {
        (self.maxBytes, self.maxDepth, self.maxElements, self.maxAttributes) = (maxBytes, maxDepth, maxElements, maxAttributes)
    }
}

/// libxml2's streaming reader into `XMLElement`s: no network, no DTD, no entities, limits
/// checked as the elements come.
public enum XMLTree {
    public static func parse(_ bytes: [UInt8], limits: XMLLimits = XMLLimits()) throws(XMLError) -> XMLElement {
        guard bytes.count <= limits.maxBytes else {
            throw XMLError(message: "the document is \(bytes.count) bytes, over the limit of \(limits.maxBytes)", line: 1, column: 1)
        }
        var source = Source(bytes)
        // Refused before libxml2 reads it: a DTD's entities would be declared (and a loop or a
        // billion laughs detected) while it is parsed.
        if let (line, column) = source.find("<!DOCTYPE") {
            throw XMLError(message: "a DTD is not accepted", line: line, column: column)
        }
        if let at = source.crowdedTag(limit: limits.maxAttributes) {
            let (line, column) = source.place(at)
            throw XMLError(message: "an element with more than \(limits.maxAttributes) attributes", line: line, column: column)
        }
        let sink = ErrorSink()
        let options = Int32(XML_PARSE_NONET.rawValue | XML_PARSE_NOERROR.rawValue | XML_PARSE_NOWARNING.rawValue | XML_PARSE_BIG_LINES.rawValue)
        let reader: xmlTextReaderPtr? = bytes.withUnsafeBufferPointer { b in
            b.baseAddress!.withMemoryRebound(to: CChar.self, capacity: max(b.count, 1)) {
                xmlReaderForMemory($0, Int32(b.count), nil, nil, options)
            }
        }
        guard let reader else { throw XMLError(message: "the document could not be read", line: 1, column: 1) }
        defer { xmlFreeTextReader(reader) }
        let box = Unmanaged.passRetained(sink)
        defer { box.release() }
        xmlTextReaderSetStructuredErrorHandler(
            reader,
            { context, error in
                guard let context, let error else { return }
                let sink = Unmanaged<ErrorSink>.fromOpaque(context).takeUnretainedValue()
                guard sink.first == nil else { return }
                let message = error.pointee.message.map { String(cString: $0) } ?? "malformed XML"
                sink.first = XMLError(
                    message: message.trimmingWhitespace(), line: Int(max(error.pointee.line, 1)), column: Int(max(error.pointee.int2, 1)))
            }, box.toOpaque())

        var stack: [XMLElement] = []
        var root: XMLElement? = nil
        var elements = 0
        func here() -> (Int, Int) {
            (Int(max(xmlTextReaderGetParserLineNumber(reader), 1)), Int(max(xmlTextReaderGetParserColumnNumber(reader), 1)))
        }
        func close(_ element: XMLElement) {
            if stack.isEmpty { root = element } else { stack[stack.count - 1].children.append(element) }
        }
        while true {
            let status = xmlTextReaderRead(reader)
            if status == 0 { break }
            if status < 0 {
                let (line, column) = here()
                throw sink.first ?? XMLError(message: "malformed XML", line: line, column: column)
            }
            switch xmlTextReaderNodeType(reader) {
            case Int32(XML_READER_TYPE_ELEMENT.rawValue):
                // The parser reads ahead: the node knows its line, the source its column.
                let line = xmlTextReaderCurrentNode(reader).map { Int(xmlGetLineNo($0)) } ?? here().0
                let name = string(xmlTextReaderConstName(reader))
                let column = source.column(of: "<" + name, line: line)
                elements += 1
                guard elements <= limits.maxElements else {
                    throw XMLError(message: "more than \(limits.maxElements) elements", line: line, column: column)
                }
                guard stack.count < limits.maxDepth else {
                    throw XMLError(message: "elements nested deeper than \(limits.maxDepth)", line: line, column: column)
                }
                var element = XMLElement(name: name, line: line, column: column)
                while xmlTextReaderMoveToNextAttribute(reader) == 1 {
                    element.attributes.append((string(xmlTextReaderConstName(reader)), string(xmlTextReaderConstValue(reader))))
                }
                _ = xmlTextReaderMoveToElement(reader)
                if xmlTextReaderIsEmptyElement(reader) == 1 { close(element) } else { stack.append(element) }
            case Int32(XML_READER_TYPE_END_ELEMENT.rawValue):
                if let element = stack.popLast() { close(element) }
            case Int32(XML_READER_TYPE_TEXT.rawValue), Int32(XML_READER_TYPE_CDATA.rawValue):
                if !stack.isEmpty { stack[stack.count - 1].text += string(xmlTextReaderConstValue(reader)) }
            case Int32(XML_READER_TYPE_DOCUMENT_TYPE.rawValue):
                let (line, column) = here()
                throw XMLError(message: "a DTD is not accepted", line: line, column: column)
            case Int32(XML_READER_TYPE_ENTITY_REFERENCE.rawValue), Int32(XML_READER_TYPE_ENTITY.rawValue):
                let (line, column) = here()
                throw XMLError(message: "entity references are not accepted", line: line, column: column)
            default:
                break
            }
        }
        if let error = sink.first { throw error }
        guard let root else { throw XMLError(message: "the document has no element", line: 1, column: 1) }
        return root
    }

    private static func string(_ p: UnsafePointer<xmlChar>?) -> String {
        guard let p else { return "" }
        return String(cString: p)
    }
}

/// The document's bytes by line: where a start tag is on its line (libxml2 keeps no columns),
/// each line searched from where the last tag found on it ended.
private struct Source {
    let bytes: [UInt8]
    var lineStarts: [Int] = [0]
    var cursor: [Int: Int] = [:]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        for (i, b) in bytes.enumerated() where b == UInt8(ascii: "\n") { lineStarts.append(i + 1) }
    }

    func place(_ offset: Int) -> (Int, Int) {
        var lo = 0, hi = lineStarts.count - 1
        while lo < hi {
            let mid = (lo + hi + 1) / 2
            if lineStarts[mid] <= offset { lo = mid } else { hi = mid - 1 }
        }
        return (lo + 1, offset - lineStarts[lo] + 1)
    }

    func find(_ text: String, from start: Int = 0, before end: Int? = nil) -> (Int, Int)? {
        offset(of: text, from: start, before: end).map(place)
    }

    func offset(of text: String, from start: Int, before end: Int?) -> Int? {
        let needle = Array(text.utf8), last = min(end ?? bytes.count, bytes.count) - needle.count
        guard last >= start, let first = needle.first else { return nil }
        var i = start
        while i <= last {
            if bytes[i] == first && bytes[i..<i + needle.count].elementsEqual(needle) { return i }
            i += 1
        }
        return nil
    }

    /// The offset of the first start tag with more than `limit` attributes (its `=` signs
    /// outside quoted values), in one pass; comments, CDATA, declarations and processing
    /// instructions are passed over.
    func crowdedTag(limit: Int) -> Int? {
        let lt = UInt8(ascii: "<"), gt = UInt8(ascii: ">"), eq = UInt8(ascii: "="), q1 = UInt8(ascii: "\""), q2 = UInt8(ascii: "'")
        var i = 0
        let n = bytes.count
        while i < n {
            guard bytes[i] == lt, i + 1 < n else {
                i += 1
                continue
            }
            let next = bytes[i + 1]
            if next == UInt8(ascii: "!") || next == UInt8(ascii: "?") {
                let close = bytes[i...].starts(with: Array("<!--".utf8)) ? "-->" : bytes[i...].starts(with: Array("<![CDATA[".utf8)) ? "]]>" : ">"
                i = (offset(of: close, from: i + 2, before: nil) ?? n) + 1
                continue
            }
            let start = i
            var count = 0, quote: UInt8 = 0
            i += 1
            while i < n {
                let b = bytes[i]
                if quote != 0 {
                    if b == quote { quote = 0 }
                } else if b == q1 || b == q2 {
                    quote = b
                } else if b == eq {
                    count += 1
                    if count > limit { return start }
                } else if b == gt || b == lt {
                    break
                }
                i += 1
            }
        }
        return nil
    }

    mutating func column(of tag: String, line: Int) -> Int {
        guard line >= 1 && line <= lineStarts.count else { return 1 }
        let start = cursor[line] ?? lineStarts[line - 1]
        let end = line < lineStarts.count ? lineStarts[line] : bytes.count
        guard let at = offset(of: tag, from: start, before: end) else { return 1 }
        cursor[line] = at + tag.utf8.count
        return at - lineStarts[line - 1] + 1
    }
}

/// The reader's first error, kept for the caller (libxml2 reports through a callback).
private final class ErrorSink {
    var first: XMLError?
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let c = s.last, c.isWhitespace { s.removeLast() }
        while let c = s.first, c.isWhitespace { s.removeFirst() }
        return String(s)
    }
}
