import Glibc

/// The store's journal: `.jsonstore/journal/`, files ("segments") of entry lines, each
/// named by the revision of its first entry (`00000000000000000001.jsonl`) and opened by
/// a header line that names the journal (`{"journal":"9f3a…","format":1}`), so a revision
/// is only ever read from the journal it was given by.
///
/// Appended under the store's lock only, so one process at a time gives out revisions.
/// A reader takes no lock: lines are appended whole, and a line cut short at the end (a
/// writer killed mid-append) is not an entry yet. Damage anywhere else (garbage, a line
/// that is not an entry, a segment removed) is reported with the file and its offset, and
/// reading goes on after it.
struct Journal: Sendable {
    static let folderName = "journal"
    static let format = 1
    let folder: PrivateFolder
    /// A segment is closed, and the next one begun, once it holds this many bytes.
    var segmentLimit = 4 << 20
    /// What the journal keeps: segments whose last entry is older than `maxAge` seconds,
    /// and the oldest beyond `maxBytes` in all, are removed when a segment is begun.
    var retention = Retention()

    /// How much history is kept; the oldest goes first, a whole segment at a time.
    struct Retention: Sendable {
        var maxAge: Double = 90 * 86_400
        var maxBytes = 64 << 20
    }

    /// A segment: its first revision and its name.
    struct Segment: Sendable, Hashable {
        let first: Int
        var name: String { Self.name(first) }

        static func name(_ first: Int) -> String {
            let digits = String(first)
            return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + ".jsonl"
        }

        init(first: Int) { self.first = first }

        init?(name: String) {
            guard name.hasSuffix(".jsonl"), name.utf8.count == 26,
                let first = Int(name.dropLast(6)), first > 0
            else { return nil }
            self.first = first
        }
    }

    /// What is wrong with a part of the journal, and where.
    struct Damage: Sendable, Hashable, CustomStringConvertible {
        let file: String
        let offset: Int
        let reason: String
        var description: String { "\(file): at byte \(offset): \(reason)" }
    }

    /// The journal's folder, kept open between uses (each use checks it is still there).
    let kept = KeptFolder()

    /// The segments there are, oldest first.
    func segments() -> [Segment] {
        guard let dir = try? openFolder(create: false) else { return [] }
        defer { dir.close() }
        let names = (try? DirectoryScan.names(in: dir)) ?? []
        return names.compactMap { name -> Segment? in
            if case .text(let text) = name { return Segment(name: text) }
            return nil
        }.sorted { $0.first < $1.first }
    }

    func path(of segment: Segment) -> String {
        folder.path(of: Self.folderName + "/" + segment.name)
    }

    /// The journal's folder, made when `create`; `nil` when there is none.
    func openFolder(create: Bool) throws(StoreError) -> FileDescriptor? {
        try kept.open(folder.path(of: Self.folderName)) { () throws(StoreError) in
            try folder.openFolder(Self.folderName, create: create)
        }
    }

    /// The header line of a segment of the journal `id`.
    static func header(journal id: String) -> [UInt8] {
        var line: [UInt8] = []
        let object: JSONObject = ["journal": .string(id), "format": .number(JSONNumber(format))]
        JSONWriter.appendCompact(.object(object), to: &line)
        line.append(UInt8(ascii: "\n"))
        return line
    }

    /// The journal a header line names, or `nil` when it is not a header of this format.
    static func journalID(inHeader line: UnsafeBufferPointer<UInt8>) -> String? {
        guard case .object(let object)? = try? JSONReader().read(line),
            object["format"]?.intValue == format
        else { return nil }
        return object["journal"]?.stringValue
    }

    /// A new journal's name: 128 random bits in hexadecimal.
    static func newID() -> String {
        var random = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(random.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }
}
