import JSONStore

/// What a mirror does for one item to make the directory and etcd equal again, decided
/// from what each side holds now and what was last synced (`MirrorState.Record`).
///
/// A side changed when it differs from the record: the file's etag, the key's
/// `mod_revision`. Changed on one side only, the change is copied to the other (a deletion
/// too, so nothing deleted is resurrected). Changed on both to the same bytes, the record
/// is brought up to date. Changed on both differently, etcd's version stays, because etcd
/// accepted it first, and the file's is kept as a conflict of the item.
enum MirrorAction: Equatable {
    /// Equal, or waiting for a side to become valid.
    case none
    /// Put the file's bytes, if the key's `mod_revision` is still this (0: no key).
    case push(expecting: Int64)
    /// Delete the key, if its `mod_revision` is still this.
    case deleteRemote(expecting: Int64)
    /// Write etcd's value into the file.
    case pull
    /// Delete the file.
    case deleteLocal
    /// Both sides hold the same already: record it.
    case adopt
    /// Both changed differently: keep the file's version as a conflict, then take etcd's.
    case conflict

    /// What the directory holds for an item.
    enum Local: Equatable {
        case absent
        case file(etag: String)
        /// A file that is not a valid item: never pushed, never overwritten.
        case invalid
    }

    /// What etcd holds for an item.
    enum Remote: Equatable {
        case absent
        /// The value's `mod_revision`, and the etag its bytes would have as a file.
        case value(revision: Int64, etag: String)
        /// A value that is not a valid item: never pulled.
        case invalid
    }

    /// The action for an item holding `local` and `remote`, last synced as `record`.
    static func decide(local: Local, remote: Remote, record: MirrorState.Record?) -> MirrorAction {
        let localETag: String?
        switch local {
        case .absent: localETag = nil
        case .file(let etag): localETag = etag
        case .invalid: return .none
        }
        let remoteRevision: Int64?
        let remoteETag: String?
        switch remote {
        case .absent: (remoteRevision, remoteETag) = (nil, nil)
        case .value(let revision, let etag): (remoteRevision, remoteETag) = (revision, etag)
        case .invalid: return .none
        }
        let syncedETag = record?.etag
        let syncedRevision = syncedETag == nil ? nil : record?.revision
        switch (localETag != syncedETag, remoteRevision != syncedRevision) {
        case (false, false):
            return .none
        case (true, false):
            guard localETag != nil else {
                return remoteRevision.map { .deleteRemote(expecting: $0) } ?? .adopt
            }
            return .push(expecting: remoteRevision ?? 0)
        case (false, true):
            guard remoteRevision != nil else { return localETag == nil ? .adopt : .deleteLocal }
            return .pull
        case (true, true):
            if localETag == remoteETag { return .adopt }
            // Deleted here while changed in etcd: etcd's version stays, nothing to keep.
            if localETag == nil { return .pull }
            return .conflict
        }
    }
}
