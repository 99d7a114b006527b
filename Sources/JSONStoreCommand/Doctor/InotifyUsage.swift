import FoundationEssentials
import Glibc

/// inotify's limits on this machine and how much of them this user's processes use, from
/// `/proc`: what a store that "does not update" may have run out of.
struct InotifyUsage {
    /// `fs.inotify.max_user_watches`, `max_user_instances`, `max_queued_events`.
    let maxWatches: Int?
    let maxInstances: Int?
    let maxQueuedEvents: Int?
    /// The inotify instances this user's processes hold, and the watches on them (as far
    /// as `/proc` lets this user see).
    let instances: Int
    let watches: Int

    init() {
        func limit(_ name: String) -> Int? {
            (try? String(contentsOfFile: "/proc/sys/fs/inotify/" + name, encoding: .utf8))
                .flatMap { Int($0.split(separator: "\n").first ?? "") }
        }
        maxWatches = limit("max_user_watches")
        maxInstances = limit("max_user_instances")
        maxQueuedEvents = limit("max_queued_events")
        var instances = 0
        var watches = 0
        let files = FileManager.default
        let me = getuid()
        for pid in (try? files.contentsOfDirectory(atPath: "/proc")) ?? [] where Int(pid) != nil {
            var info = stat()
            guard stat("/proc/" + pid, &info) == 0, info.st_uid == me else { continue }
            let fds = "/proc/\(pid)/fd"
            for fd in (try? files.contentsOfDirectory(atPath: fds)) ?? [] {
                guard
                    (try? files.destinationOfSymbolicLink(atPath: fds + "/" + fd))
                        == "anon_inode:inotify"
                else { continue }
                instances += 1
                let fdinfo = try? String(
                    contentsOfFile: "/proc/\(pid)/fdinfo/\(fd)", encoding: .utf8)
                watches +=
                    fdinfo?.split(separator: "\n").filter { $0.hasPrefix("inotify wd:") }.count ?? 0
            }
        }
        self.instances = instances
        self.watches = watches
    }

    /// `watches 3 of 65536 in use by this user, instances 2 of 128, queue 16384 events`.
    var summary: String {
        func of(_ limit: Int?) -> String { limit.map { " of \($0)" } ?? "" }
        return
            "watches \(watches)\(of(maxWatches)) in use by this user, instances \(instances)\(of(maxInstances)), queue \(maxQueuedEvents.map(String.init) ?? "?") events"
    }

    /// What is about to run out, with the fix; `nil` when nothing is.
    var problem: (String, String)? {
        if let max = maxInstances, instances >= max - 1 {
            return (
                "inotify instances: \(instances) of \(max) in use; another store cannot be watched",
                "sudo sysctl fs.inotify.max_user_instances=\(max * 2)"
            )
        }
        if let max = maxWatches, watches * 10 >= max * 9 {
            return (
                "inotify watches: \(watches) of \(max) in use",
                "sudo sysctl fs.inotify.max_user_watches=\(max * 2)"
            )
        }
        return nil
    }
}
