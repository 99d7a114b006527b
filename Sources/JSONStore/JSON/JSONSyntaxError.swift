/// Why a file is not valid JSON, and where: line and column (both 1-based, columns in
/// characters) and the byte offset.
///
/// For example, reading `{"a": 1,}` fails with `1:8: trailing comma before '}'`.
public struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What kind of mistake was found.
    public enum Kind: Sendable, Hashable {
        /// The input holds no value at all (empty or only whitespace).
        case empty
        /// The input ends in the middle of a value.
        case unexpectedEndOfInput
        /// A character that cannot stand at this place.
        case unexpectedCharacter
        /// A comma right before `]` or `}`.
        case trailingComma
        /// Something that starts like `true`, `false` or `null` but is not.
        case invalidLiteral
        /// `NaN`, `Infinity` or `-Infinity`, which JSON does not have.
        case nonFiniteNumber
        /// A number outside JSON's grammar: `01`, `1.`, `.5`, `+1`, `1e`.
        case invalidNumber
        /// A raw control character (U+0000 to U+001F) inside a string.
        case unescapedControlCharacter
        /// A backslash escape JSON does not define, or a bad `\u` escape.
        case invalidEscape
        /// A `\u` escape of half a surrogate pair.
        case loneSurrogate
        /// Bytes that are not UTF-8.
        case invalidUTF8
        /// A `//` or `/*` comment.
        case comment
        /// A string in single quotes.
        case singleQuotedString
        /// An object key without quotes.
        case unquotedKey
        /// The same key twice in one object.
        case duplicateKey
        /// More text after the value.
        case trailingData
        /// Arrays and objects nested deeper than the limit.
        case tooDeep
        /// More bytes than the limit.
        case tooLarge
    }

    /// What kind of mistake was found.
    public var kind: Kind
    /// The explanation, written for the person who will fix the file.
    public var reason: String
    /// The byte offset of the mistake, from 0.
    public var offset: Int
    /// The line of the mistake, from 1.
    public var line: Int
    /// The column of the mistake in characters, from 1.
    public var column: Int

    public init(kind: Kind, reason: String, offset: Int, line: Int, column: Int) {
        self.kind = kind
        self.reason = reason
        self.offset = offset
        self.line = line
        self.column = column
    }

    /// `line:column: reason`.
    public var description: String { "\(line):\(column): \(reason)" }
}

extension JSONSyntaxError {
    /// An error at `offset` in `bytes`, with the line and column worked out.
    ///
    /// - Complexity: O(offset); only paid when there is an error.
    init(_ kind: Kind, _ reason: String, at offset: Int, in bytes: UnsafeBufferPointer<UInt8>) {
        let (line, column) = Self.position(of: offset, in: bytes)
        self.init(kind: kind, reason: reason, offset: offset, line: line, column: column)
    }

    /// The line and column (from 1, columns in characters) of byte `offset` in `bytes`.
    ///
    /// - Complexity: O(offset).
    static func position(of offset: Int, in bytes: UnsafeBufferPointer<UInt8>) -> (
        line: Int, column: Int
    ) {
        var line = 1
        var column = 1
        for byte in bytes[..<min(offset, bytes.count)] {
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {  // count characters, not continuation bytes
                column += 1
            }
        }
        return (line, column)
    }
}
