import Glibc

/// Listing the names in a store directory.
enum DirectoryScan {
    /// A directory entry's name: text, or bytes that are not UTF-8 (shown repaired).
    enum Name: Equatable {
        case text(String)
        case notUTF8(repaired: String)
    }

    /// Every name in `directory` but `.` and `..`.
    ///
    /// The corresponding C functions are `fdopendir` and `readdir`.
    static func names(in directory: FileDescriptor) throws(Errno) -> [Name] {
        // fdopendir takes ownership of the descriptor it is given, so give it a copy.
        let copy = try valueOrErrno { Syscall.dup(directory.rawValue) }
        guard let stream = Syscall.fdopendir(copy) else {
            let error = Errno.current
            _ = Syscall.close(copy)
            throw error
        }
        defer { _ = Syscall.closedir(stream) }
        var names: [Name] = []
        while let entry = Syscall.readdir(stream) {
            let name = withUnsafeBytes(of: &entry.pointee.d_name) { raw -> Name? in
                let chars = raw.bindMemory(to: CChar.self)
                guard let base = chars.baseAddress else { return nil }
                if let text = String(validatingCString: base) {
                    return text == "." || text == ".." ? nil : .text(text)
                }
                return .notUTF8(repaired: String(cString: base))
            }
            if let name { names.append(name) }
        }
        return names
    }
}
