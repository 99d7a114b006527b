#if !FUZZING
    @testable import JSONStore
#endif

// The JSON reader's property, shared by the libFuzzer target (Tests/Fuzz/ReaderFuzz.swift,
// built by scripts/fuzz with the library's sources as one module, -D FUZZING) and by
// FuzzCorpusTests, which replays the checked-in corpus under swift test.
//
// A valid input reads back to the same value through both writers, and the reader reads
// what the writers write; an invalid input gives an error whose offset, line and column
// lie inside the input.

/// Checks the reader's properties on `bytes`.
///
/// - Throws: `PropertyFailure` saying which property failed.
func readerProperty(_ bytes: UnsafeBufferPointer<UInt8>) throws(PropertyFailure) {
    let value: JSONValue
    do {
        value = try JSONReader(maxDepth: 64, maxSize: 1 << 20).read(bytes)
    } catch {
        try require(
            error.offset >= 0 && error.offset <= bytes.count,
            "offset \(error.offset) outside \(bytes.count)")
        let newlines = bytes.prefix(error.offset).count { $0 == 0x0A }
        try require(error.line == newlines + 1, "line \(error.line), expected \(newlines + 1)")
        try require(
            error.column >= 1 && error.column <= error.offset + 1, "column \(error.column)")
        try require(!error.reason.isEmpty, "an empty reason")
        try require(
            !error.reason.unicodeScalars.contains { $0.value < 0x20 },
            "raw control character in the reason")
        return
    }
    let loose = JSONReader(maxDepth: 64, maxSize: .max)
    for written in [
        JSONWriter.compact(value), JSONWriter.pretty(value),
        JSONWriter.compact(value, escapingUnicodeLineBreaks: true),
    ] {
        guard let again = try? loose.read(written) else {
            throw PropertyFailure(
                "the writer's output does not read back: \(String(decoding: written, as: UTF8.self))"
            )
        }
        try require(again == value, "round trip changed the value")
    }
}
