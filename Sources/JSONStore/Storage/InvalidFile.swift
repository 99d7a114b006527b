/// A file the store could not read as an item, and why.
public struct InvalidFile: Sendable, CustomStringConvertible {
    /// The file's name in the store directory.
    public let name: String
    /// The id the name gives, or `nil` if the name does not give a valid id.
    public let id: String?
    /// Why the file is not an item.
    public let error: StoreError

    init(name: String, id: String?, error: StoreError) {
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

    /// A file whose name is not UTF-8 (shown repaired), if it is named like an item.
    static func undecodableName(_ repaired: String, path: String) -> InvalidFile? {
        guard repaired.hasSuffix(".json"), !repaired.hasPrefix(".") else { return nil }
        let error = StoreError(
            code: .invalidID, message: "the file name is not valid UTF-8",
            file: join(path, repaired))
        return InvalidFile(name: repaired, id: nil, error: error)
    }
}
