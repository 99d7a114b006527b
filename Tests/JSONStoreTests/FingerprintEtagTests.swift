import TestSupport
import Testing

@testable import JSONStore

@Suite("A fingerprint's etag read from a journal line's bytes")
struct FingerprintEtagTests {
    static func inPlace(_ text: String) -> Fingerprint? {
        Array(text.utf8).withUnsafeBufferPointer { Fingerprint(etagBytes: $0) }
    }

    @Test("every etag written reads back as the string reader reads it")
    func written() {
        var random = SeededRandom(seed: 28)
        var fingerprints = [
            Fingerprint(size: 0, hash: 0), Fingerprint(size: 1, hash: .max),
            Fingerprint(size: 999_999_999_999_999_999, hash: 0xF),
        ]
        for _ in 0..<2_000 {
            let size = Int.random(
                in: 0...(1 << Int.random(in: 0...40, using: &random)), using: &random)
            let hash =
                UInt64.random(in: 0...UInt64.max, using: &random)
                >> UInt64.random(in: 0...63, using: &random)
            fingerprints.append(Fingerprint(size: size, hash: hash))
        }
        for fingerprint in fingerprints {
            #expect(Self.inPlace(fingerprint.etag) == fingerprint, "\(fingerprint.etag)")
            #expect(Self.inPlace(fingerprint.etag) == Fingerprint(etag: fingerprint.etag))
        }
    }

    @Test("anything else reads as the string reader reads it")
    func otherwise() {
        let texts = [
            "", "-", "5", "5-", "-a", "5--a", "+5-a", "5-A", "5-g", "5-a-b", " 5-a", "5-a ",
            "0005-00a", "5-ffffffffffffffff", "5-1ffffffffffffffff", "12345678901234567890-a",
            "1234567890123456789-a", "123456789012345678-a", "5-+a", "٣-a",
        ]
        for text in texts {
            #expect(Self.inPlace(text) == Fingerprint(etag: text), "\(text)")
        }
        #expect(Self.inPlace("5-a") == Fingerprint(size: 5, hash: 10))
        #expect(Self.inPlace("5-A") == Fingerprint(size: 5, hash: 10))
        #expect(Self.inPlace("5-g") == nil)
    }
}
