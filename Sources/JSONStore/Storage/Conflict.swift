/// Another version of an item, kept beside its file because two places changed it at
/// once: a mirror's edit that etcd had already accepted another one for
/// (`tea.jsonstore-conflict-20261201-162014-laptop.json`), or the copy another sync tool
/// (Syncthing, Dropbox, Nextcloud, ownCloud) or a merge left (`ConflictName`).
///
/// The item stays what it is; the conflict keeps the other version, never lost, until
/// `JSONStore.resolve(_:keeping:)` ends it.
public struct Conflict: Sendable, Hashable, CustomStringConvertible {
    /// The item it is a conflict of.
    public let id: String
    /// The file that keeps the other version.
    public let file: String
    /// Where the other version came from, for people: `Syncthing device ABCDEF7 at
    /// 2026-12-01 12:00:00`, `the mirror on host at …`.
    public let origin: String
    /// The other version, as kept.
    public let bytes: [UInt8]
    /// The file's name in the store directory.
    public let name: String
    /// Whether the kept version is this machine's own edit: `true` for the versions
    /// jsonstore's mirror keeps (`ID.jsonstore-conflict-….json`, always this directory's
    /// edit that lost to the one etcd took first, which is then the item); `false` when the
    /// name cannot tell (another sync tool's copy, a merge's backup).
    public let isMine: Bool

    init(
        id: String, name: String, file: String, origin: String, bytes: [UInt8],
        isMine: Bool = false
    ) {
        self.id = id
        self.name = name
        self.file = file
        self.origin = origin
        self.bytes = bytes
        self.isMine = isMine
    }

    /// By item id, then by file name (both by their bytes).
    static func ordered(_ a: Conflict, _ b: Conflict) -> Bool {
        UTF8Key.equal(a.id, b.id) ? UTF8Key.less(a.name, b.name) : UTF8Key.less(a.id, b.id)
    }

    /// The other version as an object, or `nil` when it is not one.
    public var object: JSONObject? {
        guard case .object(let object)? = try? JSONReader().read(bytes) else { return nil }
        return object
    }

    /// `tea: conflict: the version from <origin>, kept in <file>`, escaped for a terminal.
    public var description: String {
        "\(Display.escaped(id)): conflict: the version from \(Display.escaped(origin)), kept in \(Display.escaped(file))"
    }
}

/// How `JSONStore.resolve(_:keeping:)` ends an item's conflicts.
///
/// `mine` is the version made on this machine, `theirs` the other one. A conflict the
/// mirror kept is this machine's edit (`Conflict.isMine`) and the item is the other
/// machine's, the one etcd took first; for other tools' copies, or several kept versions,
/// which is which cannot be told, and the version is named (`merged` with its bytes).
public enum ConflictResolution: Sendable, Hashable {
    /// The item as it is now.
    case item
    /// The version made on this machine: the one kept version, when the mirror kept it.
    case mine
    /// The other machine's version: the item, when every kept version is the mirror's.
    case theirs
    /// These bytes, which must be a valid item: a version merged by hand, or one chosen.
    case merged([UInt8])

    /// The version this choice stands for among `conflicts` (an item's, at least one);
    /// `nil` for `mine` or `theirs` when their names cannot tell, and for `merged`.
    public func version(among conflicts: [Conflict]) -> ConflictVersion? {
        switch self {
        case .item: return .item
        case .merged: return nil
        case .mine:
            guard conflicts.count == 1, conflicts[0].isMine else { return nil }
            return .kept(conflicts[0])
        case .theirs:
            guard !conflicts.isEmpty, conflicts.allSatisfy(\.isMine) else { return nil }
            return .item
        }
    }
}

/// One version of an item in conflict: the item as it is, or a kept one.
public enum ConflictVersion: Sendable, Hashable {
    case item
    case kept(Conflict)
}
