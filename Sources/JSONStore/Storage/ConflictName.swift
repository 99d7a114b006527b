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
///
/// A listing takes a plain item file's name by its bytes (`EntryName.plainItemID`, which
/// looks for `conflict` in it with `mayBeStem`); every other name passes through here
/// (twice: as a name and as an id), so an ordinary name is turned away by `mayName`, one
/// pass over its bytes that allocates nothing. Only a name that ends in `.json.orig`, or
/// in `.json` with `conflict` in it, is read further: by its bytes when it is ASCII, by
/// its characters otherwise, so a mark that a combining character or a prepended one
/// joins to its neighbour is no mark, as `String` comparison has it.
enum ConflictName {
    /// What a mirror's kept version has between the id and the time.
    static let mirrorMark = ".jsonstore-conflict-"

    /// The item `name` is a conflict copy of, and where the copy came from; `nil` when
    /// `name` is not a conflict copy of a valid id.
    static func parse(_ name: String) -> (id: String, origin: String)? {
        read(name).map { ($0.id, $0.origin) }
    }

    /// As `parse`, and whether the copy is jsonstore's mirror's (its mark), which always
    /// holds this directory's own edit.
    static func read(_ name: String) -> (id: String, origin: String, isMirrors: Bool)? {
        guard mayName(name.utf8), let (id, origin, isMirrors) = recognize(name),
            ItemID.problem(with: id) == nil
        else {
            return nil
        }
        return (id, origin, isMirrors)
    }

    /// Whether `name` could be a conflict copy's name: it ends in `.json.orig`, or in
    /// `.json` with `conflict` before it. `false` means `parse` gives `nil`.
    static func mayName(_ name: String.UTF8View) -> Bool {
        let mark: StaticString = ".json.orig"
        let orig = UnsafeBufferPointer(start: mark.utf8Start, count: mark.utf8CodeUnitCount)
        if name.suffix(10).elementsEqual(orig) { return true }
        guard name.suffix(5).elementsEqual(orig.prefix(5)) else { return false }
        return mayBeStem(name.dropLast(5))
    }

    /// Whether `stem` (a name without its `.json`, or an id) has `conflict` in it: the word
    /// every tool's mark but a merge's backup holds. One pass, nothing allocated.
    static func mayBeStem(_ stem: some Collection<UInt8>) -> Bool {
        stem.withContiguousStorageIfAvailable { scan($0) } ?? scan(stem)
    }

    private static func scan(_ stem: some Collection<UInt8>) -> Bool {
        let word: StaticString = "conflict"
        var matched = 0
        var index = stem.startIndex
        while index != stem.endIndex {
            let byte = stem[index]
            stem.formIndex(after: &index)
            if byte == word.utf8Start[matched] {
                matched += 1
                if matched == word.utf8CodeUnitCount { return true }
            } else {
                // `conflict` has no proper prefix that is also its suffix: restart, or at
                // its first byte.
                matched = byte == word.utf8Start[0] ? 1 : 0
            }
        }
        return false
    }

    /// `mayName` said perhaps: the name read by its units.
    private static func recognize(_ name: String) -> (String, String, Bool)? {
        if name.utf8.allSatisfy({ $0 < 0x80 }) {
            let bytes = Units(
                units: Array(name.utf8), unit: { $0 }, text: { String(decoding: $0, as: UTF8.self) }
            )
            return bytes.recognize()
        }
        let characters = Units(
            units: Array(name), unit: { Character(Unicode.Scalar($0)) }, text: { String($0) })
        return characters.recognize()
    }
}

extension ConflictName {
    /// A name as units that compare as the name's characters do: its bytes when it is ASCII
    /// (where a byte is a character), its `Character`s otherwise. Each step is the one
    /// `String` would take on the name, so both kinds of name are read alike.
    private struct Units<Unit: Equatable> {
        typealias Slice = ArraySlice<Unit>
        let units: [Unit]
        /// The unit of an ASCII byte.
        let unit: (UInt8) -> Unit
        let text: (Slice) -> String

        func recognize() -> (String, String, Bool)? {
            let name = units[...]
            if ends(name, ".json.orig") {
                return (text(name.dropLast(10)), "a merge's backup", false)
            }
            guard ends(name, ".json") else { return nil }
            let stem = name.dropLast(5)
            // `<id><mark><YYYYMMDD>-<HHMMSS>-<where>`: the mirror's own, and Syncthing's.
            for (mark, origin) in [
                (ConflictName.mirrorMark, { "the mirror on \($0) at \($1) UTC" }),
                (".sync-conflict-", { "Syncthing device \($0) at \($1)" }),
            ] as [(String, (String, String) -> String)] {
                guard let range = lastRange(of: mark, in: stem) else { continue }
                let rest = stem[range.upperBound...].split(separator: unit(0x2D), maxSplits: 2)
                guard rest.count == 3, isDigits(rest[0], 8), isDigits(rest[1], 6) else {
                    return nil
                }
                return (
                    text(stem[..<range.lowerBound]),
                    origin(text(rest[2]), timestamp(rest[0], rest[1])),
                    mark == ConflictName.mirrorMark
                )
            }
            if let range = lastRange(of: "_conflict-", in: stem) {
                let rest = stem[range.upperBound...].split(separator: unit(0x2D))
                guard rest.count == 2, isDigits(rest[0], 8), isDigits(rest[1], 6) else {
                    return nil
                }
                return (
                    text(stem[..<range.lowerBound]),
                    "ownCloud at \(timestamp(rest[0], rest[1]))", false
                )
            }
            return bracketed(stem).map { ($0.0, $0.1, false) }
        }

        /// `ID (… conflicted copy DATE[ TIME])` with perhaps a ` (2)` after it.
        private func bracketed(_ stem: Slice) -> (String, String)? {
            var stem = stem
            if ends(stem, ")"), let open = lastRange(of: " (", in: stem),
                isDigits(stem[open.upperBound..<stem.endIndex - 1], nil),
                ends(stem[..<open.lowerBound], ")")
            {
                stem = stem[..<open.lowerBound]  // Dropbox's second copy of the same day
            }
            guard ends(stem, ")"), let open = lastRange(of: " (", in: stem) else { return nil }
            let inner = stem[open.upperBound..<stem.endIndex - 1]
            guard let copy = firstRange(of: "conflicted copy ", in: inner) else { return nil }
            let id = text(stem[..<open.lowerBound])
            let when = inner[copy.upperBound...].split(separator: unit(0x20))
            guard let date = when.first, date.count == 10 else { return nil }
            let by = trimmingSuffix(trimmingSuffix(inner[..<copy.lowerBound], " "), "'s")
            if when.count == 2, isDigits(when[1], 6) {
                let time = when[1]
                let clock = "\(part(time, 0, 2)):\(part(time, 2, 2)):\(part(time, 4, 2))"
                return (id, "Nextcloud or ownCloud at \(text(date)) \(clock)")
            }
            return (
                id,
                by.isEmpty ? "Dropbox on \(text(date))" : "Dropbox (\(text(by))) on \(text(date))"
            )
        }

        /// The units of an ASCII `needle`.
        private func units(_ needle: String) -> [Unit] { needle.utf8.map(unit) }

        private func ends(_ slice: Slice, _ suffix: String) -> Bool {
            let suffix = units(suffix)
            return slice.count >= suffix.count && slice.suffix(suffix.count).elementsEqual(suffix)
        }

        private func trimmingSuffix(_ slice: Slice, _ suffix: String) -> Slice {
            ends(slice, suffix) ? slice.dropLast(suffix.utf8.count) : slice
        }

        /// Where `needle` starts at `start`, if it does.
        private func match(_ needle: [Unit], in slice: Slice, at start: Int) -> Range<Int>? {
            let end = start + needle.count
            guard end <= slice.endIndex, slice[start..<end].elementsEqual(needle) else {
                return nil
            }
            return start..<end
        }

        private func firstRange(of needle: String, in slice: Slice) -> Range<Int>? {
            let needle = units(needle)
            for start in slice.indices {
                if let range = match(needle, in: slice, at: start) { return range }
            }
            return nil
        }

        /// The last place `needle` occurs.
        private func lastRange(of needle: String, in slice: Slice) -> Range<Int>? {
            let needle = units(needle)
            for start in slice.indices.reversed() {
                if let range = match(needle, in: slice, at: start) { return range }
            }
            return nil
        }

        /// Digits only (`count` of them, when given): ASCII digits, each a unit of its own.
        private func isDigits(_ slice: Slice, _ count: Int?) -> Bool {
            let digits = (0x30...0x39).map(unit)
            return !slice.isEmpty && (count == nil || slice.count == count)
                && slice.allSatisfy { digits.contains($0) }
        }

        /// `20261201`, `120000` as `2026-12-01 12:00:00`.
        private func timestamp(_ date: Slice, _ time: Slice) -> String {
            "\(part(date, 0, 4))-\(part(date, 4, 2))-\(part(date, 6, 2)) "
                + "\(part(time, 0, 2)):\(part(time, 2, 2)):\(part(time, 4, 2))"
        }

        private func part(_ slice: Slice, _ from: Int, _ length: Int) -> String {
            text(slice.dropFirst(from).prefix(length))
        }
    }
}
