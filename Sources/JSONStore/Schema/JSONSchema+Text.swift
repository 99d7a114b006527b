extension JSONSchema {
    /// Parses a schema document's text, checks it against the 2020-12 meta-schema and
    /// compiles it: what `jsonstore schema set` does before a schema is put in force.
    ///
    /// Every error is located in `bytes`: not JSON (where it stops being JSON), a keyword
    /// the meta-schema refuses (each one in `violations`, the first in `line`/`column`),
    /// a `$ref` to no known document, a `pattern` that does not compile, a `$ref` cycle.
    ///
    /// - Parameter file: the document's path, named in errors.
    /// - Throws: `StoreError` `.invalidSchema`.
    public init(
        json bytes: [UInt8], file: String? = nil, registry: SchemaRegistry = SchemaRegistry(),
        assertingFormat: Bool = false
    ) throws(StoreError) {
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes)
        } catch {
            throw StoreError(
                code: .invalidSchema, message: "not JSON: \(error.reason)", file: file,
                line: error.line, column: error.column, underlying: error)
        }
        let broken = Self.metaSchema.locatedViolations(of: value, in: bytes)
        if let first = broken.first {
            var error = StoreError(
                code: .invalidSchema,
                message:
                    "not a 2020-12 schema: \(first.instancePath.isEmpty ? "/" : first.instancePath): \(first.message)",
                file: file, line: first.line, column: first.column)
            error.violations = broken
            throw error
        }
        do {
            try self.init(compiling: value, registry: registry, assertingFormat: assertingFormat)
        } catch {
            var located = error.storeError
            located.file = file
            if let position = JSONLocator.position(of: error.pointer.codingPath, in: bytes) {
                (located.line, located.column) = (position.line, position.column)
            }
            throw located
        }
    }

    /// Parses `bytes` as a JSON document and checks it, each violation with the line and
    /// column where its offending value begins (`tea.json:4:15: /priority: …`).
    ///
    /// - Throws: `JSONSyntaxError` when `bytes` is not JSON.
    public func validate(json bytes: [UInt8], reader: JSONReader = JSONReader())
        throws(JSONSyntaxError) -> [SchemaViolation]
    {
        locatedViolations(of: try reader.read(bytes), in: bytes)
    }

    /// The violations of `value`, parsed from `bytes`, each located in them.
    func locatedViolations(of value: JSONValue, in bytes: [UInt8]) -> [SchemaViolation] {
        StoreSchema.located(validate(value), in: bytes)
    }

    /// The 2020-12 meta-schema, compiled once: what every schema set in a store obeys.
    static let metaSchema: JSONSchema = {
        do {
            return try JSONSchema(.object(["$ref": .string(SchemaRegistry.metaSchema)]))
        } catch {
            preconditionFailure("the bundled meta-schema does not compile: \(error)")
        }
    }()
}

extension JSONPointer {
    /// The pointer's tokens as a coding path, an array index where a token is one.
    var codingPath: [any CodingKey] {
        tokens.map { token in
            var key = AnyKey(stringValue: token)
            key.intValue = token == "0" || token.first != "0" ? Int(token) : nil
            return key
        }
    }
}
