import Glibc

/// A process's hold on a file of the store's private folder: an exclusive `flock`, with
/// the holder's pid written in the file, so a second process refuses with the first
/// one's pid and `doctor` tells whether anyone holds it. The kernel releases it when the
/// process ends, however it ends.
package final class FolderHold: Sendable {
    /// The locked file's descriptor, owned (and closed) by this hold.
    private let fd: FileDescriptor
    private let folder: PrivateFolder
    private let relative: String
    /// The locked file's identity: the hold is in place while `relative` is this file.
    package let identity: PrivateFolder.Identity

    /// Who holds a file: a process that holds it, with the pid it wrote; or nobody.
    package enum Holder: Sendable, Equatable {
        case nobody
        case process(pid: Int32?)
    }

    /// Takes the hold on `relative` in `folder`, creating the file and its folders.
    ///
    /// - Throws: `StoreError` with the code `.conflict` when another process holds it
    ///   (the message names its pid), or when the file cannot be made (a link in the
    ///   folder's path is one).
    package init(_ relative: String, in folder: PrivateFolder) throws(StoreError) {
        let (path, name) = folder.split(relative)
        guard let dir = try folder.openFolder(path, create: true) else {
            throw StoreError(code: .storeUnavailable, message: "missing", file: folder.path)
        }
        defer { dir.close() }
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(
                name, relativeTo: dir, flags: O_RDWR | O_CREAT | O_NOFOLLOW, mode: 0o644)
        } catch {
            throw StoreError.system(error, "could not open", file: folder.path(of: relative))
        }
        let locked: Bool
        var identity: PrivateFolder.Identity?
        do {
            locked = try fd.tryLock(exclusive: true)
            if locked {
                try fd.truncate(to: 0)
                let pid = Array("\(ProcessLimits.processID)\n".utf8)
                try pid.withUnsafeBytes { raw in
                    Result { () throws(Errno) in try fd.writeAll(raw) }
                }.get()
                identity = PrivateFolder.Identity(try fd.status())
            }
        } catch {
            fd.close()
            throw StoreError.system(error, "could not lock", file: folder.path(of: relative))
        }
        guard locked, let identity else {
            let holder = Self.pid(in: fd)
            fd.close()
            throw StoreError(
                code: .conflict,
                message:
                    "held by another process (pid \(holder.map(String.init) ?? "unknown")): stop it first",
                file: folder.path(of: relative))
        }
        self.identity = identity
        self.fd = fd
        self.folder = folder
        self.relative = relative
    }

    deinit { fd.close() }

    /// Whether the held file is still the one at its path in the store directory: not
    /// removed, moved or replaced with its folder.
    package var isInPlace: Bool { folder.identity(of: relative) == identity }

    /// Who holds `relative` in `folder` now, without taking it.
    package static func holder(of relative: String, in folder: PrivateFolder) -> Holder {
        let (path, name) = folder.split(relative)
        guard let dir = try? folder.openFolder(path, create: false) else { return .nobody }
        defer { dir.close() }
        guard let fd = try? FileDescriptor.open(name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW)
        else { return .nobody }
        defer { fd.close() }
        guard (try? fd.tryLock(exclusive: false)) == false else { return .nobody }
        return .process(pid: pid(in: fd))
    }

    /// The pid written in the file `fd`, if any.
    private static func pid(in fd: FileDescriptor) -> Int32? {
        guard let bytes = try? fd.readAll(sizeHint: 16, limit: 64) else { return nil }
        return Int32(String(decoding: bytes, as: UTF8.self).split(separator: "\n").first ?? "")
    }
}
