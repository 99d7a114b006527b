import Glibc

// statx(2) with a narrow mask against fstatat(2), per name of a directory: whether the
// polling watcher's per-entry call would get cheaper (it is path lookup that costs).

@_silgen_name("statx")
private func systemStatx(
    _ dirfd: CInt, _ path: UnsafePointer<CChar>, _ flags: CInt, _ mask: UInt32,
    _ buffer: UnsafeMutableRawPointer
) -> CInt

func benchStatCost(directory: String, runs: Int) {
    guard let dir = opendir(directory) else { fatalError("cannot open \(directory)") }
    defer { closedir(dir) }
    let names = jsonFileNames(in: dir)
    let fd = dirfd(dir)
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 256, alignment: 8)
    defer { buffer.deallocate() }
    // STATX_TYPE | STATX_MODE | STATX_INO | STATX_SIZE | STATX_MTIME | STATX_CTIME
    let mask: UInt32 = 0x1 | 0x2 | 0x100 | 0x200 | 0x40 | 0x80
    let dontSync: CInt = 0x4000  // AT_STATX_DONT_SYNC
    var plain: [Double] = []
    var narrow: [Double] = []
    var sizes = (0, 0)
    for _ in 0..<runs {
        var t = now()
        var status = stat()
        for name in names where fstatat(fd, name, &status, AT_SYMLINK_NOFOLLOW) == 0 {
            sizes.0 &+= Int(status.st_size)
        }
        plain.append(now() - t)
        t = now()
        for name in names
        where systemStatx(fd, name, AT_SYMLINK_NOFOLLOW | dontSync, mask, buffer) == 0 {
            sizes.1 &+= Int(buffer.load(fromByteOffset: 40, as: UInt64.self))  // stx_size
        }
        narrow.append(now() - t)
    }
    precondition(sizes.0 == sizes.1)
    print("\(names.count) names, \(runs) runs")
    print("fstatat: \(spreadText(plain)); statx, narrow mask: \(spreadText(narrow))")
    print(String(format: "statx / fstatat: %.2fx", median(narrow) / median(plain)))
}
