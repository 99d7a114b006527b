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
    var color: ColorChoice = .auto
    var environment: [String: String]

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
        if let color = try arguments.choice("--color") {
            self.color = ColorChoice(rawValue: color) ?? .auto
        }
    }

    /// Opens the store.
    func open(options: JSONStore.Options = JSONStore.Options()) throws -> JSONStore {
        guard isEtcd else { return try JSONStore(directory: store, options: options) }
        return try JSONStore(etcd: EtcdAddress(parsing: store), options: options)
    }
}
