import Glibc

/// Reading a JSON document a person hands the command: a file anywhere, or standard input.
///
/// Unlike an item file it may be a FIFO (`jsonstore put tea <(make-tea)`), so it is opened
/// following links; like one it is read through the System layer, with the item size
/// limit and errors that name the path and the errno.
package enum InputFile {
    /// The bytes of the file at `path`, or of standard input when `path` is `nil`.
    ///
    /// - Throws: `StoreError` naming the path and the reason (`.notFound`,
    ///   `.permissionDenied`, `.tooLarge`, `.io` for a directory).
    package static func read(_ path: String?, limit: Int) throws(StoreError) -> [UInt8] {
        let name = path ?? "<stdin>"
        let fd: FileDescriptor
        if let path {
            do {
                fd = try .open(path, flags: O_RDONLY)
            } catch {
                throw StoreError.system(error, "cannot open the file", file: path)
            }
        } else {
            fd = FileDescriptor(rawValue: STDIN_FILENO)
        }
        defer { if path != nil { fd.close() } }
        // A pipe, a FIFO or a terminal is read to its end, however slowly it arrives.
        let status = try? fd.status()
        let regular = status?.kind == .regular
        let bytes: [UInt8]?
        do {
            bytes = try fd.readAll(
                sizeHint: regular ? status!.size : 0, limit: limit, regular: regular)
        } catch {
            throw StoreError.system(error, "cannot read the file", file: name)
        }
        guard let bytes else {
            throw StoreError(
                code: .tooLarge,
                message: "larger than the \(ItemFile.byteCount(limit)) limit for an item",
                file: name)
        }
        return bytes
    }
}
