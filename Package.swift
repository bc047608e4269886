// swift-tools-version:6.0
import PackageDescription

// The architecture, one way: ConstraintSolver → LayoutModel → LayoutServer → layoutd, with
// HTTPTransport beside the model (LayoutServer stands on both) and storage and text rooms of their own.
let package = Package(
    name: "layoutd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "layoutd", targets: ["layoutd"]),
        .executable(name: "layoutd-bench", targets: ["layoutd-bench"])
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", exact: "1.8.2"),
        .package(url: "https://github.com/apple/swift-log", exact: "1.16.2"),
        .package(url: "https://github.com/swift-server/swift-prometheus", exact: "2.4.1")
    ],
    targets: [
        // Floating values into integers, checked: the one conversion every target uses, and the
        // unchecked `Int(x)` of a Double turned into a build error (see the loop at the end).
        .target(name: "CheckedNumbers"),
        // A request's deadline and cancel, the thread's: asked by every loop where work can explode.
        .target(name: "WorkBudget"),
        // The product's core: an incremental Cassowary solver. Knows nothing of views.
        // Dynamic exclusivity checks cost ~8% of a build in its inner loops (perf); the solver's
        // accesses are local and simple, so release builds skip them (debug builds and tests keep them).
        .target(
            name: "ConstraintSolver", dependencies: ["WorkBudget"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // A small JSON value, parser and writer shared by the layers above.
        .target(name: "JSON"),
        // Text set as labels set it: fonts found by fontconfig, shaped by HarfBuzz, lines broken
        // at ICU's UAX #14 opportunities, never inside a grapheme cluster (Debian: libfontconfig-dev,
        // libharfbuzz-dev, libicu-dev).
        // Knows nothing of views.
        .systemLibrary(name: "CHarfBuzz", pkgConfig: "harfbuzz", providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFontconfig", pkgConfig: "fontconfig", providers: [.apt(["libfontconfig-dev"])]),
        // ICU's break iterators behind a C file of ours: its headers clash with Foundation's own
        // ICU copy's in any module that sees both, so only plain C types reach Swift.
        .target(name: "CICUBreaks", linkerSettings: [.linkedLibrary("icuuc"), .linkedLibrary("icudata")]),
        .target(name: "TextLayout", dependencies: ["CHarfBuzz", "CFontconfig", "CICUBreaks", "WorkBudget"]),
        // Views, anchors, VFL, expressions, transactional changes and diagnostics. Knows the engine, not HTTP.
        // Its per-change path reads the session's stored properties many times: release builds
        // skip the dynamic exclusivity checks there too (4-5% of a set-constant's handler, measured
        // side by side; debug builds and tests keep them).
        .target(
            name: "LayoutModel", dependencies: ["ConstraintSolver", "JSON", "TextLayout", "WorkBudget"],
            swiftSettings: [.unsafeFlags(["-enforce-exclusivity=unchecked"], .when(configuration: .release))]),
        // Interface Builder documents into layoutd documents: libxml2 reads the XML (Debian:
        // libxml2-dev), the importer supplies UIKit's conventions. Knows the document format, not HTTP.
        .systemLibrary(name: "CLibXML2", pkgConfig: "libxml-2.0", providers: [.apt(["libxml2-dev"])]),
        .target(name: "InterfaceBuilder", dependencies: ["CLibXML2", "JSON", "WorkBudget"]),
        // libmicrohttpd and zlib from the system (Debian: libmicrohttpd-dev, zlib1g-dev).
        .systemLibrary(name: "CMicroHTTPD", pkgConfig: "libmicrohttpd", providers: [.apt(["libmicrohttpd-dev"])]),
        .systemLibrary(name: "CZlib", pkgConfig: "zlib", providers: [.apt(["zlib1g-dev"])]),
        // GnuTLS from the system (Debian: libgnutls28-dev, a dependency of libmicrohttpd-dev), for
        // the WebSocket handshake's SHA-1: swift-crypto compiled BoringSSL for that one hash.
        .systemLibrary(name: "CGnuTLS", pkgConfig: "gnutls", providers: [.apt(["libgnutls28-dev"])]),
        // SQLite from the system (Debian: libsqlite3-dev), for the session store.
        .systemLibrary(name: "CSQLite", pkgConfig: "sqlite3", providers: [.apt(["libsqlite3-dev"])]),
        // Where sessions outlive the process: snapshots and journals in SQLite, written by one
        // group-committing thread. Knows bytes and JSON, not documents.
        // PostgreSQL's client library from the system (Debian: libpq-dev), for the shared store of replicas.
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "SessionStorage", dependencies: ["CSQLite", "CPostgres", "CZlib", "JSON"]),
        // epoll/eventfd from libc, for the stream reactors.
        .systemLibrary(name: "CEpoll"),
        // mallinfo2 from glibc, for the memory budget.
        .systemLibrary(name: "CMalloc"),
        // Pictures of layouts: SVG written here (labels as the glyph outlines they were measured
        // with), PNG rasterized by librsvg on cairo.
        .systemLibrary(name: "CRsvg", pkgConfig: "librsvg-2.0", providers: [.apt(["librsvg2-dev"])]),
        .target(name: "Rendering", dependencies: ["CRsvg", "LayoutModel", "TextLayout", "WorkBudget"]),
        // Interface Builder documents checked: each root laid out, its findings placed in the XML
        // (the one path `POST /v1/ib/layout` and `layoutd check` take), snapshots, pictures and
        // reports. Knows documents, the model and pictures, not HTTP.
        .target(name: "IBCheck", dependencies: ["InterfaceBuilder", "LayoutModel", "Rendering", "JSON", "TextLayout"]),
        // HTTP on libmicrohttpd: the adapter, request, response, router, gzip/deflate, WebSocket
        // framing and handshake. Knows nothing of layout.
        .target(name: "HTTPTransport", dependencies: ["CMicroHTTPD", "CGnuTLS", "CZlib", "CEpoll"]),
        // The layout server on the transport: routes, sessions, metrics, WebSocket streams.
        // Knows the model, not the solver's insides.
        .target(
            name: "LayoutServer",
            dependencies: [
                "HTTPTransport", "LayoutModel", "InterfaceBuilder", "IBCheck", "JSON", "SessionStorage", "TextLayout", "Rendering", "CMalloc",
                "WorkBudget",
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Prometheus", package: "swift-prometheus")
            ],
            // The playground page and openapi.yaml (a link to the repository's), compiled into the
            // binary: no files to ship beside it, and one copy of each.
            resources: ["index.html", "playground.css", "app.js", "api.js", "canvas.js", "examples.js", "panels.js", "pointer.js", "sizes.js"]
                .map { .embedInCode("Playground/\($0)") } + [.embedInCode("openapi.yaml")]
        ),
        .executableTarget(
            name: "layoutd",
            dependencies: [
                "LayoutServer", "HTTPTransport", "LayoutModel", "IBCheck", "InterfaceBuilder",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
                .product(name: "Logging", package: "swift-log")
            ]
        ),
        // The engines alone on generated workloads, beside kiwi (BENCHMARKS.md §1).
        .executableTarget(
            name: "layoutd-bench",
            dependencies: ["ConstraintSolver", "JSON"],
            path: "Benchmarks/EngineBench",
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        // The middleware chain of a set-constant in-process: the Swift share of a request (BENCHMARKS.md).
        .executableTarget(name: "layoutd-handler-bench", dependencies: ["LayoutServer", "HTTPTransport"], path: "Benchmarks/HandlerBench"),
        // Whole documents in-process: parse, session build and the engine alone, side by side (BENCHMARKS.md).
        .executableTarget(
            name: "layoutd-document-bench", dependencies: ["JSON", "LayoutModel", "ConstraintSolver", "CMalloc"],
            path: "Benchmarks/DocumentBench"),
        // IB documents imported and laid out, beside Xcode's stored frames and the JSON path (BENCHMARKS.md).
        .executableTarget(
            name: "layoutd-ib-bench", dependencies: ["InterfaceBuilder", "JSON", "LayoutModel"], path: "Benchmarks/IBBench"),
        .executableTarget(name: "layoutd-xml-bench", dependencies: ["InterfaceBuilder"], path: "Benchmarks/XMLParsers"),
        // 64 concurrent drags over WebSocket streams against a running layoutd (BENCHMARKS.md).
        .executableTarget(name: "layoutd-drag-bench", dependencies: ["JSON", "LayoutModel", "CEpoll"], path: "Benchmarks/DragBench"),
        // The fuzz targets (make fuzz-targets); built plainly, a replayer of their corpora.
        .executableTarget(
            name: "layoutd-fuzz", dependencies: ["JSON", "LayoutModel", "LayoutServer", "HTTPTransport", "InterfaceBuilder", "TextLayout"],
            path: "Fuzz", exclude: ["Corpus", "Dictionaries", "lsan.supp", "make_ib_seeds.py", "make_json_seeds.py", "make_text_seeds.py"]),
        // What more than one test target uses (a seeded generator, raw deflate through zlib).
        .target(name: "TestSupport", dependencies: ["CZlib"], path: "Tests/TestSupport"),
        .testTarget(name: "ConstraintSolverTests", dependencies: ["ConstraintSolver", "TestSupport"]),
        .testTarget(name: "JSONTests", dependencies: ["JSON"]),
        .testTarget(name: "TextLayoutTests", dependencies: ["TextLayout"]),
        .testTarget(name: "SessionStorageTests", dependencies: ["SessionStorage", "JSON"]),
        .testTarget(name: "LayoutModelTests", dependencies: ["LayoutModel", "JSON", "TestSupport"]),
        .testTarget(name: "InterfaceBuilderTests", dependencies: ["InterfaceBuilder", "LayoutModel", "JSON"], exclude: ["Fixtures"]),
        .testTarget(name: "HTTPTransportTests", dependencies: ["HTTPTransport", "TestSupport"]),
        .testTarget(
            name: "LayoutServerTests",
            dependencies: ["LayoutServer", "HTTPTransport", "LayoutModel", "JSON", "CZlib", "SessionStorage", "TestSupport"])
    ]
)

// Boundaries the compiler checks: a file uses only the members of modules it imports itself
// (MemberImportVisibility), an existential says `any` (ExistentialAny), and an import is internal
// unless marked `public import`, so what a module exposes of another is written where it does.
// Every target but CheckedNumbers depends on it, and a deprecation is an error: with the module
// imported, `Int(x)` of a Double does not compile (Tests/lint/check_conversions.py checks the imports).
for target in package.targets where target.type != .system && target.name != "CICUBreaks" {
    target.swiftSettings =
        (target.swiftSettings ?? []) + ["MemberImportVisibility", "ExistentialAny", "InternalImportsByDefault"].map { .enableUpcomingFeature($0) }
        + [.unsafeFlags(["-Werror", "DeprecatedDeclaration"])]
    if target.name != "CheckedNumbers" { target.dependencies.append("CheckedNumbers") }
}
