import JSONStore

/// Where a store on etcd is: `etcd://HOST:PORT[,HOST:PORT…]/PREFIX`.
package struct EtcdAddress: Sendable, Equatable {
    package var endpoints: [EtcdClient.Endpoint]
    package var prefix: String
    /// Whether it is `etcds://`: TLS.
    package var secure = false
    /// Which of etcd's APIs its clients speak (`--etcd-transport`).
    package var transport = EtcdClient.Transport.automatic

    package init(endpoints: [EtcdClient.Endpoint], prefix: String, secure: Bool = false) {
        self.endpoints = endpoints
        self.prefix = prefix
        self.secure = secure
    }

    /// Whether `text` names a store on etcd rather than a directory.
    package static func isAddress(_ text: String) -> Bool {
        text.hasPrefix("etcd://") || text.hasPrefix("etcds://")
    }

    /// Parses `etcd://HOST:PORT[,HOST:PORT…]/PREFIX`.
    ///
    /// An address with credentials (`etcd://user:password@HOST…`) is refused without being
    /// repeated: they go through `--user` and `$JSONSTORE_ETCD_PASSWORD`, never an
    /// argument others can read in the process list.
    ///
    /// - Throws: `StoreError` (`.storeUnavailable`) saying what is wrong with it.
    package init(parsing text: String) throws(StoreError) {
        func refuse(_ why: String) -> StoreError {
            StoreError(
                code: .storeUnavailable, message: "not an etcd address: \(why)",
                file: Display.escaped(text))
        }
        secure = text.hasPrefix("etcds://")
        guard text.hasPrefix("etcd://") || secure else {
            throw refuse("it must start with etcd:// (or etcds:// for TLS)")
        }
        let rest = text.dropFirst(secure ? "etcds://".count : "etcd://".count)
        guard !rest.prefix(while: { $0 != "/" }).contains("@") else {
            throw StoreError(
                code: .storeUnavailable,
                message:
                    "an etcd address takes no user or password (USER:PASSWORD@); give the user with --user and the password in $JSONSTORE_ETCD_PASSWORD"
            )
        }
        guard let slash = rest.firstIndex(of: "/") else {
            throw refuse(
                "it needs a key prefix after the endpoints, as in etcd://127.0.0.1:2379/tasks")
        }
        let hosts = rest[..<slash].split(separator: ",", omittingEmptySubsequences: false).map(
            String.init)
        endpoints = try Self.endpoints(hosts)
        prefix = String(rest[rest.index(after: slash)...])
        guard !prefix.isEmpty, !prefix.allSatisfy({ $0 == "/" }) else {
            throw refuse("the key prefix after the endpoints is empty")
        }
    }

    /// Parses `HOST:PORT` endpoints (the port defaults to 2379; `[::1]:2379` for IPv6).
    package static func endpoints(_ texts: [String]) throws(StoreError) -> [EtcdClient.Endpoint] {
        guard !texts.isEmpty else {
            throw StoreError(
                code: .storeUnavailable, message: "an etcd store needs at least one endpoint")
        }
        var found: [EtcdClient.Endpoint] = []
        for text in texts {
            var host = Substring(text)
            if host.hasPrefix("http://") { host = host.dropFirst(7) }
            var port: UInt16 = 2379
            if host.hasPrefix("["), let close = host.firstIndex(of: "]") {
                let after = host[host.index(after: close)...]
                if after.hasPrefix(":") {
                    guard let number = UInt16(after.dropFirst()), number > 0 else {
                        throw bad(text)
                    }
                    port = number
                } else if !after.isEmpty {
                    throw bad(text)
                }
                host = host[host.index(after: host.startIndex)..<close]
            } else if let colon = host.lastIndex(of: ":") {
                guard let number = UInt16(host[host.index(after: colon)...]), number > 0 else {
                    throw bad(text)
                }
                port = number
                host = host[..<colon]
            }
            // A host name or an address: nothing a terminal would interpret, no `@`.
            guard !host.isEmpty,
                !host.unicodeScalars.contains(where: {
                    Display.isUnsafe($0) || "/ ,@".unicodeScalars.contains($0)
                })
            else {
                throw bad(text)
            }
            found.append(EtcdClient.Endpoint(host: String(host), port: port))
        }
        return found
    }

    private static func bad(_ text: String) -> StoreError {
        guard !text.contains("@") else {
            return StoreError(
                code: .storeUnavailable,
                message:
                    "an etcd endpoint takes no user or password (USER:PASSWORD@); give the user with --user and the password in $JSONSTORE_ETCD_PASSWORD"
            )
        }
        return StoreError(
            code: .storeUnavailable,
            message:
                "not an etcd endpoint: \"\(Display.escaped(text))\" (expected HOST:PORT, as in 127.0.0.1:2379)"
        )
    }

    /// The address as text.
    package var description: String {
        (secure ? "etcds://" : "etcd://") + endpoints.map(\.description).joined(separator: ",")
            + "/" + prefix
    }
}
