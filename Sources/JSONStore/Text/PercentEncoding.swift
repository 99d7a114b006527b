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
            if byte == UInt8(ascii: "%"), let high = rest.first.flatMap(hexValue),
                let low = rest.dropFirst().first.flatMap(hexValue)
            {
                out.append(high << 4 | low)
                rest = rest.dropFirst(2)
            } else {
                out.append(byte)
            }
        }
        return out
    }

    /// The value of a hexadecimal digit.
    private static func hexValue(_ digit: UInt8) -> UInt8? {
        switch digit {
        case 0x30...0x39: digit - 0x30
        case 0x41...0x46: digit - 0x41 + 10
        case 0x61...0x66: digit - 0x61 + 10
        default: nil
        }
    }
}
