import JSONStore

/// What a mirror last synced, per item: the key's `mod_revision` in etcd and the etag of
/// the file, kept in the directory's private folder so a restart knows which side changed.
///
/// `state.json` holds every record; `journal` has a line per record changed since, so one
/// sync writes one short line. Before a sync writes a side, its intent goes in the journal:
/// the side, and what that side will hold. A mirror killed after the write and before the
/// record finds, on its next start, that side holding what it meant (etcd the value it
/// sent; the file the bytes it pulled, whatever etcd did since), and takes it
/// for synced rather than for another writer's edit; a side that does not hold it was not
/// written. A line cut short by a kill is ignored. When the journal grows past the records,
/// it is folded into `state.json` (replaced atomically) and emptied; a kill between the
/// two only replays lines whose records are already there.
///
/// The records are only as good as the two sides they were synced with, so the state
/// names both: the directory (its device and inode; a state found in another directory, a
/// copy or a restore, is not its own and is set aside), and etcd (its cluster id and the
/// highest revision synced; an etcd with another cluster id or at a lower revision is not
/// the one the records speak of, `MirrorState+Origin`). Neither side's lack of an item is
/// ever taken for a deletion unless the records were made with that very side.
package struct MirrorState {
    /// One item as last synced. `etag == nil` is a deletion (at revision `revision`),
    /// kept so an older event of the key is never taken for news.
    struct Record: Equatable {
        var revision: Int64
        var etag: String?
    }

    /// A sync under way: the side it writes and what that side will hold (`etag == nil`:
    /// nothing); for a pull, the revision of etcd's value it copies.
    struct Intent: Equatable {
        var toEtcd: Bool
        var etag: String?
        var revision: Int64
    }

    static let stateFile = "mirror/state.json"
    static let journalFile = "mirror/journal"
    /// The file a running mirror holds (`FolderHold`), its pid in it.
    package static let holdFile = "mirror/lock"

    /// The key prefix this directory is mirrored with (its endpoints may change).
    package let prefix: String
    /// The directory the records were made in.
    private(set) var directory: PrivateFolder.Identity?
    /// The etcd address last mirrored with, for `doctor`.
    package var address: String?
    /// etcd's cluster id and the highest revision synced with it (0: none yet).
    private(set) var cluster: String?
    private(set) var etcdRevision: Int64 = 0
    /// Why the records were last set aside (another etcd), for `doctor`.
    package private(set) var note: String?
    /// The items whose conflict could not be kept (the file left as it is, the item not
    /// converging), with why: for the mirror's summary, `check` and `doctor`.
    package private(set) var unkept: [UTF8Key: String] = [:]
    /// Why the state found was set aside when it was read (made in another directory).
    private(set) var setAside: String?
    private(set) var records: [UTF8Key: Record] = [:]
    /// The intents of each item since its last record: every one, since a sync cut short
    /// by a kill may be followed by another that never got as far.
    private(set) var intents: [UTF8Key: [Intent]] = [:]
    private let folder: PrivateFolder
    private var journalLines = 0

    /// The state kept in `folder` for the directory `directory`, or an empty one (then
    /// written at once, naming the directory); a state made in another directory is set
    /// aside (`setAside` says why), never applied here.
    ///
    /// - Throws: `StoreError` when the folder cannot be read, or when it was mirrored
    ///   with another prefix (the message says how to start afresh).
    init(folder: PrivateFolder, prefix: String, directory: PrivateFolder.Identity)
        throws(StoreError)
    {
        let kept = try Self(reading: folder)
        if let kept, kept.prefix != prefix {
            throw StoreError(
                code: .conflict,
                message:
                    "this directory is mirrored with the prefix \(kept.prefix); to mirror it with \(prefix) instead, remove \(folder.path(of: "mirror"))",
                file: folder.path(of: Self.stateFile))
        }
        if let kept, kept.directory == nil || kept.directory == directory {
            self = kept
            self.directory = directory
            // A line cut short would swallow the next one appended: start it afresh.
            if journalCut || kept.directory == nil { try compact() }
            return
        }
        self.folder = folder
        self.prefix = prefix
        self.directory = directory
        if let kept {
            setAside =
                "the mirror's state in \(folder.path(of: "mirror")) was made in another directory (\(kept.directory!), this one has \(directory)): a copy or a restore; mirrored as a new directory, nothing deleted on either side"
            address = kept.address
        }
        try compact()
    }

    /// The state kept in `folder` as it is, whatever directory it was made in; `nil` when
    /// there is none. Reads only: for `doctor`.
    ///
    /// - Throws: `StoreError` when the folder cannot be read or the state is damaged.
    package init?(reading folder: PrivateFolder) throws(StoreError) {
        guard let bytes = try folder.read(Self.stateFile) else { return nil }
        guard case .object(let state)? = try? JSONReader(maxSize: .max).read(bytes),
            let items = state["items"]?.arrayValue, let prefix = state["prefix"]?.stringValue
        else {
            throw StoreError(
                code: .invalidJSON,
                message: "the mirror's state is damaged; remove it to sync afresh",
                file: folder.path(of: Self.stateFile))
        }
        self.folder = folder
        self.prefix = prefix
        directory = state["directory"]?.stringValue.flatMap(Self.identity)
        address = state["address"]?.stringValue
        cluster = state["cluster"]?.stringValue
        etcdRevision = Int64(state["revision"]?.intValue ?? 0)
        note = state["note"]?.stringValue
        for entry in state["unkept"]?.arrayValue ?? [] {
            guard let pair = entry.arrayValue, pair.count == 2, let id = pair[0].stringValue,
                let why = pair[1].stringValue
            else { continue }
            unkept[UTF8Key(id)] = why
        }
        for entry in items { apply(entry) }
        let journal = try folder.read(Self.journalFile) ?? []
        for line in journal.split(separator: 0x0A) {
            guard let entry = try? JSONReader().read(Array(line)) else { continue }  // cut short
            apply(entry)
            journalLines += 1
        }
        journalCut = journal.last.map { $0 != 0x0A } ?? false
    }

    /// Whether the journal read ended in a line cut short.
    private var journalCut = false

    private static func identity(_ text: String) -> PrivateFolder.Identity? {
        let parts = text.split(separator: ":")
        guard parts.count == 2, let device = UInt64(parts[0]), let inode = UInt64(parts[1])
        else { return nil }
        return PrivateFolder.Identity(device: device, inode: inode)
    }

    /// Takes one record, `[id, revision, etag or null]`, or one intent, `[id, "etcd" or
    /// "files", etag or null, revision]`.
    private mutating func apply(_ entry: JSONValue) {
        guard case .array(let entry) = entry, let id = entry.first?.stringValue else { return }
        if entry.count == 4, let side = entry[1].stringValue, let revision = entry[3].intValue {
            intents[UTF8Key(id), default: []].append(
                Intent(
                    toEtcd: side == "etcd", etag: entry[2].stringValue, revision: Int64(revision)))
            return
        }
        guard entry.count == 3, let revision = entry[1].intValue else { return }
        records[UTF8Key(id)] = Record(revision: Int64(revision), etag: entry[2].stringValue)
        etcdRevision = max(etcdRevision, Int64(revision))
        intents[UTF8Key(id)] = nil
    }

    subscript(id: String) -> Record? { records[UTF8Key(id)] }

    /// How many of the directory's changes were not sent, for `doctor`: a valid item
    /// whose etag (`current`) is not the one synced, and an item synced whose file is gone
    /// (`present`: every name with a file, valid or not).
    package func unsentChanges(current: [UTF8Key: String], present: Set<UTF8Key>) -> Int {
        var count = current.count { records[$0.key]?.etag != $0.value }
        for (id, record) in records where record.etag != nil && !present.contains(id) {
            count += 1
        }
        return count
    }

    /// The record of `id` given what each side holds now (etcd's `mod_revision` and the
    /// etag of its value, the file's etag; `nil` for none): when a side holds what an
    /// unrecorded sync meant to write there, that sync happened (the latest such).
    ///
    /// A pull's intent names the revision and the bytes (their etag) it wrote: a file
    /// that holds those bytes holds etcd's value at that revision, whatever etcd did
    /// since, so a mirror killed right after writing it takes it for its own write (and
    /// pulls what etcd has now), never for an edit that conflicts with it.
    func record(of id: String, remote: (revision: Int64, etag: String)?, local: String?)
        -> Record?
    {
        let record = records[UTF8Key(id)]
        for intent in (intents[UTF8Key(id)] ?? []).reversed() {
            if intent.toEtcd, intent.etag == remote?.etag {
                return Record(
                    revision: remote?.revision ?? record?.revision ?? 0, etag: intent.etag)
            }
            if !intent.toEtcd, intent.etag == local {
                return Record(revision: intent.revision, etag: intent.etag)
            }
        }
        return record
    }

    /// Notes, before the writes, that syncs are about to write these items on one side.
    mutating func intend(_ intents: [(id: String, intent: Intent)]) throws(StoreError) {
        guard !intents.isEmpty else { return }
        var lines: [UInt8] = []
        for (id, intent) in intents {
            self.intents[UTF8Key(id), default: []].append(intent)
            Self.append(id, intent, to: &lines)
        }
        try folder.append(Self.journalFile, lines)
        journalLines += intents.count
    }

    /// Records `record` for `id`, in memory and in the journal.
    mutating func set(_ id: String, _ record: Record) throws(StoreError) {
        try set([(id, record)])
    }

    /// Records several at once: one write of the journal.
    mutating func set(_ changes: [(id: String, record: Record)]) throws(StoreError) {
        guard !changes.isEmpty else { return }
        var lines: [UInt8] = []
        var settled = false
        for (id, record) in changes {
            settled = unkept.removeValue(forKey: UTF8Key(id)) != nil || settled
            records[UTF8Key(id)] = record
            etcdRevision = max(etcdRevision, record.revision)
            intents[UTF8Key(id)] = nil
            JSONWriter.appendCompact(Self.encode(id, record), to: &lines)
            lines.append(0x0A)
        }
        try folder.append(Self.journalFile, lines)
        journalLines += changes.count
        if settled || journalLines > max(4_096, 2 * records.count) { try compact(sync: false) }
    }

    /// Notes that etcd answered as `origin` (the one the records are synced with).
    mutating func synced(with origin: Origin) {
        if let now = origin.cluster { cluster = now }
        etcdRevision = max(etcdRevision, origin.revision)
    }

    /// Sets the records aside: they were synced with another etcd than `origin`, so
    /// neither side's lack of an item means a deletion any more. The next reconcile is a
    /// first one (upload, download, conflicts where both hold different values). `note`
    /// is kept for `doctor`.
    mutating func forget(for origin: Origin, note: String) throws(StoreError) {
        records = [:]
        intents = [:]
        cluster = origin.cluster
        etcdRevision = origin.revision
        self.note = note
        try compact()
    }

    /// `check`'s line for each conflict that could not be kept, by id.
    package var unkeptLines: [String] {
        unkept.sorted { $0.key < $1.key }.map {
            "\(Display.escaped($0.key.string)): conflict: could not be kept, so the mirror leaves this directory's version as the file and etcd's is not taken: \(Display.escaped($0.value))"
        }
    }

    /// Notes that the conflict of `id` could not be kept (`why`), or that it no longer
    /// waits (`nil`); written at once when it changes.
    mutating func unkept(_ id: String, _ why: String?) throws(StoreError) {
        guard unkept[UTF8Key(id)] != why else { return }
        unkept[UTF8Key(id)] = why
        try compact(sync: false)
    }

    /// Forgets deletions older than `revision`: no event older than a fresh listing comes.
    mutating func dropDeletions(before revision: Int64) {
        records = records.filter { $0.value.etag != nil || $0.value.revision >= revision }
    }

    /// Folds the journal into `state.json`; `sync` puts it on the disk too (a kill loses
    /// nothing either way: the replacement is atomic, and the journal stays until then).
    mutating func compact(sync: Bool = true) throws(StoreError) {
        let items = records.map { Self.encode($0.key.string, $0.value) }
        var state: JSONObject = [
            "prefix": .string(prefix), "revision": .number(JSONNumber(etcdRevision)),
            "items": .array(items),
        ]
        if let address { state["address"] = .string(address) }
        if let directory { state["directory"] = .string("\(directory.device):\(directory.inode)") }
        if let cluster { state["cluster"] = .string(cluster) }
        if let note { state["note"] = .string(note) }
        if !unkept.isEmpty {
            state["unkept"] = .array(
                unkept.sorted { $0.key < $1.key }.map {
                    .array([.string($0.key.string), .string($0.value)])
                })
        }
        try folder.replace(Self.stateFile, with: JSONWriter.compact(.object(state)), sync: sync)
        // The intents not yet recorded stay, in the journal they start afresh.
        var lines: [UInt8] = []
        for (id, intents) in intents {
            for intent in intents { Self.append(id.string, intent, to: &lines) }
        }
        try folder.replace(Self.journalFile, with: lines)
        journalLines = intents.values.reduce(0) { $0 + $1.count }
    }

    private static func encode(_ id: String, _ record: Record) -> JSONValue {
        .array([
            .string(id), .number(JSONNumber(record.revision)),
            record.etag.map(JSONValue.string) ?? .null,
        ])
    }

    private static func append(_ id: String, _ intent: Intent, to lines: inout [UInt8]) {
        JSONWriter.appendCompact(
            .array([
                .string(id), .string(intent.toEtcd ? "etcd" : "files"),
                intent.etag.map(JSONValue.string) ?? .null, .number(JSONNumber(intent.revision)),
            ]), to: &lines)
        lines.append(0x0A)
    }
}
