import Glibc

/// The number of cores to spread a load over.
enum Cores {
    /// The cores online now (at least one).
    ///
    /// The corresponding C function is `sysconf` with `_SC_NPROCESSORS_ONLN`.
    static let count = max(1, Syscall.sysconf(CInt(_SC_NPROCESSORS_ONLN)))
}
