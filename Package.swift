// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "jsonstore",
    products: [
        .library(name: "JSONStore", targets: ["JSONStore"]),
        .executable(name: "jsonstore", targets: ["jsonstore"]),
    ],
    targets: [
        .target(name: "JSONStore"),
        .executableTarget(name: "jsonstore", dependencies: ["JSONStore"]),
        // Helpers shared by the test targets: temporary stores, helper processes.
        .target(name: "TestSupport", dependencies: ["JSONStore"], path: "Tests/TestSupport"),
        // A helper process for the integration tests: concurrent writers, writers killed
        // with SIGKILL, writers under resource limits. Not a product.
        .executableTarget(
            name: "jsonstore-test-worker",
            dependencies: ["JSONStore", "TestSupport"],
            path: "Tests/Worker"
        ),
        // Benchmarks, run in a release build by scripts/bench. Not a product.
        .executableTarget(name: "jsonstore-bench", dependencies: ["JSONStore"], path: "Tests/Benchmarks"),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "TestSupport"]),
        .testTarget(
            name: "JSONStoreIntegrationTests",
            dependencies: ["JSONStore", "TestSupport", "jsonstore-test-worker"]
        ),
    ],
    swiftLanguageModes: [.v6]
)
