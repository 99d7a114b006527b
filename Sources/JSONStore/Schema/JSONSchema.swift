/// A JSON Schema (draft 2020-12), compiled once, that checks any JSON value.
///
/// ```swift
/// let schema = try JSONSchema(parsing: #"{"type": "object", "required": ["title"]}"#)
/// for violation in schema.validate(["status": "done"]) {
///     print(violation)   // /: the member "title" is missing (required at /required)
/// }
/// ```
///
/// `$ref`s are resolved against the bundled 2020-12 meta-schemas and the documents of a
/// `SchemaRegistry`; nothing is fetched. `format` is an annotation unless
/// `assertingFormat` (or the schema's meta-schema) asks for it to be checked.
public struct JSONSchema: Sendable {
    let program: SchemaProgram

    /// The URI a schema without `$id` is known by, for its own `$ref`s.
    public static let defaultURI = "urn:jsonstore:schema"

    /// Compiles `schema`.
    ///
    /// - Throws: `StoreError` `.invalidSchema` naming the keyword (as a JSON Pointer) and
    ///   the reason: a keyword of the wrong type, a `$ref` to an unknown document, a
    ///   `pattern` that does not compile, a `$ref` cycle that would never end.
    public init(
        _ schema: JSONValue, registry: SchemaRegistry = SchemaRegistry(),
        assertingFormat: Bool = false
    ) throws(StoreError) {
        do {
            try self.init(compiling: schema, registry: registry, assertingFormat: assertingFormat)
        } catch {
            throw error.storeError
        }
    }

    /// Compiles `schema`, an error saying where in it.
    init(compiling schema: JSONValue, registry: SchemaRegistry, assertingFormat: Bool)
        throws(SchemaCompileError)
    {
        let compiler = SchemaCompiler(registry: registry, assertsFormat: assertingFormat)
        program = try compiler.compile(schema, base: URIReference(Self.defaultURI))
    }

    /// Parses and compiles a schema's JSON text.
    public init(parsing text: String, registry: SchemaRegistry = SchemaRegistry())
        throws(StoreError)
    {
        let value: JSONValue
        do {
            value = try JSONReader().read(text)
        } catch {
            throw StoreError(
                code: .invalidSchema, message: "not JSON: \(error)", line: error.line,
                column: error.column, underlying: error)
        }
        try self.init(value, registry: registry)
    }

    /// Every way `value` breaks the schema; empty when it is valid.
    public func validate(_ value: JSONValue) -> [SchemaViolation] {
        var validator = SchemaValidator(program: program)
        _ = validator.evaluate(program.root, value)
        if let abandoned = validator.abandoned { return [abandoned] }
        return validator.violations
    }

    /// Whether `value` is valid, stopping at the first violation.
    public func isValid(_ value: JSONValue) -> Bool {
        var validator = SchemaValidator(program: program)
        validator.collecting = false
        return validator.evaluate(program.root, value) != nil
    }
}
