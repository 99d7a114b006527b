extension JSONSchema {
    /// Parses `bytes` as a JSON document and checks it, each violation with the line and
    /// column where its offending value begins (`tea.json:4:15: /priority: …`).
    ///
    /// - Throws: `JSONSyntaxError` when `bytes` is not JSON.
    public func validate(json bytes: [UInt8], reader: JSONReader = JSONReader())
        throws(JSONSyntaxError) -> [SchemaViolation]
    {
        let value = try reader.read(bytes)
        return validate(value).map { violation in
            var located = violation
            let tokens = JSONPointer(parsing: Substring(violation.instancePath))?.tokens ?? []
            let path: [any CodingKey] = tokens.map { token in
                var key = AnyKey(stringValue: token)
                key.intValue = token == "0" || token.first != "0" ? Int(token) : nil
                return key
            }
            if let position = JSONLocator.position(of: path, in: bytes) {
                (located.line, located.column) = (position.line, position.column)
            }
            return located
        }
    }
}
