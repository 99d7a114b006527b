import JSONStore

/// How a gRPC call ended, as the server's trailers say (`grpc-status`, `grpc-message`),
/// or its headers when it answered with trailers only.
struct GRPCStatus: Equatable, Sendable, CustomStringConvertible {
    /// gRPC's status codes; an unknown one is kept as it came.
    struct Code: RawRepresentable, Equatable, Hashable, Sendable, CustomStringConvertible {
        let rawValue: Int
        init(rawValue: Int) { self.rawValue = rawValue }

        static let ok = Code(rawValue: 0)
        static let cancelled = Code(rawValue: 1)
        static let unknown = Code(rawValue: 2)
        static let invalidArgument = Code(rawValue: 3)
        static let deadlineExceeded = Code(rawValue: 4)
        static let notFound = Code(rawValue: 5)
        static let alreadyExists = Code(rawValue: 6)
        static let permissionDenied = Code(rawValue: 7)
        static let resourceExhausted = Code(rawValue: 8)
        static let failedPrecondition = Code(rawValue: 9)
        static let aborted = Code(rawValue: 10)
        static let outOfRange = Code(rawValue: 11)
        static let unimplemented = Code(rawValue: 12)
        static let `internal` = Code(rawValue: 13)
        static let unavailable = Code(rawValue: 14)
        static let dataLoss = Code(rawValue: 15)
        static let unauthenticated = Code(rawValue: 16)

        private static let names = [
            "OK", "CANCELLED", "UNKNOWN", "INVALID_ARGUMENT", "DEADLINE_EXCEEDED", "NOT_FOUND",
            "ALREADY_EXISTS", "PERMISSION_DENIED", "RESOURCE_EXHAUSTED", "FAILED_PRECONDITION",
            "ABORTED", "OUT_OF_RANGE", "UNIMPLEMENTED", "INTERNAL", "UNAVAILABLE", "DATA_LOSS",
            "UNAUTHENTICATED",
        ]

        var description: String {
            rawValue >= 0 && rawValue < Self.names.count
                ? Self.names[rawValue] : "status \(rawValue)"
        }
    }

    let code: Code
    /// The server's message, percent-decoded; bytes that are not UTF-8 replaced.
    let message: String

    init(code: Code, message: String = "") {
        (self.code, self.message) = (code, message)
    }

    /// The status `fields` give; `nil` when they give none (no `grpc-status`, or one that
    /// is not a number of at most three digits).
    init?(_ fields: [HPACK.Field]) {
        guard let status = fields.last(where: { $0.name == Array("grpc-status".utf8) })?.value,
            (1...3).contains(status.count), status.allSatisfy({ (0x30...0x39).contains($0) })
        else { return nil }
        let message = fields.last { $0.name == Array("grpc-message".utf8) }?.value ?? []
        self.init(
            code: Code(rawValue: Int(String(decoding: status, as: UTF8.self))!),
            message: String(decoding: PercentEncoding.decoded(message), as: UTF8.self))
    }

    var description: String { message.isEmpty ? "\(code)" : "\(code): \(message)" }
}
