#if canImport(Glibc)
    import Glibc
#endif
import Foundation

// layoutd-fuzz: the fuzz targets of `Targets.swift` (`http` in `HTTPCheck.swift`, `text` in
// `TextCheck.swift`).
//
// Built for fuzzing (`make fuzz-targets`: coverage and AddressSanitizer, -DFUZZING) it is
// libFuzzer's driver: `LAYOUTD_FUZZ_TARGET=json .build-fuzz/release/layoutd-fuzz CORPUS…`.
// Built plainly it replays inputs through the same checks: `layoutd-fuzz TARGET PATH…`
// (files, or folders of them), which `make test` does with the seed corpora.

func complain(_ s: String) { FileHandle.standardError.write(Data(s.utf8)) }

#if FUZZING
    @_silgen_name("LLVMFuzzerRunDriver")
    func LLVMFuzzerRunDriver(
        _ argc: UnsafeMutablePointer<Int32>, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>>,
        _ callback: @convention(c) (UnsafePointer<UInt8>?, Int) -> Int32
    ) -> Int32

    nonisolated(unsafe) var chosen: Target = .json
    guard let name = ProcessInfo.processInfo.environment["LAYOUTD_FUZZ_TARGET"], let t = Target(rawValue: name) else {
        complain("LAYOUTD_FUZZ_TARGET is one of: \(Target.allCases.map(\.rawValue).joined(separator: ", "))\n")
        exit(2)
    }
    chosen = t
    var argc = CommandLine.argc
    var argv = CommandLine.unsafeArgv
    exit(
        LLVMFuzzerRunDriver(&argc, &argv) { data, size in
            chosen.run(size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size)))
            return 0
        })
#else
    let args = CommandLine.arguments.dropFirst()
    guard let name = args.first, let target = Target(rawValue: name) else {
        complain("usage: layoutd-fuzz TARGET PATH…  (TARGET: \(Target.allCases.map(\.rawValue).joined(separator: ", ")))\n")
        exit(2)
    }
    var files: [String] = []
    for path in args.dropFirst() {
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else { complain("no such path: \(path)\n"); exit(2) }
        if isDirectory.boolValue {
            files += (try FileManager.default.contentsOfDirectory(atPath: path)).sorted().map { path + "/" + $0 }
        } else {
            files.append(path)
        }
    }
    for f in files { target.run(Array(FileManager.default.contents(atPath: f) ?? Data())) }
    print("\(name): \(files.count) inputs replayed, every invariant held")
#endif
