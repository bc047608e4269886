import Foundation
import FoundationXML
import InterfaceBuilder

// The importer's XML reader (libxml2's streaming reader through CLibXML2, `XMLTree`) beside
// Foundation's `XMLParser` (a SAX parser; on Linux FoundationXML, itself over libxml2)
// building the same tree: which to read IB documents with.
//
//   layoutd-xml-bench [--reps N] FILE...
//
// Per run: milliseconds to read every file into a tree, each parser, alternated.

/// The tree `XMLTree` makes, field for field (its initializer is the importer's own).
struct Node {
    var name: String
    var attributes: [(name: String, value: String)] = []
    var children: [Node] = []
    var text = ""
    var line: Int
    var column: Int
}

/// `XMLParser`'s events into the same tree (names, attributes, text, children; line and
/// column of each start tag).
final class TreeBuilder: NSObject, XMLParserDelegate {
    var stack: [Node] = []
    var root: Node?

    func parser(
        _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        var e = Node(name: name, line: parser.lineNumber, column: parser.columnNumber)
        e.attributes = attributes.map { (name: $0.key, value: $0.value) }
        stack.append(e)
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        if !stack.isEmpty { stack[stack.count - 1].text += string }
    }

    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
        let e = stack.removeLast()
        if stack.isEmpty { root = e } else { stack[stack.count - 1].children.append(e) }
    }
}

var reps = 5
var files: [String] = []
var arguments = CommandLine.arguments.dropFirst()
while let a = arguments.popFirst() {
    if a == "--reps", let n = arguments.popFirst().flatMap(Int.init) { reps = n } else { files.append(a) }
}
let documents = files.compactMap { FileManager.default.contents(atPath: $0) }
func now() -> UInt64 { DispatchTime.now().uptimeNanoseconds }
var elements = (tree: 0, foundation: 0)
func count(_ e: InterfaceBuilder.XMLElement) -> Int { 1 + e.children.reduce(0) { $0 + count($1) } }
func count(_ e: Node) -> Int { 1 + e.children.reduce(0) { $0 + count($1) } }
for run in 1...reps {
    let t0 = now()
    var n = 0
    for d in documents { if let t = try? XMLTree.parse(Array(d)) { n += count(t) } }
    let t1 = now()
    var m = 0
    for d in documents {
        let p = XMLParser(data: d)
        let b = TreeBuilder()
        p.delegate = b
        p.shouldResolveExternalEntities = false
        if p.parse(), let r = b.root { m += count(r) }
    }
    let t2 = now()
    elements = (n, m)
    print("run \(run): XMLTree (libxml2 reader) \(Double(t1 - t0) / 1e6) ms, XMLParser (Foundation) \(Double(t2 - t1) / 1e6) ms")
}
print("elements read: XMLTree \(elements.tree), XMLParser \(elements.foundation)")
