/// How a store watches its directory.
public enum WatchMode: Sendable, Equatable {
    /// Linux inotify: every edit is seen at once, with no polling.
    case inotify
    /// Compare directory listings and file signatures every `interval` seconds, for network
    /// file systems (NFS, SMB, FUSE) where inotify does not see other machines' writes.
    case polling(interval: Double)
    /// inotify, or polling every `interval` seconds when inotify's limits are reached
    /// (`fs.inotify.max_user_instances`, `max_user_watches`, the descriptor limit).
    case inotifyOrPolling(interval: Double)
    /// inotify, unless the store is on a file system where inotify misses other machines'
    /// writes (NFS, SMB/CIFS, FUSE such as sshfs or rclone, 9p, virtiofs, Ceph and the
    /// like, told by `statfs`): there, polling every `interval` seconds. The default;
    /// `JSONStore.watching` says which it chose, and why.
    case automatic(interval: Double)
}
