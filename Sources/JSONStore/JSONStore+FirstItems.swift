extension JSONStore {
    // MARK: A first screen before the store is loaded
    //
    // A view draws its first rows while its observation loads the whole store: in id order
    // from the directory's names, in any other order from the start cache, each row read
    // from its file. What the first screen shows is replaced by the loaded results.

    /// The first `count` items in id order, read without reading the rest: the smallest
    /// ids are picked as the directory's names go by (no listing of every id is built or
    /// sorted), then only their files are read; on etcd, the first page of the range. For
    /// a view that draws its first screen while the whole store loads.
    package func _firstItems(_ count: Int) throws -> [Item] {
        guard count > 0 else { return [] }
        guard remote == nil else { return try firstChunk(count) }
        let dir = try openDirectory()
        defer { dir.close() }
        var first: [[UInt8]] = []  // the smallest item ids so far, ascending by bytes
        let suffix = Array(".json".utf8)
        do {
            try DirectoryScan.forEachName(in: dir) { name in
                let bytes = UnsafeRawBufferPointer(name).prefix(name.count - 1)  // no NUL
                guard bytes.count > suffix.count, bytes.suffix(suffix.count).elementsEqual(suffix)
                else { return }
                let id = bytes.prefix(bytes.count - suffix.count)
                if first.count == count, !id.lexicographicallyPrecedes(first[count - 1]) { return }
                guard let text = String(validating: id, as: UTF8.self),
                    case .item = EntryName(text + ".json")
                else { return }
                let at = first.firstIndex { id.lexicographicallyPrecedes($0) } ?? first.count
                first.insert(Array(id), at: at)
                if first.count > count { first.removeLast() }
            }
        } catch {
            throw StoreError.system(error, "could not list the store directory", file: path)
        }
        return readItems(first.map { String(decoding: $0, as: UTF8.self) }, in: dir)
    }

    /// The items of the files of `ids` that hold one, under the store's schema.
    private func readItems(_ ids: [String], in dir: FileDescriptor) -> [Item] {
        read(ids, in: dir, schema: enforcedSchema).compactMap {
            if case .item(let item) = $0 { return item }
            return nil
        }
    }

    /// The first chunk of `count` items of a chunked read, the rest left unread.
    private func firstChunk(_ count: Int) throws -> [Item] {
        struct Enough: Error {}
        var first: [Item] = []
        do {
            _ = try forEachChunk(of: max(1, count)) { items in
                first = Array(items.prefix(count))
                throw Enough()
            }
        } catch is Enough {}
        return first
    }

    /// The first `count` items of `query`'s results as the start cache knows the store,
    /// for a view to draw while the whole store loads: the cache's items walked a block at a
    /// time (none kept but the best `count`), then those read again from their files, so
    /// each row shown is the file's current value; a file changed since can move in or out
    /// of the first screen, which the loaded results then correct. Empty without a start
    /// cache (or with a damaged one); in id order without conditions, `_firstItems(_:)`.
    package func _firstItems(_ count: Int, of query: Query) throws -> [Item] {
        guard count > 0 else { return [] }
        if query.selectsEveryItemByID { return try _firstItems(count) }
        guard remote == nil, options.keepsStartCache else { return [] }
        let dir = try openDirectory()
        defer { dir.close() }
        guard let directory = StartCache.directory(of: dir),
            let cursor = StartCache.Cursor.open(
                store: path, directory: directory,
                terms: StartCache.terms(reader: reader, schema: enforcedSchema))
        else { return [] }
        var best = FirstKeys(count)
        func offer(_ item: Item) {
            if query.includes(item) { best.offer(query.sortKey(item), item.id) }
        }
        // Entries with no item: an id the journal knows deleted (none now), or a file the
        // cache did not keep (invalid, or written too recently to trust): read it.
        var unkept: [String] = []
        var scratch = JSONTape()  // one tape's storage for every item checked
        for k in 0..<cursor.count {
            let signature = cursor.signature(at: k)
            guard signature.isFile else {
                if signature == .unknown { unkept.append(cursor.id(at: k)) }
                continue
            }
            // Checked before use, as every item's bytes are: the section's checksum is
            // known only once it is all read.
            let item = cursor.withItemBytes(k) { bytes -> Item? in
                let text = bytes.assumingMemoryBound(to: UInt8.self)
                guard (try? ItemBytes.reader.tape(text, into: &scratch)) != nil,
                    scratch.entries[0].kind == .object
                else { return nil }
                return Item(
                    id: cursor.id(at: k), bytes: ItemBytes(bytes),
                    fingerprint: cursor.fingerprint(at: k))
            }
            if let item = item ?? nil { offer(item) }
        }
        guard cursor.itemsIntact() else { return [] }
        readItems(unkept, in: dir).forEach(offer)
        return query.apply(to: readItems(best.ids, in: dir))
    }
}

/// The ids of the `count` least sort keys offered, kept in order.
struct FirstKeys {
    private let count: Int
    private var kept: [(key: SortKey, id: String)] = []

    init(_ count: Int) { self.count = count }

    /// Keeps `id` if its key is among the least so far.
    mutating func offer(_ key: SortKey, _ id: String) {
        if kept.count == count, !(key < kept[count - 1].key) { return }
        kept.insert((key, id), at: Bisection.first(of: kept.count) { !(kept[$0].key < key) })
        if kept.count > count { kept.removeLast() }
    }

    var ids: [String] { kept.map(\.id) }
}
