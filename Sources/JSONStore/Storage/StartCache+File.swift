import Glibc

/// The start cache in the store's private folder, beside the journal: `.jsonstore/start`,
/// and the marker whose stamp is a look's start, `.jsonstore/start.look`.
extension StartCache {
    static let fileName = "start"
    static let lookName = "start.look"

    /// The terms items are read under: the reader's limits and the enforced schema's
    /// bytes. A cache written under other terms is not used.
    static func terms(reader: JSONReader, schema: StoreSchema?) -> Fingerprint {
        var text = Array("depth \(reader.maxDepth) size \(reader.maxSize) schema ".utf8)
        if let schema { text += Array(schema.fingerprint.etag.utf8) }
        return Fingerprint(text)
    }

    /// The identity of the open store directory `dir`, as a cache names it.
    static func directory(of dir: FileDescriptor) -> Directory? {
        guard let status = try? dir.status() else { return nil }
        return Directory(device: status.device, inode: status.inode)
    }

    /// The cache's file of the store at `store`, open, if it is a regular file: the
    /// caller closes it.
    static func openFile(store: String) -> (FileDescriptor, Source)? {
        guard let folder = try? PrivateFolder(store: store).openFolder("", create: false)
        else { return nil }
        defer { folder.close() }
        guard
            let fd = try? FileDescriptor.open(
                fileName, relativeTo: folder, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        else { return nil }
        guard let status = try? fd.status(), status.kind == .regular else {
            fd.close()
            return nil
        }
        return (fd, .file(fd, size: status.size))
    }

    /// Begins a look at the store at `store`: the marker stamped now, in the file system's
    /// clock (`FileDescriptor.stamp`). `nil` when the private folder cannot be written (a
    /// reader who may not write the store keeps no cache).
    ///
    /// - Parameter create: makes the private folder when it is not there (a start does;
    ///   a writer does not: a folder gone since the start is a store being removed).
    static func beginLook(store: String, create: Bool = true) -> Int64? {
        guard let folder = try? PrivateFolder(store: store).openFolder("", create: create) else {
            return nil
        }
        defer { folder.close() }
        return try? folder.stamp(lookName)
    }

    /// How old (by its modification time, in seconds) a staged cache is once its writer is
    /// taken to be gone.
    static let abandonedAge: Double = 60

    /// What `write` put in place: the cache's header, where its records and ids are, and
    /// its file's signature once in place (`nil` when another file took its place at once).
    struct Placed: Sendable {
        let header: Header
        let signature: FileSignature?
        let records: Int
        let count: Int
        let names: Int
        let namesCount: Int
    }

    /// Writes the cache of `header` for the store at `store`, replacing the last one: its
    /// `count` entries, whose ids have `namesCount` bytes, each given by `entries` to the
    /// encoder as it is made. Best effort: a cache that cannot be written is simply not
    /// there next time, and no part of one is ever in its place. What was written; `nil`
    /// when nothing was.
    @discardableResult
    static func write(
        store: String, header: Header, count: Int, namesCount: Int,
        entries: (inout Encoder<FileSink>) throws(Errno) -> Void
    ) -> Placed? {
        // Never made here: the start's look made it (`beginLook`).
        guard let folder = try? PrivateFolder(store: store).openFolder("", create: false)
        else { return nil }
        defer { folder.close() }
        // A cache a killed follower was writing is left staged: gone once it is clearly
        // abandoned (a write in progress touches its file at every block).
        AtomicFile.removeStale(in: folder, olderThan: abandonedAge)
        var starts = (records: 0, names: 0)
        let staged = try? AtomicFile.stage(permissions: 0o644, in: folder, sync: false) {
            (fd) throws(Errno) in
            var encoder = Encoder(
                header: header, count: count, namesCount: namesCount, into: FileSink(fd: fd))
            try entries(&encoder)
            try encoder.finish()
            starts = (encoder.recordsStart, encoder.namesStart)
        }
        guard let staged else { return nil }
        let ours = folder.signature(of: staged)
        guard (try? folder.rename(staged, to: fileName)) != nil else {
            try? folder.unlink(staged)
            return nil
        }
        // Its signature in place (a rename changes the change time), if it is still ours.
        let placed = folder.signature(of: fileName)
        let same = ours != nil && placed?.device == ours?.device && placed?.inode == ours?.inode
        return Placed(
            header: header, signature: same ? placed : nil, records: starts.records, count: count,
            names: starts.names, namesCount: namesCount)
    }

    /// Writes a cache of `header` and `entries`, in order, for the store at `store`.
    static func write(store: String, header: Header, entries: [Entry]) {
        write(
            store: store, header: header, count: entries.count,
            namesCount: entries.reduce(0) { $0 + $1.id.utf8.count }
        ) { (encoder) throws(Errno) in
            for entry in entries { try encoder.append(entry) }
        }
    }

    /// The bytes of a cache of `header` and `entries`, in order (tests).
    static func encoded(_ header: Header, _ entries: [Entry]) throws(Errno) -> [UInt8] {
        var encoder = Encoder(
            header: header, count: entries.count,
            namesCount: entries.reduce(0) { $0 + $1.id.utf8.count }, into: MemorySink())
        for entry in entries { try encoder.append(entry) }
        try encoder.finish()
        return encoder.output.bytes
    }

    /// A cache's file, written where each part goes.
    struct FileSink: Sink {
        let fd: FileDescriptor

        func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
            try fd.writeAll(bytes, at: offset)
        }
    }
}
