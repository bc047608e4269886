import Foundation
import InterfaceBuilder
import LayoutModel
import Rendering

/// One document checked at each size of a configuration: imported once per device and
/// orientation, each root laid out (`RootLayout`, the route's path), its findings placed,
/// and its frames recorded, compared with their snapshot or drawn as asked.
public struct DocumentCheck: Sendable {
    public let configuration: CheckConfiguration

    public init(_ configuration: CheckConfiguration) { self.configuration = configuration }

    public func run(file: String) -> DocumentResult {
        var result = DocumentResult(file: file)
        guard let data = FileManager.default.contents(atPath: file) else {
            result.failures.append("\(file): cannot be read")
            return result
        }
        let bytes = [UInt8](data)
        let xml = RootLayout.xmlLimits(bytes: bytes.count, limits: configuration.limits)
        // One import and one layout a root for each device and orientation: the document's own
        // serves its own size and every size in points.
        var imports: [String: Result<(ImportedDocument, [RootLayout]), ImportError>] = [:]
        var findings: [Finding] = []
        var pictures: [Picture] = []
        var rootNames = Set<String>()
        for size in configuration.sizes {
            let options = size.options(configuration.importOptions)
            let key = "\(options.device ?? "-") \(options.landscape.map { $0 ? "landscape" : "portrait" } ?? "-")"
            if imports[key] == nil {
                do throws(ImportError) {
                    let document = try Importer.read(bytes, options: options, limits: xml)
                    imports[key] = .success((document, document.roots.map { RootLayout($0, limits: configuration.limits) }))
                } catch {
                    imports[key] = .failure(error)
                }
            }
            switch imports[key]! {
            case .failure(let error):
                let place = SourcePlace(line: error.line, column: error.column)
                findings.append(Finding(.refused, "the document is not laid out: \(error.message)", at: place, ids: []))
            case .success(let (document, layouts)):
                let name = size.name(document)
                let storedFrames = size.layoutSize == nil && RootLayout.comparesStoredFrames(options)
                for base in layouts {
                    rootNames.insert(base.root.name)
                    let layout = size.layoutSize.map { base.resized(to: [$0])[0] } ?? base
                    result.layouts.append(CheckedLayout(root: base.root.name, size: name))
                    for var f in layout.findings(storedFrames: storedFrames, tolerance: configuration.tolerance) {
                        f.size = name
                        findings.append(f)
                    }
                    findings += snapshots(of: layout, file: file, size: name, failures: &result.failures)
                    if configuration.pictures != nil, let picture = layout.picture(named: "\(layout.root.name) \(name)") {
                        pictures.append(picture)
                    }
                }
            }
        }
        if let folder = configuration.pictures, !pictures.isEmpty {
            do throws(CheckFailure) { try PictureFile.write(pictures, to: folder + "/" + Snapshot.key(file)) } catch {
                result.failures.append(error.description)
            }
        }
        result.roots = rootNames.count
        result.findings = configuration.severities.apply(Self.once(findings)).map { f in
            var f = f
            f.file = file
            return f
        }
        return result
    }

    /// The layout's frames recorded, or compared with those recorded (what moved, and a
    /// picture of the root when anything did), as the configuration asks.
    private func snapshots(of layout: RootLayout, file: String, size: String, failures: inout [String]) -> [Finding] {
        let snapshot = Snapshot(file: file, root: layout.root, size: size)
        if let folder = configuration.record {
            do throws(CheckFailure) { try snapshot.write(layout, under: folder) } catch { failures.append(error.description) }
        }
        guard let folder = configuration.compare else { return [] }
        let compared = snapshot.compare(layout, under: folder, tolerance: configuration.tolerance)
        if let picture = compared.picture, let changes = configuration.changes {
            do throws(CheckFailure) { try PictureFile.write([picture], to: snapshot.path(under: changes, ext: "")) } catch {
                failures.append(error.description)
            }
        }
        return compared.findings
    }

    /// Findings of the import (a refusal, what was left out) said once, not at every size.
    static func once(_ findings: [Finding]) -> [Finding] {
        var seen = Set<String>()
        return findings.filter { f in
            guard f.kind == .unsupported || f.kind == .refused else { return true }
            return seen.insert("\(f.kind) \(f.root ?? "") \(f.place.line):\(f.place.column) \(f.ids) \(f.message)").inserted
        }
    }
}
