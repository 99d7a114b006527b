import Foundation
import Testing

/// What the HTTP response fuzzer found stays found: every input of `Tests/FuzzCorpus/http`
/// replayed through its property (`httpResponseProperty`).
@Suite("The HTTP response fuzz corpus, replayed")
struct HTTPFuzzCorpusTests {
    @Test("every response of the corpus keeps the parser's properties")
    func corpus() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("FuzzCorpus/http")
        let names = try FileManager.default.contentsOfDirectory(atPath: root.path).sorted()
        #expect(names.count >= 10)
        for name in names {
            let bytes = Array(try Data(contentsOf: root.appendingPathComponent(name)))
            let failure = bytes.withUnsafeBufferPointer { httpResponseProperty($0) }
            #expect(failure == nil, "\(name): \(failure ?? "")")
        }
    }
}
