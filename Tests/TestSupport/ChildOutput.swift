import Foundation
import Glibc

/// What a child process writes on its pipes, read until it has exited and the pipes are
/// empty, not until their end: a process that another test starts meanwhile (an etcd, a
/// follower) can inherit the pipes' write ends and hold them open for as long as it runs,
/// and reading to the end then waited for that process too (24.7 s late under the suite).
public enum ChildOutput {
    /// A pipe whose ends close on exec: only the child it is handed to gets them (as its
    /// standard streams), never another child spawned at the same moment (Foundation
    /// closes the descriptors it lists before spawning, and one opened meanwhile by
    /// another thread slips through).
    public static func pipe() -> Pipe {
        let pipe = Pipe()
        for handle in [pipe.fileHandleForReading, pipe.fileHandleForWriting] {
            _ = fcntl(handle.fileDescriptor, F_SETFD, FD_CLOEXEC)
        }
        return pipe
    }

    /// Reads `pipes` while `process` runs, then what is left in them once it has exited;
    /// waits for it. The data of each pipe, in order.
    public static func collect(_ process: Process, _ pipes: [Pipe]) -> [Data] {
        let descriptors = pipes.map { $0.fileHandleForReading.fileDescriptor }
        for fd in descriptors { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
        var data = Array(repeating: Data(), count: pipes.count)
        var open = Array(repeating: true, count: pipes.count)
        var exited = false
        while true {
            // Once it has exited, one more pass reads everything it wrote.
            if !process.isRunning { exited = true }
            for (k, fd) in descriptors.enumerated() where open[k] {
                open[k] = drain(fd, into: &data[k])
            }
            if exited || !open.contains(true) { break }
            var polled = descriptors.enumerated().filter { open[$0.offset] }.map {
                pollfd(fd: $0.element, events: Int16(POLLIN), revents: 0)
            }
            _ = poll(&polled, nfds_t(polled.count), 50)
        }
        process.waitUntilExit()
        return data
    }

    /// Reads what `fd` holds now into `data`; whether it may hold more later (not at its end).
    private static func drain(_ fd: Int32, into data: inout Data) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = read(fd, &buffer, buffer.count)
            if count > 0 {
                data.append(contentsOf: buffer[..<count])
            } else if count == 0 {
                return false
            } else {
                return errno == EINTR || errno == EAGAIN
            }
        }
    }
}
