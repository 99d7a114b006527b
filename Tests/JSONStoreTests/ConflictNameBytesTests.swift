import TestSupport
import Testing

@testable import JSONStore

/// `ConflictName` reads names by their bytes and turns an ordinary name away in one pass;
/// it must read every name as the recogniser before it did, which searched the name's
/// characters (`Reference`, kept here as it was).
@Suite("Conflict names read by their bytes")
struct ConflictNameBytesTests {
    @Test(
        "look-alikes, names just short of a mark, and non-ASCII read as before",
        arguments: [
            // Ordinary names, and names with `conflict` that are no copies.
            "tea.json", "item-000001.json", "conflict.json", "conflicts.json", "tea.json~",
            "a conflict.json", "tea (1).json", "tea (2) (1).json", "tea ().json",
            "conflicted copy.json", "tea (conflicted copy).json", ".tea.json.orig",
            "tea.json.orig", "a.json.orig", ".json.orig", "tea.json.orig.json", "tea.orig",
            "tea.JSON.orig", "tea.json.ORIG", "tea_conflict-20261201-120000.json.orig",
            // One character short of, or past, each mark and its fields.
            "tea.jsonstore-conflict-20261201-120000-.json",
            "tea.jsonstore-conflict-2026120-120000-laptop.json",
            "tea.jsonstore-conflict-20261201-12000-laptop.json",
            "tea.jsonstore-conflict-202612011-120000-laptop.json",
            "tea.jsonstore-conflict20261201-120000-laptop.json",
            "tea.jsonstore-conflict--20261201-120000-laptop.json",
            "tea.jsonstore-conflict-20261201--120000-laptop.json",
            "tea.jsonstore-conflict-20261201-120000-lap-top.json",
            "tea.jsonstore-conflict-20261201-120000-laptop.jso",
            ".jsonstore-conflict-20261201-120000-laptop.json",
            "tea.jsonstore-conflict-20261201-120000-a.jsonstore-conflict-20261201-120000-b.json",
            "tea.sync-conflict-20261201-120000-ABCDEF7.json",
            "tea.sync-conflict-2026120a-120000-ABCDEF7.json",
            "tea.sync-conflic-20261201-120000-ABCDEF7.json",
            "tea.sync-conflict-20261201-120000-ABCDEF7.sync-conflict-20261201-120000-X.json",
            "tea_conflict-20261201-120000.json", "tea_conflict-20261201-1200000.json",
            "tea_conflict-20261201-120000-1.json", "tea_conflict-20261201.json",
            "tea_conflict--20261201-120000.json", "_conflict-20261201-120000.json",
            "tea (conflicted copy 2026-12-01).json", "tea (conflicted copy 2026-12-1).json",
            "tea (conflicted copy 2026-12-001).json", "tea (conflicted cop 2026-12-01).json",
            "tea (conflicted copy  2026-12-01).json", "tea (conflicted copy 2026-12-01 ).json",
            "tea(conflicted copy 2026-12-01).json", "tea (conflicted copy 2026-12-01.json",
            "tea (conflicted copy 2026-12-01 120000).json",
            "tea (conflicted copy 2026-12-01 12000).json",
            "tea (conflicted copy 2026-12-01 120000 x).json",
            "tea (Ann's conflicted copy 2026-12-01).json",
            "tea (Ann's  conflicted copy 2026-12-01).json",
            "tea (Ann'sconflicted copy 2026-12-01).json",
            "tea (Ann's conflicted copy 2026-12-01) (1).json",
            "tea (Ann's conflicted copy 2026-12-01) (x).json",
            "tea (Ann's conflicted copy 2026-12-01)(1).json",
            "tea (conflicted copy 2026-12-01) (1) (2).json",
            " (conflicted copy 2026-12-01).json",
            "tea (a) (conflicted copy 2026-12-01).json",
            "tea (conflicted copy 2026-12-01) (conflicted copy 2026-12-02).json",
            // Non-ASCII ids, owners, fields; combining and prepended characters at a mark.
            "thé (conflicted copy 2026-12-01).json", "thé.json.orig",
            "茶_conflict-20261201-120000.json",
            "tea (Zoë's conflicted copy 2026-12-01).json",
            "tea (conflicted copy 2026-12-0é).json", "tea (conflicted copy 2026-12-0e\u{301}).json",
            "tea (conflicted copy \u{301}2026-12-01).json",
            "tea (conflicted copy 2026-12-01)\u{301}.json",
            "tea\u{600} (conflicted copy 2026-12-01).json",
            "tea.sync-conflict-\u{301}20261201-120000-ABCDEF7.json",
            "tea\u{600}.sync-conflict-20261201-120000-ABCDEF7.json",
            "tea.sync-conflict-20261201-120000-ABCDEF7\u{600}.json",
            "tea.sync-conflict-20261201-120000-Gerät.json",
            "tea.sync-conflict-2026120١-120000-ABCDEF7.json",
            "tea\u{600}_conflict-20261201-120000.json", "tea_conflict-20261201-120000\u{301}.json",
            "tea\u{600}.json.orig", "tea.json\u{301}.orig", "tea.json.orig\u{301}",
            "tea.jsonstore-conflict-20261201-120000-laptop.json\u{301}",
            "tea\r\n_conflict-20261201-120000.json", "🇫🇷_conflict-20261201-120000.json",
            "tea.jsonstore-conflict-20261201-120000-🇫🇷.json",
            // A copy of a copy, and a copy whose id is invalid.
            "tea.json.orig.json.orig", "tea_conflict-20261201-120000_conflict-20261201-120000.json",
            "a/b_conflict-20261201-120000.json", ".a_conflict-20261201-120000.json",
        ])
    func asBefore(name: String) {
        let now = ConflictName.parse(name)
        let before = Reference.parse(name)
        #expect(now?.id == before?.id)
        #expect(now?.origin == before?.origin)
        if before != nil { #expect(ConflictName.mayName(name.utf8)) }
    }

    @Test("a few of them, spelled out")
    func spelledOut() {
        #expect(
            ConflictName.parse("thé (Zoë's conflicted copy 2026-12-01).json")! == (
                "thé", "Dropbox (Zoë) on 2026-12-01"
            ))
        #expect(
            ConflictName.parse("tea (conflicted copy 2026-12-0é).json")! == (
                "tea", "Dropbox on 2026-12-0é"
            ))
        #expect(ConflictName.parse("tea.sync-conflict-\u{301}20261201-120000-A.json") == nil)
        #expect(ConflictName.parse("tea\u{600}.sync-conflict-20261201-120000-A.json") == nil)
        #expect(ConflictName.parse("tea.jsonstore-conflict-20261201-12000-laptop.json") == nil)
        #expect(ConflictName.parse("tea_conflict-20261201-12000.json") == nil)
        #expect(
            EntryName("tea_conflict-20261201-12000.json") == .item("tea_conflict-20261201-12000"))
        #expect(EntryName("a.json.orig") == .conflict(of: "a"))
        #expect(EntryName(".json.orig") == .ignored)
    }

    @Test("an ordinary name is turned away before it is read")
    func quickNo() {
        for name in [
            "tea.json", "item-000001.json", "tea (1).json", "conflic.json", "thé.json",
            "conflicted.jso", "tea.json.ori", "tea.orig", "", "conflict", "CONFLICT.json",
        ] {
            #expect(!ConflictName.mayName(name.utf8), "\(name)")
        }
        for name in ["conflict.json", "a.json.orig", "xconflictx.json", "cconflict.json"] {
            #expect(ConflictName.mayName(name.utf8), "\(name)")
        }
        #expect(ConflictName.mayBeStem("coconflict".utf8))
        #expect(!ConflictName.mayBeStem("conflic t".utf8))
    }

    @Test("names made of the marks' pieces at random read as before")
    func random() {
        let pieces = [
            "tea", "a", "-", "--", " ", " (", ")", "(", "'s", "20261201", "120000", "2026-12-01",
            "1", "conflicted copy ", "conflict", ".sync-conflict-", ".jsonstore-conflict-",
            "_conflict-", ".json", ".orig", "é", "e\u{301}", "\u{301}", "\u{600}", "茶", "🇫🇷",
            ".", "/", "\n", ".sync-conflict-20261201-120000-", "_conflict-20261201-120000",
            " (conflicted copy 2026-12-01)", " (Ann's conflicted copy 2026-12-01 120000)", " (1)",
        ]
        var random = SeededRandom(seed: 25)
        var copies = 0
        for _ in 0..<20_000 {
            var name = ""
            for _ in 0..<(1 + Int(random.next() % 8)) {
                name += pieces[Int(random.next() % UInt64(pieces.count))]
            }
            if random.next() % 2 == 0 { name += random.next() % 3 == 0 ? ".json.orig" : ".json" }
            let now = ConflictName.parse(name)
            let before = Reference.parse(name)
            #expect(now?.id == before?.id, "\(name.debugDescription)")
            #expect(now?.origin == before?.origin, "\(name.debugDescription)")
            if before != nil { copies += 1 }
        }
        #expect(copies > 100, "so few copies among the names: \(copies)")
    }
}

/// The recogniser before names were read by their bytes (808ec3e), by `String`'s
/// characters: what `ConflictName` must agree with.
private enum Reference {
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
