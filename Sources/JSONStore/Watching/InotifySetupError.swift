import Glibc

/// Why inotify could not watch a directory, told so that a person can act on it.
///
/// inotify has per-user limits (instances and watches, `fs.inotify.*`) on top of the
/// process's descriptor limit; reaching one is not a missing directory, and the message
/// says which limit it is, its value, and how to raise it or fall back to polling.
enum InotifySetupError: Error {
    /// `inotify_init1` failed.
    case instance(Errno)
    /// `inotify_add_watch` failed.
    case watch(Errno)

    /// The errno, whichever step failed.
    var errno: Errno {
        switch self {
        case .instance(let e), .watch(let e): e
        }
    }

    /// Whether a limit was reached (as opposed to the directory being gone or unreadable).
    var isLimit: Bool {
        switch self {
        case .instance(let e):
            e == Errno(rawValue: EMFILE) || e == Errno(rawValue: ENFILE) || e == .noMemory
        case .watch(let e): e == .noSpace || e == .noMemory
        }
    }

    /// The error to report for the store at `path`.
    func storeError(path: String) -> StoreError {
        guard isLimit else {
            return StoreError(
                code: .storeUnavailable, message: "the store directory cannot be watched: \(errno)",
                file: path, underlying: errno)
        }
        let fallback =
            "or set JSONStore.Options.watchMode to .inotifyOrPolling(interval:) (jsonstore list --poll)"
        let message: String
        switch self {
        case .instance(let e) where e == Errno(rawValue: ENFILE):
            message =
                "inotify_init1: \(e): the system's table of open files is full; close files, \(fallback)"
        case .instance(let e):
            let instances = Self.sysctl("fs/inotify/max_user_instances")
            let files = ProcessLimits.openFiles().map(String.init) ?? "?"
            message =
                "inotify_init1: \(e): the limit of inotify instances per user "
                + "(fs.inotify.max_user_instances = \(instances)) or of open files per process "
                + "(ulimit -n = \(files)) is reached; raise it "
                + "(sysctl fs.inotify.max_user_instances=\(Self.doubled(instances))), \(fallback)"
        case .watch(let e):
            let watches = Self.sysctl("fs/inotify/max_user_watches")
            message =
                "inotify_add_watch: \(e): the limit of inotify watches per user "
                + "(fs.inotify.max_user_watches = \(watches)) is reached; raise it "
                + "(sysctl fs.inotify.max_user_watches=\(Self.doubled(watches))), \(fallback)"
        }
        return StoreError(code: .watchLimit, message: message, file: path, underlying: errno)
    }

    /// A value under /proc/sys, or "?".
    private static func sysctl(_ name: String) -> String {
        guard let fd = try? FileDescriptor.open("/proc/sys/" + name, flags: O_RDONLY),
            let bytes = try? fd.closeAfter({ fd throws(Errno) in
                try fd.readAll(sizeHint: 32, limit: 64)
            })
        else { return "?" }
        return String(decoding: bytes, as: UTF8.self).trimmingWhitespace()
    }

    private static func doubled(_ value: String) -> String {
        Int(value).map { String($0 * 2) } ?? "N"
    }
}

extension String {
    fileprivate func trimmingWhitespace() -> String {
        String(unicodeScalars.filter { !$0.properties.isWhitespace })
    }
}
