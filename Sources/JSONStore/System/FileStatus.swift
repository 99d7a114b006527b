import Glibc

/// The parts of `struct stat` the store looks at.
struct FileStatus: Sendable, Hashable {
    enum Kind: Sendable, Hashable {
        case regular, directory, symbolicLink, fifo, socket, characterDevice, blockDevice, unknown
    }

    var kind: Kind
    var size: Int
    var permissions: mode_t
    var modificationTime: timespec
    var inode: UInt64
    var device: UInt64

    init(_ buf: stat) {
        switch buf.st_mode & S_IFMT {
        case S_IFREG: kind = .regular
        case S_IFDIR: kind = .directory
        case S_IFLNK: kind = .symbolicLink
        case S_IFIFO: kind = .fifo
        case S_IFSOCK: kind = .socket
        case S_IFCHR: kind = .characterDevice
        case S_IFBLK: kind = .blockDevice
        default: kind = .unknown
        }
        size = Int(buf.st_size)
        permissions = buf.st_mode & 0o7777
        modificationTime = buf.st_mtim
        inode = UInt64(buf.st_ino)
        device = UInt64(buf.st_dev)
    }

    /// The status of the entry at `path`, following a final symlink or not; `nil` when
    /// there is none (or it cannot be had).
    ///
    /// The corresponding C function is `fstatat` with `AT_FDCWD` (and `AT_SYMLINK_NOFOLLOW`).
    static func of(atPath path: String, followingSymlinks: Bool) -> FileStatus? {
        var buf = stat()
        let flags = followingSymlinks ? 0 : AT_SYMLINK_NOFOLLOW
        guard Syscall.fstatat(AT_FDCWD, path, &buf, flags) == 0 else { return nil }
        return FileStatus(buf)
    }

    /// `path` made absolute, every symlink and `.` or `..` resolved; `nil` when it cannot
    /// be (it does not exist, or is not UTF-8).
    ///
    /// The corresponding C function is `realpath`.
    static func resolvedPath(_ path: String) -> String? { Syscall.realpath(path) }

    static func == (a: FileStatus, b: FileStatus) -> Bool {
        a.kind == b.kind && a.size == b.size && a.permissions == b.permissions
            && a.modificationTime.tv_sec == b.modificationTime.tv_sec
            && a.modificationTime.tv_nsec == b.modificationTime.tv_nsec
            && a.inode == b.inode && a.device == b.device
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(inode)
        hasher.combine(size)
        hasher.combine(modificationTime.tv_nsec)
    }
}
