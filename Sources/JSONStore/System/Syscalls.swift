import Glibc

// The raw system calls, in one place. Everything above this file speaks `Errno` and
// `FileDescriptor`; nothing above it makes a system call directly.

/// Runs `body` until it does not fail with `EINTR`, turning `-1` into the thread's `Errno`.
@inline(__always)
func valueOrErrno<I: FixedWidthInteger>(_ body: () -> I) throws(Errno) -> I {
    while true {
        let result = body()
        if result != -1 { return result }
        let error = Errno.current
        if error == .interrupted { continue }
        throw error
    }
}

enum Syscall {
    static func openat(_ dir: CInt, _ path: String, _ flags: CInt, _ mode: mode_t) -> CInt {
        Glibc.openat(dir, path, flags, mode)
    }
    static func read(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
        Glibc.read(fd, buffer, count)
    }
    static func write(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int) -> Int {
        Glibc.write(fd, buffer, count)
    }
    static func pread(_ fd: CInt, _ buffer: UnsafeMutableRawPointer?, _ count: Int, _ at: off_t)
        -> Int
    {
        Glibc.pread(fd, buffer, count, at)
    }
    static func pwrite(_ fd: CInt, _ buffer: UnsafeRawPointer?, _ count: Int, _ at: off_t) -> Int {
        Glibc.pwrite(fd, buffer, count, at)
    }
    static func close(_ fd: CInt) -> CInt { Glibc.close(fd) }
    static func fdatasync(_ fd: CInt) -> CInt { Glibc.fdatasync(fd) }
    static func fallocate(_ fd: CInt, _ mode: CInt, _ offset: off_t, _ length: off_t) -> CInt {
        systemFallocate(fd, mode, offset, length)
    }
    static func fsync(_ fd: CInt) -> CInt { Glibc.fsync(fd) }
    static func syncfs(_ fd: CInt) -> CInt { systemSyncfs(fd) }
    static func syncFileRange(_ fd: CInt, _ offset: off_t, _ count: off_t, _ flags: CUnsignedInt)
        -> CInt
    {
        systemSyncFileRange(fd, offset, count, flags)
    }
    static func fstat(_ fd: CInt, _ buf: inout stat) -> CInt { Glibc.fstat(fd, &buf) }
    static func futimensNow(_ fd: CInt) -> CInt { Glibc.futimens(fd, nil) }
    static func fstatat(_ dir: CInt, _ path: String, _ buf: inout stat, _ flags: CInt) -> CInt {
        Glibc.fstatat(dir, path, &buf, flags)
    }
    static func fstatat(_ dir: CInt, _ path: UnsafePointer<CChar>, _ buf: inout stat, _ flags: CInt)
        -> CInt
    {
        Glibc.fstatat(dir, path, &buf, flags)
    }
    static func fchmod(_ fd: CInt, _ mode: mode_t) -> CInt { Glibc.fchmod(fd, mode) }
    static func renameat(_ oldDir: CInt, _ old: String, _ newDir: CInt, _ new: String) -> CInt {
        Glibc.renameat(oldDir, old, newDir, new)
    }
    static func mkdir(_ path: String, _ mode: mode_t) -> CInt { Glibc.mkdir(path, mode) }
    static func mkdirat(_ dir: CInt, _ path: String, _ mode: mode_t) -> CInt {
        Glibc.mkdirat(dir, path, mode)
    }
    static func ftruncate(_ fd: CInt, _ length: off_t) -> CInt { Glibc.ftruncate(fd, length) }
    static func getpid() -> pid_t { Glibc.getpid() }
    static func unlinkat(_ dir: CInt, _ path: String, _ flags: CInt) -> CInt {
        Glibc.unlinkat(dir, path, flags)
    }
    static func flock(_ fd: CInt, _ operation: CInt) -> CInt { systemFlock(fd, operation) }
    static func fdopendir(_ fd: CInt) -> OpaquePointer? { Glibc.fdopendir(fd) }
    static func readdir(_ dir: OpaquePointer) -> UnsafeMutablePointer<dirent>? {
        Glibc.readdir(dir)
    }
    static func closedir(_ dir: OpaquePointer) -> CInt { Glibc.closedir(dir) }
    static func rewinddir(_ dir: OpaquePointer) { Glibc.rewinddir(dir) }
    static func dup(_ fd: CInt) -> CInt { Glibc.dup(fd) }
    static func clockGettime(_ clock: clockid_t, _ time: inout timespec) -> CInt {
        Glibc.clock_gettime(clock, &time)
    }
    static func nanosleep(_ time: inout timespec, _ rest: inout timespec) -> CInt {
        Glibc.nanosleep(&time, &rest)
    }
    static func sysconf(_ name: CInt) -> Int { Glibc.sysconf(name) }
    static func getrlimit(_ resource: __rlimit_resource_t, _ limit: inout rlimit) -> CInt {
        Glibc.getrlimit(resource, &limit)
    }
    static func realpath(_ path: String) -> String? {
        guard let resolved = Glibc.realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(validatingCString: resolved)
    }
    static func inotifyInit(_ flags: CInt) -> CInt { Glibc.inotify_init1(flags) }
    static func inotifyAddWatch(_ fd: CInt, _ path: String, _ mask: UInt32) -> CInt {
        Glibc.inotify_add_watch(fd, path, mask)
    }
}

// Swift imports the C struct `flock` under the same name as the function and prefers the
// struct, so the function is bound by its symbol.
@_silgen_name("flock")
private func systemFlock(_ fd: CInt, _ operation: CInt) -> CInt

// `syncfs` is a GNU extension that Swift's Glibc module does not export.
@_silgen_name("syncfs")
private func systemSyncfs(_ fd: CInt) -> CInt

// `sync_file_range` is a GNU extension that Swift's Glibc module does not export.
@_silgen_name("sync_file_range")
private func systemSyncFileRange(
    _ fd: CInt, _ offset: off_t, _ count: off_t, _ flags: CUnsignedInt
) -> CInt

// `fallocate` is a GNU extension that Swift's Glibc module does not export.
@_silgen_name("fallocate")
private func systemFallocate(_ fd: CInt, _ mode: CInt, _ offset: off_t, _ length: off_t) -> CInt
