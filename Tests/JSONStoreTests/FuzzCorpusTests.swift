import Foundation
import TestSupport
import Testing

@testable import JSONStore

/// What the fuzzers found stays found: every input of `Tests/FuzzCorpus/` replayed through
/// the fuzz targets' properties, and random reducer programs besides.
@Suite("The fuzz corpus, replayed")
struct FuzzCorpusTests {
    /// The inputs of the corpus of `target`, by file name.
    static func corpus(_ target: String) throws -> [(name: String, bytes: [UInt8])] {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzCorpus/\(target)")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        return try names.map { name in
            (name, Array(try Data(contentsOf: root.appendingPathComponent(name))))
        }
    }

    /// What `property` says of `bytes`: `nil` when every property holds.
    static func failure(
        _ bytes: [UInt8],
        _ property: (UnsafeBufferPointer<UInt8>) throws(PropertyFailure) -> Void
    ) -> String? {
        do {
            try bytes.withUnsafeBufferPointer { buffer throws(PropertyFailure) in
                try property(buffer)
            }
            return nil
        } catch {
            return error.description
        }
    }

    @Test(
        "every input of a fuzz target's corpus keeps the target's properties",
        arguments: ["reader", "reducer", "schema"])
    func corpus(target: String) throws {
        let inputs = try Self.corpus(target)
        #expect(!inputs.isEmpty)
        for input in inputs {
            let property =
                switch target {
                case "reader": readerProperty
                case "reducer": reducerProperty
                default: schemaProperty
                }
            let failure = Self.failure(input.bytes, property)
            #expect(failure == nil, "\(input.name): \(failure ?? "")")
        }
    }

    @Test("2,000 random reducer programs, as the fuzzer would start them")
    func randomReducerPrograms() {
        var random = SeededRandom(seed: 5)
        for run in 0..<2_000 {
            let program = (0..<Int.random(in: 0...300, using: &random)).map { _ in
                UInt8.random(in: 0...255, using: &random)
            }
            let failure = Self.failure(program, reducerProperty)
            #expect(failure == nil, "program \(run) \(program): \(failure ?? "")")
        }
    }
}
