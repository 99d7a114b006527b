import Glibc

/// How a live query turns the store's items into the elements of its results: as they
/// are (`Item`), or decoded as a `Decodable` type.
///
/// Decoding runs on the pipeline, once per changed item, never on a subscriber's
/// executor. An item that does not decode is an invalid file for that observation; its
/// error names the file, the member path and, read again from the file only then, the
/// line and column of the offending value.
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
    /// Elements decoded as `Element` from the items of the store in `directory`.
    static func decoding(_ type: Element.Type, directory: String) -> ElementCoder<Element> {
        ElementCoder(isItem: false) { item in
            do {
                return .success(try JSONValueDecoder().decode(type, from: .object(item.object)))
            } catch let error as DecodingError {
                return .failure(located(error, item: item, directory: directory))
            } catch {
                return .failure(
                    StoreError(
                        code: .invalidItem, message: "\(error)",
                        file: join(directory, item.fileName),
                        id: item.id, underlying: error))
            }
        }
    }

    /// The error of `item` failing to decode, with the line and column of the value at
    /// fault when the file still holds the item that was decoded.
    private static func located(_ error: DecodingError, item: Item, directory: String) -> StoreError
    {
        let file = join(directory, item.fileName)
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
        guard
            let bytes = try? FileDescriptor.open(file, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK)
                .closeAfter({ fd throws(Errno) in
                    try fd.readAll(sizeHint: item.fingerprint.size, limit: item.fingerprint.size)
                }),
            Fingerprint(bytes) == item.fingerprint,
            let (line, column) = JSONLocator.position(of: path, in: bytes)
        else { return located }
        located.line = line
        located.column = column
        return located
    }
}
