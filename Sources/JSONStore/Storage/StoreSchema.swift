/// The schema a store's items obey: `.jsonstore/schema.json` in a directory (on etcd, the
/// key `PREFIX/.jsonstore/schema.json`), a JSON Schema 2020-12 document, compiled.
///
/// What it checks is an item's file as written, less its `"id"` member: the id is the
/// file's name (or the key's), which the store checks already, so a schema describes the
/// data and `additionalProperties: false` needs no `id` among its properties.
///
/// Its mode, `x-jsonstore-mode` in the document (a keyword 2020-12 ignores), is `strict`
/// unless it says `warn`: a strict schema makes an item that breaks it invalid where it is
/// read (observers keep its last valid value, flagged) and refuses a write through the
/// store that would make one; a `warn` schema only reports (`check`, a write's warnings).
package struct StoreSchema: Sendable {
    /// What a schema's errors do: refuse (`strict`) or only report (`warn`).
    package enum Mode: String, Sendable, CaseIterable {
        case strict, warn
    }

    /// The schema's name in the private folder.
    package static let fileName = "schema.json"
    /// The document's keyword that holds its mode.
    package static let modeKeyword = "x-jsonstore-mode"

    package let schema: JSONSchema
    package let mode: Mode
    /// The document as it was read.
    package let bytes: [UInt8]
    let fingerprint: Fingerprint

    /// Reads, checks and compiles the document `bytes` (see `JSONSchema.init(json:)`).
    ///
    /// - Parameter file: the document's path, for errors.
    /// - Throws: `StoreError` `.invalidSchema`, located in `bytes`.
    package init(bytes: [UInt8], file: String) throws(StoreError) {
        schema = try JSONSchema(json: bytes, file: file)
        // It parsed as JSON just now.
        let document = try? JSONReader().read(bytes)
        switch document?.objectValue?[Self.modeKeyword] {
        case nil: mode = .strict
        case .string(let name)? where Mode(rawValue: name) != nil: mode = Mode(rawValue: name)!
        case let other?:
            throw StoreError(
                code: .invalidSchema,
                message:
                    "/\(Self.modeKeyword): must be \"strict\" or \"warn\", not \(other)",
                file: file)
        }
        self.bytes = bytes
        fingerprint = Fingerprint(bytes)
    }

    /// Whether an item that breaks the schema is invalid where it is read.
    package var isEnforced: Bool { mode == .strict }

    /// What the schema checks of `item`: its members less `"id"`.
    package static func checked(_ item: Item) -> JSONValue {
        var members = item.members
        _ = members.removeValue(forKey: "id")
        return .object(members)
    }

    /// Every way `item` breaks the schema, located in `bytes` (the file it was read from)
    /// when they are given.
    package func violations(of item: Item, bytes: [UInt8]? = nil) -> [SchemaViolation] {
        violations(ofChecked: Self.checked(item), bytes: bytes)
    }

    /// Every way `value` (what `checked` gives of an item) breaks the schema, located in
    /// `bytes` when they are given.
    private func violations(ofChecked value: JSONValue, bytes: [UInt8]?) -> [SchemaViolation] {
        guard let bytes else { return schema.validate(value) }
        return schema.locatedViolations(of: value, in: bytes)
    }

    /// The error of an item that breaks the schema, `nil` when it holds: the first
    /// violation is the message and the place, every one of them is in `violations`.
    package func error(of item: Item, bytes: [UInt8]?, file: String) -> StoreError? {
        let value = Self.checked(item)
        guard !schema.isValid(value) else { return nil }
        return Self.error(violations(ofChecked: value, bytes: bytes), file: file, id: item.id)
    }

    /// `violations` each located in `bytes`, a document of the value they are about (a
    /// refused write's, in the text a person wrote it as).
    package static func located(_ violations: [SchemaViolation], in bytes: [UInt8])
        -> [SchemaViolation]
    {
        violations.map { violation in
            var located = violation
            let path = JSONPointer(parsing: Substring(violation.instancePath))?.codingPath ?? []
            if let position = JSONLocator.position(of: path, in: bytes) {
                (located.line, located.column) = (position.line, position.column)
            }
            return located
        }
    }

    /// The error for `violations` of the item `id`.
    package static func error(_ violations: [SchemaViolation], file: String, id: String)
        -> StoreError
    {
        let first = violations.first
        let path = first.map { $0.instancePath.isEmpty ? "/" : $0.instancePath } ?? "/"
        let more = violations.count > 1 ? " (and \(violations.count - 1) more)" : ""
        var error = StoreError(
            code: .schemaViolation,
            message: "\(path): \(first?.message ?? "breaks the schema")\(more)", file: file,
            id: id, line: first?.line, column: first?.column)
        error.violations = violations
        return error
    }

    /// `outcome` as the store reads it under this schema: an item that breaks an enforced
    /// schema is invalid, with its violations located in `bytes` when they are given.
    package func applied(to outcome: ItemFile.Outcome, bytes: [UInt8]?, file: String)
        -> ItemFile.Outcome
    {
        guard isEnforced, case .item(let item) = outcome,
            let error = error(of: item, bytes: bytes, file: file)
        else { return outcome }
        return .invalid(error)
    }
}
