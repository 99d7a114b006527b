import Testing

@testable import JSONStoreEtcd

/// Base64 as the JSON gateway carries keys and values (RFC 4648, padded).
@Suite("Base64")
struct Base64Tests {
    @Test("both ways over every length up to 40 and every byte value")
    func roundTrip() {
        // A fixed xorshift sequence: the same bytes every run.
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> UInt8 {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return UInt8(truncatingIfNeeded: state)
        }
        for length in 0...40 {
            let data = (0..<length).map { _ in next() }
            let encoded = Base64.encode(data)
            #expect(encoded.utf8.count == (length + 2) / 3 * 4)
            #expect(Base64.decode(encoded) == data)
        }
        let every = (0...255).map(UInt8.init)
        #expect(Base64.decode(Base64.encode(every)) == every)
        #expect(Base64.encode(Array("foo".utf8)) == "Zm9v")
        #expect(Base64.encode(Array("fo".utf8)) == "Zm8=")
        #expect(Base64.decode("not base64!") == nil)
    }
}
