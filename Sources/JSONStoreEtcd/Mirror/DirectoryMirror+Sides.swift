import JSONStore

extension DirectoryMirror {
    /// Why the mirror stops on its own: what it would do next is not safe.
    struct Stop: Error {
        let error: StoreError
    }

    /// etcd is not the one the records were synced with (seen by a read after the
    /// reconcile): the next reconcile sets the records aside.
    struct AnotherEtcd: Error, CustomStringConvertible {
        let why: String
        var description: String { "etcd is not the one this directory was synced with (\(why))" }
    }

    /// Checks that the directory is still the one the mirror started on, with its
    /// private folder and the mirror's hold in it: a directory moved away and another put
    /// in its place (`mv tasks tasks.old; mkdir tasks`, a restore), or an unmount, shows
    /// none of the files the records name, and must never be read as their deletion.
    ///
    /// - Throws: `Stop` when it is not.
    func checkDirectory() throws(Stop) {
        let now = folder.storeIdentity()
        let changed: String
        if now != directory {
            changed =
                now.map { "it was \(directory), it is \($0)" }
                ?? "there is no directory there now: moved, removed or unmounted"
        } else if !hold.isInPlace {
            changed = "\(folder.path(of: "mirror")) was removed or replaced"
        } else {
            return
        }
        throw Stop(
            error: StoreError(
                code: .storeUnavailable,
                message:
                    "was replaced while mirrored (\(changed)); the mirror stops and deleted nothing; start it again to mirror the directory there now as a new one",
                file: store.path))
    }

    /// Stops on its own, for good: says nothing more, writes nothing more, and hands the
    /// error to `onFailure`.
    func fail(_ error: StoreError) {
        guard !failed else { return }
        failed = true
        stopped.withLock { $0 = true }
        following.withLock { $0?.stop() }
        observation?.invalidate()
        observation = nil
        onFailure?(error)
    }

    /// Takes etcd's answer as `origin` for the records: when it is another etcd than the
    /// one they were synced with (or `foreign` says why it is), sets them aside and says
    /// so, once.
    func check(_ origin: MirrorState.Origin, foreign: String? = nil) throws {
        if let why = foreign ?? state.foreignness(of: origin) {
            let note =
                "etcd at \(address.description) is not the etcd this directory was synced with (\(why)): wiped, replaced or restored from an older snapshot. No file here is deleted because it lacks it: this directory's items are uploaded, and an item that differs is kept as a conflict"
            say("mirror: \(note)")
            try state.forget(for: origin, note: note)
        }
        state.synced(with: origin)
    }
}
