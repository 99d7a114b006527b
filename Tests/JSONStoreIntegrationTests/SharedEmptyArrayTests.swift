import Dispatch
import Testing

@testable import JSONStore
@testable import JSONStoreEtcd

/// Empty results made while other threads read empty arrays. `Array(unsafeUninitializedCapacity:
/// 0)` writes its count into the one empty array every thread shares, a race that
/// ThreadSanitizer reported in CI between an empty base64 value and the journal's reader;
/// `.ci/run` runs this suite under ThreadSanitizer, where that write fails it.
@Suite("Empty values made beside readers of empty arrays")
struct SharedEmptyArrayTests {
    @Test("empty base64, empty containers and empty reads never write the shared empty array")
    func noWrite() throws {
        let reader = JSONReader()
        let empties = try reader.read(Array("{\"a\": [], \"b\": {}}".utf8))
        #expect(empties == ["a": [], "b": [:]])
        let readers = DispatchGroup()
        let rounds = 2_000
        DispatchQueue.global().async(group: readers) {
            var seen = 0
            for _ in 0..<rounds { seen += [UInt8]().withUnsafeBufferPointer { $0.count } }
            #expect(seen == 0)
        }
        for _ in 0..<rounds {
            #expect(Base64.decode("") == [])
            #expect((try? reader.read(Array("[]".utf8))) == [])
        }
        readers.wait()
    }
}
