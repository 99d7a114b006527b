import Glibc

/// `.jsonstore/` in a store directory: what the store keeps for itself, where no listing
/// or watcher looks (its name is hidden, and inotify does not look into folders): a
/// mirror's state, and the versions kept of conflicts.
///
/// Paths are relative to the folder, `/`-separated; folders on the way are made as
/// needed. Each replacement is atomic (a temp file renamed over the old one).
package struct PrivateFolder: Sendable {
    package static let name = ".jsonstore"
    /// The folder's path: the store's path and `.jsonstore`.
    package let path: String

    init(store: String) { path = join(store, Self.name) }

    /// The path of `relative`, for messages.
    package func path(of relative: String) -> String { join(path, relative) }

    /// The bytes of `relative`, or `nil` when there is no such file.
    package func read(_ relative: String, limit: Int = 1 << 30) throws(StoreError) -> [UInt8]? {
        do {
            let fd = try FileDescriptor.open(path(of: relative), flags: O_RDONLY | O_NOFOLLOW)
            return try fd.closeAfter { (fd) throws(Errno) in
                try fd.readAll(sizeHint: try fd.status().size, limit: limit)
            }
        } catch .noSuchFile {
            return nil
        } catch {
            throw StoreError.system(error, "could not read", file: path(of: relative))
        }
    }

    /// Replaces `relative` with `bytes`, atomically; `sync` also puts them on the disk.
    package func replace(_ relative: String, with bytes: [UInt8], sync: Bool = false)
        throws(StoreError)
    {
        let (folder, name) = split(relative)
        do {
            try makeFolders(folder)
            let dir = try FileDescriptor.openDirectory(path(of: folder))
            try dir.closeAfter { (dir) throws(Errno) in
                let temp = try AtomicFile.stage(bytes, permissions: 0o644, in: dir, sync: sync)
                try dir.rename(temp, to: name)
            }
        } catch {
            throw StoreError.system(error, "could not write", file: path(of: relative))
        }
    }

    /// Adds `bytes` at the end of `relative`, creating it.
    package func append(_ relative: String, _ bytes: [UInt8]) throws(StoreError) {
        do {
            try makeFolders(split(relative).folder)
            let fd = try FileDescriptor.open(
                path(of: relative), flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW)
            try fd.closeAfter { (fd) throws(Errno) in
                try bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try fd.writeAll(raw) }
                }.get()
            }
        } catch {
            throw StoreError.system(error, "could not write", file: path(of: relative))
        }
    }

    /// Removes the file `relative`; whether it was there.
    @discardableResult
    package func remove(_ relative: String) throws(StoreError) -> Bool {
        let (folder, name) = split(relative)
        do {
            let dir = try FileDescriptor.openDirectory(path(of: folder))
            try dir.closeAfter { (dir) throws(Errno) in try dir.unlink(name) }
            return true
        } catch .noSuchFile {
            return false
        } catch {
            throw StoreError.system(error, "could not remove", file: path(of: relative))
        }
    }

    /// The names of the entries of the folder `relative` (`""`: this one), sorted by their
    /// bytes; none when there is no such folder.
    package func names(in relative: String) -> [String] {
        guard let dir = try? FileDescriptor.openDirectory(path(of: relative)) else { return [] }
        defer { dir.close() }
        let names = (try? DirectoryScan.names(in: dir)) ?? []
        return names.compactMap {
            if case .text(let name) = $0, !name.hasPrefix(".") { return name }
            return nil
        }.sorted(by: UTF8Key.less)
    }

    private func split(_ relative: String) -> (folder: String, name: String) {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return ("", relative)
        }
        return (String(relative[..<slash]), String(relative[relative.index(after: slash)...]))
    }

    /// Makes this folder and `relative`'s folders in it, those not there yet. A new
    /// private folder gets a `.gitignore` of `*`: a store kept in git does not commit
    /// what the store keeps for itself (a checkout would rewind a mirror's state).
    private func makeFolders(_ relative: String) throws(Errno) {
        var made = path
        for component in [""] + relative.split(separator: "/").map(String.init) {
            if !component.isEmpty { made = join(made, component) }
            do {
                try FileDescriptor.makeDirectory(made, permissions: 0o755)
            } catch .fileExists {
                continue
            }
            if component.isEmpty {
                let dir = try FileDescriptor.openDirectory(made)
                try dir.closeAfter { (dir) throws(Errno) in
                    let temp = try AtomicFile.stage(Array("*\n".utf8), permissions: 0o644, in: dir)
                    try dir.rename(temp, to: ".gitignore")
                }
            }
        }
    }
}
