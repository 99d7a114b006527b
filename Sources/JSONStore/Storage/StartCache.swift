/// What a run knew of a directory's files, for the next start to read only what changed:
/// each file's signature, fingerprint and bytes, as a look that began at `lookedAt` saw
/// them, and the journal revision they agree with (issue 28).
///
/// The file is trusted for nothing it cannot know: reading it checks its format, the
/// directory it describes, a checksum of each section and every length and offset in it
/// against what is there, and says why it is refused. A refused cache is ignored and
/// written again, never an error.
///
/// A writer streams it entry by entry (`Encoder`) and reads the last one forward, a block
/// at a time (`Cursor`); a start walks its records and names the same way, beside its
/// listing, and reads its items' bytes into one chunk that the items it takes share: the
/// chunk stays while any of them does, so a run keeps at most the bytes the cache held
/// beside the items' current ones (as a load's chunks do). This value, every entry in an
/// array, is the whole cache read at once: for tests that look inside one.
struct StartCache: Sendable {
    /// One file as the look read it.
    struct Entry: Sendable, Equatable {
        /// The item's id (its file is `ItemID.fileName(id)`): entries are in the order of
        /// their ids' bytes, a listing's order, so a start walks both together.
        var id: String
        var signature: FileSignature
        var fingerprint: Fingerprint
        /// The item's bytes: decoded, a range of the cache file's own bytes.
        var bytes: ItemBytes

        /// The journal's newest entry of the id at the cache's stamp.
        var head: Head = .unknown

        /// The item, its bytes the cache's.
        var item: Item { Item(id: id, bytes: bytes, fingerprint: fingerprint) }
    }

    /// An entry as its record holds it, without its name, and its bytes as their place
    /// in the items' bytes (the fingerprint's size is their count): what a start keeps of
    /// an entry while it looks at the file, nothing shared.
    struct Record: Sendable {
        var signature: FileSignature
        var fingerprint: Fingerprint
        var bytes: Int
        var head: Head
    }

    /// What the journal's newest entry of an id was at the cache's stamp: what a start
    /// that finds the file changed records the change against, without looking it up.
    enum Head: Sendable, Equatable {
        /// Not known: a start that finds the file changed looks it up in the journal.
        case unknown
        /// The journal had no entry of it.
        case none
        case head(JournalHeads.Head)

        /// As the heads keep it: `nil` when unknown, `.some(nil)` when none.
        var recorded: JournalHeads.Head?? {
            switch self {
            case .unknown: nil
            case .none: .some(nil)
            case .head(let head): .some(head)
            }
        }

        init(_ recorded: JournalHeads.Head??) {
            switch recorded {
            case nil: self = .unknown
            case .some(nil): self = .none
            case .some(.some(let head)): self = .head(head)
            }
        }
    }

    /// The store directory's own device and inode: a cache copied with its directory, or
    /// left by a directory since replaced, describes other files.
    struct Directory: Sendable, Equatable {
        var device: UInt64
        var inode: UInt64
    }

    /// Why a cache was not used.
    enum Refusal: Error, Equatable {
        /// Not a cache, cut short, or changed since it was written.
        case damaged(String)
        /// Written in a format this build does not read.
        case otherFormat(UInt32)
        /// Written for another directory.
        case otherDirectory
        /// Written under other terms (`Header.terms`).
        case otherTerms
    }

    /// What a cache says of the look it records, before its entries.
    struct Header: Sendable, Equatable {
        var directory: Directory
        /// When the look began, as the store's file system stamped it
        /// (`FileDescriptor.stamp`): entries not settled before it are read again.
        var lookedAt: Int64
        /// The journal revision the entries agree with, and which journal (`nil`: none
        /// kept), with the place after its entry, where a look at what was appended since
        /// begins.
        var stamp: JournalStamp?
        var position: Journal.Position?
        /// The terms the entries were read under (the reader's limits, the schema in force:
        /// `terms(reader:schema:)`): under others, every file is read again.
        var terms: Fingerprint?
        /// Whether every id the journal had an entry of at `stamp` is an entry (a deleted
        /// one too, without a file): then an id with no entry had none in the journal.
        var headsComplete = false
    }

    /// The format this build writes and reads; a change to what an entry holds changes it.
    static let format: UInt32 = 2
    static let magic = Array("jsonstore start\n".utf8)

    var header: Header
    /// The files, sorted by their ids' bytes, each once.
    var entries: [Entry]

    var directory: Directory { header.directory }
    var lookedAt: Int64 { header.lookedAt }
    var stamp: JournalStamp? { header.stamp }
    var position: Journal.Position? { header.position }
    var terms: Fingerprint? { header.terms }
    var headsComplete: Bool { header.headsComplete }

    /// The entry of `id`, found by its bytes in the sorted entries.
    func entry(_ id: String) -> Entry? {
        let low = Bisection.first(of: entries.count) { UTF8Key.compare(entries[$0].id, id) >= 0 }
        return low < entries.count && UTF8Key.compare(entries[low].id, id) == 0
            ? entries[low] : nil
    }
}

extension FileSignature {
    /// The signature of a file a start must read again: no file has it.
    static let unknown = FileSignature(device: 0, inode: 0, size: -1, modified: 0, changed: 0)
    /// The signature of an id the journal knows that had no file (deleted): a file of it
    /// now is new.
    static let absent = FileSignature(device: 0, inode: 0, size: -2, modified: 0, changed: 0)

    /// Whether this is a file's, not `unknown` nor `absent`: a cache's entry holds the
    /// bytes a file with it had.
    var isFile: Bool { self != .unknown && self != .absent }
}
