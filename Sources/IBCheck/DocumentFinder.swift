import Foundation

/// The Interface Builder documents under some paths: each `.storyboard` and `.xib` file
/// named, and those found in folders named, recursively (hidden folders, such as `.git` and
/// `.build`, passed over); in a stable order.
public enum DocumentFinder {
    public static let extensions: Set<String> = ["storyboard", "xib"]

    /// The documents' paths, each as its folder was named plus its path within; a path that
    /// does not exist, or a file that is not a document, is an error.
    public static func documents(under paths: [String]) throws(CheckFailure) -> [String] {
        var out: [String] = []
        let files = FileManager.default
        for path in paths {
            var isFolder: ObjCBool = false
            guard files.fileExists(atPath: path, isDirectory: &isFolder) else { throw CheckFailure("\(path): no such file or folder") }
            guard isFolder.boolValue else {
                guard isDocument(path) else { throw CheckFailure("\(path): not a .storyboard or .xib") }
                out.append(path)
                continue
            }
            guard let walk = files.enumerator(atPath: path) else { throw CheckFailure("\(path): the folder cannot be read") }
            var found: [String] = []
            while let item = walk.nextObject() as? String {
                let name = (item as NSString).lastPathComponent
                if name.hasPrefix(".") {
                    walk.skipDescendants()
                    continue
                }
                // A document is a file: a snapshot folder is named after the document it holds.
                guard isDocument(name), walk.fileAttributes?[.type] as? FileAttributeType == .typeRegular else { continue }
                found.append(path == "." ? item : path.hasSuffix("/") ? path + item : path + "/" + item)
            }
            out += found.sorted()
        }
        var seen = Set<String>()
        return out.filter { seen.insert($0).inserted }
    }

    static func isDocument(_ path: String) -> Bool { extensions.contains((path as NSString).pathExtension.lowercased()) }
}

/// A check that could not be made as asked: a path, a file or a folder that cannot be used.
public struct CheckFailure: Error, CustomStringConvertible, Sendable {
    public let description: String
    public init(_ description: String) { self.description = description }
}
