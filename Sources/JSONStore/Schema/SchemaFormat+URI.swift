extension SchemaFormat {
    /// RFC 3986 `URI`: a scheme, then the hierarchical part, query and fragment, every
    /// character where the grammar allows it (percent-encoded otherwise).
    static func isURI(_ text: String) -> Bool {
        guard let colon = schemeEnd(text) else { return false }
        return isRelative(Array(text.utf8[text.utf8.index(after: colon)...]), afterScheme: true)
    }

    /// RFC 3986 `URI-reference`: a URI, or a relative reference (whose first segment has
    /// no `:`, so it cannot be mistaken for a scheme).
    static func isURIReference(_ text: String) -> Bool {
        schemeEnd(text) != nil ? isURI(text) : isRelative(Array(text.utf8), afterScheme: false)
    }

    /// Where a valid scheme ends (its `:`), if the text begins with one.
    private static func schemeEnd(_ text: String) -> String.UTF8View.Index? {
        let utf8 = text.utf8
        guard let colon = utf8.firstIndex(of: UInt8(ascii: ":")), colon != utf8.startIndex,
            let first = utf8.first, isAlphanumeric(first), !isDigit(first),
            utf8[..<colon].allSatisfy({ isAlphanumeric($0) || "+-.".utf8.contains($0) })
        else { return nil }
        return colon
    }

    /// The part after a scheme (`//authority/path?query#fragment`), or a relative
    /// reference.
    private static func isRelative(_ bytes: [UInt8], afterScheme: Bool) -> Bool {
        var rest = bytes[...]
        if let hash = rest.firstIndex(of: UInt8(ascii: "#")) {
            guard isEncoded(rest[(hash + 1)...], also: "/?:@") else { return false }
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: UInt8(ascii: "?")) {
            guard isEncoded(rest[(question + 1)...], also: "/?:@") else { return false }
            rest = rest[..<question]
        }
        var path = rest
        if rest.starts(with: "//".utf8) {
            let authority = rest.dropFirst(2)
            let end = authority.firstIndex(of: UInt8(ascii: "/")) ?? authority.endIndex
            guard isAuthority(authority[..<end]) else { return false }
            path = authority[end...]
        } else if !afterScheme, let first = path.split(separator: UInt8(ascii: "/")).first,
            path.first != UInt8(ascii: "/"), first.contains(UInt8(ascii: ":"))
        {
            return false  // a first segment with ":" reads as a scheme
        }
        return isEncoded(path, also: "/:@")
    }

    private static func isAuthority(_ authority: ArraySlice<UInt8>) -> Bool {
        var host = authority
        if let at = authority.firstIndex(of: UInt8(ascii: "@")) {
            guard isEncoded(authority[..<at], also: ":") else { return false }
            host = authority[(at + 1)...]
            guard !host.contains(UInt8(ascii: "@")) else { return false }
        }
        if host.first == UInt8(ascii: "[") {
            guard let close = host.firstIndex(of: UInt8(ascii: "]")) else { return false }
            let literal = String(decoding: host[(host.startIndex + 1)..<close], as: UTF8.self)
            guard isIPv6(literal) || literal.hasPrefix("v") else { return false }
            host = host[(close + 1)...]
            guard host.isEmpty || host.first == colon else { return false }
        }
        if let portStart = host.lastIndex(of: colon) {
            guard host[(portStart + 1)...].allSatisfy(isDigit) else { return false }
            host = host[..<portStart]
        }
        return isEncoded(host, also: "")
    }

    /// Whether every byte is unreserved, a sub-delimiter, one of `also`, or part of a
    /// well-formed percent-encoding.
    private static func isEncoded(_ bytes: ArraySlice<UInt8>, also: String) -> Bool {
        let allowed = Set("-._~!$&'()*+,;=".utf8).union(also.utf8)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%") {
                guard i + 2 < bytes.endIndex, isHex(bytes[i + 1]), isHex(bytes[i + 2]) else {
                    return false
                }
                i += 3
                continue
            }
            guard isAlphanumeric(byte) || allowed.contains(byte) else { return false }
            i += 1
        }
        return true
    }
}
