import Glibc

/// Reading one item file, safely.
///
/// The file is opened with `O_NOFOLLOW | O_NONBLOCK`, so a symlink is never followed out of
/// the directory and a FIFO never blocks; `fstat` on the open descriptor then decides, so
/// nothing can be swapped in between the check and the read.
package enum ItemFile {
    package enum Outcome: Sendable {
        case item(Item)
        /// Boxed: rare, and much larger than an item, which every slot of a load has.
        indirect case invalid(StoreError)
        /// The file does not exist (any more).
        case missing
    }

    /// Reads and parses `<id>.json` in `directory`.
    ///
    /// - Parameters:
    ///   - path: the directory's path, for error messages.
    ///   - recent: where the bytes of an item read are kept, if anywhere, to locate a
    ///     decoding error in them later.
    ///   - schema: the store's schema, which an item must obey to be one (`StoreSchema`).
    ///   - keep: keeps the bytes of an item read (`ByteChunk.Packer`); each in a chunk of
    ///     its own unless given.
    static func read(
        id: String, in directory: FileDescriptor, path: String, reader: JSONReader,
        schema: StoreSchema? = nil, keepingIn recent: RecentBytes? = nil,
        keep: (UnsafeRawBufferPointer) -> ItemBytes = { ItemBytes($0) }
    ) -> (Outcome, FileStatus?) {
        let file = join(path, ItemID.fileName(id))
        let (read, status) = readBytes(
            named: ItemID.fileName(id), in: directory, file: file, id: id, limit: reader.maxSize)
        switch read {
        case nil: return (.missing, nil)
        case .failure(let error)?: return (.invalid(error), status)
        case .success(let bytes)?:
            let outcome = parse(
                bytes, id: id, file: file, reader: reader, schema: schema, keep: keep)
            if let recent, case .item(let item) = outcome {
                recent.keep(bytes, as: item.fingerprint)
            }
            return (outcome, status)
        }
    }

    /// The bytes of the file `name` in `directory`, read safely: never through a symbolic
    /// link (`O_NOFOLLOW`), never blocking on a FIFO (`O_NONBLOCK`), regular files only,
    /// within `limit` bytes. `nil` when there is no such file; the status when it was had.
    ///
    /// - Parameters:
    ///   - file: the file's path, for error messages.
    ///   - id: the item's id, if the file is an item's, for error messages.
    static func readBytes(
        named name: String, in directory: FileDescriptor, file: String, id: String?, limit: Int
    ) -> (Result<[UInt8], StoreError>?, FileStatus?) {
        let fd: FileDescriptor
        do {
            fd = try .open(name, relativeTo: directory, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch .noSuchFile {
            return (nil, nil)
        } catch .tooManySymbolicLinks, .noSuchDeviceOrAddress {
            // ELOOP: a symlink (O_NOFOLLOW); ENXIO: a socket. lstat says which.
            let status = try? directory.linkStatus(of: name)
            return (.failure(notRegular(status?.kind ?? .symbolicLink, file: file, id: id)), status)
        } catch {
            return (.failure(.system(error, "could not open", file: file, id: id)), nil)
        }
        return fd.closeAfter { fd in
            let status: FileStatus
            do throws(Errno) {
                status = try fd.status()
            } catch {
                return (.failure(.system(error, "could not stat", file: file, id: id)), nil)
            }
            guard status.kind == .regular else {
                return (.failure(notRegular(status.kind, file: file, id: id)), status)
            }
            if status.size > limit {
                return (.failure(tooLarge(status.size, limit: limit, file: file, id: id)), status)
            }
            do throws(Errno) {
                guard let bytes = try fd.readAll(sizeHint: status.size, limit: limit) else {
                    return (.failure(tooLarge(nil, limit: limit, file: file, id: id)), status)
                }
                return (.success(bytes), status)
            } catch {
                return (.failure(.system(error, "could not read", file: file, id: id)), status)
            }
        }
    }

    /// The bytes `item` was parsed from, read again from its file in the store `path`:
    /// `nil` unless the file still holds exactly those (its fingerprint).
    static func bytes(of item: Item, in path: String) -> [UInt8]? {
        guard let directory = try? FileDescriptor.openDirectory(path) else { return nil }
        return directory.closeAfter { directory in
            let name = ItemID.fileName(item.id)
            let (read, _) = readBytes(
                named: name, in: directory, file: name, id: item.id,
                limit: item.fingerprint.size)
            guard case .success(let bytes)? = read, Fingerprint(bytes) == item.fingerprint
            else { return nil }
            return bytes
        }
    }

    /// The line of the first of git's conflict markers (`<<<<<<< `) at the start of a line,
    /// if the file has one.
    static func conflictMarkerLine(_ bytes: [UInt8]) -> Int? {
        let marker = Array("<<<<<<<".utf8)
        var line = 1
        var start = 0
        while start < bytes.count {
            let end = bytes[start...].firstIndex(of: 0x0A) ?? bytes.count
            let text = bytes[start..<end]
            if text.starts(with: marker), text.count == 7 || text[start + 7] == 0x20 {
                return line
            }
            line += 1
            start = end + 1
        }
        return nil
    }

    /// Parses the bytes of `<id>.json` into an item; one that breaks an enforced `schema`
    /// is invalid.
    package static func parse(
        _ bytes: [UInt8], id: String, file: String, reader: JSONReader, revision: Int64 = 0,
        schema: StoreSchema? = nil
    ) -> Outcome {
        parse(
            bytes, id: id, file: file, reader: reader, revision: revision, schema: schema,
            keep: { ItemBytes($0) })
    }

    /// Parses the bytes of `<id>.json` into an item whose bytes `keep` keeps.
    static func parse(
        _ bytes: [UInt8], id: String, file: String, reader: JSONReader, revision: Int64 = 0,
        schema: StoreSchema? = nil, keep: (UnsafeRawBufferPointer) -> ItemBytes
    ) -> Outcome {
        // The tape only: the item keeps the bytes, its members made on access.
        let tape: JSONTape
        do {
            tape = try bytes.withUnsafeBufferPointer { buffer throws(JSONSyntaxError) in
                try reader.tape(buffer)
            }
        } catch {
            if let line = conflictMarkerLine(bytes) {
                return .invalid(
                    StoreError(
                        code: .invalidJSON,
                        message:
                            "git conflict markers: a merge left both versions in the file; keep one and save it",
                        file: file, id: id, line: line, column: 1, underlying: error))
            }
            return .invalid(.syntax(error, file: file, id: id))
        }
        guard tape.entries[0].kind == .object else {
            return .invalid(
                StoreError(
                    code: .invalidItem,
                    message:
                        "an item file must hold a JSON object, this one holds \(article(tape.entries[0].kind.typeName))",
                    file: file, id: id))
        }
        // Without an "id" member the item makes it from the name on demand.
        if let member = bytes.withUnsafeBufferPointer({ tape.value(ofMember: "id", in: $0) }) {
            guard member == .string(id) else {
                return .invalid(
                    StoreError(
                        code: .invalidItem,
                        message:
                            "member \"id\" is \(member) but the file name gives the id \"\(id)\"",
                        file: file, id: id))
            }
        }
        let item = Item(
            id: id, bytes: bytes.withUnsafeBytes(keep), fingerprint: Fingerprint(bytes),
            revision: revision)
        guard let schema else { return .item(item) }
        return schema.applied(to: .item(item), bytes: bytes, file: file)
    }

    static func notRegular(_ kind: FileStatus.Kind, file: String, id: String?) -> StoreError {
        let what: String
        switch kind {
        case .directory: what = "a directory"
        case .symbolicLink: what = "a symbolic link (not followed)"
        case .fifo: what = "a FIFO"
        case .socket: what = "a socket"
        case .characterDevice, .blockDevice: what = "a device"
        case .regular, .unknown: what = "not a regular file"
        }
        return StoreError(
            code: .notRegularFile, message: "is \(what); item files must be regular files",
            file: file, id: id)
    }

    package static func tooLarge(_ size: Int?, limit: Int, file: String, id: String?) -> StoreError
    {
        let actual = size.map { "is \(byteCount($0)), " } ?? ""
        return StoreError(
            code: .tooLarge,
            message: "\(actual)larger than the \(byteCount(limit)) limit for an item file",
            file: file, id: id)
    }

    package static func byteCount(_ n: Int) -> String {
        if n >= 1 << 20 {
            let mib = Double(n) / Double(1 << 20)
            return n % (1 << 20) == 0 ? "\(n >> 20) MiB" : "\((mib * 10).rounded() / 10) MiB"
        }
        if n >= 1 << 10 { return "\(n >> 10) KiB" }
        return "\(n) bytes"
    }

    private static func article(_ typeName: String) -> String {
        typeName == "array" || typeName == "object" ? "an \(typeName)" : "a \(typeName)"
    }
}
