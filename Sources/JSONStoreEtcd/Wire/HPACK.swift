/// HPACK (RFC 7541): HTTP/2's header compression. A header block is a list of fields,
/// each an index into a table of fields sent before (a static table of 61 common ones and
/// a dynamic table each side keeps in step) or a literal, its strings plain or Huffman
/// coded.
enum HPACK {
    /// One header field; names and values as bytes (HTTP/2 names are lower-case ASCII,
    /// values any bytes but NUL, CR and LF).
    struct Field: Equatable, Sendable, CustomStringConvertible {
        var name: [UInt8]
        var value: [UInt8]

        init(_ name: some StringProtocol, _ value: some StringProtocol) {
            (self.name, self.value) = (Array(name.utf8), Array(value.utf8))
        }

        init(name: [UInt8], value: [UInt8]) {
            (self.name, self.value) = (name, value)
        }

        /// What the table counts the field as: its bytes and 32 (RFC 7541, 4.1).
        var size: Int { name.count + value.count + 32 }

        var description: String {
            String(decoding: name, as: UTF8.self) + ": " + String(decoding: value, as: UTF8.self)
        }
    }

    /// The static table (RFC 7541, Appendix A), index 1 first.
    static let staticTable: [Field] = {
        let names = [
            ":authority", ":method", ":method", ":path", ":path", ":scheme", ":scheme",
            ":status", ":status", ":status", ":status", ":status", ":status", ":status",
            "accept-charset", "accept-encoding", "accept-language", "accept-ranges", "accept",
            "access-control-allow-origin", "age", "allow", "authorization", "cache-control",
            "content-disposition", "content-encoding", "content-language", "content-length",
            "content-location", "content-range", "content-type", "cookie", "date", "etag",
            "expect", "expires", "from", "host", "if-match", "if-modified-since",
            "if-none-match", "if-range", "if-unmodified-since", "last-modified", "link",
            "location", "max-forwards", "proxy-authenticate", "proxy-authorization", "range",
            "referer", "refresh", "retry-after", "server", "set-cookie",
            "strict-transport-security", "transfer-encoding", "user-agent", "vary", "via",
            "www-authenticate",
        ]
        let values = [
            2: "GET", 3: "POST", 4: "/", 5: "/index.html", 6: "http", 7: "https", 8: "200",
            9: "204", 10: "206", 11: "304", 12: "400", 13: "404", 14: "500",
            16: "gzip, deflate",
        ]
        return names.enumerated().map { n, name in Field(name, values[n + 1] ?? "") }
    }()

    /// What is wrong with a header block a server sent.
    struct Error: Swift.Error, Equatable, CustomStringConvertible {
        let reason: String
        var description: String { reason }
        init(_ reason: String) { self.reason = reason }
    }

    /// The fields a side has sent and asked to be kept, within a size: the oldest go
    /// first to make room (4.4), and a field larger than the whole table empties it.
    struct DynamicTable {
        /// Newest last, so adding one does not move the others.
        private var fields: [Field] = []
        private var size = 0
        /// The size the table may take, as the last size update set it.
        private(set) var capacity: Int

        init(capacity: Int) { self.capacity = capacity }

        var count: Int { fields.count }

        /// The field at `index` past the static table (1 is the newest).
        subscript(index: Int) -> Field { fields[fields.count - index] }

        mutating func add(_ field: Field) {
            size += field.size
            fields.append(field)
            evict()
        }

        mutating func resize(to capacity: Int) {
            self.capacity = capacity
            evict()
        }

        private mutating func evict() {
            var drop = 0
            while size > capacity, drop < fields.count {
                size -= fields[drop].size
                drop += 1
            }
            fields.removeFirst(drop)
        }
    }
}
