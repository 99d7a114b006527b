/// A strict RFC 8259 reader.
///
/// It is iterative, so nesting is bounded by `maxDepth` rather than by the thread's stack,
/// and every error carries the line, column and a reason a person can act on. A leading
/// UTF-8 byte order mark is skipped, as RFC 8259 §8.1 allows; everything else outside the
/// grammar (comments, trailing commas, NaN, single quotes, invalid UTF-8, lone surrogates,
/// duplicate keys) is an error.
public struct JSONReader: Sendable {
    /// The deepest nesting of arrays and objects accepted.
    public var maxDepth: Int
    /// The largest input accepted, in bytes.
    public var maxSize: Int

    /// The default limits: 512 levels, 16 MiB.
    public init(maxDepth: Int = 512, maxSize: Int = 16 << 20) {
        self.maxDepth = maxDepth
        self.maxSize = maxSize
    }

    /// Reads one JSON value from `bytes`.
    ///
    /// - Complexity: O(n) in the input's length.
    /// - Throws: `JSONSyntaxError` naming the line, column and reason.
    public func read(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try parse(bytes)
    }

    /// The tape of `bytes`: where each value lies and what kind it is, checked as `read`
    /// checks but with no value made (`TapeDecoder` reads a `Decodable` type from it).
    ///
    /// - Throws: the `JSONSyntaxError` `read` would throw.
    func tape(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONTape {
        var tape = JSONTape()
        tape.entries.reserveCapacity(bytes.count / 12 + 4)
        try self.tape(bytes, into: &tape)
        return tape
    }

    /// Builds the tape of `bytes` in `tape`, whose storage it reuses (many texts checked
    /// in turn, one allocation).
    func tape(_ bytes: UnsafeBufferPointer<UInt8>, into tape: inout JSONTape)
        throws(JSONSyntaxError)
    {
        // A tape's offsets are 32-bit.
        try checkSize(bytes, limit: min(maxSize, Int(UInt32.max) - 1))
        tape.entries.removeAll(keepingCapacity: true)
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        try parser.tape(into: &tape)
    }

    private func parse(_ bytes: UnsafeBufferPointer<UInt8>) throws(JSONSyntaxError) -> JSONValue {
        try checkSize(bytes, limit: maxSize)
        var parser = JSONParser(bytes: bytes, maxDepth: maxDepth)
        return try parser.document()
    }

    private func checkSize(_ bytes: UnsafeBufferPointer<UInt8>, limit: Int) throws(JSONSyntaxError)
    {
        if bytes.count > limit {
            throw JSONSyntaxError(
                .tooLarge, "input is \(bytes.count) bytes, larger than the limit of \(limit)",
                at: 0, in: bytes)
        }
    }

    /// Reads one JSON value from `bytes`.
    public func read(_ bytes: [UInt8]) throws(JSONSyntaxError) -> JSONValue {
        let result = bytes.withUnsafeBufferPointer { buffer in
            Result { () throws(JSONSyntaxError) -> JSONValue in try read(buffer) }
        }
        return try result.get()
    }

    /// Reads one JSON value from `text`.
    public func read(_ text: String) throws(JSONSyntaxError) -> JSONValue {
        try read(Array(text.utf8))
    }
}

extension JSONValue {
    /// Reads a JSON value from `text` with the default limits.
    ///
    /// - Throws: `JSONSyntaxError` naming the line, column and reason.
    public init(parsing text: String) throws(JSONSyntaxError) {
        self = try JSONReader().read(text)
    }
}
