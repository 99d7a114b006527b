// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "jsonstore",
    products: [
        .library(name: "JSONStore", targets: ["JSONStore"]),
        .library(name: "JSONStoreEtcd", targets: ["JSONStoreEtcd"]),
        .executable(name: "jsonstore", targets: ["jsonstore"]),
    ],
    targets: [
        .target(name: "JSONStore"),
        // The etcd backend: etcd's v3 gRPC API over HTTP/2 (its JSON gateway over HTTP/1.1
        // the fallback) on sockets of its own, in a target of its own, so a program that
        // only uses directories never links it (the command links it, for --store etcd://…).
        .target(name: "JSONStoreEtcd", dependencies: ["JSONStore"]),
        // The command's logic and its terminal list view, as a library so tests and
        // benchmarks can drive the renderer against an in-memory screen.
        .target(name: "JSONStoreCommand", dependencies: ["JSONStore", "JSONStoreEtcd"]),
        .executableTarget(name: "jsonstore", dependencies: ["JSONStoreCommand"]),
        // Helpers shared by the test targets: temporary stores, helper processes.
        .target(name: "TestSupport", dependencies: ["JSONStore"], path: "Tests/TestSupport"),
        // A helper process for the integration tests: concurrent writers, writers killed
        // with SIGKILL, writers under resource limits. Not a product.
        .executableTarget(
            name: "jsonstore-test-worker",
            dependencies: ["JSONStore", "JSONStoreEtcd", "TestSupport"],
            path: "Tests/Worker"
        ),
        // The README's Swift blocks, each a program quoted there verbatim; jsonstoreTests
        // checks the quotes and runs the programs. Not products.
        .executableTarget(
            name: "readme-observe", dependencies: ["JSONStore"],
            path: "Tests/ReadmeExamples/Observe"),
        .executableTarget(
            name: "readme-basics", dependencies: ["JSONStore"], path: "Tests/ReadmeExamples/Basics"),
        .executableTarget(
            name: "readme-async", dependencies: ["JSONStore"], path: "Tests/ReadmeExamples/Async"),
        .executableTarget(
            name: "readme-groups", dependencies: ["JSONStore"], path: "Tests/ReadmeExamples/Groups"),
        // Benchmarks, run in a release build by scripts/bench. Not a product.
        .executableTarget(
            name: "jsonstore-bench",
            dependencies: ["JSONStore", "JSONStoreEtcd", "JSONStoreCommand", "TestSupport"],
            path: "Tests/Benchmarks"),
        .testTarget(name: "JSONStoreTests", dependencies: ["JSONStore", "TestSupport"]),
        // The etcd backend's pure parts (its wire formats), with no etcd to run.
        .testTarget(name: "JSONStoreEtcdUnitTests", dependencies: ["JSONStoreEtcd"]),
        .testTarget(
            name: "JSONStoreIntegrationTests",
            dependencies: [
                "JSONStore", "JSONStoreEtcd", "TestSupport", "jsonstore-test-worker", "jsonstore",
            ]
        ),
        // Runs the built `jsonstore` binary, and the renderer against an in-memory screen.
        .testTarget(
            name: "jsonstoreTests",
            dependencies: [
                "JSONStore", "JSONStoreCommand", "TestSupport", "jsonstore", "readme-observe",
                "readme-basics", "readme-async", "readme-groups",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
