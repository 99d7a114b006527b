import Glibc

/// Atomic replacement of files: an exclusive temp file in the same directory, written and
/// synced, then renamed over the target, then the directory synced.
///
/// A reader sees the old file or the new one, never half of one. Temp files are named
/// `.jsonstore-<16 hex digits>.tmp`: hidden, so the store and its watchers ignore them,
/// and recognisable, so stale ones from a crashed writer can be removed safely.
enum AtomicFile {
    static let temporaryPrefix = ".jsonstore-"
    static let temporarySuffix = ".tmp"

    /// A fresh temp-file name.
    static func temporaryName() -> String {
        var random = SystemRandomNumberGenerator()
        let hex = String(random.next() as UInt64, radix: 16)
        return temporaryPrefix + String(repeating: "0", count: 16 - hex.count) + hex
            + temporarySuffix
    }

    /// Whether `name` is one of our temp files (and not merely similar).
    static func isTemporaryName(_ name: String) -> Bool {
        guard name.hasPrefix(temporaryPrefix), name.hasSuffix(temporarySuffix) else {
            return false
        }
        let middle = name.utf8.dropFirst(temporaryPrefix.utf8.count)
            .dropLast(temporarySuffix.utf8.count)
        return middle.count == 16
            && middle.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    /// Writes `bytes` to a new temp file in `directory` with `permissions`, and syncs it
    /// unless `sync` is false (the caller then syncs it before renaming it: a batch syncs
    /// all its files at once). Nothing is left behind when this throws.
    ///
    /// - Returns: the temp file's name, to be renamed over the target.
    static func stage(
        _ bytes: [UInt8], permissions: mode_t, in directory: FileDescriptor, sync: Bool = true
    ) throws(Errno) -> String {
        try stage(permissions: permissions, in: directory, sync: sync) { (fd) throws(Errno) in
            try bytes.withUnsafeBytes { raw in
                Result { () throws(Errno) in try fd.writeAll(raw) }
            }.get()
        }
    }

    /// Makes a new temp file in `directory` with `permissions`, has `write` write it, and
    /// syncs it unless `sync` is false; nothing is left behind when this throws.
    ///
    /// - Returns: the temp file's name, to be renamed over the target.
    static func stage(
        permissions: mode_t, in directory: FileDescriptor, sync: Bool = true,
        write: (FileDescriptor) throws(Errno) -> Void
    ) throws(Errno) -> String {
        while true {
            let name = temporaryName()
            let fd: FileDescriptor
            do throws(Errno) {
                // Private while it is written: the bytes may be a 0600 file's.
                fd = try .open(
                    name, relativeTo: directory, flags: O_WRONLY | O_CREAT | O_EXCL,
                    mode: 0o600)
            } catch .fileExists {
                continue  // 2^64 names; try another
            }
            do throws(Errno) {
                try fd.closeAfter { (fd) throws(Errno) in
                    try write(fd)
                    // O_CREAT's mode is filtered by the umask; the file's own mode wins.
                    try fd.setPermissions(permissions)
                    if sync { try fd.sync() }
                }
            } catch {
                try? directory.unlink(name)
                throw error
            }
            return name
        }
    }

    /// Removes our temp files older than `age` seconds from `directory`; returns how many.
    ///
    /// Only names of our exact pattern, only regular files, so nothing of anyone else's is
    /// ever touched.
    @discardableResult
    static func removeStale(in directory: FileDescriptor, olderThan age: Double) -> Int {
        guard let names = try? DirectoryScan.names(in: directory) else { return 0 }
        var removed = 0
        for case .text(let name) in names where isTemporaryName(name) {
            guard let status = try? directory.linkStatus(of: name), status.kind == .regular
            else { continue }
            guard WallClock.secondsSince(status.modificationTime) > age else { continue }
            if (try? directory.unlink(name)) != nil { removed += 1 }
        }
        return removed
    }
}
