#if !FUZZING
    @testable import JSONStore
#endif

// The tape's property, checked on every input of the reader's fuzz target and corpus:
// the tape (`JSONTape`, what typed decoding reads from) is built exactly when the reader
// reads a value, with the reader's very error when it does not; the value made from the
// tape is the reader's; and a `Decodable` type walked through the tape decoder's
// containers gets what it gets from the value decoder.

/// Checks the tape's properties on `bytes` read by `reader`.
///
/// - Throws: `PropertyFailure` saying which property failed.
func tapeProperty(_ bytes: UnsafeBufferPointer<UInt8>, reader: JSONReader) throws(PropertyFailure) {
    let read = Result { () throws(JSONSyntaxError) -> JSONValue in try reader.read(bytes) }
    let taped = Result { () throws(JSONSyntaxError) -> JSONTape in try reader.tape(bytes) }
    switch (read, taped) {
    case (.failure(let expected), .failure(let found)):
        try require(expected == found, "the tape's error \(found), the reader's \(expected)")
    case (.success(let value), .success(let tape)):
        try require(tape.next(after: 0) == tape.entries.count, "the tape has more than one value")
        try require(tape.value(at: 0, in: bytes) == value, "the tape's value differs")
        let document = TapeDocument(copying: bytes, tape: tape)
        let fromTape = Result {
            try TapeDecoder(document: document, index: 0, path: .root).decodeValue(Walked.self)
        }
        let fromValue = Result { try JSONValueDecoder().decode(Walked.self, from: value) }
        switch (fromTape, fromValue) {
        case (.success(let a), .success(let b)):
            try require(a == b, "the decoders walk apart: \(a) against \(b)")
        default:
            throw PropertyFailure("the decoders disagree: \(fromTape) against \(fromValue)")
        }
    case (.failure(let error), .success):
        throw PropertyFailure("the reader reads what the tape refuses: \(error)")
    case (.success, .failure(let error)):
        throw PropertyFailure("the tape refuses what the reader reads: \(error)")
    }
}

/// Any JSON value, decoded through the containers and scalars a `Decodable` type uses:
/// objects by `allKeys` and keyed lookups, arrays element by element, numbers as an `Int`
/// where they are one and a `Double` otherwise.
struct Walked: Decodable, Equatable, CustomStringConvertible {
    indirect enum Shape: Equatable {
        case object([String], [Walked])
        case array([Walked])
        case string(String)
        case integer(Int)
        case double(String)
        case bool(Bool)
        case null
    }

    let shape: Shape

    var description: String { "\(shape)" }

    init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: AnyKey.self) {
            let keys = object.allKeys
            var values: [Walked] = []
            // Every other key first, then the rest, so lookups go out of order too.
            for key in keys.enumerated().sorted(by: {
                ($0.offset % 2, $0.offset) < ($1.offset % 2, $1.offset)
            }) {
                _ = object.contains(key.element)
                values.append(try object.decode(Walked.self, forKey: key.element))
            }
            shape = .object(keys.map(\.stringValue), values)
        } else if var array = try? decoder.unkeyedContainer() {
            var elements: [Walked] = []
            while !array.isAtEnd { elements.append(try array.decode(Walked.self)) }
            shape = .array(elements)
        } else {
            let single = try decoder.singleValueContainer()
            if single.decodeNil() {
                shape = .null
            } else if let b = try? single.decode(Bool.self) {
                shape = .bool(b)
            } else if let s = try? single.decode(String.self) {
                shape = .string(s)
            } else if let i = try? single.decode(Int.self) {
                shape = .integer(i)
            } else {
                shape = .double(String(describing: try single.decode(Double.self)))
            }
        }
    }
}
