extension EtcdRPC {
    /// One condition of a transaction: a key's revision or value against a given one.
    struct Compare: ProtobufEncodable, Equatable {
        enum Result: Int64 {
            case equal = 0
            case greater = 1
            case less = 2
            case notEqual = 3
        }

        /// What of the key is compared, and with what.
        enum Target: Equatable {
            case version(Int64)
            case createRevision(Int64)
            case modRevision(Int64)
            case value([UInt8])
        }

        var key: [UInt8]
        var result: Result
        var target: Target
        /// With it, the comparison holds for every key from `key` up to it (not included).
        var rangeEnd: [UInt8] = []

        func encode(into writer: inout ProtobufWriter) {
            writer.integer(1, result.rawValue)
            // The target's kind, then its value: a `oneof`'s member, written even at its
            // default (a create-only write compares a modification revision with 0).
            switch target {
            case .version(let version):
                writer.integer(2, 0)
                writer.bytes(3, key)
                writer.chosen(4, version)
            case .createRevision(let revision):
                writer.integer(2, 1)
                writer.bytes(3, key)
                writer.chosen(5, revision)
            case .modRevision(let revision):
                writer.integer(2, 2)
                writer.bytes(3, key)
                writer.chosen(6, revision)
            case .value(let value):
                writer.integer(2, 3)
                writer.bytes(3, key)
                writer.chosen(7, value)
            }
            writer.bytes(64, rangeEnd)
        }
    }

    /// One request of a transaction's branch.
    enum RequestOp: ProtobufEncodable, Equatable {
        case range(RangeRequest)
        case put(PutRequest)
        case deleteRange(DeleteRangeRequest)

        func encode(into writer: inout ProtobufWriter) {
            switch self {
            case .range(let request): writer.message(1, request.encode)
            case .put(let request): writer.message(2, request.encode)
            case .deleteRange(let request): writer.message(3, request.encode)
            }
        }
    }

    /// The answer to one request of a transaction's branch.
    enum ResponseOp: ProtobufDecodable, Equatable {
        case range(RangeResponse)
        case put(PutResponse)
        case deleteRange(DeleteRangeResponse)
        case transaction(TxnResponse)

        init(from reader: ProtobufReader) throws(ProtobufError) {
            var answer: ResponseOp?
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1:
                    answer = .range(try reader.decode(value, field: field) as RangeResponse)
                case 2: answer = .put(try reader.decode(value, field: field) as PutResponse)
                case 3:
                    answer = .deleteRange(
                        try reader.decode(value, field: field) as DeleteRangeResponse)
                case 4:
                    answer = .transaction(
                        try reader.decode(value, field: field) as TxnResponse)
                default: break
                }
            }
            guard let answer else { throw ProtobufError("an answer of no kind", at: reader.start) }
            self = answer
        }
    }

    /// `KV.Txn`: if every comparison holds, the success branch, else the failure branch.
    struct TxnRequest: ProtobufEncodable, Equatable {
        var compare: [Compare] = []
        var success: [RequestOp] = []
        var failure: [RequestOp] = []

        func encode(into writer: inout ProtobufWriter) {
            for condition in compare { writer.message(1, condition.encode) }
            for request in success { writer.message(2, request.encode) }
            for request in failure { writer.message(3, request.encode) }
        }
    }

    /// A transaction's answer (which may nest another's: `ProtobufReader.deepest`).
    struct TxnResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var succeeded = false
        var responses: [ResponseOp] = []

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2: succeeded = try reader.bool(value, field: field)
                case 3: responses.append(try reader.decode(value, field: field) as ResponseOp)
                default: break
                }
            }
        }
    }
}
