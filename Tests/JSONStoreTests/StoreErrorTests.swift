import Testing

@testable import JSONStore

/// `StoreError` is a value: two errors are equal when they say the same thing, so tests
/// and callers compare errors, not their descriptions.
@Suite("Store errors")
struct StoreErrorTests {
    @Test("equal when code, message, file, id, line and column are; the cause is not compared")
    func equality() {
        let error = StoreError(
            code: .invalidJSON, message: "trailing comma", file: "data/tea.json", id: "tea",
            line: 2, column: 17, underlying: Errno.noSuchFile)
        var same = error
        same.underlying = nil
        #expect(error == same)
        for other in [
            StoreError(code: .invalidItem, message: "trailing comma", file: "data/tea.json"),
            {
                var e = error
                e.message = "another"
                return e
            }(),
            {
                var e = error
                e.file = "data/bike.json"
                return e
            }(),
            {
                var e = error
                e.id = nil
                return e
            }(),
            {
                var e = error
                e.line = 3
                return e
            }(),
            {
                var e = error
                e.column = nil
                return e
            }(),
        ] {
            #expect(error != other, "\(other)")
        }
    }
}
