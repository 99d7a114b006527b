extension EtcdRPC {
    /// `Auth.Authenticate`: a user's name and password for a token.
    struct AuthenticateRequest: ProtobufEncodable, Equatable {
        var name: String
        var password: String

        func encode(into writer: inout ProtobufWriter) {
            writer.string(1, name)
            writer.string(2, password)
        }
    }

    struct AuthenticateResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var token = ""

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2: token = try reader.string(value, field: field)
                default: break
                }
            }
        }
    }

    /// `Maintenance.Status`'s answer (its request is empty): the member's version, its
    /// database's size, the leader, and what is wrong with it.
    struct StatusResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var version = ""
        var databaseSize: Int64 = 0
        var leader: UInt64 = 0
        var raftIndex: UInt64 = 0
        var raftTerm: UInt64 = 0
        var errors: [String] = []
        var isLearner = false

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2: version = try reader.string(value, field: field)
                case 3: databaseSize = try reader.integer(value, field: field)
                case 4: leader = try reader.unsigned(value, field: field)
                case 5: raftIndex = try reader.unsigned(value, field: field)
                case 6: raftTerm = try reader.unsigned(value, field: field)
                case 8: errors.append(try reader.string(value, field: field))
                case 10: isLearner = try reader.bool(value, field: field)
                default: break
                }
            }
        }
    }
}
