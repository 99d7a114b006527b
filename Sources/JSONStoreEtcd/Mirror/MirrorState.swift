import JSONStore

/// What a mirror last synced, per item: the key's `mod_revision` in etcd and the etag of
/// the file, kept in the directory's private folder so a restart knows which side changed.
///
/// `state.json` holds every record; `journal` has a line per record changed since, so one
/// sync writes one short line. Before a sync writes either side, its intent goes in the
/// journal (the etag both sides will hold): a mirror killed after the write and before
/// the record finds, on its next start, the other side holding what it meant, and takes
/// that for synced rather than for another writer's edit. A line cut short by a kill is ignored (its sync is redone
/// on the next start, and found already done). When the journal grows past the records,
/// it is folded into `state.json` (replaced atomically) and emptied; a kill between the
/// two only replays lines whose records are already there.
struct MirrorState {
    /// One item as last synced. `etag == nil` is a deletion (at revision `revision`),
    /// kept so an older event of the key is never taken for news.
    struct Record: Equatable {
        var revision: Int64
        var etag: String?
    }

    static let stateFile = "mirror/state.json"
    static let journalFile = "mirror/journal"

    /// The store address this directory is mirrored with.
    let address: String
    private(set) var records: [UTF8Key: Record] = [:]
    /// The etags syncs of the item were about to make both sides hold (`nil`: a
    /// deletion), until its record is written: every one, since a sync cut short by a kill
    /// may be followed by another that never got as far.
    private(set) var intents: [UTF8Key: [String?]] = [:]
    private let folder: PrivateFolder
    private var journalLines = 0

    /// The state kept in `folder`, or an empty one.
    ///
    /// - Throws: `StoreError` when the folder cannot be read, or when it was mirrored
    ///   with another address (the message says how to start afresh).
    init(folder: PrivateFolder, address: String) throws(StoreError) {
        self.folder = folder
        self.address = address
        if let bytes = try folder.read(Self.stateFile) {
            guard case .object(let state)? = try? JSONReader(maxSize: .max).read(bytes),
                let items = state["items"]?.arrayValue
            else {
                throw StoreError(
                    code: .invalidJSON,
                    message: "the mirror's state is damaged; remove it to sync afresh",
                    file: folder.path(of: Self.stateFile))
            }
            if let kept = state["address"]?.stringValue, kept != address {
                throw StoreError(
                    code: .conflict,
                    message:
                        "this directory is mirrored with \(kept); to mirror it with \(address) instead, remove \(folder.path(of: "mirror"))",
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

    /// Takes one record, `[id, revision, etag or null]`, or one intent, `[id, etag or null]`.
    private mutating func apply(_ entry: JSONValue) {
        guard case .array(let entry) = entry, let id = entry.first?.stringValue else { return }
        if entry.count == 2 {
            intents[UTF8Key(id), default: []].append(entry[1].stringValue)
            return
        }
        guard entry.count == 3, let revision = entry[1].intValue else { return }
        records[UTF8Key(id)] = Record(revision: Int64(revision), etag: entry[2].stringValue)
        intents[UTF8Key(id)] = nil
    }

    subscript(id: String) -> Record? { records[UTF8Key(id)] }

    /// The record of `id` as far as `remote` (etcd's `mod_revision` and the etag of its
    /// value, `nil` when it has none) goes: when etcd holds what an unrecorded sync meant
    /// to make it hold, that sync happened.
    func record(of id: String, remote: (revision: Int64, etag: String)?) -> Record? {
        let record = records[UTF8Key(id)]
        guard let meant = intents[UTF8Key(id)], meant.contains(remote?.etag) else { return record }
        return Record(revision: remote?.revision ?? record?.revision ?? 0, etag: remote?.etag)
    }

    /// Notes, before the writes, that syncs are about to make both sides of these items
    /// hold these etags (`nil`: deleted).
    mutating func intend(_ intents: [(id: String, etag: String?)]) throws(StoreError) {
        guard !intents.isEmpty else { return }
        var lines: [UInt8] = []
        for (id, etag) in intents {
            self.intents[UTF8Key(id), default: []].append(etag)
            JSONWriter.appendCompact(
                .array([.string(id), etag.map(JSONValue.string) ?? .null]), to: &lines)
            lines.append(0x0A)
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
        let state: JSONValue = .object(["address": .string(address), "items": .array(items)])
        try folder.replace(Self.stateFile, with: JSONWriter.compact(state), sync: sync)
        // The intents not yet recorded stay, in the journal they start afresh.
        var lines: [UInt8] = []
        for (id, etags) in intents {
            for etag in etags {
                JSONWriter.appendCompact(
                    .array([.string(id.string), etag.map(JSONValue.string) ?? .null]), to: &lines)
                lines.append(0x0A)
            }
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
}
