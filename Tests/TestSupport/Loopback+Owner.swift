import Foundation
import Glibc

extension Loopback {
    /// Whether process `pid` holds the socket listening on TCP `port` (IPv4), read from
    /// `/proc/net/tcp` and `/proc/PID/fd`.
    ///
    /// A port found free is free when asked, not when a server binds it: between the two,
    /// another test's listener (a proxy to its own etcd, say) may take it, and a check
    /// that only asks the port for an answer is answered by that one.
    public static func listens(_ pid: pid_t, on port: UInt16) -> Bool {
        let sockets = listeningSockets(on: port)
        guard !sockets.isEmpty,
            let descriptors = try? FileManager.default.contentsOfDirectory(
                atPath: "/proc/\(pid)/fd")
        else { return false }
        return descriptors.contains { name in
            guard
                let target = try? FileManager.default.destinationOfSymbolicLink(
                    atPath: "/proc/\(pid)/fd/\(name)")
            else { return false }
            return sockets.contains(target)
        }
    }

    /// The sockets listening on `port`, as `/proc/PID/fd` names them: `socket:[INODE]`.
    private static func listeningSockets(on port: UInt16) -> Set<String> {
        guard let table = try? String(contentsOfFile: "/proc/net/tcp", encoding: .utf8) else {
            return []
        }
        var sockets: Set<String> = []
        // Columns: sl, local address (HEXIP:HEXPORT), remote address, state (0A listens),
        // tx:rx queues, timer, retransmits, uid, timeout, inode.
        for line in table.split(separator: "\n").dropFirst() {
            let columns = line.split(separator: " ")
            guard columns.count > 9, columns[3] == "0A",
                let local = columns[1].split(separator: ":").last,
                UInt16(local, radix: 16) == port
            else { continue }
            sockets.insert("socket:[\(columns[9])]")
        }
        return sockets
    }
}
