import Glibc

/// Which file system a path is on: enough to know whether inotify sees every write there.
///
/// inotify reports what this kernel does to a file. On a network or user-space file system
/// (NFS, SMB/CIFS, FUSE such as sshfs or rclone, 9p, virtiofs, Ceph, AFS, Lustre, GlusterFS)
/// another machine's writes never pass through this kernel, so inotify misses them: a store
/// there must poll. The type is the mount's, from `/proc/self/mountinfo`, found by the
/// device number `stat(2)` gives the path.
struct FileSystemType: Sendable, Equatable {
    /// The mount's type as the kernel names it (`ext4`, `nfs4`, `fuse.sshfs`).
    let name: String

    /// Whether writes made elsewhere (another machine, a server) reach the files without
    /// passing through this kernel, unseen by inotify.
    var missesRemoteWrites: Bool {
        let base = name.split(separator: ".").first.map(String.init) ?? name
        if name == "fuseblk" { return false }  // a local disk through FUSE (ntfs-3g)
        return Self.remote.contains(base)
    }

    /// The types whose files other machines write: network and user-space file systems.
    private static let remote: Set<String> = [
        "nfs", "nfs4", "cifs", "smb3", "smbfs", "fuse", "9p", "virtiofs", "ceph", "afs",
        "coda", "lustre", "gpfs", "gfs2", "ocfs2", "glusterfs", "ncpfs", "davfs", "sshfs",
        "beegfs", "orangefs", "pvfs2",
    ]

    /// The file system of `path`; `nil` if it cannot be told.
    static func of(_ path: String) -> FileSystemType? {
        var buf = Glibc.stat()
        guard Syscall.fstatat(AT_FDCWD, path, &buf, 0) == 0, let table = mountTable() else {
            return nil
        }
        let dev = UInt64(buf.st_dev)
        let major = ((dev >> 8) & 0xFFF) | ((dev >> 32) & ~0xFFF)
        let minor = (dev & 0xFF) | ((dev >> 12) & ~0xFF)
        return type(ofDevice: "\(major):\(minor)", in: table)
    }

    /// The type of the mount of `device` (`MAJOR:MINOR`) in a mountinfo table: each line
    /// has the device third, and the type after a lone `-`.
    static func type(ofDevice device: String, in table: String) -> FileSystemType? {
        for line in table.split(separator: "\n") {
            let fields = line.split(separator: " ")
            guard fields.count > 3, fields[2] == device,
                let dash = fields.firstIndex(of: "-"), dash + 1 < fields.count
            else { continue }
            return FileSystemType(name: String(fields[dash + 1]))
        }
        return nil
    }

    /// This process's mount table (a file of `/proc`, whose size says nothing: read to
    /// its end).
    private static func mountTable() -> String? {
        guard let fd = try? FileDescriptor.open("/proc/self/mountinfo", flags: O_RDONLY),
            let bytes = fd.closeAfter({
                try? $0.readAll(sizeHint: 0, limit: 16 << 20, regular: false)
            }) ?? nil
        else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }
}
