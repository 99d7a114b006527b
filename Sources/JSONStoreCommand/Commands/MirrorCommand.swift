import Dispatch
import FoundationEssentials
import Glibc
import JSONStore
import JSONStoreEtcd

/// `jsonstore --dir DIR mirror etcd://HOST:PORT/PREFIX`: keeps the directory and the etcd
/// prefix equal, both ways, live, until SIGTERM or Ctrl-C (`DirectoryMirror`).
struct MirrorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "mirror", abstract: "keep the directory and an etcd prefix equal, both ways, live",
        arguments: "etcd://HOST:PORT[,HOST:PORT...]/PREFIX",
        discussion: """
            Keeps the store directory (--dir) and the etcd prefix equal until SIGTERM or \
            Ctrl-C (exit 0): an edit of a file (any editor, sed -i, cp, mv, rm, git checkout) \
            goes to etcd, and a change in etcd is written into the file atomically. Invalid \
            files are not sent. What was last synced is kept in DIR/.jsonstore/mirror, so a \
            restart, or etcd coming back, reconciles: a change on one side is copied, a \
            deletion stays a deletion, and an item changed on both sides keeps etcd's version \
            and keeps this directory's as a conflict (see jsonstore check and jsonstore \
            resolve). A deletion is only sent for a file gone from the very directory the \
            mirror started on: if the directory is replaced under it (moved, unmounted, \
            restored), it stops with exit 1 and deletes nothing; and an etcd that is not \
            the one last synced with (wiped, another cluster, an older snapshot) never makes \
            a file deleted here: the directory is uploaded to it. One mirror a directory: a \
            second refuses, naming the first one's pid. The etcd options (--user, --cacert, \
            --cert, --key, --etcd-transport) apply.
            """)

    var address: String

    init(_ arguments: Arguments) throws(UsageError) {
        guard arguments.positionals.count == 1, EtcdAddress.isAddress(arguments.positionals[0])
        else {
            throw UsageError(
                "mirror takes one etcd address: etcd://HOST:PORT/PREFIX", command: "mirror")
        }
        address = arguments.positionals[0]
        _ = try Context.etcdAddress(address, command: "mirror")
    }

    func run(_ context: Context) throws {
        guard !context.isEtcd else {
            throw CommandFailure(
                "mirror keeps a directory equal to etcd: give the directory with --dir")
        }
        let etcd = try context.etcdAddress(address, command: "mirror")
        var options = JSONStore.Options()
        options.createDirectory = true  // a new directory downloads the prefix
        options.historySource = .mirror  // what it pulls is recorded as the mirror's
        let store = try JSONStore(directory: context.store, options: options)
        let mirror = try DirectoryMirror(
            store: store, address: etcd, credentials: try context.credentials(),
            tls: context.tls, host: ProcessInfo.processInfo.hostName,
            say: { Output.error(Display.escaped($0)) })
        let stop = DispatchSemaphore(value: 0)
        let failure = Locked<(any Error)?>(nil)
        Signals.handle([SIGINT, SIGTERM, SIGHUP], on: .global()) { _ in stop.signal() }
        Output.error(
            "mirror: keeping \(Display.escaped(context.store)) and \(etcd.description) equal"
        )
        mirror.start(
            onFailure: { error in
                failure.withLock { $0 = error }
                stop.signal()
            },
            onPermanentError: { error in
                failure.withLock { $0 = Self.failure(error, address: etcd) }
                stop.signal()
            })
        stop.wait()
        // A request in flight holds the mirror's queue until its deadline: the state is
        // given a moment to be folded, and the command ends at once either way (what was
        // not recorded is the journal's, as after a crash).
        let stopped = DispatchSemaphore(value: 0)
        DispatchQueue.global().async {
            mirror.stop()
            stopped.signal()
        }
        _ = stopped.wait(timeout: .now() + 0.5)
        if let error = failure.withLock({ $0 }) { throw error }
    }

    /// The failure a mirror ends with when etcd cannot be reached until a person acts.
    static func failure(_ error: EtcdError, address: EtcdAddress) -> CommandFailure {
        let fix =
            switch error.kind {
            case .authenticationFailed:
                "check the user (--user NAME) and its password ($JSONSTORE_ETCD_PASSWORD)"
            case .untrustedCertificate:
                "give the CA certificate that signed the server's with --cacert FILE"
            default: "check the host names in \(address.description)"
            }
        return CommandFailure("mirror: \(error); stopped: \(fix)")
    }
}
