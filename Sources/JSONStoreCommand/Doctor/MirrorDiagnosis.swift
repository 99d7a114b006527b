import JSONStore
import JSONStoreEtcd

/// What `doctor` says of the mirror a directory is kept equal to (`jsonstore mirror`), from
/// its state and its hold: the etcd address, whether a mirror runs (and its pid), how many
/// local changes were not sent, and an etcd found replaced. A mirror that is not running
/// is a problem, with the command that starts it.
struct MirrorDiagnosis {
    let store: JSONStore
    let results: Results<Item>?

    init(_ store: JSONStore, results: Results<Item>?) {
        self.store = store
        self.results = results
    }

    func report(into report: inout DoctorReport) {
        guard let folder = store._privateFolder else { return }
        let state: MirrorState
        do {
            guard let kept = try MirrorState(reading: folder) else { return }
            state = kept
        } catch {
            report.problem(
                error.description,
                fix: "remove \(Display.escaped(folder.path(of: "mirror"))) to mirror afresh")
            return
        }
        let address = state.address.map(Display.escaped) ?? "etcd prefix \(state.prefix)"
        report.line("mirror", "with \(address)")
        let unsent = results.map { unsentChanges(state, $0) }
        let pending = unsent.map { "\($0) local change\($0 == 1 ? "" : "s") not sent" }
        switch FolderHold.holder(of: MirrorState.holdFile, in: folder) {
        case .process(let pid):
            report.line(
                "", "running: held by the mirror with pid \(pid.map(String.init) ?? "unknown")")
            if let pending { report.line("", pending + " yet") }
        case .nobody:
            report.line("", "not running: no mirror holds the directory")
            if let pending { report.line("", pending) }
            let start =
                "jsonstore --dir \(Display.escaped(store.path)) mirror \(state.address.map(Display.escaped) ?? "etcd://HOST:PORT/\(Display.escaped(state.prefix))")"
            report.problem(
                "no mirror keeps this directory equal to \(address)"
                    + (pending.map { ": \($0)" } ?? ""),
                fix: start)
        }
        if let note = state.note { report.line("", Display.escaped(note)) }
        let unkept = state.unkept.count
        if unkept > 0 {
            report.problem(
                "\(unkept) conflict\(unkept == 1 ? "" : "s") could not be kept: the item\(unkept == 1 ? " does" : "s do") not converge",
                fix:
                    "jsonstore check says why for each; once that is fixed, restart the mirror: it keeps them then"
            )
        }
    }

    /// The directory's changes the state does not record as synced.
    private func unsentChanges(_ state: MirrorState, _ results: Results<Item>) -> Int {
        var current: [UTF8Key: String] = [:]
        var present: Set<UTF8Key> = []
        for item in results {
            present.insert(UTF8Key(item.id))
            if results.error(for: item.id) == nil { current[UTF8Key(item.id)] = item.etag }
        }
        for file in results.invalid { if let id = file.id { present.insert(UTF8Key(id)) } }
        return state.unsentChanges(current: current, present: present)
    }
}
