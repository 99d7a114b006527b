import Glibc

/// An open file descriptor, with typed wrappers over the calls the store makes.
///
/// A descriptor has one owner that closes it; `closeAfter(_:)` makes that hard to forget,
/// and `closeIfThrows(_:)` closes one whose setup failed before it was handed on.
struct FileDescriptor: Hashable, Sendable {
    let rawValue: CInt

    /// Opens `path` relative to `directory` (or the working directory when `nil`).
    ///
    /// The corresponding C function is `openat`.
    static func open(
        _ path: String, relativeTo directory: FileDescriptor? = nil, flags: CInt,
        mode: mode_t = 0o644
    ) throws(Errno) -> FileDescriptor {
        let dir = directory?.rawValue ?? AT_FDCWD
        let fd = try valueOrErrno { Syscall.openat(dir, path, flags | O_CLOEXEC, mode) }
        return FileDescriptor(rawValue: fd)
    }

    /// Creates the directory `path`, with `permissions` as filtered by the umask.
    ///
    /// The corresponding C function is `mkdir`.
    static func makeDirectory(_ path: String, permissions: mode_t) throws(Errno) {
        _ = try valueOrErrno { Syscall.mkdir(path, permissions) }
    }

    /// Opens a directory for use as the anchor of `*at` calls.
    static func openDirectory(_ path: String) throws(Errno) -> FileDescriptor {
        try open(path, flags: O_RDONLY | O_DIRECTORY)
    }

    /// Closes the descriptor after `body` returns or throws.
    func closeAfter<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body(self)
    }

    /// Runs `body`, which sets up a descriptor just opened; closes it if `body` throws,
    /// and else leaves it open, the caller's to hand on: one opened and then given up on
    /// is never left open.
    func closeIfThrows<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(E) -> R {
        do {
            return try body(self)
        } catch {
            close()
            throw error
        }
    }

    /// Closes the descriptor. Errors are ignored: Linux releases the descriptor whatever
    /// `close` returns, so retrying would close someone else's.
    ///
    /// The corresponding C function is `close`.
    func close() {
        _ = Syscall.close(rawValue)
    }

    /// Reads up to `buffer.count` bytes.
    ///
    /// The corresponding C function is `read`.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        try valueOrErrno { Syscall.read(rawValue, buffer.baseAddress, buffer.count) }
    }

    /// Reads up to `buffer.count` bytes from `offset`, leaving the file's position alone.
    ///
    /// The corresponding C function is `pread`.
    func read(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno) -> Int {
        try valueOrErrno {
            Syscall.pread(rawValue, buffer.baseAddress, buffer.count, off_t(offset))
        }
    }

    /// Reads into all of `buffer` from `offset`, continuing after short reads, fewer at the
    /// end of the file; how many were read.
    func readFully(into buffer: UnsafeMutableRawBufferPointer, at offset: Int) throws(Errno)
        -> Int
    {
        var done = 0
        while done < buffer.count {
            let n = try read(
                into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]), at: offset + done)
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// The bytes from `offset` to `offset + count`, fewer at the end of the file.
    func read(count: Int, at offset: Int) throws(Errno) -> [UInt8] {
        var failure: Errno?
        // Not zeroed first: the bytes read are all that is kept.
        let bytes = [UInt8](uninitializedCount: count) { buffer, initialized in
            do throws(Errno) {
                initialized = try readFully(
                    into: UnsafeMutableRawBufferPointer(buffer), at: offset)
            } catch {
                failure = error
                initialized = 0
            }
        }
        if let failure { throw failure }
        return bytes
    }

    /// Writes all of `bytes`, continuing after short writes.
    ///
    /// The corresponding C function is `write`.
    func writeAll(_ bytes: UnsafeRawBufferPointer) throws(Errno) {
        var offset = 0
        while offset < bytes.count {
            let written = try valueOrErrno {
                Syscall.write(rawValue, bytes.baseAddress! + offset, bytes.count - offset)
            }
            offset += written
        }
    }

    /// Writes all of `bytes` at `offset`, leaving the file's position alone.
    ///
    /// The corresponding C function is `pwrite`.
    func writeAll(_ bytes: UnsafeRawBufferPointer, at offset: Int) throws(Errno) {
        var done = 0
        while done < bytes.count {
            done += try valueOrErrno {
                Syscall.pwrite(
                    rawValue, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            }
        }
    }

    /// Flushes the file's data, and the metadata needed to read it back (its size), to
    /// the device.
    ///
    /// The corresponding C function is `fdatasync`.
    func syncData() throws(Errno) {
        _ = try valueOrErrno { Syscall.fdatasync(rawValue) }
    }

    /// Starts writing `count` bytes from `offset` to the device, after any write of them
    /// already under way, without waiting for it to end.
    ///
    /// The corresponding C function is `sync_file_range` with `SYNC_FILE_RANGE_WAIT_BEFORE`
    /// and `SYNC_FILE_RANGE_WRITE`.
    func startWriteback(from offset: Int, count: Int) throws(Errno) {
        // SYNC_FILE_RANGE_WAIT_BEFORE (1) | SYNC_FILE_RANGE_WRITE (2): GNU flags that
        // Swift's Glibc module does not export.
        let flags: CUnsignedInt = 1 | 2
        _ = try valueOrErrno {
            Syscall.syncFileRange(rawValue, off_t(offset), off_t(count), flags)
        }
    }

    /// Flushes the file's data and metadata to the device.
    ///
    /// The corresponding C function is `fsync`.
    func sync() throws(Errno) {
        _ = try valueOrErrno { Syscall.fsync(rawValue) }
    }

    /// Writes every dirty file of the file system this descriptor is on to the disk, in
    /// one call: cheaper than an `fsync` per file when a batch wrote many.
    func syncFileSystem() throws(Errno) {
        _ = try valueOrErrno { Syscall.syncfs(rawValue) }
    }

    /// The file's status.
    ///
    /// The corresponding C function is `fstat`.
    func status() throws(Errno) -> FileStatus {
        var buf = stat()
        _ = try valueOrErrno { Syscall.fstat(rawValue, &buf) }
        return FileStatus(buf)
    }

    /// The status of `path` in this directory, not following a final symlink.
    ///
    /// The corresponding C function is `fstatat` with `AT_SYMLINK_NOFOLLOW`.
    func linkStatus(of path: String) throws(Errno) -> FileStatus {
        var buf = stat()
        _ = try valueOrErrno { Syscall.fstatat(rawValue, path, &buf, AT_SYMLINK_NOFOLLOW) }
        return FileStatus(buf)
    }

    /// The status of the entry whose NUL-terminated name is `name`, not following a
    /// symbolic link, with its change time; `nil` when it cannot be had (gone meanwhile).
    func linkStatus(ofName name: UnsafeBufferPointer<CChar>) -> (FileStatus, timespec)? {
        var buf = stat()
        guard Syscall.fstatat(rawValue, name.baseAddress!, &buf, AT_SYMLINK_NOFOLLOW) == 0 else {
            return nil
        }
        return (FileStatus(buf), buf.st_ctim)
    }

    /// Changes the file's permission bits.
    ///
    /// The corresponding C function is `fchmod`.
    func setPermissions(_ mode: mode_t) throws(Errno) {
        _ = try valueOrErrno { Syscall.fchmod(rawValue, mode) }
    }

    /// Renames `old` to `new`, both in this directory, replacing `new` atomically.
    ///
    /// The corresponding C function is `renameat`.
    func rename(_ old: String, to new: String) throws(Errno) {
        _ = try valueOrErrno { Syscall.renameat(rawValue, old, rawValue, new) }
    }

    /// Removes the file `path` in this directory.
    ///
    /// The corresponding C function is `unlinkat`.
    func unlink(_ path: String) throws(Errno) {
        _ = try valueOrErrno { Syscall.unlinkat(rawValue, path, 0) }
    }

    /// Takes an exclusive advisory lock on the whole file, waiting for it.
    ///
    /// The corresponding C function is `flock` with `LOCK_EX`.
    func lockExclusive() throws(Errno) {
        _ = try valueOrErrno { Syscall.flock(rawValue, LOCK_EX) }
    }

    /// Takes an advisory lock on the whole file if no other descriptor holds one that
    /// excludes it; whether it was taken. Never waits.
    ///
    /// The corresponding C function is `flock` with `LOCK_NB`.
    func tryLock(exclusive: Bool) throws(Errno) -> Bool {
        do {
            _ = try valueOrErrno {
                Syscall.flock(rawValue, (exclusive ? LOCK_EX : LOCK_SH) | LOCK_NB)
            }
            return true
        } catch .wouldBlock {
            return false
        }
    }

    /// Creates the directory `name` in this directory, with `permissions` as filtered by
    /// the umask.
    ///
    /// The corresponding C function is `mkdirat`.
    func makeDirectory(_ name: String, permissions: mode_t) throws(Errno) {
        _ = try valueOrErrno { Syscall.mkdirat(rawValue, name, permissions) }
    }

    /// Allocates the disk space of the bytes from `offset` to `offset + length` without
    /// changing the file's size, so writing them later cannot fail for want of space.
    ///
    /// The corresponding C function is `fallocate` with `FALLOC_FL_KEEP_SIZE`.
    func reserve(from offset: Int, length: Int) throws(Errno) {
        _ = try valueOrErrno { Syscall.fallocate(rawValue, 1, off_t(offset), off_t(length)) }
    }

    /// Cuts the file to `length` bytes.
    ///
    /// The corresponding C function is `ftruncate`.
    func truncate(to length: Int) throws(Errno) {
        _ = try valueOrErrno { Syscall.ftruncate(rawValue, off_t(length)) }
    }

    /// Reads the whole file, refusing to read more than `limit` bytes.
    ///
    /// A regular file returns less than asked only at its end, so for one a short read
    /// ends the loop. A pipe, a FIFO or a terminal returns what has arrived so far, so for
    /// those (`regular: false`) only end of file does; the limit is checked as the bytes
    /// arrive, so an endless producer is cut off at `limit + 1` bytes read.
    ///
    /// - Parameters:
    ///   - sizeHint: the expected size (a regular file's), to size the first read.
    ///   - regular: whether the descriptor is a regular file.
    /// - Returns: the bytes, or `nil` when the file holds more than `limit` bytes.
    func readAll(sizeHint: Int, limit: Int, regular: Bool = true) throws(Errno) -> [UInt8]? {
        let first = regular ? min(max(sizeHint, 0), limit) + 1 : min(64 << 10, limit + 1)
        var bytes = [UInt8](repeating: 0, count: first)
        var count = 0
        while true {
            if count == bytes.count {
                if count > limit { return nil }
                let room = min(bytes.count, limit + 1 - bytes.count)
                bytes.append(contentsOf: repeatElement(0, count: room))
            }
            let wanted = bytes.count - count
            let n = try bytes.withUnsafeMutableBytes { buffer in
                Result { () throws(Errno) in
                    try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]))
                }
            }.get()
            count += n
            if n == 0 || (regular && n < wanted) { break }
        }
        if count > limit { return nil }
        bytes.removeLast(bytes.count - count)
        return bytes
    }
}
