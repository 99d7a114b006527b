// libFuzzer target for the HTTP response parser (JSONStoreEtcd's HTTPConnection), built with
// the library's sources, the parser's files and
// Tests/JSONStoreIntegrationTests/FuzzProperties by scripts/fuzz (swiftc
// -sanitize=fuzzer,address). Not part of the package build; HTTPFuzzCorpusTests replays
// its corpus under swift test.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzHTTPResponse(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    if let failure = httpResponseProperty(UnsafeBufferPointer(start: data, count: size)) {
        fatalError(failure)
    }
    return 0
}
