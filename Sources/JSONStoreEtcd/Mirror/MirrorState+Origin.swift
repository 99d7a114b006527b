import JSONStore

extension MirrorState {
    /// etcd as a response header names it: its cluster id and the revision it is at.
    struct Origin: Equatable, CustomStringConvertible {
        var cluster: String?
        var revision: Int64

        var description: String {
            (cluster.map { "cluster \($0)" } ?? "an unknown cluster") + " at revision \(revision)"
        }
    }

    /// Why etcd answering as `origin` is not the etcd the records were synced with, if it
    /// is not: another cluster id, or a revision lower than one synced (a fresh etcd, or
    /// one restored from an older snapshot, at the same address). `nil` when it may be.
    func foreignness(of origin: Origin) -> String? {
        if let cluster, let now = origin.cluster, cluster != now {
            return "its cluster id was \(cluster), it is \(now)"
        }
        if origin.revision < etcdRevision {
            return
                "it is at revision \(origin.revision), lower than the revision \(etcdRevision) synced with it"
        }
        return nil
    }
}
