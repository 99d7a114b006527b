import Glibc

/// The number of cores to spread a load over.
package enum Cores {
    /// The cores online now (at least one).
    ///
    /// The corresponding C function is `sysconf` with `_SC_NPROCESSORS_ONLN`.
    package static let count = max(1, Syscall.sysconf(CInt(_SC_NPROCESSORS_ONLN)))
}
