import Foundation

/// Files written whole, their folders made as needed.
public enum Files {
    public static func write(_ bytes: [UInt8], to path: String) throws(CheckFailure) {
        let folder = (path as NSString).deletingLastPathComponent
        do {
            if !folder.isEmpty { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
            try Data(bytes).write(to: URL(fileURLWithPath: path), options: .atomic)
        } catch {
            throw CheckFailure("\(path): cannot be written (\(error.localizedDescription))")
        }
    }
}
