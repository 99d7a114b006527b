import Foundation
import Testing

@testable import JSONStore

/// The official JSON-Schema-Test-Suite's draft 2020-12 tests (`Tests/JSONSchemaTestSuite`,
/// pinned), run through `JSONSchema`: every required test passes, with the suite's
/// `remotes/` registered as the documents at `http://localhost:1234/`.
@Suite("JSON-Schema-Test-Suite, draft 2020-12")
struct JSONSchemaSuiteTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("JSONSchemaTestSuite")

    /// The required test files (not `optional/`), by name.
    static func requiredFiles() throws -> [String] {
        let folder = root.appendingPathComponent("tests/draft2020-12").path
        return try FileManager.default.contentsOfDirectory(atPath: folder)
            .filter { $0.hasSuffix(".json") }.sorted()
    }

    static func read(_ path: String) throws -> JSONValue {
        try JSONReader().read(Array(try Data(contentsOf: URL(fileURLWithPath: path))))
    }

    /// Every document of `remotes/`, registered at its URL on the suite's server.
    static let registry: SchemaRegistry = {
        var registry = SchemaRegistry()
        let remotes = root.appendingPathComponent("remotes")
        let paths = FileManager.default.enumerator(atPath: remotes.path)?.compactMap {
            $0 as? String
        }
        for path in paths ?? [] where path.hasSuffix(".json") {
            guard let document = try? read(remotes.appendingPathComponent(path).path) else {
                continue
            }
            try? registry.register(document, uri: "http://localhost:1234/" + path)
        }
        return registry
    }()

    /// What a test file's cases come to: each failure described.
    static func failures(in file: String, assertingFormat: Bool = false) throws -> (
        failures: [String], cases: Int
    ) {
        guard case .array(let groups) = try read(file) else { return (["not an array"], 0) }
        var failures: [String] = []
        var cases = 0
        for group in groups {
            let description = group["description"]?.stringValue ?? "?"
            guard let schemaValue = group["schema"], case .array(let tests)? = group["tests"] else {
                continue
            }
            let schema: JSONSchema
            do {
                schema = try JSONSchema(
                    schemaValue, registry: registry, assertingFormat: assertingFormat)
            } catch {
                cases += tests.count
                failures.append("\(description): the schema does not compile: \(error)")
                continue
            }
            for test in tests {
                cases += 1
                guard let data = test["data"], case .bool(let valid)? = test["valid"] else {
                    continue
                }
                let violations = schema.validate(data)
                if violations.isEmpty != valid || schema.isValid(data) != valid {
                    let said = violations.isEmpty ? "valid" : "invalid: \(violations)"
                    failures.append(
                        "\(description) / \(test["description"]?.stringValue ?? "?"): \(said)")
                }
            }
        }
        return (failures, cases)
    }

    @Test("every required test passes", arguments: try requiredFiles())
    func required(file: String) throws {
        let path = Self.root.appendingPathComponent("tests/draft2020-12/" + file).path
        let (failures, cases) = try Self.failures(in: path)
        #expect(cases > 0, "\(file) has no tests")
        let list = failures.joined(separator: "\n")
        #expect(failures.isEmpty, "\(file): \(failures.count) of \(cases) failed:\n\(list)")
    }

    /// The optional tests' score: `optional/` as the required ones run, `optional/format/`
    /// with `format` asserted. Not all of them can pass (scripts need a Unicode script
    /// table Swift does not give), so this holds the score to its floor: a change that
    /// breaks one that passed fails here. README and the closing note quote the figure.
    @Test("the optional tests score at least their recorded floor")
    func optional() throws {
        let folder = Self.root.appendingPathComponent("tests/draft2020-12/optional")
        var (passed, total) = (0, 0)
        var report: [String] = []
        for (subfolder, asserting) in [("", false), ("format/", true)] {
            let path = folder.appendingPathComponent(subfolder).path
            let files = try FileManager.default.contentsOfDirectory(atPath: path)
                .filter { $0.hasSuffix(".json") }.sorted()
            for file in files {
                let (failures, cases) = try Self.failures(
                    in: path + "/" + file, assertingFormat: asserting)
                passed += cases - failures.count
                total += cases
                report.append("\(subfolder)\(file): \(cases - failures.count)/\(cases)")
            }
        }
        let lines = report.joined(separator: "\n")
        print("JSON-Schema-Test-Suite draft2020-12 optional: \(passed)/\(total)\n\(lines)")
        #expect(passed >= Self.optionalFloor, "\(passed)/\(total)")
    }

    /// The optional tests passed when this was last raised.
    static let optionalFloor = 800
}
