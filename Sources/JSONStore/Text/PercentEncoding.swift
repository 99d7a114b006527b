/// Percent-encoding (RFC 3986, 2.1) read back: what a URI's fragment and gRPC's
/// `grpc-message` hold.
package enum PercentEncoding {
    /// `bytes` with each `%XX` (two hexadecimal digits) made the byte it stands for; any
    /// other `%` kept as it is.
    package static func decoded(_ bytes: some Collection<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var rest = bytes[...]
        while let byte = rest.popFirst() {
            if byte == UInt8(ascii: "%"), let high = rest.first?.hexDigitValue,
                let low = rest.dropFirst().first?.hexDigitValue
            {
                out.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                out.append(byte)
            }
        }
        return out
    }
}
