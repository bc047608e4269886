import ArgumentParser
import Foundation
import IBCheck
import InterfaceBuilder
import LayoutModel
import LayoutServer
import TextLayout

/// `layoutd check PATH…`: Interface Builder documents laid out in process, as
/// `POST /v1/ib/layout` lays them out, and what is wrong with them reported with its place.
/// Exit status: 0 clean (warnings allowed), 1 an error finding, 2 a usage or I/O error.
struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Check Interface Builder documents: conflicts, ambiguity, misplaced views, snapshots.",
        discussion: """
            Every .storyboard and .xib under the paths, every root, at the document's device or at each \
            --device/--orientation/--size. Exit status: 0 clean (warnings allowed), 1 an error finding, \
            2 a usage or I/O error. Finding kinds: \(Finding.Kind.allCases.map(\.rawValue).joined(separator: ", ")) \
            (docs/CHECK.md).
            """)

    static let usageError: Int32 = 2

    @Argument(help: "Documents, or folders searched for .storyboard and .xib files.") var paths: [String] = []
    @Option(name: .customLong("device"), help: "A device of GET /v1/devices (repeatable; default the document's own).")
    var devices: [String] = []
    @Option(name: .customLong("orientation"), help: "portrait or landscape (repeatable; default the document's own).")
    var orientations: [String] = []
    @Option(name: .customLong("size"), help: "A root size in points, WxH such as 320x568 (repeatable).") var sizes: [String] = []
    @Option(help: "stored (every content view at the size Xcode stored: its canvas) or measured (labels set by layoutd).")
    var contentSizes: String = "stored"
    @Option(help: "Points a view may be from its stored frame or its snapshot.") var tolerance: Double = RootLayout.defaultTolerance
    @Option(name: .customLong("error"), help: "Kinds that are errors, comma-separated (repeatable).") var errorKinds: [String] = []
    @Option(name: .customLong("warning"), help: "Kinds that are warnings, comma-separated (repeatable).") var warningKinds: [String] = []
    @Option(name: .customLong("ignore"), help: "Kinds left out, comma-separated (repeatable).") var ignoredKinds: [String] = []
    @Option(help: "text, json, junit or github (workflow-command annotations).") var format: String = "text"
    @Option(help: "Write the report to this file instead of standard output.") var output: String?
    @Option(help: "Write each root's frames at each size into this folder.") var record: String?
    @Option(help: "Compare each root's frames at each size with those recorded in this folder.") var compare: String?
    @Option(help: "Folder for the pictures of roots that moved (--compare). Default: beside --output, else ./layoutd-changes.")
    var changes: String?
    @Option(help: "Write a contact sheet of each document's roots into this folder.") var pictures: String?
    @Option(help: "Documents checked at once.") var jobs: Int = ProcessInfo.processInfo.activeProcessorCount

    func validate() throws {
        guard !paths.isEmpty else { throw ValidationError("name at least one document or folder") }
        guard ReportFormat(rawValue: format) != nil else { throw ValidationError("--format is text, json, junit or github") }
        guard ImportOptions.ContentSizes(rawValue: contentSizes) != nil else { throw ValidationError("--content-sizes is stored or measured") }
        guard tolerance >= 0, tolerance.isFinite else { throw ValidationError("--tolerance is a number of points, 0 or more") }
        guard jobs >= 1 else { throw ValidationError("--jobs must be at least 1") }
        for d in devices where Device.named(d) == nil { throw ValidationError("unknown --device \(d) (GET /v1/devices lists them)") }
        _ = try landscapes()
        _ = try pointSizes()
        _ = try severities()
    }

    func run() throws {
        // The server's one-shot layouts' limits and engine (LAYOUTD_LAYOUT_ENGINE too): its findings.
        var server = ServerConfiguration()
        server.layoutEngine = env("LAYOUT_ENGINE").flatMap(EngineKind.init(rawValue:)) ?? server.layoutEngine
        var c = CheckConfiguration(limits: server.layoutLimits)
        c.sizes = CheckSize.matrix(devices: devices, orientations: try landscapes(), points: try pointSizes())
        c.importOptions.contentSizes = ImportOptions.ContentSizes(rawValue: contentSizes)!
        // Inter where it is installed (the image and the Makefile install it), as the server does.
        c.importOptions.fontFamily = TextMeasurer.shared.catalog.family(named: Importer.substituteFamily) ?? "DejaVu Sans"
        c.tolerance = tolerance
        c.severities = try severities()
        (c.record, c.compare, c.pictures) = (record, compare, pictures)
        if compare != nil {
            c.changes = changes ?? output.map { ($0 as NSString).deletingLastPathComponent }.flatMap { $0.isEmpty ? nil : $0 } ?? "layoutd-changes"
        }
        let files: [String]
        do throws(CheckFailure) { files = try DocumentFinder.documents(under: paths) } catch { throw Self.fail(error.description) }
        let summary = CheckRun.run(files, c, jobs: jobs, progress: Progress.onTerminal(total: files.count))
        let report = ReportFormat(rawValue: format)!.render(summary)
        if let output {
            do throws(CheckFailure) { try Files.write(Array(report.utf8), to: output) } catch { throw Self.fail(error.description) }
        } else {
            FileHandle.standardOutput.write(Data(report.utf8))
        }
        if !summary.failures.isEmpty { throw Self.fail(summary.failures.joined(separator: "\n")) }
        if summary.errors > 0 { throw ExitCode.failure }
    }

    /// An I/O error: said on standard error, status 2.
    static func fail(_ message: String) -> ExitCode {
        FileHandle.standardError.write(Data("layoutd check: \(message)\n".utf8))
        return ExitCode(usageError)
    }

    func landscapes() throws -> [Bool] {
        try orientations.map { o in
            guard o == "portrait" || o == "landscape" else { throw ValidationError("--orientation is portrait or landscape, not \(o)") }
            return o == "landscape"
        }
    }

    /// `320x568` as (320, 568).
    func pointSizes() throws -> [(Double, Double)] {
        try sizes.map { s in
            let parts = s.lowercased().split(separator: "x", omittingEmptySubsequences: false)
            guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w <= 100_000, h <= 100_000 else {
                throw ValidationError("--size is WxH in points, such as 320x568, not \(s)")
            }
            return (w, h)
        }
    }

    func severities() throws -> Severities {
        var s = Severities.standard
        for (lists, severity) in [(errorKinds, Finding.Severity.error), (warningKinds, .warning)] as [([String], Finding.Severity?)] + [
            (ignoredKinds, nil)
        ] {
            for name in lists.flatMap({ $0.split(separator: ",") }) {
                let trimmed = name.trimmingCharacters(in: .whitespaces)
                guard let kind = Finding.Kind(rawValue: trimmed) else {
                    throw ValidationError("unknown finding kind \(trimmed): \(Finding.Kind.allCases.map(\.rawValue).joined(separator: ", "))")
                }
                s[kind] = severity
            }
        }
        return s
    }
}
