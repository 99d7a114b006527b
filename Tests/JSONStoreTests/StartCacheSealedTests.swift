import Testing

@testable import JSONStore

/// Caches whose checksums are right but whose insides are wrong, as only a faulty writer
/// could make them: each refused as damage, with what is wrong, never trusted.
@Suite("The start cache's file, sealed but wrong inside")
struct StartCacheSealedTests {
    let here = StartCache.Directory(device: 2049, inode: 1_234_567)

    /// A cache's sections, to change one and seal them again.
    struct Parts {
        var header: [UInt8]
        var records: [UInt8]
        var names: [UInt8]
        var bytes: [UInt8]
        var count: Int

        /// The file these parts make, its trailer counting and checksumming them.
        var sealed: [UInt8] {
            func sum(_ bytes: [UInt8]) -> UInt64 {
                bytes.withUnsafeBytes { StartCache.SectionHash.of($0) }
            }
            var trailer: [UInt8] = []
            for field in [
                UInt64(header.count), UInt64(count), UInt64(names.count), UInt64(bytes.count),
                sum(header), sum(records), sum(names), sum(bytes),
            ] {
                trailer += withUnsafeBytes(of: field.littleEndian, Array.init)
            }
            trailer += withUnsafeBytes(of: Fingerprint(trailer).hash.littleEndian, Array.init)
            return header + records + names + bytes + trailer
        }
    }

    /// The parts of a well-formed cache of the ids `ids`, each item `{}`.
    func parts(_ ids: [String]) throws -> Parts {
        let entries = ids.map { id in
            StartCache.Entry(
                id: id,
                signature: FileSignature(device: 1, inode: 2, size: 2, modified: 3, changed: 4),
                fingerprint: Fingerprint(Array("{}".utf8)), bytes: ItemBytes(Array("{}".utf8)))
        }
        let header = StartCache.Header(directory: here, lookedAt: 7, stamp: nil)
        let file = try StartCache.encoded(header, entries)
        let trailer = file.suffix(StartCache.Layout.trailer).withUnsafeBytes { raw in
            (0..<4).map { Int(raw.little($0 * 8, as: UInt64.self)) }
        }
        let (records, count, namesCount, bytesCount) = (
            trailer[0], trailer[1], trailer[2], trailer[3]
        )
        let names = records + count * StartCache.Layout.record
        return Parts(
            header: Array(file[..<records]), records: Array(file[records..<names]),
            names: Array(file[names..<names + namesCount]),
            bytes: Array(file[(names + namesCount)...].prefix(bytesCount)), count: count)
    }

    func put<T: FixedWidthInteger>(_ value: T, at offset: Int, in bytes: inout [UInt8]) {
        bytes.withUnsafeMutableBytes { $0.putLittle(value, at: offset) }
    }

    @Test("each wrong inside is refused with its reason")
    func sealedDamage() throws {
        let good = try parts(["a", "b"])
        #expect(throws: Never.self) { try StartCache(decoding: good.sealed, for: here) }
        let second = StartCache.Layout.record
        var cases: [(String, String, Parts)] = []
        func wrong(_ what: String, _ reason: String, _ change: (inout Parts) -> Void) {
            var parts = good
            change(&parts)
            cases.append((what, reason, parts))
        }
        wrong("more entries counted than there are", "add up") { $0.count = 3 }
        wrong("a name at another offset", "not where") {
            put(UInt32(0), at: second + StartCache.Layout.nameOffset, in: &$0.records)
        }
        wrong("a name longer than the names", "not where") {
            put(UInt32(0x7FFF_FFFF), at: StartCache.Layout.nameCount, in: &$0.records)
        }
        wrong("a name running past the names", "not where") {
            put(UInt32(5), at: second + StartCache.Layout.nameCount, in: &$0.records)
        }
        wrong("an item beyond the bytes", "not where") {
            put(UInt32(9), at: second + StartCache.Layout.bytesCount, in: &$0.records)
        }
        wrong("an id that is not UTF-8", "not UTF-8") { $0.names[0] = 0xFF }
        wrong("entries out of order", "not in order") { $0.names = Array("ba".utf8) }
        wrong("an entry twice", "not in order") { $0.names = Array("aa".utf8) }
        wrong("names after the last entry's", "follow its last") { $0.names += [0x63] }
        wrong("bytes after the last entry's", "follow its last") { $0.bytes += [0x20] }
        wrong("a head of no known tag", "tagged") {
            put(UInt8(7), at: StartCache.Layout.headTag, in: &$0.records)
        }
        wrong("a head of no known kind", "no kind") {
            put(UInt8(2), at: StartCache.Layout.headTag, in: &$0.records)
            put(UInt8(9), at: StartCache.Layout.headKind, in: &$0.records)
        }
        wrong("a header with bytes after its fields", "follow its header") { $0.header += [0] }
        for (what, reason, parts) in cases {
            do {
                _ = try StartCache(decoding: parts.sealed, for: here)
                Issue.record("\(what): decoded")
            } catch {
                guard case .damaged(let why) = error else {
                    Issue.record("\(what): \(error)")
                    continue
                }
                #expect(why.contains(reason), "\(what): \(why)")
            }
        }
    }
}
