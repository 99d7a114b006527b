import Glibc

/// The store's lock: `flock` on `.jsonstore.lock` in the store directory.
///
/// Held for each write, so read-modify-write cycles of different processes, and of
/// different threads of one process (each opens its own descriptor), never interleave.
enum StoreLock {
    static let fileName = ".jsonstore.lock"

    /// Takes the lock, waiting for it; closing the returned descriptor releases it.
    static func acquire(in directory: FileDescriptor) throws(Errno) -> FileDescriptor {
        // Read-only: `flock` needs no write access, so a lock file another user created
        // (0644) does not keep this one from writing a store both may write.
        let fd = try FileDescriptor.open(
            fileName, relativeTo: directory, flags: O_RDONLY | O_CREAT | O_NOFOLLOW, mode: 0o644)
        try fd.closeIfThrows { fd throws(Errno) in try fd.lockExclusive() }
        return fd
    }

    /// Takes the lock of the store at `path` (open as `directory`), waiting for it; the
    /// failure named as the store's.
    static func acquire(in directory: FileDescriptor, store path: String) throws(StoreError)
        -> FileDescriptor
    {
        do {
            return try acquire(in: directory)
        } catch {
            throw StoreError.system(
                error, "could not take the store lock", file: join(path, fileName))
        }
    }
}
