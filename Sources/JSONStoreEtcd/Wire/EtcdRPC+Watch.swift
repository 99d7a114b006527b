extension EtcdRPC {
    /// What a client sends on a `Watch` stream: one of three requests.
    enum WatchRequest: ProtobufEncodable, Equatable {
        /// Watch the keys from `key` to `rangeEnd` from `startRevision`, with each event's
        /// previous value and, when asked, progress notifications.
        case create(key: [UInt8], rangeEnd: [UInt8], startRevision: Int64, progressNotify: Bool)
        case cancel(watchID: Int64)
        /// Asks every watch of the stream for its revision now: a progress notification
        /// comes back once every event before it has been sent.
        case progress

        func encode(into writer: inout ProtobufWriter) {
            switch self {
            case .create(let key, let rangeEnd, let start, let progressNotify):
                writer.message(1) { create in
                    create.bytes(1, key)
                    create.bytes(2, rangeEnd)
                    create.integer(3, start)
                    create.bool(4, progressNotify)
                    create.bool(6, true)  // prev_kv
                }
            case .cancel(let watchID):
                writer.message(2) { $0.integer(1, watchID) }
            case .progress:
                writer.message(3) { _ in }
            }
        }
    }

    /// One answer of a `Watch` stream.
    struct WatchResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var watchID: Int64 = 0
        var created = false
        var canceled = false
        /// Set when the revision a watch asked for was compacted away.
        var compactRevision: Int64 = 0
        var cancelReason = ""
        /// Whether more of one revision's events follow in the next answer.
        var fragment = false
        var events: [EtcdWatch.Event] = []

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2: watchID = try reader.integer(value, field: field)
                case 3: created = try reader.bool(value, field: field)
                case 4: canceled = try reader.bool(value, field: field)
                case 5: compactRevision = try reader.integer(value, field: field)
                case 6: cancelReason = try reader.string(value, field: field)
                case 7: fragment = try reader.bool(value, field: field)
                case 11:
                    events.append(try reader.decode(value, field: field) as EtcdWatch.Event)
                default: break
                }
            }
        }
    }
}

extension EtcdWatch.Event: ProtobufDecodable {
    /// `mvccpb.Event`.
    init(from reader: ProtobufReader) throws(ProtobufError) {
        var kind = Kind.put
        var (keyValue, previous): (EtcdClient.KeyValue?, EtcdClient.KeyValue?) = (nil, nil)
        try reader.forEachField { (field, value) throws(ProtobufError) in
            switch field {
            case 1:
                switch try reader.integer(value, field: field) {
                case 0: kind = .put
                case 1: kind = .delete
                case let other: throw ProtobufError("an event of type \(other)", at: reader.start)
                }
            case 2: keyValue = try reader.decode(value, field: field) as EtcdClient.KeyValue
            case 3: previous = try reader.decode(value, field: field) as EtcdClient.KeyValue
            default: break
            }
        }
        guard let keyValue else { throw ProtobufError("an event of no key", at: reader.start) }
        self.init(kind: kind, keyValue: keyValue, previous: previous)
    }
}
