// libFuzzer target for the live reducer, built with the library's sources and
// Tests/JSONStoreTests/FuzzProperties by scripts/fuzz (swiftc -sanitize=fuzzer,address).
// Not part of the package build; FuzzCorpusTests replays its corpus under swift test.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzReducer(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    do {
        try reducerProperty(UnsafeBufferPointer(start: data, count: size))
    } catch {
        fatalError(error.description)
    }
    return 0
}
