/// One item of a store: the object in `<id>.json`, with its `"id"` member present.
///
/// Items are immutable values, safe to pass between threads. Read fields untyped with the
/// subscript, or decode the whole item as your own `Decodable` type:
///
/// ```swift
/// let title = item["title"]?.stringValue
/// let todo = try item.decode(as: Todo.self)
/// ```
public struct Item: Sendable, Hashable, Identifiable {
    /// The id: the file name without `.json`.
    public let id: String
    /// The file's bytes: all the store keeps of the item's value, its members made from
    /// them on access (issue 28: a million items in a fifth of the memory a tree of values
    /// took).
    let bytes: ItemBytes
    /// The fingerprint of the file's bytes, to tell real edits from touches.
    let fingerprint: Fingerprint
    /// The store's revision of this value where the store has one (etcd's `mod_revision`);
    /// 0 in a directory.
    package let revision: Int64

    /// The item `id` whose file holds `bytes`, an object the store's reader has read.
    init(id: String, bytes: ItemBytes, fingerprint: Fingerprint, revision: Int64 = 0) {
        self.id = id
        self.bytes = bytes
        self.fingerprint = fingerprint
        self.revision = revision
    }

    /// The item `id` with the members of `object`, kept as their compact JSON text.
    init(id: String, object: JSONObject, fingerprint: Fingerprint, revision: Int64 = 0) {
        self.init(
            id: id, bytes: ItemBytes(JSONWriter.compact(.object(object))),
            fingerprint: fingerprint, revision: revision)
    }

    /// The members as the file has them: `"id"` only when the file has it. Made from the
    /// bytes on each access: read it once, or one member with the subscript.
    package var members: JSONObject { bytes.object }

    /// The object, with `"id"` filled in first from the file name when the file has none.
    ///
    /// Made on access: to read one member, use the subscript.
    public var object: JSONObject {
        var object = bytes.object
        if object["id"] == nil { object.setFirst("id", .string(id)) }
        return object
    }

    /// The member `key` (`"id"` is always there), read from the bytes without making the
    /// other members.
    public subscript(key: String) -> JSONValue? {
        if let value = bytes.member(key) { return value }
        return UTF8Key.equal(key, "id") ? .string(id) : nil
    }

    /// The item's file name, `<id>.json`.
    public var fileName: String { ItemID.fileName(id) }

    /// A token that changes whenever the item's stored value does, for compare-and-swap
    /// (`JSONStore.put(_:_:expecting:)`, `jsonstore put --if-match`): in a directory a
    /// signature of the file's bytes (their length and a 64-bit hash, `157-9f3a…`), on etcd
    /// the key's `mod_revision` (`1042`).
    public var etag: String { revision > 0 ? String(revision) : fingerprint.etag }

    /// Equal when the ids have the same bytes and the objects and fingerprints are equal.
    public static func == (a: Item, b: Item) -> Bool {
        UTF8Key.equal(a.id, b.id) && a.fingerprint == b.fingerprint
            && (ItemBytes.same(a.bytes, b.bytes) || a.members == b.members
                || a.object == b.object)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(UTF8Key(id))
        hasher.combine(fingerprint)
    }

    /// Decodes the item as `T`. A property `id` of `T` receives the file's id.
    ///
    /// - Throws: `StoreError` with code `.invalidItem`, naming the member at fault.
    public func decode<T: Decodable>(as type: T.Type = T.self) throws(StoreError) -> T {
        do {
            return try decoded(as: type)
        } catch let error as DecodingError {
            throw StoreError.decoding(error, file: fileName, id: id)
        } catch {
            throw StoreError(
                code: .invalidItem, message: "\(error)", file: fileName, id: id, underlying: error)
        }
    }

    /// Decodes the item as `T` straight from its bytes, throwing the decoder's own error:
    /// for callers that locate it themselves (typed live results).
    func decoded<T: Decodable>(as type: T.Type) throws -> T {
        guard let document = bytes.withUnsafeBytes({ TapeDocument.item($0, id: id) }) else {
            return try JSONValueDecoder().decode(type, from: .object(object))
        }
        return try document.decode(type)
    }
}
