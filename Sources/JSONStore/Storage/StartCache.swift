/// What a run knew of a directory's files, for the next start to read only what changed:
/// each file's signature, fingerprint and bytes, as a look that began at `lookedAt` saw
/// them, and the journal revision they agree with (issue 28; not wired in yet).
///
/// The file is trusted for nothing it cannot know: decoding checks its format, the
/// directory it describes and a checksum of every byte, and every length in it against
/// what is left, and says why it is refused. A refused cache is ignored and written again,
/// never an error.
struct StartCache: Sendable, Equatable {
    /// One file as the look read it.
    struct Entry: Sendable, Equatable {
        var name: String
        var signature: FileSignature
        var fingerprint: Fingerprint
        var bytes: [UInt8]
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
    }

    /// The format this build writes and reads; a change to what an entry holds changes it.
    static let format: UInt32 = 1
    static let magic = Array("jsonstore start\n".utf8)

    var directory: Directory
    /// When the look began, as the store's file system stamped it
    /// (`FileDescriptor.stamp`): entries not settled before it are read again.
    var lookedAt: Int64
    /// The journal revision the entries agree with, and which journal (`nil`: none kept).
    var stamp: JournalStamp?
    /// The files, sorted by name (their bytes), each once.
    var entries: [Entry]

    /// The signatures by name, as `StartComparison` takes them.
    var signatures: [UTF8Key: FileSignature] {
        Dictionary(
            entries.map { (UTF8Key($0.name), $0.signature) }, uniquingKeysWith: { _, last in last })
    }
}
