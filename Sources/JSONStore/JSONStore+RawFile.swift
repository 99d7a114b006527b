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
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0")
        else {
            throw StoreError.invalidID(name, "not a file name in the store directory")
        }
        if let remote {
            guard name.hasSuffix(".json") else { return nil }
            return try remote.rawValue(of: String(name.dropLast(5)), limit: reader.maxSize)
        }
        let dir = try openDirectory()
        defer { dir.close() }
        let (read, _) = ItemFile.readBytes(
            named: name, in: dir, file: join(path, name), id: nil, limit: reader.maxSize)
        return try read?.get()
    }
}
