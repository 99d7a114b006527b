import FoundationEssentials

/// One change of one item, as the store's history remembers it: `jsonstore log`'s line.
///
/// A directory store keeps every change in its journal (`.jsonstore/journal/`), whoever
/// made it: this library, the command, another program (an editor's save, `sed -i`), git
/// or a mirror. Each has the store's next revision, one sequence shared by every process.
///
/// ```swift
/// for entry in try store.history(of: "tea") {
///     print(entry.revision, entry.kind, entry.source, entry.changes.map(\.path))
/// }
/// ```
public struct HistoryEntry: Sendable, Hashable {
    /// What happened to the item.
    public enum Kind: String, Sendable, Hashable {
        case created, modified, deleted
    }

    /// Who made the change.
    public enum Source: Sendable, Hashable, CustomStringConvertible {
        /// A program using this library (the command included), by the name it gave
        /// (`JSONStore.Options.writerName`; the command's is its subcommand, `set`).
        case jsonstore(command: String)
        /// A program that does not use this library: an editor, `sed -i`, `cp`.
        case otherProgram
        /// git, while it checked out, merged, rebased or pulled.
        case git
        /// `jsonstore mirror`, bringing etcd's change to the directory.
        case mirror
        /// A client of etcd, on a store there: etcd keeps each key's versions, not who
        /// wrote them.
        case etcd

        /// The source's name in the journal and in `log -o json`: `jsonstore`, `other`,
        /// `git`, `mirror` or `etcd`.
        public var name: String {
            switch self {
            case .jsonstore: "jsonstore"
            case .otherProgram: "other"
            case .git: "git"
            case .mirror: "mirror"
            case .etcd: "etcd"
            }
        }

        /// The jsonstore command's name, for jsonstore's own writes.
        public var command: String? {
            if case .jsonstore(let command) = self { return command }
            return nil
        }

        public var description: String {
            switch self {
            case .jsonstore(let command): "jsonstore \(command)"
            case .otherProgram: "another program"
            case .git: "git"
            case .mirror: "mirror"
            case .etcd: "etcd"
            }
        }
    }

    /// The store's revision at this change: on a directory, one more than the change before
    /// it; on etcd, etcd's revision, which the changes of one transaction share.
    public let revision: Int
    /// When it was recorded; for a change seen late, the file's modification time. `nil`
    /// on etcd, which keeps no time.
    public var time: Date? {
        timestamp == Self.noTime ? nil : JournalLine.date(timestamp)
    }
    /// The item's id.
    public let id: String
    public let kind: Kind
    public let source: Source
    /// The operation it was part of: every change of one jsonstore write (a batch, a
    /// multi-id `delete`) carries the same token. `nil` for other programs' edits. On
    /// etcd, the revision of the transaction, in decimal.
    public let operation: String?
    /// For a modification, the members that changed, in the order a patch applies them.
    public let changes: [MemberChange]
    /// The item created, or the item deleted; `nil` for a modification.
    public let value: JSONObject?
    /// Whether the change was made while no jsonstore process watched, and found later:
    /// one entry for everything that happened to the item meanwhile.
    public let isLate: Bool
    /// Whether this is where the item's history begins, not a change: the item as the
    /// journal first saw it, having existed before the journal began to look (a creation
    /// in `kind`, found late; it cannot be undone).
    public internal(set) var isBaseline: Bool

    /// The RFC 6902 patch from the version before this change to the one after it.
    public var patch: JSONPatch { JSONPatch(forward: changes) }
    /// The RFC 6902 patch that undoes it.
    public var inversePatch: JSONPatch { JSONPatch(inverse: changes) }

    /// `time` in nanoseconds since the epoch, as the journal keeps it; `noTime` when not
    /// known.
    let timestamp: Int64
    static let noTime = Int64.min
    /// What `fingerprint` was of the bytes after the change (`nil` after a deletion):
    /// what the next change is recorded against.
    let fingerprint: Fingerprint?
    /// The value after a modification, kept every so often so a version is rebuilt from
    /// the nearest one rather than from the item's creation.
    let keyframe: JSONObject?

    /// Whether the entry keeps the item's whole value (a creation, a deletion, a keyframe),
    /// so the versions after it are rebuilt from it without the entries before.
    var keepsWhole: Bool { kind != .modified || keyframe != nil }

    /// This entry with the revision the journal gives it.
    func numbered(_ revision: Int) -> HistoryEntry {
        HistoryEntry(
            revision: revision, timestamp: timestamp, id: id, kind: kind, source: source,
            operation: operation, changes: changes, value: value, isLate: isLate,
            isBaseline: isBaseline, fingerprint: fingerprint, keyframe: keyframe)
    }

    init(
        revision: Int, timestamp: Int64, id: String, kind: Kind, source: Source, operation: String?,
        changes: [MemberChange], value: JSONObject?, isLate: Bool, isBaseline: Bool = false,
        fingerprint: Fingerprint?, keyframe: JSONObject?
    ) {
        self.revision = revision
        self.timestamp = timestamp
        self.id = id
        self.kind = kind
        self.source = source
        self.operation = operation
        self.changes = changes
        self.value = value
        self.isLate = isLate
        self.isBaseline = isBaseline
        self.fingerprint = fingerprint
        self.keyframe = keyframe
    }
}

extension HistoryEntry {
    /// A change a store other than a directory keeps (etcd's version of a key): at its
    /// revision, with no time or fingerprint, one operation per revision.
    ///
    /// - Parameters:
    ///   - before: the item before the change; `nil` for a creation, or when it was not a
    ///     valid item.
    ///   - after: the item after it; `nil` for a deletion, or when it is not a valid item.
    ///   A modification with either not known says so by naming no member.
    package static func remote(
        revision: Int, id: String, kind: Kind, before: JSONObject?, after: JSONObject?,
        source: Source
    ) -> HistoryEntry {
        var changes: [MemberChange] = []
        if kind == .modified, let before, let after {
            changes = MemberChange.between(before, after)
        }
        return HistoryEntry(
            revision: revision, timestamp: noTime, id: id, kind: kind, source: source,
            operation: String(revision), changes: changes,
            value: kind == .created ? after : kind == .deleted ? before : nil, isLate: false,
            fingerprint: nil, keyframe: nil)
    }
}
