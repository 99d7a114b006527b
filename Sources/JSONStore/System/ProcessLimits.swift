import Glibc

/// The limits the kernel sets on this process.
enum ProcessLimits {
    /// How many descriptors this process may have open (`ulimit -n`), or `nil` when it
    /// cannot be had.
    ///
    /// The corresponding C function is `getrlimit` with `RLIMIT_NOFILE`.
    static func openFiles() -> UInt64? {
        var limit = rlimit()
        guard Syscall.getrlimit(__rlimit_resource_t(RLIMIT_NOFILE.rawValue), &limit) == 0 else {
            return nil
        }
        return UInt64(limit.rlim_cur)
    }

    /// This process's id.
    ///
    /// The corresponding C function is `getpid`.
    static var processID: Int32 { Syscall.getpid() }
}
