/// A file the store could not read as an item, and why.
public struct InvalidFile: Sendable, CustomStringConvertible {
    /// The file's name in the store directory.
    public let name: String
    /// The id the name gives, or `nil` if the name does not give a valid id.
    public let id: String?
    /// Why the file is not an item.
    public let error: StoreError

    package init(name: String, id: String?, error: StoreError) {
        self.name = name
        self.id = id
        self.error = error
    }

    /// The invalid file of item `id`.
    init(itemID id: String, error: StoreError) {
        self.init(name: ItemID.fileName(id), id: id, error: error)
    }

    public var description: String { error.description }
}

extension InvalidFile {
    /// A file named like an item whose name gives an invalid id.
    static func badName(_ name: String, id: String, reason: String, path: String) -> InvalidFile {
        let error = StoreError(
            code: .invalidID, message: "the file name gives an invalid id: \(reason)",
            file: join(path, name), id: id)
        return InvalidFile(name: name, id: nil, error: error)
    }

    /// A file whose name is not UTF-8, if it is named like an item; its name shows the
    /// bytes that are not UTF-8 as `\xNN`.
    static func undecodableName(_ bytes: [UInt8], path: String) -> InvalidFile? {
        guard bytes.suffix(5).elementsEqual(".json".utf8), bytes.first != UInt8(ascii: ".")
        else { return nil }
        let shown = Display.bytes(bytes)
        let error = StoreError(
            code: .invalidID, message: "the file name is not valid UTF-8",
            file: join(path, shown))
        return InvalidFile(name: shown, id: nil, error: error)
    }
}
