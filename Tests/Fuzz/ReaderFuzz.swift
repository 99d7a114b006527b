// libFuzzer target for the JSON reader, built with the library's sources by scripts/fuzz
// (swiftc -sanitize=fuzzer,address). Not part of the package build.
//
// Properties: a valid input reads back to the same value through both writers, and the
// reader reads what the writers write; an invalid input gives an error whose offset,
// line and column lie inside the input. Anything else is a crash the fuzzer reports.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReader(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let bytes = UnsafeBufferPointer(start: data, count: size)
    do {
        let value = try JSONReader(maxDepth: 64, maxSize: 1 << 20).read(bytes)
        let loose = JSONReader(maxDepth: 64, maxSize: .max)
        for written in [
            JSONWriter.compact(value), JSONWriter.pretty(value),
            JSONWriter.compact(value, escapingUnicodeLineBreaks: true),
        ] {
            guard let again = try? loose.read(written) else {
                fatalError(
                    "the writer's output does not read back: \(String(decoding: written, as: UTF8.self))"
                )
            }
            precondition(again == value, "round trip changed the value")
        }
    } catch {
        precondition(
            error.offset >= 0 && error.offset <= size, "offset \(error.offset) outside \(size)")
        let newlines = bytes.prefix(error.offset).count { $0 == 0x0A }
        precondition(error.line == newlines + 1, "line \(error.line), expected \(newlines + 1)")
        precondition(
            error.column >= 1 && error.column <= error.offset + 1, "column \(error.column)")
        precondition(!error.reason.isEmpty)
        precondition(
            !error.reason.unicodeScalars.contains { $0.value < 0x20 },
            "raw control character in the reason")
    }
    return 0
}
