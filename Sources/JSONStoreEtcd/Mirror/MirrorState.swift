import JSONStore

/// What a mirror last synced, per item: the key's `mod_revision` in etcd and the etag of
/// the file, kept in the directory's private folder so a restart knows which side changed.
///
/// `state.json` holds every record; `journal` has a line per record changed since, so one
/// sync writes one short line. Before a sync writes a side, its intent goes in the journal:
/// the side, and what that side will hold. A mirror killed after the write and before the
/// record finds, on its next start, that side holding what it meant (etcd the value it
/// sent; the file the value it pulled, etcd still at that value's revision), and takes it
/// for synced rather than for another writer's edit; a side that does not hold it was not
/// written. A line cut short by a kill is ignored. When the journal grows past the records,
/// it is folded into `state.json` (replaced atomically) and emptied; a kill between the
/// two only replays lines whose records are already there.
struct MirrorState {
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

    /// The key prefix this directory is mirrored with (its endpoints may change).
    let prefix: String
    private(set) var records: [UTF8Key: Record] = [:]
    /// The intents of each item since its last record: every one, since a sync cut short
    /// by a kill may be followed by another that never got as far.
    private(set) var intents: [UTF8Key: [Intent]] = [:]
    private let folder: PrivateFolder
    private var journalLines = 0

    /// The state kept in `folder`, or an empty one.
    ///
    /// - Throws: `StoreError` when the folder cannot be read, or when it was mirrored
    ///   with another prefix (the message says how to start afresh).
    init(folder: PrivateFolder, prefix: String) throws(StoreError) {
        self.folder = folder
        self.prefix = prefix
        if let bytes = try folder.read(Self.stateFile) {
            guard case .object(let state)? = try? JSONReader(maxSize: .max).read(bytes),
                let items = state["items"]?.arrayValue
            else {
                throw StoreError(
                    code: .invalidJSON,
                    message: "the mirror's state is damaged; remove it to sync afresh",
                    file: folder.path(of: Self.stateFile))
            }
            if let kept = state["prefix"]?.stringValue, kept != prefix {
                throw StoreError(
                    code: .conflict,
                    message:
                        "this directory is mirrored with the prefix \(kept); to mirror it with \(prefix) instead, remove \(folder.path(of: "mirror"))",
                    file: folder.path(of: Self.stateFile))
            }
            for entry in items { apply(entry) }
        }
        let journal = try folder.read(Self.journalFile) ?? []
        for line in journal.split(separator: 0x0A) {
            guard let entry = try? JSONReader().read(Array(line)) else { continue }  // cut short
            apply(entry)
            journalLines += 1
        }
        // A line cut short would swallow the next one appended: start the journal afresh.
        if let last = journal.last, last != 0x0A { try compact() }
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
        intents[UTF8Key(id)] = nil
    }

    subscript(id: String) -> Record? { records[UTF8Key(id)] }

    /// The record of `id` given what each side holds now (etcd's `mod_revision` and the
    /// etag of its value, the file's etag; `nil` for none): when a side holds what an
    /// unrecorded sync meant to write there, that sync happened.
    func record(of id: String, remote: (revision: Int64, etag: String)?, local: String?)
        -> Record?
    {
        let record = records[UTF8Key(id)]
        for intent in intents[UTF8Key(id)] ?? [] {
            if intent.toEtcd, intent.etag == remote?.etag {
                return Record(
                    revision: remote?.revision ?? record?.revision ?? 0, etag: intent.etag)
            }
            if !intent.toEtcd, intent.etag == local,
                remote.map({ $0.revision == intent.revision && $0.etag == intent.etag })
                    ?? (intent.etag == nil)
            {
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
        for (id, record) in changes {
            records[UTF8Key(id)] = record
            intents[UTF8Key(id)] = nil
            JSONWriter.appendCompact(Self.encode(id, record), to: &lines)
            lines.append(0x0A)
        }
        try folder.append(Self.journalFile, lines)
        journalLines += changes.count
        if journalLines > max(4_096, 2 * records.count) { try compact(sync: false) }
    }

    /// Forgets deletions older than `revision`: no event older than a fresh listing comes.
    mutating func dropDeletions(before revision: Int64) {
        records = records.filter { $0.value.etag != nil || $0.value.revision >= revision }
    }

    /// Folds the journal into `state.json`; `sync` puts it on the disk too (a kill loses
    /// nothing either way: the replacement is atomic, and the journal stays until then).
    mutating func compact(sync: Bool = true) throws(StoreError) {
        let items = records.map { Self.encode($0.key.string, $0.value) }
        let state: JSONValue = .object(["prefix": .string(prefix), "items": .array(items)])
        try folder.replace(Self.stateFile, with: JSONWriter.compact(state), sync: sync)
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
