extension SchemaFormat {
    /// RFC 1123 host names: labels of 1-63 letters, digits and inner hyphens, 253
    /// characters at most. (A label in Punycode is taken as written; its decoding is not
    /// checked against IDNA.)
    static func isHostname(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.count <= 253 else { return false }
        return bytes.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
            .allSatisfy { label in
                guard (1...63).contains(label.count), label.first != hyphen, label.last != hyphen,
                    label.allSatisfy({ isAlphanumeric($0) || $0 == hyphen })
                else { return false }
                // "--" in the third and fourth places is reserved for "xn--" (IDNA).
                if label.count >= 4, label[label.startIndex + 2] == hyphen,
                    label[label.startIndex + 3] == hyphen
                {
                    return label.starts(with: "xn".utf8)
                }
                return true
            }
    }

    /// RFC 5321 mailboxes: a dot-string or a quoted local part, `@`, and a host name or
    /// an address literal (`[127.0.0.1]`, `[IPv6:::1]`).
    static func isEmail(_ text: String) -> Bool {
        guard let at = text.utf8.lastIndex(of: UInt8(ascii: "@")) else { return false }
        let local = Array(text.utf8[..<at])
        let domain = String(text[text.utf8.index(after: at)...])
        guard !local.isEmpty, local.count <= 64 else { return false }
        let localValid: Bool
        if local.first == quote {
            localValid = isQuotedLocal(local)
        } else {
            let atext = Set("!#$%&'*+-/=?^_`{|}~".utf8)
            localValid = local.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
                .allSatisfy { atom in
                    !atom.isEmpty && atom.allSatisfy { isAlphanumeric($0) || atext.contains($0) }
                }
        }
        guard localValid else { return false }
        if domain.hasPrefix("[") && domain.hasSuffix("]") {
            let literal = domain.dropFirst().dropLast()
            if literal.hasPrefix("IPv6:") { return isIPv6(String(literal.dropFirst(5))) }
            return isIPv4(String(literal))
        }
        return isHostname(domain)
    }

    private static func isQuotedLocal(_ local: [UInt8]) -> Bool {
        guard local.count >= 2, local.last == quote else { return false }
        var escaped = false
        for byte in local.dropFirst().dropLast() {
            if escaped {
                guard (32...126).contains(byte) else { return false }
                escaped = false
            } else if byte == UInt8(ascii: "\\") {
                escaped = true
            } else if !(32...126).contains(byte) || byte == quote {
                return false
            }
        }
        return !escaped
    }

    /// RFC 4291 text: eight groups of 1-4 hex digits, one `::` for a run of zero groups,
    /// the last two as a dotted IPv4 address if written so; no zone, no prefix length.
    static func isIPv6(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        guard !bytes.isEmpty, bytes.allSatisfy({ $0 < 0x80 }) else { return false }
        // Split at "::" (at most one).
        var pieces: [[UInt8]] = [[]]
        var i = 0
        while i < bytes.count {
            if bytes[i] == colon, i + 1 < bytes.count, bytes[i + 1] == colon {
                pieces.append([])
                i += 2
            } else {
                pieces[pieces.count - 1].append(bytes[i])
                i += 1
            }
        }
        guard pieces.count <= 2 else { return false }
        var count = 0
        for (k, piece) in pieces.enumerated() where !piece.isEmpty {
            let groups = piece.split(separator: colon, omittingEmptySubsequences: false)
            for (g, group) in groups.enumerated() {
                let last = k == pieces.count - 1 && g == groups.count - 1
                if last, group.contains(UInt8(ascii: ".")) {
                    guard isIPv4(String(decoding: group, as: UTF8.self)) else { return false }
                    count += 2
                } else {
                    guard (1...4).contains(group.count), group.allSatisfy(isHex) else {
                        return false
                    }
                    count += 1
                }
            }
        }
        return pieces.count == 2 ? count <= 7 : count == 8
    }

    static let hyphen = UInt8(ascii: "-")
    static let quote = UInt8(ascii: "\"")

    static func isAlphanumeric(_ byte: UInt8) -> Bool {
        isDigit(byte) || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z"))
    }
}
