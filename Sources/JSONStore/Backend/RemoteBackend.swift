/// A store that lives somewhere other than a directory (etcd), as `JSONStore` sees it.
///
/// A backend reads and writes items by id and makes the live source that feeds the
/// pipeline; everything else (the batch logic, reducing, subscriptions, typed results,
/// delivery) is `JSONStore`'s and shared with directories. Implemented outside this
/// target (`JSONStoreEtcd`), so a program that only uses directories links no networking.
package protocol RemoteBackend: Sendable {
    /// The store's address as messages show it, for example `etcd://127.0.0.1:2379/tasks`.
    var address: String { get }

    /// Where the item `id` lives, as messages name it (etcd: its key, `tasks/tea`).
    func location(of id: String) -> String

    /// What the store holds for `id` now.
    func read(_ id: String, reader: JSONReader) throws(StoreError) -> ItemFile.Outcome

    /// The value of `id` as it is stored, valid or not, or `nil` if there is none: what
    /// the list view shows a person (`JSONStore._fileBytes`).
    func rawValue(of id: String, limit: Int) throws(StoreError) -> (bytes: [UInt8], etag: String)?

    /// Every item in id order, a chunk at a time, read as one consistent snapshot, with the
    /// schema document of that same snapshot (`nil` when it had none).
    ///
    /// - Returns: what is not a valid item (values that do not parse, keys that are not
    ///   ids), sorted by name.
    func forEachChunk(
        of size: Int, reader: JSONReader,
        _ body: (_ items: [Item], _ schemaDocument: [UInt8]?) throws -> Void
    ) throws -> [InvalidFile]

    /// The whole store as it was at `revision`, to resume an observation from: the list a
    /// follower kept then, so an item invalid at `revision` comes with its last valid
    /// value before it (`SourceListing.lastValid`).
    ///
    /// - Throws: `StoreError` saying why it cannot be had (etcd compacted it away, or it
    ///   is newer than the store's).
    func listing(at revision: Int64, reader: JSONReader) throws(StoreError) -> SourceListing

    /// The changes of `id` (of every item when `nil`) from `revision` on that the store
    /// still keeps, oldest first, made from the versions it keeps of each item.
    ///
    /// - Throws: `StoreError`: `.notFound` when `revision` is past what the store keeps
    ///   (etcd compacted it away), or the server's error.
    func history(of id: String?, from revision: Int, reader: JSONReader) throws(StoreError)
        -> RemoteHistory

    /// What the store held for `id` right after `revision`.
    ///
    /// - Throws: `StoreError`: `.notFound` when it no longer keeps that revision, or it is
    ///   newer than the store's.
    func read(_ id: String, at revision: Int, reader: JSONReader) throws(StoreError)
        -> ItemFile.Outcome

    /// The revision before which the store has discarded its history (etcd: its last
    /// compaction), 0 when none.
    func compactedRevision() throws(StoreError) -> Int

    /// What the server is and the limits it puts on the store, for `check` (`nil` when it
    /// cannot be asked).
    func serverSummary() -> String?

    /// Where the store keeps its schema, for messages (etcd: its key).
    var schemaLocation: String { get }

    /// The store's schema document, or `nil` when it has none.
    func schemaDocument() throws(StoreError) -> [UInt8]?

    /// Replaces the store's schema document with `document`, or removes it (`nil`);
    /// whether there was one.
    @discardableResult
    func setSchemaDocument(_ document: [UInt8]?) throws(StoreError) -> Bool

    /// A storage for one attempt of one batch.
    func makeBatch(reader: JSONReader) -> any BatchStorage

    /// The live source of the store, reporting to `report` (called from any thread, one
    /// report at a time, in order), keeping the bytes of the values its changes bring in
    /// `recent` (where a decoding error is located).
    func makeSource(
        reader: JSONReader, keepingIn recent: RecentBytes,
        report: @escaping @Sendable (SourceReport) -> Void
    ) -> any LiveSource
}
