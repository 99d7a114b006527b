extension JSONStore {
    /// Reads every item file of the store.
    ///
    /// Files that are not valid items are returned in `invalid`, each with its error; every
    /// other item is loaded. Entries that are not regular files are reported, never opened
    /// in a way that could block or leave the directory. Large stores are read on every
    /// core.
    ///
    /// - Complexity: O(n) in the total size of the files.
    /// - Throws: `StoreError` when the directory itself cannot be read.
    public func load() throws(StoreError) -> StoreContents {
        var items: [Item] = []
        // The whole store as one chunk, read on every core.
        let invalid = try storeErrors { try forEachChunk(of: .max) { items = $0 } }
        return StoreContents(items: items, invalid: invalid)
    }

    /// Reads every item file of the store as `load` does, but takes an item that breaks
    /// the schema for an item: what `schema infer` and `check` look at.
    package func _loadIgnoringSchema() throws -> StoreContents {
        var items: [Item] = []
        let invalid = try forEachChunk(of: .max, applyingSchema: false) { items += $0 }
        return StoreContents(items: items, invalid: invalid)
    }

    /// Reads every item file of the store in id order, a chunk at a time, handing each
    /// chunk's valid items to `body`: what is held at once is the sorted ids and one chunk
    /// of items, not the store (36 MiB at a million items with ids of 11 bytes).
    ///
    /// - Parameters:
    ///   - size: how many files a chunk reads (in parallel when it is large).
    ///   - body: called with each chunk's items, in id order; what it throws ends the read.
    /// - Returns: the files that are not valid items, sorted by name.
    /// - Throws: `StoreError` when the directory itself cannot be read, or what `body`
    ///   throws.
    package func forEachChunk(
        of size: Int = 4_096, applyingSchema: Bool = true, _ body: (_ items: [Item]) throws -> Void
    ) throws -> [InvalidFile] {
        if let remote {
            var broken: [InvalidFile] = []
            var invalid = try remote.forEachChunk(of: size, reader: reader) { items, document in
                // The schema of the listing's own revision: a schema put between reading it
                // and reading the items is not applied to items it never saw.
                guard applyingSchema,
                    let schema = schemas.state(of: document, file: schemaFile).enforced
                else { return try body(items) }
                try body(
                    items.filter { item in
                        let file = remote.location(of: item.id)
                        guard let error = schema.error(of: item, bytes: nil, file: file)
                        else { return true }
                        broken.append(InvalidFile(itemID: item.id, error: error))
                        return false
                    })
            }
            invalid += broken
            invalid.sort { UTF8Key.less($0.name, $1.name) }
            return invalid
        }
        let schema = applyingSchema ? enforcedSchema : nil
        let dir = try openDirectory()
        defer { dir.close() }
        let listing = try listing(of: dir)
        var invalid = Array(listing.badNames.values)
        for start in stride(from: 0, to: listing.ids.count, by: size) {
            let ids = Array(listing.ids[start..<min(listing.ids.count, start &+ size)])
            var items: [Item] = []
            items.reserveCapacity(ids.count)
            for (id, outcome) in zip(ids, read(ids, in: dir, schema: schema)) {
                switch outcome {
                case .item(let item): items.append(item)
                case .invalid(let error): invalid.append(InvalidFile(itemID: id, error: error))
                case .missing: continue  // removed since the listing
                }
            }
            try body(items)
        }
        // The listing's ids are sorted, and the outcomes come in their order.
        invalid.sort { UTF8Key.less($0.name, $1.name) }
        return invalid
    }

    /// Reads the items `ids`, in parallel when there are many; an item that breaks
    /// `schema` is invalid.
    func read(_ ids: [String], in dir: FileDescriptor, schema: StoreSchema?)
        -> [ItemFile.Outcome]
    {
        ItemFile.readMany(
            ids, in: dir, path: path, reader: reader, parallelAbove: options.parallelLoadThreshold,
            schema: schema)
    }

    /// The item `id`, or `nil` if there is no such file.
    ///
    /// - Throws: `StoreError` with code `.invalidID` for a refused id (nothing is touched),
    ///   or the file's error when it exists but is not a valid item.
    public func item(_ id: String) throws(StoreError) -> Item? {
        try ItemID.validate(id)
        switch try outcome(of: id) {
        case .item(let item): return item
        case .invalid(let error): throw error
        case .missing: return nil
        }
    }

    /// What the store holds for `id` now; an item that breaks the schema in force is
    /// invalid.
    private func outcome(of id: String) throws(StoreError) -> ItemFile.Outcome {
        let schema = enforcedSchema
        if let remote {
            let outcome = try remote.read(id, reader: reader)
            return schema?.applied(to: outcome, bytes: nil, file: filePath(id)) ?? outcome
        }
        let dir = try openDirectory()
        defer { dir.close() }
        return ItemFile.read(id: id, in: dir, path: path, reader: reader, schema: schema).0
    }

    /// The item `id` decoded as `T`, or `nil` if there is no such file.
    ///
    /// - Throws: `StoreError`: `.invalidID`, the file's error, or `.invalidItem` when it
    ///   does not decode as `T` (naming the member at fault).
    public func item<T: Decodable>(_ id: String, as type: T.Type) throws(StoreError) -> T? {
        guard let item = try item(id) else { return nil }
        return try decode(item, as: type)
    }

    /// Decodes `item`, naming the file by its path in errors.
    func decode<T: Decodable>(_ item: Item, as type: T.Type) throws(StoreError) -> T {
        do {
            return try item.decode(as: type)
        } catch {
            var error = error
            error.file = filePath(item.id)
            throw error
        }
    }
}

extension JSONStore {
    /// The listing of the store directory `dir`, as the store reads it.
    func listing(of dir: FileDescriptor) throws(StoreError) -> StoreListing {
        do {
            return try StoreListing(scanning: dir, path: path)
        } catch {
            throw StoreError.system(error, "could not list the store directory", file: path)
        }
    }
}
