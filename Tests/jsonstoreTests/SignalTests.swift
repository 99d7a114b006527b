import Foundation
import Glibc
import TestSupport
import Testing

/// The commands that run until stopped end on SIGINT, SIGTERM and SIGHUP, however early
/// the signal comes.
@Suite("Signals")
struct SignalTests {
    @Test(
        "one SIGTERM sent as list --follow starts is not lost, whatever mask it inherits",
        arguments: [0, 2_000, 5_000, 10_000] as [UInt32])
    func earlySIGTERM(_ delay: UInt32) async throws {
        // Children of `swift test` start with SIGTERM blocked; a SIGTERM that came before
        // the command's handler was set up was pending then, and setting the signal to be
        // ignored threw it away: the command ran on (a mirror test had to SIGKILL it).
        let temp = try TemporaryStore()
        try temp.writeFile("a.json", "{}\n")
        let running = try JSONStoreBinary.start(["--dir", temp.path, "list", "--follow", "--json"])
        defer { running.stop() }
        let process = running.process
        let ended = try await blocking { () -> Bool in
            usleep(delay)
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(10)
            while process.isRunning && Date() < deadline { usleep(10_000) }
            return !process.isRunning
        }
        #expect(ended, "still running 10 s after SIGTERM")
    }
}
