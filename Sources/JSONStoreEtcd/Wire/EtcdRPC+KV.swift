extension EtcdRPC {
    /// `KV.Range`: the keys from `key` to `rangeEnd` (none: `key` alone), at `revision`
    /// (0: the newest).
    struct RangeRequest: ProtobufEncodable, Equatable {
        var key: [UInt8]
        var rangeEnd: [UInt8] = []
        var limit: Int64 = 0
        var revision: Int64 = 0
        /// Ordered by key from the lowest (etcd's own order when none is asked).
        var sortByKeyAscending = false
        /// Ordered by modification revision from the newest (with `limit` 1: the key
        /// written last).
        var sortByNewestModification = false
        var keysOnly = false
        var countOnly = false
        /// Only keys modified after this revision, inclusive (0: any).
        var minModRevision: Int64 = 0

        func encode(into writer: inout ProtobufWriter) {
            writer.bytes(1, key)
            writer.bytes(2, rangeEnd)
            writer.integer(3, limit)
            writer.integer(4, revision)
            // SortOrder.ASCEND; the target, KEY, is the default.
            if sortByKeyAscending { writer.integer(5, 1) }
            if sortByNewestModification {
                writer.integer(5, 2)  // SortOrder.DESCEND
                writer.integer(6, 3)  // SortTarget.MOD
            }
            writer.bool(8, keysOnly)
            writer.bool(9, countOnly)
            writer.integer(10, minModRevision)
        }
    }

    struct RangeResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var keyValues: [EtcdClient.KeyValue] = []
        /// Whether more keys are in the range than the limit let through.
        var more = false
        /// How many keys the range holds, all of them.
        var count: Int64 = 0

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2:
                    keyValues.append(
                        try reader.decode(value, field: field) as EtcdClient.KeyValue)
                case 3: more = try reader.bool(value, field: field)
                case 4: count = try reader.integer(value, field: field)
                default: break
                }
            }
        }
    }

    /// `KV.Put`.
    struct PutRequest: ProtobufEncodable, Equatable {
        var key: [UInt8]
        var value: [UInt8]
        var previous = false

        func encode(into writer: inout ProtobufWriter) {
            writer.bytes(1, key)
            writer.bytes(2, value)
            writer.bool(4, previous)
        }
    }

    struct PutResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var previous: EtcdClient.KeyValue?

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2:
                    previous = try reader.decode(value, field: field) as EtcdClient.KeyValue
                default: break
                }
            }
        }
    }

    /// `KV.DeleteRange`.
    struct DeleteRangeRequest: ProtobufEncodable, Equatable {
        var key: [UInt8]
        var rangeEnd: [UInt8] = []
        var previous = false

        func encode(into writer: inout ProtobufWriter) {
            writer.bytes(1, key)
            writer.bytes(2, rangeEnd)
            writer.bool(3, previous)
        }
    }

    struct DeleteRangeResponse: ProtobufDecodable, Equatable {
        var header = ResponseHeader()
        var deleted: Int64 = 0
        var previous: [EtcdClient.KeyValue] = []

        init() {}

        init(from reader: ProtobufReader) throws(ProtobufError) {
            try reader.forEachField { (field, value) throws(ProtobufError) in
                switch field {
                case 1: header = try reader.decode(value, field: field) as ResponseHeader
                case 2: deleted = try reader.integer(value, field: field)
                case 3:
                    previous.append(
                        try reader.decode(value, field: field) as EtcdClient.KeyValue)
                default: break
                }
            }
        }
    }

    /// `KV.Compact`: the history before `revision` dropped.
    struct CompactionRequest: ProtobufEncodable, Equatable {
        var revision: Int64
        var physical = false

        func encode(into writer: inout ProtobufWriter) {
            writer.integer(1, revision)
            writer.bool(2, physical)
        }
    }
}
