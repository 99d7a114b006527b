/// Where a batch reads what it builds on and commits what it wrote: the directory under
/// the store's lock (`DirectoryBatch`), or a remote store such as etcd.
///
/// `Transaction` keeps the batch's logic (its own writes seen by its reads, the bytes
/// each item is written as, what is no change at all); a storage only reads, checks and
/// writes. One storage serves one attempt of one batch, on one thread.
package protocol BatchStorage: AnyObject {
    /// What the store holds for `id` now. A storage reads each id once and keeps what it
    /// read: the commit checks that it is still so.
    func read(_ id: String) -> ItemFile.Outcome

    /// Writes `writes`, in order: atomically where the backend can (etcd: one
    /// transaction), each file atomically on a directory.
    ///
    /// - Parameter lastAttempt: whether something changed since it was read is an error
    ///   (`.conflict`) rather than a reason to run the batch again.
    /// - Returns: `false` when something this batch read has changed since and nothing
    ///   was written, so the batch should run again from a fresh read.
    func commit(_ writes: [StagedWrite], lastAttempt: Bool) throws(StoreError) -> Bool

    /// The etag of what the store holds for `id`, valid or not, when the storage knows it
    /// apart from the item (etcd's `mod_revision`); `nil` to take the item's.
    func storedETag(of id: String) -> String?
}

extension BatchStorage {
    package func storedETag(of id: String) -> String? { nil }
}

/// One write of a batch, ready to go: an item's new bytes, or its deletion (`nil`).
package struct StagedWrite: Sendable {
    package let id: String
    /// The item's bytes as the store holds them (2-space pretty JSON, a newline at the
    /// end), or `nil` to delete the item.
    package let bytes: [UInt8]?
    /// The members those bytes hold, when the batch has them already (the history records
    /// them without parsing the bytes again).
    let object: JSONObject?

    init(id: String, bytes: [UInt8]?, object: JSONObject? = nil) {
        self.id = id
        self.bytes = bytes
        self.object = object
    }
}
