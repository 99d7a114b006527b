import Glibc

/// One listing of a polled directory: its names as the directory holds them, back to back
/// with their terminating NULs, in the directory's order, and each entry's signature.
///
/// Kept this way, a listing of 100,000 names is two arrays, and telling whether the names
/// changed since the last poll is one comparison of bytes.
struct PollListing {
    /// What tells a change of an entry: its kind, size, permissions, modification time,
    /// inode and device, and its change time (which a rewrite in place moves too).
    struct Signature: Equatable {
        var status: FileStatus
        var changeTime: timespec

        static func == (a: Signature, b: Signature) -> Bool {
            a.status == b.status && a.changeTime.tv_sec == b.changeTime.tv_sec
                && a.changeTime.tv_nsec == b.changeTime.tv_nsec
        }
    }

    /// The names, each followed by its NUL.
    private var bytes: [CChar] = []
    /// Where each name starts in `bytes`.
    private var starts: [Int32] = []
    /// Each entry's signature, once looked at; `nil` if it vanished meanwhile.
    private var signatures: [Signature?] = []

    init() {}

    /// The names in `dir`, not yet looked at.
    init(_ dir: FileDescriptor) throws(Errno) {
        try DirectoryScan.forEachName(in: dir) { name in
            starts.append(Int32(bytes.count))
            bytes.append(contentsOf: name)
        }
    }

    /// Whether the same names are listed in the same order as in `other`.
    func hasSameNames(as other: PollListing) -> Bool {
        bytes == other.bytes
    }

    /// Looks at every entry's status.
    mutating func statusAll(in dir: FileDescriptor) {
        signatures = (0..<starts.count).map { signature(at: $0, in: dir) }
    }

    /// Looks at the entries of one half (`phase` 0 or 1, alternate ones), taking the other
    /// half from `last`, whose names are these; returns the names whose signature changed.
    mutating func statusHalf(_ phase: Int, in dir: FileDescriptor, last: PollListing) -> [UTF8Key] {
        signatures = last.signatures
        var changed: [UTF8Key] = []
        for i in stride(from: phase, to: starts.count, by: 2) {
            let new = signature(at: i, in: dir)
            if new != signatures[i] {
                signatures[i] = new
                if let name = name(at: i) { changed.append(name) }
            }
        }
        return changed
    }

    /// The names that came, went or changed their signature since `last`, by name.
    func differences(from last: PollListing) -> [UTF8Key] {
        let before = last.byName()
        let now = byName()
        var changed: [UTF8Key] = []
        for (name, signature) in now where before[name] != .some(signature) { changed.append(name) }
        for name in before.keys where now[name] == nil { changed.append(name) }
        return changed
    }

    private func byName() -> [UTF8Key: Signature?] {
        var result: [UTF8Key: Signature?] = [:]
        result.reserveCapacity(starts.count)
        for i in starts.indices {
            if let name = name(at: i) { result[name] = signatures[i] }
        }
        return result
    }

    /// The name of entry `i`, or `nil` if it is not UTF-8 (such names are listed again
    /// by the store, which reports them).
    private func name(at i: Int) -> UTF8Key? {
        withName(at: i) { name in String(validatingCString: name.baseAddress!).map(UTF8Key.init) }
    }

    private func signature(at i: Int, in dir: FileDescriptor) -> Signature? {
        withName(at: i) { name in
            dir.linkStatus(ofName: name).map { Signature(status: $0.0, changeTime: $0.1) }
        }
    }

    private func withName<T>(at i: Int, _ body: (UnsafeBufferPointer<CChar>) -> T) -> T {
        let start = Int(starts[i])
        let end = i + 1 < starts.count ? Int(starts[i + 1]) : bytes.count
        return bytes.withUnsafeBufferPointer {
            body(UnsafeBufferPointer(rebasing: $0[start..<end]))
        }
    }
}
