import Glibc

extension JSONStore {
    /// The bytes of the file `name` in the store directory, as they are on disk, or `nil`
    /// if there is no such file: for showing a person an item's file, valid or not.
    ///
    /// The file is opened as an item file is (`O_NOFOLLOW | O_NONBLOCK`, regular files
    /// only, within the size limit), so a symlink, FIFO or device with an item's name is
    /// reported, never followed or blocked on.
    ///
    /// - Throws: `StoreError` naming the file: not a regular file, too large, unreadable;
    ///   `.invalidID` for a name that is not one entry of the directory.
    package func _fileBytes(named name: String) throws(StoreError) -> [UInt8]? {
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else {
            throw StoreError.invalidID(name, "not a file name in the store directory")
        }
        let file = join(path, name)
        let dir = try openDirectory()
        defer { dir.close() }
        let fd: FileDescriptor
        do {
            fd = try .open(name, relativeTo: dir, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
        } catch .noSuchFile {
            return nil
        } catch .tooManySymbolicLinks, .noSuchDeviceOrAddress {
            let status = try? dir.linkStatus(of: name)
            throw ItemFile.notRegular(status?.kind ?? .symbolicLink, file: file, id: nil)
        } catch {
            throw StoreError.system(error, "could not open", file: file)
        }
        return try fd.closeAfter { fd throws(StoreError) in
            let status: FileStatus
            do throws(Errno) {
                status = try fd.status()
            } catch {
                throw StoreError.system(error, "could not stat", file: file)
            }
            guard status.kind == .regular else { throw ItemFile.notRegular(status.kind, file: file, id: nil) }
            let bytes: [UInt8]?
            do throws(Errno) {
                bytes = try fd.readAll(sizeHint: status.size, limit: reader.maxSize)
            } catch {
                throw StoreError.system(error, "could not read", file: file)
            }
            guard let bytes else { throw ItemFile.tooLarge(nil, limit: reader.maxSize, file: file, id: name) }
            return bytes
        }
    }
}
