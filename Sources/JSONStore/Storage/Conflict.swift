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

    init(id: String, name: String, file: String, origin: String, bytes: [UInt8]) {
        self.id = id
        self.name = name
        self.file = file
        self.origin = origin
        self.bytes = bytes
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
public enum ConflictResolution: Sendable, Hashable {
    /// The item as it is now.
    case mine
    /// The conflict's version (there must be only one).
    case theirs
    /// These bytes, which must be a valid item: a version merged by hand.
    case merged([UInt8])
}
