/// Another version of an item, kept because two places changed it at once: a mirror's
/// edit that etcd had already accepted another one for, or the copy another sync tool
/// (Syncthing, Dropbox, Nextcloud, ownCloud) or a merge left beside the file.
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
    /// Where the store keeps it: beside the items under this name, or in its private
    /// folder at this path.
    let location: Location

    enum Location: Sendable, Hashable {
        case beside(name: String)
        case kept(relative: String)
    }

    init(id: String, file: String, origin: String, bytes: [UInt8], location: Location) {
        self.id = id
        self.file = file
        self.origin = origin
        self.bytes = bytes
        self.location = location
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
