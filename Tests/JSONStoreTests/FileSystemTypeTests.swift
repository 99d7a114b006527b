import Testing

@testable import JSONStore

/// Telling the file systems where inotify misses other machines' writes.
@Suite("File system types")
struct FileSystemTypeTests {
    static let table = """
        22 1 259:2 / / rw,relatime shared:1 - ext4 /dev/nvme0n1p2 rw
        40 22 0:35 / /mnt/nas rw,relatime shared:20 - nfs4 nas:/export rw,vers=4.2
        41 22 0:36 / /home/ann/remote rw,nosuid - fuse.sshfs ann@host:/ rw,user_id=0
        42 22 0:37 / /tmp rw - tmpfs tmpfs rw
        """

    @Test("the mount of a device, and whether it misses remote writes")
    func types() {
        #expect(FileSystemType.type(ofDevice: "0:35", in: Self.table)?.name == "nfs4")
        #expect(FileSystemType.type(ofDevice: "0:36", in: Self.table)?.name == "fuse.sshfs")
        #expect(FileSystemType.type(ofDevice: "9:9", in: Self.table) == nil)
        for name in [
            "nfs", "nfs4", "cifs", "smb3", "fuse", "fuse.sshfs", "fuse.rclone", "9p",
            "virtiofs", "ceph", "glusterfs", "lustre",
        ] {
            #expect(FileSystemType(name: name).missesRemoteWrites, "\(name)")
        }
        for name in ["ext4", "xfs", "btrfs", "tmpfs", "overlay", "fuseblk", "zfs"] {
            #expect(!FileSystemType(name: name).missesRemoteWrites, "\(name)")
        }
    }

    @Test("this machine's temporary directory is a local file system")
    func local() throws {
        let type = try #require(FileSystemType.of("/tmp"))
        #expect(!type.missesRemoteWrites, "\(type.name)")
    }
}
