import Glibc

/// Listing the names in a directory, through `fdopendir` and `readdir`.
enum DirectoryScan {
    /// A directory entry's name: text, or bytes that are not UTF-8.
    enum Name: Equatable {
        case text(String)
        case notUTF8([UInt8])

        /// The name whose NUL-terminated bytes are `name`.
        init(_ name: UnsafeBufferPointer<CChar>) {
            let base = name.baseAddress!
            self =
                String(validatingCString: base).map(Name.text)
                ?? .notUTF8(name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) })
        }
    }

    /// Every name in `directory` but `.` and `..`.
    static func names(in directory: FileDescriptor) throws(Errno) -> [Name] {
        var names: [Name] = []
        try forEachName(in: directory) { names.append(Name($0)) }
        return names
    }

    /// Calls `body` with every name in `directory` but `.` and `..`, as the NUL-terminated
    /// bytes the directory holds (valid only during the call): no string is made.
    ///
    /// The corresponding C functions are `fdopendir` and `readdir`.
    static func forEachName(
        in directory: FileDescriptor, _ body: (UnsafeBufferPointer<CChar>) -> Void
    ) throws(Errno) {
        // fdopendir takes ownership of the descriptor it is given, so give it a copy.
        let copy = try valueOrErrno { Syscall.dup(directory.rawValue) }
        guard let stream = Syscall.fdopendir(copy) else {
            let error = Errno.current
            _ = Syscall.close(copy)
            throw error
        }
        defer { _ = Syscall.closedir(stream) }
        // The copy shares the descriptor's offset: an earlier listing left it at the end.
        Syscall.rewinddir(stream)
        while let entry = Syscall.readdir(stream) {
            withUnsafeBytes(of: &entry.pointee.d_name) { raw in
                let chars = raw.bindMemory(to: CChar.self)
                let length = strnlen(chars.baseAddress!, chars.count)
                let name = UnsafeBufferPointer(rebasing: chars[..<min(length + 1, chars.count)])
                let dots =
                    length <= 2 && name.prefix(length).allSatisfy { $0 == CChar(UInt8(ascii: ".")) }
                if !dots { body(name) }
            }
        }
    }
}
