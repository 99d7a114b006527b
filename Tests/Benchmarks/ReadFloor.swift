import Dispatch
import Glibc

/// The read floor of `list`: what a program that only reads a store's files costs, with no
/// parsing, sorting or formatting. It lists the directory, reads each `*.json` file with
/// `openat`/`read`/`close`, and writes the bytes to stdout in 64 KiB pieces, as `cat` would
/// (with `threads` > 1 the files are read on that many threads and only counted, so the
/// floor is the lowest a parallel reader could reach).
func readFloor(directory: String, threads: Int) {
    guard let dir = opendir(directory) else { fatalError("cannot open \(directory)") }
    defer { closedir(dir) }
    let names = jsonFileNames(in: dir)
    let fd = dirfd(dir)
    if threads <= 1 {
        var out: [UInt8] = []
        out.reserveCapacity(1 << 17)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        for name in names {
            let file = openat(fd, name, O_RDONLY | O_CLOEXEC)
            guard file >= 0 else { continue }
            while true {
                let n = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                out.append(contentsOf: buffer[..<n])
                if out.count >= 1 << 16 {
                    _ = out.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
                    out.removeAll(keepingCapacity: true)
                }
            }
            close(file)
        }
        _ = out.withUnsafeBytes { write(STDOUT_FILENO, $0.baseAddress, $0.count) }
    } else {
        let chunk = (names.count + threads - 1) / threads
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            var buffer = [UInt8](repeating: 0, count: 1 << 16)
            for name in names[min(t * chunk, names.count)..<min((t + 1) * chunk, names.count)] {
                let file = openat(fd, name, O_RDONLY | O_CLOEXEC)
                guard file >= 0 else { continue }
                while buffer.withUnsafeMutableBytes({ read(file, $0.baseAddress, $0.count) }) > 0 {}
                close(file)
            }
        }
    }
}

/// The names of the `*.json` entries of the open directory `dir`, in the directory's order.
func jsonFileNames(in dir: OpaquePointer) -> [String] {
    var names: [String] = []
    while let entry = readdir(dir) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) {
            String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name.hasSuffix(".json") { names.append(name) }
    }
    return names
}
