import Glibc

/// The index lock of the git repository a store directory is in.
///
/// git creates `index.lock` in its git directory before it touches the work tree in a
/// checkout, a pull, a merge or a reset, and renames it over `index` when it is done. While
/// it exists, the live pipeline holds its publications, so the whole operation reaches
/// observers as one update: however slowly git writes, a file it removes and writes anew
/// is one modification, never a deletion and a later insertion.
struct GitIndexLock: Sendable, Equatable {
    /// The lock file's path: `<git directory>/index.lock`.
    let path: String

    /// The lock of the repository whose work tree holds `directory`, or `nil` when it is
    /// in none. Looks for `.git` in the directory and each parent: a directory (an
    /// ordinary repository) or a file naming the git directory (`gitdir: …`, as a linked
    /// work tree or a submodule has).
    static func find(forDirectory directory: String) -> GitIndexLock? {
        guard var current = FileStatus.resolvedPath(directory) else { return nil }
        while true {
            let dotGit = join(current, ".git")
            if let status = FileStatus.of(atPath: dotGit, followingSymlinks: true) {
                switch status.kind {
                case .directory: return GitIndexLock(path: join(dotGit, "index.lock"))
                case .regular:
                    return gitDirectory(named: dotGit, in: current).map {
                        GitIndexLock(path: join($0, "index.lock"))
                    }
                default: return nil
                }
            }
            guard current != "/", let slash = current.utf8.lastIndex(of: UInt8(ascii: "/"))
            else { return nil }
            current = slash == current.utf8.startIndex ? "/" : String(current[..<slash])
        }
    }

    /// The status of the lock file, or `nil` when git holds no lock.
    func status() -> FileStatus? { FileStatus.of(atPath: path, followingSymlinks: false) }

    /// The git directory a `.git` file names (`gitdir: PATH`, relative to `directory`
    /// unless absolute).
    private static func gitDirectory(named file: String, in directory: String) -> String? {
        guard let fd = try? FileDescriptor.open(file, flags: O_RDONLY) else { return nil }
        let bytes = fd.closeAfter { try? $0.readAll(sizeHint: 256, limit: 4096) }
        guard let bytes = bytes ?? nil, let text = String(validating: bytes, as: UTF8.self),
            text.hasPrefix("gitdir: ")
        else { return nil }
        var path = String(text.dropFirst("gitdir: ".count))
        while path.hasSuffix("\n") || path.hasSuffix("\r") { path.removeLast() }
        guard !path.isEmpty else { return nil }
        return path.hasPrefix("/") ? path : join(directory, path)
    }
}
