import Glibc

/// An inotify instance: the kernel's queue of file-system events for watched paths.
struct Inotify {
    /// One event: what happened (`mask`) to which name in the watched directory.
    struct Event {
        /// The watch it came from (`addWatch` gave it).
        var watch: Int32 = 1
        var mask: UInt32
        /// The entry's name; `nil` for events about the watched directory itself.
        var name: DirectoryScan.Name?

        func has(_ flag: Int32) -> Bool { mask & UInt32(bitPattern: flag) != 0 }
    }

    let descriptor: FileDescriptor

    /// A new non-blocking instance.
    ///
    /// The corresponding C function is `inotify_init1`.
    static func make() throws(Errno) -> Inotify {
        let fd = try valueOrErrno { Syscall.inotifyInit(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        return Inotify(descriptor: FileDescriptor(rawValue: fd))
    }

    /// Watches `path` for `mask`; the watch's number, which its events carry (the same
    /// number again for a path watched already).
    ///
    /// The corresponding C function is `inotify_add_watch`.
    @discardableResult
    func addWatch(_ path: String, mask: Int32) throws(Errno) -> Int32 {
        try valueOrErrno {
            Syscall.inotifyAddWatch(descriptor.rawValue, path, UInt32(bitPattern: mask))
        }
    }

    /// Reads every event queued now, without waiting.
    func drain() throws(Errno) -> [Event] {
        var events: [Event] = []
        let capacity = 64 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 8)
        defer { buffer.deallocate() }
        while true {
            let n: Int
            do {
                n = try descriptor.read(into: buffer)
            } catch .wouldBlock {
                return events
            }
            if n <= 0 { return events }
            var offset = 0
            while offset + 16 <= n {
                let watch = buffer.loadUnaligned(fromByteOffset: offset, as: Int32.self)
                let mask = buffer.loadUnaligned(fromByteOffset: offset + 4, as: UInt32.self)
                let length = Int(buffer.loadUnaligned(fromByteOffset: offset + 12, as: UInt32.self))
                var name: DirectoryScan.Name?
                if length > 0 {
                    let bytes = UnsafeRawBufferPointer(
                        rebasing: buffer[(offset + 16)..<(offset + 16 + length)])
                    let end = bytes.firstIndex(of: 0) ?? bytes.count
                    let raw = Array(bytes[..<end])
                    if let text = String(validating: raw, as: UTF8.self) {
                        name = .text(text)
                    } else {
                        name = .notUTF8(raw)
                    }
                }
                events.append(Event(watch: watch, mask: mask, name: name))
                offset += 16 + length
            }
        }
    }
}
