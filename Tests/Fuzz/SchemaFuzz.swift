// libFuzzer target for the schema validator, built with the library's sources and
// Tests/JSONStoreTests/FuzzProperties by scripts/fuzz (swiftc -sanitize=fuzzer,address).
// Not part of the package build; FuzzCorpusTests replays its corpus under swift test.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzSchema(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try schemaProperty(UnsafeBufferPointer(start: data, count: size))
    } catch {
        fatalError(error.description)
    }
    return 0
}
