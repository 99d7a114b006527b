import JSONStore
import JSONStoreEtcd

/// What every command runs with: where the store is, the colour choice and the
/// environment, from the global options (before or after the command) and the
/// environment.
struct Context {
    /// Where the store is: a directory path or an etcd address (`etcd://HOST:PORT/PREFIX`).
    /// The command line wins (`--store` or `--dir`, the later one), then `$JSONSTORE_STORE`,
    /// then `$JSONSTORE_DIR`, then `data`.
    var store: String
    /// The etcd user, `--user`.
    var user: String?
    /// What an `etcds://` store trusts and presents: `--cacert`, `--cert`, `--key`.
    var tls = EtcdTLS()
    /// Which of etcd's APIs to speak: `--etcd-transport`.
    var transport = EtcdClient.Transport.automatic
    var color: ColorChoice = .auto
    /// `--no-history`, `--history-max-age`, `--history-max-bytes`.
    var history = HistoryOptions()
    var environment: [String: String]
    /// The command being run (`set`): the name its writes are recorded under in the
    /// store's history.
    var command = "jsonstore"

    init(environment: [String: String]) {
        self.environment = environment
        func value(_ name: String) -> String? {
            environment[name].flatMap { $0.isEmpty ? nil : $0 }
        }
        store = value("JSONSTORE_STORE") ?? value("JSONSTORE_DIR") ?? "data"
    }

    /// The store directory, for messages and tests; an etcd address as it is.
    var directory: String { store }

    /// Whether the store is on etcd.
    var isEtcd: Bool { EtcdAddress.isAddress(store) }

    /// Takes the global options in `arguments`; a later one wins over an earlier one.
    mutating func apply(_ arguments: Arguments) throws(UsageError) {
        for (name, value) in arguments.values(of: ["--dir", "--store"]) {
            guard !value.isEmpty else {
                throw UsageError(
                    name == "--dir" ? "--dir needs a directory" : "--store needs an address",
                    command: nil)
            }
            if name == "--dir" && EtcdAddress.isAddress(value) {
                throw UsageError(
                    "--dir takes a directory; give an etcd address with --store", command: nil)
            }
            store = value
        }
        if let user = arguments.value("--user") {
            guard !user.isEmpty else { throw UsageError("--user needs a NAME", command: nil) }
            self.user = user
        }
        for name in ["--cacert", "--cert", "--key"] {
            guard let file = arguments.value(name) else { continue }
            guard !file.isEmpty else { throw UsageError("\(name) needs a FILE", command: nil) }
            switch name {
            case "--cacert": tls.caCertificate = file
            case "--cert": tls.certificate = file
            default: tls.key = file
            }
        }
        if let transport = try arguments.choice("--etcd-transport") {
            self.transport = EtcdClient.Transport(rawValue: transport) ?? .automatic
        }
        if let color = try arguments.choice("--color") {
            self.color = ColorChoice(rawValue: color) ?? .auto
        }
        try history.apply(arguments)
        if isEtcd { _ = try etcdAddress(store) }
    }

    /// `text` as an etcd address; a malformed one is a usage error (exit 64).
    func etcdAddress(_ text: String, command: String? = nil) throws(UsageError)
        -> EtcdAddress
    {
        var address = try Self.etcdAddress(text, command: command)
        address.transport = transport
        return address
    }

    /// `text` as an etcd address, without the options; a malformed one is a usage error.
    static func etcdAddress(_ text: String, command: String? = nil) throws(UsageError)
        -> EtcdAddress
    {
        do {
            return try EtcdAddress(parsing: text)
        } catch {
            throw UsageError(error.description, command: command)
        }
    }

    /// Opens the store.
    func open(options: JSONStore.Options = JSONStore.Options()) throws -> JSONStore {
        var options = history.applied(to: options)
        options.writerName = command
        guard isEtcd else {
            if user != nil {
                throw CommandFailure(
                    "--user is for a store on etcd; \(Display.escaped(store)) is a directory")
            }
            return try JSONStore(directory: store, options: options)
        }
        var address = try EtcdAddress(parsing: store)
        address.transport = transport
        if !address.secure && tls != EtcdTLS() {
            throw CommandFailure(
                "--cacert, --cert and --key are for TLS: the address starts with etcds://")
        }
        return try JSONStore(
            etcd: address, credentials: try credentials(), tls: tls, options: options)
    }

    /// `--user` with its password: `$JSONSTORE_ETCD_PASSWORD`, else typed on the terminal
    /// (never an argument, which other users could read in the process list).
    func credentials() throws -> EtcdClient.Credentials? {
        guard let user else { return nil }
        if let password = environment["JSONSTORE_ETCD_PASSWORD"] {
            return .init(user: user, password: password)
        }
        guard
            let typed = TerminalSession.readSecret(
                prompt: "etcd password for \(Display.escaped(user)): ")
        else {
            throw CommandFailure(
                "--user \(Display.escaped(user)) needs a password: set $JSONSTORE_ETCD_PASSWORD, or run on a terminal to type it"
            )
        }
        return .init(user: user, password: typed)
    }
}
