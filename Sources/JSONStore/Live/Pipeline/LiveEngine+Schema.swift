extension LiveEngine {
    /// The name the pipeline reports a broken schema under, as an invalid file.
    static let schemaName = UTF8Key(PrivateFolder.name + "/" + StoreSchema.fileName)

    /// Reads the store's schema document again and takes the schema it puts in force (the
    /// last valid one when it is broken); whether the schema items are read with changed,
    /// so that every item must be read again.
    ///
    /// - Returns also: why the document is not in force, when it is broken, as the invalid
    ///   file the pipeline reports.
    func loadSchema() -> (changed: Bool, problem: InvalidFile?) {
        let folder = PrivateFolder(store: configuration.path)
        let file = folder.path(of: StoreSchema.fileName)
        let state: SchemaCache.State
        do {
            let bytes = try folder.read(StoreSchema.fileName, limit: configuration.reader.maxSize)
            state = configuration.schemas.state(of: bytes, file: file)
        } catch {
            state = SchemaCache.State(schema: configuration.schemas.lastValid, problem: error)
        }
        let enforced = state.enforced
        let changed = enforced?.fingerprint != schema?.fingerprint
        schema = enforced
        let problem = state.problem.map {
            InvalidFile(name: Self.schemaName.string, id: nil, error: $0)
        }
        return (changed, problem)
    }
}
