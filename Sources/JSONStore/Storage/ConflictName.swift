/// The names other sync tools give the copy they keep when two machines changed one file,
/// read back as the item they belong to and where they came from.
///
/// - jsonstore's mirror: `tea.jsonstore-conflict-20261201-120000-laptop.json`
/// - Syncthing: `tea.sync-conflict-20261201-120000-ABCDEF7.json`
/// - Dropbox: `tea (conflicted copy 2026-12-01).json`, `tea (Ann's conflicted copy
///   2026-12-01).json`
/// - Nextcloud and ownCloud: `tea (conflicted copy 2026-12-01 120000).json`, and
///   ownCloud's older `tea_conflict-20261201-120000.json`
/// - a merge's backup (git mergetool, patch): `tea.json.orig`
///
/// Such a file is a conflict of its item, never an item of its own.
enum ConflictName {
    /// What a mirror's kept version has between the id and the time.
    static let mirrorMark = ".jsonstore-conflict-"

    /// The item `name` is a conflict copy of, and where the copy came from; `nil` when
    /// `name` is not a conflict copy of a valid id.
    static func parse(_ name: String) -> (id: String, origin: String)? {
        guard let (id, origin) = recognize(name), ItemID.problem(with: id) == nil else {
            return nil
        }
        return (id, origin)
    }

    private static func recognize(_ name: String) -> (String, String)? {
        if name.hasSuffix(".json.orig") {
            return (String(name.dropLast(10)), "a merge's backup")
        }
        guard name.hasSuffix(".json") else { return nil }
        let stem = name.dropLast(5)
        // `<id><mark><YYYYMMDD>-<HHMMSS>-<where>`: the mirror's own, and Syncthing's.
        for (mark, origin) in [
            (Self.mirrorMark, { "the mirror on \($0) at \($1) UTC" }),
            (".sync-conflict-", { "Syncthing device \($0) at \($1)" }),
        ] as [(String, (Substring, String) -> String)] {
            guard let range = stem.lastRange(of: mark) else { continue }
            let rest = stem[range.upperBound...].split(separator: "-", maxSplits: 2)
            guard rest.count == 3, isDigits(rest[0], 8), isDigits(rest[1], 6) else { return nil }
            return (String(stem[..<range.lowerBound]), origin(rest[2], timestamp(rest[0], rest[1])))
        }
        if let range = stem.lastRange(of: "_conflict-") {
            let rest = stem[range.upperBound...].split(separator: "-")
            guard rest.count == 2, isDigits(rest[0], 8), isDigits(rest[1], 6) else { return nil }
            return (String(stem[..<range.lowerBound]), "ownCloud at \(timestamp(rest[0], rest[1]))")
        }
        return bracketed(stem)
    }

    /// `ID (… conflicted copy DATE[ TIME])` with perhaps a ` (2)` after it.
    private static func bracketed(_ stem: Substring) -> (String, String)? {
        var stem = stem
        if stem.hasSuffix(")"), let open = stem.lastRange(of: " ("),
            isDigits(stem[open.upperBound..<stem.index(before: stem.endIndex)], nil),
            stem[..<open.lowerBound].hasSuffix(")")
        {
            stem = stem[..<open.lowerBound]  // Dropbox's second copy of the same day
        }
        guard stem.hasSuffix(")"), let open = stem.lastRange(of: " (") else {
            return nil
        }
        let inner = stem[open.upperBound..<stem.index(before: stem.endIndex)]
        guard let copy = inner.firstRange(of: "conflicted copy ") else { return nil }
        let id = String(stem[..<open.lowerBound])
        let when = inner[copy.upperBound...].split(separator: " ")
        guard let date = when.first, date.count == 10 else { return nil }
        let by = inner[..<copy.lowerBound].trimmingSuffix(" ").trimmingSuffix("'s")
        if when.count == 2, isDigits(when[1], 6) {
            let time = when[1]
            let clock = "\(time.prefix(2)):\(time.dropFirst(2).prefix(2)):\(time.suffix(2))"
            return (id, "Nextcloud or ownCloud at \(date) \(clock)")
        }
        return (id, by.isEmpty ? "Dropbox on \(date)" : "Dropbox (\(by)) on \(date)")
    }

    private static func isDigits(_ text: Substring, _ count: Int?) -> Bool {
        !text.isEmpty && (count == nil || text.utf8.count == count)
            && text.utf8.allSatisfy { (0x30...0x39).contains($0) }
    }

    /// `20261201`, `120000` as `2026-12-01 12:00:00`.
    static func timestamp(_ date: Substring, _ time: Substring) -> String {
        let d = Array(date)
        let t = Array(time)
        return "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8])) "
            + "\(String(t[0..<2])):\(String(t[2..<4])):\(String(t[4..<6]))"
    }
}

extension Substring {
    /// The last place `needle` occurs.
    fileprivate func lastRange(of needle: String) -> Range<Index>? {
        var found: Range<Index>?
        var rest = self
        while let range = rest.firstRange(of: needle) {
            found = range
            rest = self[index(after: range.lowerBound)...]
        }
        return found
    }

    fileprivate func trimmingSuffix(_ suffix: String) -> Substring {
        hasSuffix(suffix) ? dropLast(suffix.count) : self
    }
}
