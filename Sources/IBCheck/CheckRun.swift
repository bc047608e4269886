import Foundation

/// Every document checked, on `jobs` threads: each takes the next document until none is left
/// (one document's roots are laid out in turn, documents side by side).
public enum CheckRun {
    public static func run(_ files: [String], _ configuration: CheckConfiguration, jobs: Int, progress: Progress? = nil) -> CheckSummary {
        let check = DocumentCheck(configuration)
        let results = Results(count: files.count)
        let start = DispatchTime.now().uptimeNanoseconds
        DispatchQueue.concurrentPerform(iterations: max(1, min(jobs, files.count))) { _ in
            while let i = results.next() {
                progress?.started(files[i])
                results.set(i, check.run(file: files[i]))
                progress?.finished(files[i])
            }
        }
        progress?.clear()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return CheckSummary(documents: results.all(), seconds: seconds)
    }
}

/// What a check found, document by document in the order they were named.
public struct CheckSummary: Sendable {
    public var documents: [DocumentResult]
    public var seconds: Double

    public var findings: [Finding] { documents.flatMap(\.findings) }
    public var errors: Int { findings.count { $0.severity == .error } }
    public var warnings: Int { findings.count { $0.severity == .warning } }
    public var roots: Int { documents.reduce(0) { $0 + $1.roots } }
    public var layouts: Int { documents.reduce(0) { $0 + $1.layouts.count } }
    /// Files that could not be read or written.
    public var failures: [String] { documents.flatMap(\.failures) }
}

/// The documents' results as the threads hand them in, and the next document to take.
private final class Results: @unchecked Sendable {
    private let lock = NSLock()
    private var slots: [DocumentResult?]
    private var taken = 0

    init(count: Int) { slots = Array(repeating: nil, count: count) }

    func next() -> Int? {
        lock.withLock {
            guard taken < slots.count else { return nil }
            taken += 1
            return taken - 1
        }
    }

    func set(_ i: Int, _ r: DocumentResult) { lock.withLock { slots[i] = r } }
    func all() -> [DocumentResult] { lock.withLock { slots.compactMap { $0 } } }
}

/// A line on standard error that says how far a check is: written over in place on a
/// terminal, not at all otherwise (a CI log wants the report, not a counter).
public final class Progress: @unchecked Sendable {
    private let lock = NSLock()
    private let total: Int
    private var done = 0
    private var current: [String] = []

    /// A progress line when standard error is a terminal; nil otherwise.
    public static func onTerminal(total: Int) -> Progress? { isatty(2) == 1 ? Progress(total: total) : nil }

    init(total: Int) { self.total = total }

    func started(_ file: String) {
        lock.withLock {
            current.append(file)
            draw()
        }
    }

    func finished(_ file: String) {
        lock.withLock {
            done += 1
            current.removeAll { $0 == file }
            draw()
        }
    }

    func clear() { lock.withLock { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) } }

    private func draw() {
        let name = current.last.map { " " + ($0 as NSString).lastPathComponent } ?? ""
        FileHandle.standardError.write(Data("\r\u{1B}[K[\(done)/\(total)]\(name)".utf8))
    }
}
