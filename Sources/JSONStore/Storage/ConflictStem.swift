/// The name a version of an item is kept under when a mirror keeps a conflict
/// (`ID.jsonstore-conflict-TIME-HOST.json`), made to fit in a file name's 255 bytes.
///
/// An id of up to 200 bytes and a host name of up to 64 cannot both be kept whole: the
/// host is cut to `hostLimit` bytes, and an id too long for what remains is its start and
/// a tag of its bytes (`~` and 16 hex digits of its fingerprint). Such a name is read
/// back (`item(of:in:)`) as the conflict of the item whose id starts that way and has
/// that tag: still the item's, never an item of its own.
enum ConflictStem {
    /// The most bytes of a name the file systems jsonstore runs on take.
    static let nameLimit = 255
    /// The most bytes of the host's name kept in a conflict's name.
    static let hostLimit = 48
    /// Bytes kept free for a copy number (`.2`, `.10`) and `.json`.
    static let suffixRoom = 4 + 5

    /// The stem of the name a version of `id` from `host` (plain characters) at `stamp`
    /// is kept under: at most `nameLimit - suffixRoom` bytes.
    static func stem(id: String, host: String, stamp: String) -> String {
        let host = cut(host, to: hostLimit)
        let rest = ConflictName.mirrorMark + stamp + "-" + host
        let room = nameLimit - suffixRoom - rest.utf8.count
        guard id.utf8.count > room else { return id + rest }
        return cut(id, to: room - 17) + "~" + tag(of: id) + rest
    }

    /// 16 hex digits of `id`'s bytes.
    static func tag(of id: String) -> String {
        let hex = String(Fingerprint(Array(id.utf8)).hash, radix: 16)
        return String(repeating: "0", count: 16 - hex.utf8.count) + hex
    }

    /// The start and tag of an id shortened by `stem`, if `id` is one's form.
    static func shortened(_ id: String) -> (start: String, tag: String)? {
        let bytes = Array(id.utf8)
        guard bytes.count > 17, bytes[bytes.count - 17] == UInt8(ascii: "~") else { return nil }
        let tag = bytes[(bytes.count - 16)...]
        guard tag.allSatisfy({ (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
        else { return nil }
        return (
            String(decoding: bytes[..<(bytes.count - 17)], as: UTF8.self),
            String(decoding: tag, as: UTF8.self)
        )
    }

    /// The item of the directory `path` whose conflict's name holds `id`: `id` itself,
    /// or the item a shortened id stands for; `nil` when `id` is shortened and no item of
    /// the directory has that start and tag now.
    static func item(of id: String, in path: String) -> String? {
        guard let (start, tag) = shortened(id),
            FileStatus.of(atPath: join(path, id + ".json"), followingSymlinks: false) == nil
        else { return id }
        guard let dir = try? FileDescriptor.openDirectory(path) else { return nil }
        defer { dir.close() }
        var found: String?
        try? DirectoryScan.forEachName(in: dir) { raw in
            guard found == nil else { return }
            let name = String(cString: raw.baseAddress!)
            guard name.utf8.starts(with: start.utf8), name.hasSuffix(".json") else { return }
            let candidate = String(name.dropLast(5))
            if Self.tag(of: candidate) == tag { found = candidate }
        }
        return found
    }

    /// The first bytes of `text`, at most `limit`, cut between two code points.
    private static func cut(_ text: String, to limit: Int) -> String {
        guard text.utf8.count > limit else { return text }
        var kept = String.UnicodeScalarView()
        var count = 0
        for scalar in text.unicodeScalars {
            count += UTF8.width(scalar)
            guard count <= limit else { break }
            kept.append(scalar)
        }
        return String(kept)
    }
}
