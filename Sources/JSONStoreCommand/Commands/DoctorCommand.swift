import Dispatch
import JSONStore
import JSONStoreEtcd

/// `jsonstore doctor`: what a user needs when "it does not update": where the store is,
/// how it is watched, inotify's limits and use, what it holds, a mirror, and on etcd each
/// member's health and revision. Exit 1 when something is wrong, each problem with its fix.
struct DoctorCommand: Command {
    static let configuration = CommandConfiguration(
        name: "doctor", abstract: "say how the store is watched and what is wrong, with the fix",
        discussion: """
            Prints the store's address; for a directory how it is watched and why (inotify, \
            or polling on a network file system), inotify's limits and how many watches and \
            instances this user's processes hold, and the mirror it is kept equal to (its \
            etcd address, whether a mirror runs, how many local changes are not sent); for \
            etcd each endpoint's health, version and revision; then the items, invalid files \
            and conflicts. Exit status 1 when something is wrong, each problem followed by \
            its fix. With --memory, also what the store takes in memory loaded as a follower \
            loads it, by what holds it (the files' bytes, the index, long ids, invalid \
            files, the history's heads, observers' results), in all and per item.
            """,
        options: [
            .flag("--memory", help: "say what the store takes in memory, by what holds it")
        ])

    var memory: Bool

    init(_ arguments: Arguments) throws(UsageError) {
        try arguments.expectNoPositionals()
        memory = arguments.has("--memory")
    }

    func run(_ context: Context) throws {
        var report = DoctorReport()
        report.line(
            "store", Display.escaped(context.store) + (context.isEtcd ? "" : " (a directory)"))
        if context.isEtcd {
            let address = try context.etcdAddress(context.store)
            let health = EtcdHealth(
                address: address, credentials: try context.credentials(), tls: context.tls)
            for member in health.members {
                if let problem = member.problem {
                    let (state, fix) = Self.diagnosis(member.kind)
                    report.line("endpoint", "\(member.endpoint): \(state)")
                    report.problem(
                        "etcd at \(member.endpoint): \(Display.escaped(problem))", fix: fix)
                } else {
                    let role = member.isLeader ? ", the leader" : ""
                    report.line(
                        "endpoint",
                        "\(member.endpoint): healthy, etcd \(Display.escaped(member.version))\(role), revision \(member.revision), \(ItemFile.byteCount(Int(member.databaseBytes))) of data, over \(member.transport)"
                    )
                }
            }
            guard health.members.contains(where: { $0.problem == nil }) else {
                return try report.finish()
            }
        }
        let store: JSONStore
        do {
            store = try context.open()
        } catch let error as StoreError {
            report.problem(
                error.description, fix: "give the store with --dir or --store (jsonstore help)")
            return try report.finish()
        }
        var usage: MemoryUsage?
        let (results, failure) = Self.observeOnce(store) {
            if memory { usage = store.memoryUsage() }
        }
        if !context.isEtcd {
            report.line("watching", Display.escaped(store.watching))
            let inotify = InotifyUsage()
            report.line("inotify", inotify.summary)
            if let (problem, fix) = inotify.problem { report.problem(problem, fix: fix) }
            let folder = store._privateFolder?.problems() ?? []
            for problem in folder {
                report.problem(
                    problem.description,
                    fix:
                        "rm \(Display.escaped(problem.file ?? "")): jsonstore makes the folder again when it needs it"
                )
            }
            if folder.isEmpty { MirrorDiagnosis(store, results: results).report(into: &report) }
            if folder.isEmpty, let history = store._historySummary() {
                Self.report(history, into: &report)
            }
        }
        if let failure {
            report.problem(failure, fix: "see the message; jsonstore check reads every file")
        }
        guard let results else { return try report.finish() }
        let conflicts = results.conflicts.count
        report.line(
            "items",
            "\(results.count), \(results.invalid.count) invalid, \(conflicts) conflict\(conflicts == 1 ? "" : "s")"
        )
        if !results.invalid.isEmpty {
            report.problem(
                "\(results.invalid.count) invalid \(context.isEtcd ? "key" : "file")\(results.invalid.count == 1 ? "" : "s")",
                fix: "jsonstore check lists each with its line, column and reason")
        }
        if conflicts > 0 {
            report.problem(
                "\(conflicts) conflict\(conflicts == 1 ? "" : "s")",
                fix:
                    "jsonstore check lists them; jsonstore resolve ID --keep mine|theirs|FILE ends one"
            )
        }
        if memory {
            if let usage {
                MemoryDiagnosis(usage).report(into: &report)
            } else {
                report.problem(
                    "the store's memory could not be measured: it was not loaded",
                    fix: "see the messages above")
            }
        }
        try report.finish()
    }

    /// The history's line, and a problem for each damaged place of its journal.
    static func report(_ history: HistorySummary, into report: inout DoctorReport) {
        let size = ItemFile.byteCount(history.bytes)
        report.line(
            "history",
            history.entries == 0
                ? "no changes recorded yet"
                : "\(history.entries) change\(history.entries == 1 ? "" : "s") "
                    + "(revisions \(history.firstRevision) to \(history.lastRevision)), \(size) "
                    + "in \(history.segments) file\(history.segments == 1 ? "" : "s")")
        for damage in history.damage {
            report.problem(
                "the history's journal is damaged: \(Display.escaped(damage))",
                fix:
                    "nothing to do for the store, which goes on writing; the history is kept "
                    + "before and after the damage, lost there")
        }
    }

    /// What an endpoint's problem of `kind` is called, and its fix.
    static func diagnosis(_ kind: EtcdError.Kind?) -> (state: String, fix: String) {
        switch kind {
        case .authenticationFailed:
            (
                "authentication failed",
                "check the user (--user NAME) and its password ($JSONSTORE_ETCD_PASSWORD)"
            )
        case .untrustedCertificate:
            (
                "certificate not trusted",
                "give the CA certificate that signed the server's with --cacert FILE"
            )
        case .unknownHost: ("unknown host", "check the host name in the address")
        case .badResponse:
            ("not etcd", "check the address: what answers there does not speak etcd's API")
        default: ("unreachable", "start that member, or leave it out of the address")
        }
    }

    /// The store's first results, as an observer gets them (which starts its watch), or
    /// why there are none; `meanwhile` runs once they are there, while the observation
    /// still holds them.
    static func observeOnce(_ store: JSONStore, meanwhile: () -> Void = {})
        -> (Results<Item>?, String?)
    {
        let got = Locked<(Results<Item>?, String?)>((nil, nil))
        let done = DispatchSemaphore(value: 0)
        let token = store.observe(on: DispatchQueue(label: "jsonstore.doctor")) { change in
            switch change {
            case .initial(let results): got.withLock { $0.0 = results }
            case .update: return
            case .error(let error): got.withLock { $0.1 = error.description }
            }
            done.signal()
        }
        defer { token.invalidate() }
        if done.wait(timeout: .now() + 60) == .timedOut {
            return (nil, "the store was not read within 60 s")
        }
        meanwhile()
        return got.withLock { $0 }
    }
}
