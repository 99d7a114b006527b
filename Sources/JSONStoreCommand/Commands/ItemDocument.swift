import JSONStore

/// A document handed to the command to become an item (`put ID FILE`, `resolve --keep
/// FILE`): read, then checked, its errors named after the document, at their line and
/// column, never after the item's file.
enum ItemDocument {
    /// The bytes of `file` (standard input when `nil`) and the object they hold.
    static func read(_ file: String?, limit: Int) throws -> (bytes: [UInt8], object: JSONObject) {
        let name = Display.escaped(file ?? "<stdin>")
        let bytes = try InputFile.read(file, limit: limit)
        let value: JSONValue
        do {
            value = try JSONReader().read(bytes)
        } catch {
            throw CommandFailure(
                "\(name):\(error.line):\(error.column): \(Display.escaped(error.reason))")
        }
        guard case .object(let object) = value else {
            throw CommandFailure("\(name): an item must be a JSON object, not \(value.typeName)")
        }
        return (bytes, object)
    }
}
