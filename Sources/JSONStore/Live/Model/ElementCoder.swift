/// How a live query turns the store's items into the elements of its results: as they
/// are (`Item`), or decoded as a `Decodable` type.
///
/// Decoding runs on the pipeline, once per changed item, never on a subscriber's
/// executor. An item that does not decode is an invalid file for that observation; its
/// error names the file (on etcd, the key), the member path and the line and column of the
/// offending value in the bytes the pipeline read.
struct ElementCoder<Element: Sendable>: Sendable {
    /// Whether the elements are the items themselves (nothing to decode).
    let isItem: Bool
    private let body: @Sendable (Item) -> Result<Element, StoreError>

    /// The element of `item`, or why it has none.
    func decode(_ item: Item) -> Result<Element, StoreError> { body(item) }
}

extension ElementCoder {
    /// The coder of results that are empty for good (`Results()`): it has nothing to decode.
    static var empty: ElementCoder<Element> {
        ElementCoder(isItem: false) { item in
            .failure(
                StoreError(code: .invalidItem, message: "no element type to decode", id: item.id))
        }
    }
}

extension ElementCoder where Element == Item {
    /// Elements that are the items themselves.
    static var items: ElementCoder<Item> {
        ElementCoder(isItem: true) { .success($0) }
    }
}

extension ElementCoder where Element: Decodable {
    /// Elements decoded as `Element` from the items of a store whose item `id` is
    /// `location(id)` for messages (a file's path, an etcd key), locating a decoding error
    /// in the bytes the pipeline read (`recent`), or else in those `reread` gives for the
    /// item (its file's, when they are still the ones it was parsed from).
    static func decoding(
        _ type: Element.Type, location: @escaping @Sendable (String) -> String,
        recent: RecentBytes, reread: (@Sendable (Item) -> [UInt8]?)? = nil
    ) -> ElementCoder<Element> {
        ElementCoder(isItem: false) { item in
            do {
                return .success(try item.decoded(as: type))
            } catch let error as DecodingError {
                return .failure(
                    located(
                        error, item: item, file: location(item.id), recent: recent,
                        reread: reread))
            } catch {
                return .failure(
                    StoreError(
                        code: .invalidItem, message: "\(error)", file: location(item.id),
                        id: item.id, underlying: error))
            }
        }
    }

    /// The error of `item` failing to decode, with the line and column of the value at
    /// fault: found in the bytes the item was parsed from. Those are the bytes the pipeline
    /// kept when it read them (`RecentBytes`: the changes read lately), or its value written
    /// as jsonstore writes files when that gives the same bytes (its fingerprint), or, for
    /// a file formatted by hand that the first load read (a load keeps no bytes, so as not
    /// to hold the store twice), its file read again when it still has those bytes;
    /// otherwise the error names the member, not where.
    private static func located(
        _ error: DecodingError, item: Item, file: String, recent: RecentBytes,
        reread: (@Sendable (Item) -> [UInt8]?)?
    ) -> StoreError {
        var located = StoreError.decoding(error, file: file, id: item.id)
        let path: [any CodingKey]
        switch error {
        case .typeMismatch(_, let context), .valueNotFound(_, let context),
            .keyNotFound(_, let context),
            .dataCorrupted(let context):
            path = context.codingPath
        @unknown default:
            return located
        }
        guard let bytes = recent.bytes(of: item.fingerprint) ?? written(item) ?? reread?(item),
            let (line, column) = JSONLocator.position(of: path, in: bytes)
        else { return located }
        located.line = line
        located.column = column
        return located
    }

    /// `item`'s value as jsonstore writes it, if those are the bytes it was read from.
    private static func written(_ item: Item) -> [UInt8]? {
        let bytes = JSONWriter.pretty(.object(item.members))
        return Fingerprint(bytes) == item.fingerprint ? bytes : nil
    }
}
