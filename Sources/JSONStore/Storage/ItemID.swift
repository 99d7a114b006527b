/// The rules for item ids, which are file names.
///
/// An id becomes `<id>.json` directly in the store directory, so anything that could
/// name another place, hide the file, or corrupt a terminal is refused before any file is
/// touched: empty, over 200 bytes of UTF-8, `/`, NUL or other control characters, a
/// leading `.` (which also rules out `.` and `..`).
public enum ItemID {
    /// The longest id accepted, in bytes of UTF-8.
    public static let maxLength = 200

    /// Checks `id` and returns it.
    ///
    /// - Throws: `StoreError` with code `.invalidID` and the reason.
    @discardableResult
    public static func validate(_ id: String) throws(StoreError) -> String {
        if let reason = problem(with: id) { throw StoreError.invalidID(id, reason) }
        return id
    }

    /// Why `id` is refused, or `nil` if it is a valid id.
    public static func problem(with id: String) -> String? {
        if id.isEmpty { return "an id cannot be empty" }
        if id.utf8.count > maxLength {
            return "an id can be at most \(maxLength) bytes, this one is \(id.utf8.count)"
        }
        if id.utf8.first == UInt8(ascii: ".") { return "an id cannot start with '.'" }
        for scalar in id.unicodeScalars {
            switch scalar.value {
            case 0x2F: return "an id cannot contain '/'"
            case 0x00: return "an id cannot contain NUL"
            case 0x01...0x1F, 0x7F...0x9F: return "an id cannot contain control characters"
            default: continue
            }
        }
        if ConflictName.mayBeStem(id.utf8), let (item, origin) = ConflictName.parse(id + ".json") {
            return
                "an id cannot be named like a conflict copy: a file of that name is the version from \(origin) of \"\(item)\""
        }
        return nil
    }

    /// The file name of the item `id`.
    package static func fileName(_ id: String) -> String { id + ".json" }
}

/// What a directory entry's name means to the store.
enum EntryName: Equatable {
    /// Not an item file: no `.json` suffix, hidden, a backup or an editor's temp file.
    case ignored
    /// The item file of this id.
    case item(String)
    /// Another sync tool's copy of the item of this id (`ConflictName`): a conflict of
    /// that item, not an item of its own.
    case conflict(of: String)
    /// Named like an item file, but its id is invalid: reported, never read.
    case invalid(id: String, reason: String)

    /// Classifies the name `name` of a directory entry.
    init(_ name: String) {
        if !name.hasPrefix("."), let (id, _) = ConflictName.parse(name) {
            self = .conflict(of: id)
            return
        }
        guard name.hasSuffix(".json"), !name.hasPrefix("."), !name.hasSuffix("~") else {
            self = .ignored
            return
        }
        let id = String(name.dropLast(5))
        if let reason = ItemID.problem(with: id) {
            self = .invalid(id: id, reason: reason)
        } else {
            self = .item(id)
        }
    }

    /// The id in `name` (a directory entry's bytes) when it is plainly an item file's name,
    /// as most are: printable ASCII, not hidden, ending in `.json`, an id short enough and
    /// without `conflict` in it (so no conflict copy's name either). What `init` makes of
    /// such a name is `.item` of that id; `nil` says only that a name needs `init`'s look.
    /// One pass over the bytes: a listing makes no string of such a name.
    static func plainItemID(_ name: UnsafeBufferPointer<UInt8>) -> UnsafeBufferPointer<UInt8>? {
        let suffix: StaticString = ".json"
        let stem = name.count - suffix.utf8CodeUnitCount
        guard stem > 0, stem <= ItemID.maxLength, name[0] != UInt8(ascii: "."),
            name.allSatisfy({ (0x20...0x7E).contains($0) && $0 != UInt8(ascii: "/") }),
            UnsafeBufferPointer(rebasing: name[stem...]).elementsEqual(
                UnsafeBufferPointer(start: suffix.utf8Start, count: suffix.utf8CodeUnitCount))
        else { return nil }
        let id = UnsafeBufferPointer(rebasing: name[..<stem])
        return ConflictName.mayBeStem(id) ? nil : id
    }
}
