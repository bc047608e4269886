// swift-tools-version:6.0
import PackageDescription

// The architecture, one way: ConstraintSolver → LayoutModel → LayoutServer → layoutd.
let package = Package(
    name: "layoutd",
    platforms: [.macOS(.v14)],
    products: [
        .executable(name: "layoutd-bench", targets: ["layoutd-bench"]),
    ],
    dependencies: [
        .package(url: "https://github.com/apple/swift-argument-parser", from: "1.5.0"),
        .package(url: "https://github.com/apple/swift-log", from: "1.6.0"),
        .package(url: "https://github.com/apple/swift-metrics", from: "2.5.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.0.0"),
    ],
    targets: [
        // The product's core: an incremental Cassowary solver. Knows nothing of views.
        .target(name: "ConstraintSolver"),
        // A small JSON value, parser and writer shared by the layers above.
        .target(name: "JSON"),
        // Views, anchors, VFL, expressions, transactional changes and diagnostics. Knows the engine, not HTTP.
        .target(name: "LayoutModel", dependencies: ["ConstraintSolver", "JSON"]),
        .executableTarget(
            name: "layoutd-bench",
            dependencies: ["ConstraintSolver", "JSON"],
            swiftSettings: [.unsafeFlags(["-Ounchecked"])]
        ),
        .testTarget(name: "ConstraintSolverTests", dependencies: ["ConstraintSolver"]),
        .testTarget(name: "LayoutModelTests", dependencies: ["LayoutModel", "JSON"]),
    ]
)
