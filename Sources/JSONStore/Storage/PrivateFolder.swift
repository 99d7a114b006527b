import Glibc

/// `.jsonstore/` in a store directory: what the store keeps for itself, where no listing
/// or watcher looks (its name is hidden, and inotify does not look into folders): a
/// mirror's state and its hold on the directory.
///
/// Paths are relative to the folder, `/`-separated; folders on the way are made as
/// needed. Each replacement is atomic (a temp file renamed over the old one). Every level
/// is opened from the one above it without following a symbolic link (`openat` with
/// `O_NOFOLLOW`): a `.jsonstore` or a folder in it that is a link is refused, never
/// followed, so nothing the store keeps is written where a link points.
package struct PrivateFolder: Sendable {
    package static let name = ".jsonstore"
    /// The folder's path: the store's path and `.jsonstore`.
    package let path: String
    /// The store directory's path.
    let store: String

    init(store: String) {
        self.store = store
        path = join(store, Self.name)
    }

    /// A file or folder as the file system names it: the same pair, the same one.
    package struct Identity: Sendable, Hashable, CustomStringConvertible {
        package let device: UInt64
        package let inode: UInt64

        package init(device: UInt64, inode: UInt64) {
            self.device = device
            self.inode = inode
        }

        init(_ status: FileStatus) { (device, inode) = (status.device, status.inode) }

        package var description: String { "device \(device), inode \(inode)" }
    }

    /// The path of `relative`, for messages.
    package func path(of relative: String) -> String {
        relative.isEmpty ? path : join(path, relative)
    }

    /// The store directory's identity now (its path followed, as the store follows it);
    /// `nil` when there is no directory there.
    package func storeIdentity() -> Identity? {
        guard let status = FileStatus.of(atPath: store, followingSymlinks: true),
            status.kind == .directory
        else { return nil }
        return Identity(status)
    }

    /// The identity of `relative` now, reached without following a link; `nil` when it
    /// cannot be reached.
    package func identity(of relative: String) -> Identity? {
        let (folder, name) = split(relative)
        guard let dir = try? openFolder(folder, create: false) else { return nil }
        defer { dir.close() }
        return (try? dir.linkStatus(of: name)).map(Identity.init)
    }

    /// The bytes of `relative`, or `nil` when there is no such file.
    package func read(_ relative: String, limit: Int = 1 << 30) throws(StoreError) -> [UInt8]? {
        let (folder, name) = split(relative)
        guard let dir = try openFolder(folder, create: false) else { return nil }
        defer { dir.close() }
        do {
            let fd = try FileDescriptor.open(name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
            return try fd.closeAfter { (fd) throws(Errno) in
                try fd.readAll(sizeHint: try fd.status().size, limit: limit)
            }
        } catch .noSuchFile {
            return nil
        } catch {
            throw failure(error, "could not read", relative)
        }
    }

    /// Replaces `relative` with `bytes`, atomically; `sync` also puts them on the disk.
    package func replace(_ relative: String, with bytes: [UInt8], sync: Bool = false)
        throws(StoreError)
    {
        let (folder, name) = split(relative)
        guard let dir = try openFolder(folder, create: true) else { return }
        defer { dir.close() }
        do {
            let temp = try AtomicFile.stage(bytes, permissions: 0o644, in: dir, sync: sync)
            try dir.rename(temp, to: name)
        } catch {
            throw failure(error, "could not write", relative)
        }
    }

    /// Adds `bytes` at the end of `relative`, creating it.
    package func append(_ relative: String, _ bytes: [UInt8]) throws(StoreError) {
        let (folder, name) = split(relative)
        guard let dir = try openFolder(folder, create: true) else { return }
        defer { dir.close() }
        do {
            let fd = try FileDescriptor.open(
                name, relativeTo: dir, flags: O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW)
            try fd.closeAfter { (fd) throws(Errno) in
                try bytes.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try fd.writeAll(raw) }
                }.get()
            }
        } catch {
            throw failure(error, "could not write", relative)
        }
    }

    /// Removes the file `relative`; whether it was there.
    @discardableResult
    package func remove(_ relative: String) throws(StoreError) -> Bool {
        let (folder, name) = split(relative)
        guard let dir = try openFolder(folder, create: false) else { return false }
        defer { dir.close() }
        do {
            try dir.unlink(name)
            return true
        } catch .noSuchFile {
            return false
        } catch {
            throw failure(error, "could not remove", relative)
        }
    }

    /// The names of the entries of the folder `relative` (`""`: this one), sorted by their
    /// bytes; none when there is no such folder.
    package func names(in relative: String) -> [String] {
        guard let dir = try? openFolder(relative, create: false) else { return [] }
        defer { dir.close() }
        let names = (try? DirectoryScan.names(in: dir)) ?? []
        return names.compactMap {
            if case .text(let name) = $0, !name.hasPrefix(".") { return name }
            return nil
        }.sorted(by: UTF8Key.less)
    }

    /// What is wrong with the folder, for `check` and `doctor`: `.jsonstore`, or a folder
    /// in it, that is a symbolic link (never followed) or not a folder.
    package func problems() -> [StoreError] {
        guard let status = FileStatus.of(atPath: path, followingSymlinks: false) else { return [] }
        guard status.kind == .directory else { return [Self.notFolder(path, status.kind)] }
        guard let dir = try? openFolder("", create: false) else { return [] }
        defer { dir.close() }
        var problems: [StoreError] = []
        for case .text(let name) in (try? DirectoryScan.names(in: dir)) ?? [] {
            guard let status = try? dir.linkStatus(of: name), status.kind == .symbolicLink
            else { continue }
            problems.append(Self.notFolder(path(of: name), .symbolicLink))
        }
        return problems.sorted { UTF8Key.less($0.file ?? "", $1.file ?? "") }
    }

    /// The folder `relative` (`""`: `.jsonstore` itself), each level opened from the one
    /// above without following a link; `create` makes the levels not there yet, `nil`
    /// when one is not there and `create` is false.
    func openFolder(_ relative: String, create: Bool) throws(StoreError) -> FileDescriptor? {
        var dir: FileDescriptor
        do {
            dir = try FileDescriptor.openDirectory(store)
        } catch {
            throw StoreError.system(error, "could not open", file: store)
        }
        var reached = store
        for component in [Self.name] + relative.split(separator: "/").map(String.init) {
            reached = join(reached, component)
            do throws(StoreError) {
                let next = try openLevel(component, in: dir, path: reached, create: create)
                dir.close()
                guard let next else { return nil }
                dir = next
            } catch {
                dir.close()
                throw error
            }
        }
        return dir
    }

    /// What the folder's `.gitignore` says: a store kept in git commits its schema, which
    /// is versioned with the data, and nothing else the store keeps for itself, since a
    /// checkout would rewind a mirror's state or the journal.
    package static let gitignore = "*\n!/\(StoreSchema.fileName)\n"
    /// What it said before stores had schemas; `lettingSchemaThrough` replaces it.
    static let oldGitignore = "*\n"

    /// Makes the folder's `.gitignore` let the schema through, if it is the one an older
    /// jsonstore wrote; one the user wrote is left as it is.
    package func lettingSchemaThrough() throws(StoreError) {
        guard let old = try read(".gitignore", limit: 64), old.elementsEqual(Self.oldGitignore.utf8)
        else { return }
        try replace(".gitignore", with: Array(Self.gitignore.utf8))
    }

    /// One level of the folder: the folder `name` in `dir`, made when `create` (the
    /// private folder itself with its `.gitignore`).
    private func openLevel(_ name: String, in dir: FileDescriptor, path: String, create: Bool)
        throws(StoreError) -> FileDescriptor?
    {
        let flags = O_RDONLY | O_DIRECTORY | O_NOFOLLOW
        do {
            return try FileDescriptor.open(name, relativeTo: dir, flags: flags)
        } catch .noSuchFile where create {
            do {
                try dir.makeDirectory(name, permissions: 0o755)
            } catch .fileExists {
                // made meanwhile by another process: opened below
            } catch {
                throw StoreError.system(error, "could not make the folder", file: path)
            }
            do {
                let made = try FileDescriptor.open(name, relativeTo: dir, flags: flags)
                if name == Self.name, (try? made.linkStatus(of: ".gitignore")) == nil {
                    try made.closeIfThrows { made throws(Errno) in
                        let temp = try AtomicFile.stage(
                            Array(Self.gitignore.utf8), permissions: 0o644, in: made)
                        try made.rename(temp, to: ".gitignore")
                    }
                }
                return made
            } catch {
                throw StoreError.system(error, "could not open", file: path)
            }
        } catch .noSuchFile {
            return nil
        } catch .tooManySymbolicLinks, .notDirectory {
            let kind = (try? dir.linkStatus(of: name))?.kind ?? .unknown
            throw Self.notFolder(path, kind)
        } catch {
            throw StoreError.system(error, "could not open", file: path)
        }
    }

    /// The error for a level of the folder that is a link, or not a folder.
    static func notFolder(_ path: String, _ kind: FileStatus.Kind) -> StoreError {
        StoreError(
            code: .storeUnavailable,
            message: kind == .symbolicLink
                ? "a symbolic link where the store keeps its own files, never followed: remove the link (jsonstore makes the folder again)"
                : "not a folder, where the store keeps its own files: remove it (jsonstore makes the folder again)",
            file: path)
    }

    /// `error` from `doing` to `relative`; a final link is named as one.
    private func failure(_ error: Errno, _ doing: String, _ relative: String) -> StoreError {
        if error == .tooManySymbolicLinks {
            return Self.notFolder(path(of: relative), .symbolicLink)
        }
        return StoreError.system(error, doing, file: path(of: relative))
    }

    func split(_ relative: String) -> (folder: String, name: String) {
        guard let slash = relative.utf8.lastIndex(of: UInt8(ascii: "/")) else {
            return ("", relative)
        }
        return (String(relative[..<slash]), String(relative[relative.index(after: slash)...]))
    }
}
