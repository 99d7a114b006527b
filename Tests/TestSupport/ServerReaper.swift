import Foundation
import Glibc
import JSONStore

/// The etcd processes tests started and the data directories they made, stopped and
/// removed when the test process exits, whatever became of the test that started them: a
/// test whose time limit ran out, or a value never released, leaves neither an etcd
/// running after the suite nor its data in the temporary directory.
enum ServerReaper {
    private struct Kept: @unchecked Sendable {
        var processes: [ObjectIdentifier: Process] = [:]
        var directories: Set<String> = []
    }

    private static let kept = Locked(Kept())
    private static let installed = Locked(false)

    /// `process` runs an etcd whose data is in `directory`: both are kept track of until
    /// `stopped` and `removed` say their owner is done with them.
    static func started(_ process: Process, directory: String) {
        installed.withLock { done in
            guard !done else { return }
            done = true
            atexit { ServerReaper.reapAll() }
        }
        kept.withLock {
            $0.processes[ObjectIdentifier(process)] = process
            $0.directories.insert(directory)
        }
    }

    /// Its owner has stopped `process` and waited for it.
    static func stopped(_ process: Process) {
        _ = kept.withLock { $0.processes.removeValue(forKey: ObjectIdentifier(process)) }
    }

    /// Removes `directory`, its owner done with it: one removal at a time, so an owner's
    /// (on a thread of its own, as a server is released) and the exit's never walk the
    /// same tree at once, each failing on what the other took and leaving the rest.
    static func remove(_ directory: String) {
        removing.withLock { _ in
            try? FileManager.default.removeItem(atPath: directory)
            _ = kept.withLock { $0.directories.remove(directory) }
        }
    }

    private static let removing = Locked(())

    private static func reapAll() {
        let left = kept.withLock { $0 }
        for process in left.processes.values where process.isRunning {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
        for directory in left.directories { remove(directory) }
    }
}
