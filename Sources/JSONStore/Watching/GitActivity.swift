import Glibc

/// What git is in the middle of, in the repository a store directory is in.
///
/// git creates `index.lock` in its git directory before it touches the work tree in a
/// checkout, a pull, a merge, a reset or each step of a rebase, and renames it over `index`
/// when it is done. While it exists, the live pipeline holds its publications, so what git
/// writes reaches observers as one update (watchman's `defer_vcs`): however slowly git
/// writes, a file it removes and writes anew is one modification, never a deletion and a
/// later insertion. A merge, a rebase or a cherry-pick that has stopped for the user
/// (`MERGE_HEAD`, `rebase-merge/`, a conflict, an `edit` or an `exec`) holds nothing back:
/// git is not writing then, the user is, and sees each edit as it is made.
struct GitActivity: Sendable, Equatable {
    /// The git directory.
    let directory: String

    /// What git leaves while it writes.
    static let markers = ["index.lock"]

    /// What git is doing now: the first marker there and its status; `nil` when git is
    /// at rest.
    func current() -> (marker: String, status: FileStatus)? {
        for marker in Self.markers {
            if let status = FileStatus.of(atPath: join(directory, marker), followingSymlinks: false)
            {
                return (marker, status)
            }
        }
        return nil
    }

    /// The status of git's index, which git replaces at the end of an operation that
    /// changes it (renaming `index.lock` over it); `nil` when there is none.
    func index() -> FileStatus? {
        FileStatus.of(atPath: join(directory, "index"), followingSymlinks: false)
    }

    /// The git directory of the repository whose work tree holds `directory`, or `nil`
    /// when it is in none. Looks for `.git` in the directory and each parent: a directory
    /// (an ordinary repository) or a file naming the git directory (`gitdir: …`, as a
    /// linked work tree or a submodule has).
    static func find(forDirectory directory: String) -> GitActivity? {
        guard var current = FileStatus.resolvedPath(directory) else { return nil }
        while true {
            let dotGit = join(current, ".git")
            if let status = FileStatus.of(atPath: dotGit, followingSymlinks: true) {
                switch status.kind {
                case .directory: return GitActivity(directory: dotGit)
                case .regular:
                    return gitDirectory(named: dotGit, in: current).map(GitActivity.init)
                default: return nil
                }
            }
            guard current != "/", let slash = current.utf8.lastIndex(of: UInt8(ascii: "/"))
            else { return nil }
            current = slash == current.utf8.startIndex ? "/" : String(current[..<slash])
        }
    }

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
