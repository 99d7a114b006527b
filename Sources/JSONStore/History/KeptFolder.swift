import Glibc

/// A folder of the store's own kept open between uses, so that the journal, opened many
/// times by each write and each recording, is not walked to from the store every time
/// (`PrivateFolder.openFolder`: a level at a time, never following a link).
///
/// Each use checks that the path still names the folder kept (its device and inode,
/// with one `fstatat`), and opens it afresh when not: removed, replaced, or never opened.
/// What a use is given is a descriptor of its own, opened from the kept one (`openat` of
/// `.`), with its own position, so two threads listing it never share one.
final class KeptFolder: Sendable {
    private struct Kept: Sendable {
        let descriptor: FileDescriptor
        let device: UInt64
        let inode: UInt64
    }

    private let kept = Locked<Kept?>(nil)

    deinit {
        kept.withLock { $0?.descriptor.close() }
    }

    /// The folder at `path`, from the one kept when `path` still names it; else opened by
    /// `open` (`nil`: there is none) and kept.
    func open<E: Error>(
        _ path: String, _ open: () throws(E) -> FileDescriptor?
    ) throws(E) -> FileDescriptor? {
        if let reused = reuse(path) { return reused }
        guard let opened = try open() else { return nil }
        if let status = try? opened.status(),
            let copy = try? FileDescriptor.open(".", relativeTo: opened, flags: Self.flags)
        {
            let previous = kept.withLock { kept -> Kept? in
                defer {
                    kept = Kept(descriptor: copy, device: status.device, inode: status.inode)
                }
                return kept
            }
            previous?.descriptor.close()
        }
        return opened
    }

    private static let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW

    private func reuse(_ path: String) -> FileDescriptor? {
        guard let status = FileStatus.of(atPath: path, followingSymlinks: false),
            status.kind == .directory
        else { return nil }
        return kept.withLock { kept -> FileDescriptor? in
            guard let folder = kept, folder.device == status.device, folder.inode == status.inode
            else { return nil }
            return try? FileDescriptor.open(".", relativeTo: folder.descriptor, flags: Self.flags)
        }
    }
}
