extension JSONStore {
    /// Where the store keeps its schema, for messages: in a directory
    /// `.jsonstore/schema.json`, on etcd its key.
    package var schemaFile: String {
        remote?.schemaLocation ?? PrivateFolder(store: path).path(of: StoreSchema.fileName)
    }

    /// The store's schema document as it is written, or `nil` when the store has none.
    ///
    /// - Throws: `StoreError` when it cannot be read.
    public func schemaDocument() throws(StoreError) -> [UInt8]? {
        if let remote { return try remote.schemaDocument() }
        return try PrivateFolder(store: path).read(StoreSchema.fileName, limit: options.maxFileSize)
    }

    /// Puts `document` in force as the store's schema (JSON Schema 2020-12), after checking
    /// it: JSON, valid against the 2020-12 meta-schema, every `$ref` resolvable, every
    /// `pattern` compiled. Observers see every item it makes valid or invalid in one
    /// update. A schema is written as given, so `schemaDocument()` gives it back.
    ///
    /// - Throws: `StoreError` `.invalidSchema` with the line, column and keyword at fault,
    ///   the schema in force left as it was; or why it could not be written.
    public func setSchema(_ document: [UInt8]) throws(StoreError) {
        _ = try StoreSchema(bytes: document, file: schemaFile)
        if let remote {
            try remote.setSchemaDocument(document)
            return
        }
        let folder = PrivateFolder(store: path)
        try folder.replace(StoreSchema.fileName, with: document, sync: true)
        try folder.lettingSchemaThrough()
    }

    /// Removes the store's schema; whether there was one.
    @discardableResult
    public func removeSchema() throws(StoreError) -> Bool {
        if let remote { return try remote.setSchemaDocument(nil) }
        return try PrivateFolder(store: path).remove(StoreSchema.fileName)
    }

    /// The schema in force now and, when the document is there but broken, why (the last
    /// valid schema this value read stays in force).
    package func schemaState() -> SchemaCache.State {
        do {
            return schemas.state(of: try schemaDocument(), file: schemaFile)
        } catch {
            return SchemaCache.State(schema: schemas.lastValid, problem: error)
        }
    }

    /// The schema reads apply now: the one in force, when it is enforced (`strict`).
    var enforcedSchema: StoreSchema? {
        schemaState().enforced
    }
}

extension JSONStore {
    /// The errors of the items of `items` that break the schema in force when it only
    /// warns (`warn`), each located in what the store holds for it now: what `check`
    /// reports and a write's warnings say. None under a strict schema, whose breaking
    /// items are invalid already.
    package func _schemaWarnings(_ items: [Item]) -> [StoreError] {
        guard let schema = schemaState().schema, !schema.isEnforced else { return [] }
        return items.compactMap { item in
            guard !schema.schema.isValid(StoreSchema.checked(item)) else { return nil }
            let bytes = try? _storedValue(of: item.id)?.bytes
            return schema.error(of: item, bytes: bytes, file: filePath(item.id))
        }
    }
}
