import Glibc

/// What `stat` says of a file's identity and its last change, compared exactly to tell a
/// file untouched since it was read, as git's index does: the device and inode, the size,
/// and the modification and change times in nanoseconds.
///
/// The change time is the one no program can put back (`utimensat` sets the modification
/// time, and changes the change time doing it), so a rewrite of the same size with its
/// modification time restored still differs.
struct FileSignature: Sendable, Hashable {
    var device: UInt64
    var inode: UInt64
    var size: Int64
    /// The modification time, nanoseconds since the epoch.
    var modified: Int64
    /// The change time (of the contents or the inode), nanoseconds since the epoch.
    var changed: Int64

    init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ buf: stat) {
        device = UInt64(buf.st_dev)
        inode = UInt64(buf.st_ino)
        size = Int64(buf.st_size)
        modified = WallClock.nanoseconds(buf.st_mtim)
        changed = WallClock.nanoseconds(buf.st_ctim)
    }

    /// Whether a file that had this signature when it was read, by a look that began at
    /// `start`, can be trusted to be unchanged while it keeps it: only when both its times
    /// are before `start`.
    ///
    /// `start` is the change time of a file the look stamped first, on the same file system
    /// (`FileDescriptor.stamp`): its clock and its precision, as git takes its index's time.
    /// A file changed again in the tick it was read in would keep its times and, at the
    /// same size, its signature: git's "racy clean" case. Any change after the stamp is
    /// stamped at or after it, so a signature whose times are before it cannot be kept by
    /// one; the others are read again. A write under way as the look began (an mmap, a
    /// write stamped at its start) and a clock set back are the cases this cannot see, as
    /// for git.
    func isSettled(before start: Int64) -> Bool {
        modified < start && changed < start
    }
}

extension FileDescriptor {
    /// The signature of the entry `name` in this directory, not following a final
    /// symbolic link; `nil` when it has none (gone).
    ///
    /// The corresponding C function is `fstatat` with `AT_SYMLINK_NOFOLLOW`.
    func signature(of name: String) -> FileSignature? {
        name.withCString { signature(ofName: $0) }
    }

    /// The same, of the entry whose NUL-terminated name is at `name`.
    func signature(ofName name: UnsafePointer<CChar>) -> FileSignature? {
        var buf = stat()
        guard Syscall.fstatat(rawValue, name, &buf, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileSignature(buf)
    }
}

extension FileDescriptor {
    /// The signature of this open file; `nil` when `fstat` fails.
    ///
    /// The corresponding C function is `fstat`.
    func signature() -> FileSignature? {
        var buf = stat()
        guard Syscall.fstat(rawValue, &buf) == 0 else { return nil }
        return FileSignature(buf)
    }

    /// Stamps the file `name` in this directory (made when missing) with the time now, as
    /// its file system keeps time, and returns that time: the start of a look, in the
    /// clock and at the precision the files it compares are stamped with.
    ///
    /// The corresponding C functions are `openat`, `futimens` and `fstat`.
    func stamp(_ name: String) throws(Errno) -> Int64 {
        let file = try FileDescriptor.open(
            name, relativeTo: self, flags: O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK)
        defer { file.close() }
        _ = try valueOrErrno { Syscall.futimensNow(file.rawValue) }
        var buf = stat()
        _ = try valueOrErrno { Syscall.fstat(file.rawValue, &buf) }
        return FileSignature(buf).changed
    }
}
