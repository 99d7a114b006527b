/// One way a value breaks a schema: where in the value (`/priority`), which keyword at
/// which place in the schema (`/properties/priority/maximum`), and why, in words
/// (`9 is greater than the maximum 5`).
public struct SchemaViolation: Sendable, Hashable, CustomStringConvertible {
    /// The JSON Pointer to the offending value in the instance (`""` for the whole).
    public var instancePath: String
    /// The JSON Pointer to the keyword in the schema; a keyword of another document is
    /// prefixed with that document's URI (`https://…/address.json#/properties/zip/type`).
    public var keywordLocation: String
    public var message: String
    /// Where the offending value begins in the document's text, when the violation came
    /// from checking text (`JSONSchema.validate(json:)`): 1-based, the column in bytes.
    public var line: Int?
    public var column: Int?

    public init(
        instancePath: String, keywordLocation: String, message: String, line: Int? = nil,
        column: Int? = nil
    ) {
        self.instancePath = instancePath
        self.keywordLocation = keywordLocation
        self.message = message
        self.line = line
        self.column = column
    }

    /// `/priority: 9 is greater than the maximum 5 (maximum at /properties/priority/maximum)`
    public var description: String {
        let keyword = keywordLocation.split(separator: "/").last.map(String.init) ?? ""
        let path = instancePath.isEmpty ? "/" : instancePath
        return "\(path): \(message) (\(keyword) at \(keywordLocation))"
    }
}
