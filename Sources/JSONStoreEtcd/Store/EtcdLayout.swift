import JSONStore

/// Where a store's items live in etcd's key space: the item `tea` of the store at prefix
/// `tasks` is the key `tasks/tea`, and its value is the item's JSON, written as its file
/// would be.
///
/// A key under the prefix that gives no valid id (`tasks/a/b`, `tasks/.x`, bytes that are
/// not UTF-8) is reported by its name after the prefix, never read as an item.
struct EtcdLayout: Sendable {
    /// The prefix as given, without a trailing `/`: `tasks`.
    let prefix: String
    /// The bytes every key of the store starts with: `tasks/`.
    let keyPrefix: [UInt8]

    init(prefix: String) {
        var trimmed = Substring(prefix)
        while trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        self.prefix = String(trimmed)
        keyPrefix = Array(self.prefix.utf8) + [UInt8(ascii: "/")]
    }

    /// The key of the item `id`.
    func key(of id: String) -> [UInt8] { keyPrefix + Array(id.utf8) }

    /// The key of the item `id` as messages show it.
    func location(of id: String) -> String { Display.escaped(prefix + "/" + id) }

    /// The key the store's schema lives at: `tasks/.jsonstore/schema.json`, the place of
    /// a directory's, which no id can name (an id never starts with `.`).
    var schemaKey: [UInt8] { keyPrefix + Array(".jsonstore/schema.json".utf8) }

    /// What a key under the prefix names.
    enum Entry {
        case item(id: String)
        /// What the store keeps for itself (`PREFIX/.jsonstore/…`): no item, no error.
        case own
        /// Not an item: why, under the name after the prefix (the file's `name`).
        case invalid(InvalidFile)
    }

    /// What `key` (which starts with `keyPrefix`) names.
    func entry(_ key: [UInt8]) -> Entry {
        let rest = key[keyPrefix.count...]
        if rest.starts(with: ".jsonstore/".utf8) { return .own }
        guard let id = String(validating: rest, as: UTF8.self) else {
            let shown = Display.bytes(Array(rest))
            return badKey(
                shown, "the key is not valid UTF-8", file: Display.escaped(prefix) + "/" + shown)
        }
        if let reason = ItemID.problem(with: id) {
            return badKey(id, "the key gives an invalid id: \(reason)", file: location(of: id))
        }
        return .item(id: id)
    }

    /// A key under the prefix that names no item, reported as `name`.
    private func badKey(_ name: String, _ message: String, file: String) -> Entry {
        .invalid(
            InvalidFile(
                name: name, id: nil,
                error: StoreError(code: .invalidID, message: message, file: file)))
    }

    /// What the value of the item `id` holds: parsed as its file would be, its etag the
    /// key's `mod_revision`.
    func outcome(of id: String, _ keyValue: EtcdClient.KeyValue, reader: JSONReader)
        -> ItemFile.Outcome
    {
        outcome(of: id, keyValue.value, reader: reader, revision: keyValue.modRevision)
    }

    private func outcome(of id: String, _ value: [UInt8], reader: JSONReader, revision: Int64)
        -> ItemFile.Outcome
    {
        guard value.count <= reader.maxSize else {
            return .invalid(
                ItemFile.tooLarge(
                    value.count, limit: reader.maxSize, file: location(of: id), id: id))
        }
        return ItemFile.parse(
            value, id: id, file: location(of: id), reader: reader, revision: revision)
    }
}
