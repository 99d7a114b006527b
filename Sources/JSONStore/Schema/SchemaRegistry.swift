/// The documents a schema's `$ref`s may name, by URI: the 2020-12 meta-schemas, bundled,
/// and whatever a program registers. Nothing is ever fetched from the network: a `$ref`
/// to a document that is neither is an error when the schema is compiled.
///
/// ```swift
/// var registry = SchemaRegistry()
/// try registry.register(address, uri: "https://example.com/address.json")
/// let schema = try JSONSchema(person, registry: registry)
/// ```
public struct SchemaRegistry: Sendable {
    /// The 2020-12 meta-schema's URI, the dialect of a schema that names none.
    public static let metaSchema = "https://json-schema.org/draft/2020-12/schema"

    private var registered: [String: JSONValue] = [:]

    public init() {}

    /// Registers `document` as the document at `uri` (its fragment, if any, ignored).
    ///
    /// - Throws: `StoreError` `.invalidSchema` when `uri` is not an absolute URI.
    public mutating func register(_ document: JSONValue, uri: String) throws(StoreError) {
        let reference = URIReference(uri)
        guard reference.isAbsolute else {
            throw StoreError(
                code: .invalidSchema, message: "\(uri) is not an absolute URI", file: nil)
        }
        registered[reference.withoutFragment.description] = document
    }

    /// The document at `uri` (no fragment): registered, else bundled.
    func document(_ uri: String) -> JSONValue? {
        if let document = registered[uri] { return document }
        return Self.parsedBundle[uri]
    }

    /// The bundled meta-schemas, parsed once.
    private static let parsedBundle: [String: JSONValue] = bundled.compactMapValues { text in
        try? JSONReader(maxDepth: 64, maxSize: 1 << 20).read(Array(text.utf8))
    }
}
