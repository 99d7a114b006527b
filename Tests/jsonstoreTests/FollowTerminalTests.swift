import Foundation
import TestSupport
import Testing

/// `list --follow` on a real terminal (tmux), in what it chooses to show: the `f` counts
/// view for `--count-by`, plain lines for `TERM=dumb`.
@Suite(
    "list --follow on a terminal",
    .enabled(if: executable("tmux") != nil, "tmux is not installed: apt-get install tmux"))
struct FollowTerminalTests {
    /// Runs `command` (after `$JSONSTORE --dir $STORE`) in a tmux server of its own, 80×24,
    /// until the screen shows `text` (20 s at most), then `keys`; prints the screen then,
    /// and the exit status (`EXIT=N`) when the command ends within 20 s. The server is
    /// killed on the way out, whatever happens.
    func onTerminal(
        _ command: String, environment: String = "TERM=xterm-256color", until text: String,
        keys: String, store: TemporaryStore
    ) async throws -> String {
        let scratch = try TemporaryStore()
        let result = try await shell(
            """
            # bash runs the pane's command whoever runs the tests (a user whose shell is sh, as
            # in CI's run as a user who is not root): on a Ctrl-C, sh dies with the command,
            # before its `echo`, where bash sees the command exit and goes on.
            tmux() { SHELL=/bin/bash command tmux -L "jsonstore-follow-$$" -f /dev/null "$@" </dev/null 2>/dev/null; }
            trap 'tmux kill-server' EXIT
            tmux new-session -d -x 80 -y 24 "env \(environment) '$JSONSTORE' --dir '$STORE' \(command); echo EXIT=\\$? > '$SCRATCH/status'" >/dev/null
            for _ in $(seq 1000); do tmux capture-pane -p -t 0 | grep -qF -- '\(text)' && break; sleep 0.02; done
            tmux capture-pane -p -e -t 0
            tmux send-keys -t 0 \(keys)
            for _ in $(seq 1000); do [ -s "$SCRATCH/status" ] && break; sleep 0.02; done
            cat "$SCRATCH/status"
            """, store: store, scratch: scratch)
        return result.stdout
    }

    @Test("--count-by F opens the counts view of F, live; q quits")
    func countsView() async throws {
        let temp = try sampleStore()
        let screen = try await onTerminal(
            // "Counts of status" shows while the store is still being counted: wait for a count.
            "list --follow --count-by status", until: "todo", keys: "Escape q", store: temp)
        // The screen is captured with its styles (-e): the words are read without them.
        let plain = screen.replacing(/\u{1B}\[[0-9;]*m/, with: "")
        #expect(plain.contains("Counts of status"), "\(screen)")
        #expect(plain.contains("todo"), "\(screen)")
        #expect(screen.hasSuffix("EXIT=0\n"), "\(screen)")
    }

    @Test("TERM=dumb: what `list` prints (a table), then a line per change, no escapes")
    func dumbTerminal() async throws {
        let temp = try sampleStore()
        let screen = try await onTerminal(
            "list --follow", environment: "TERM=dumb", until: "Make tea", keys: "C-c",
            store: temp)
        let lines = screen.split(separator: "\n")
        #expect(lines.first?.hasPrefix("ID ") == true, "\(screen)")
        #expect(!screen.contains("\t") && !screen.contains("\u{1B}"), "\(screen)")
        #expect(screen.hasSuffix("EXIT=0\n"), "\(screen)")
        // README says the same.
        let readme = try String(
            contentsOf: checkoutRoot.appendingPathComponent("README.md"), encoding: .utf8)
        #expect(readme.contains("On a terminal whose `TERM` is `dumb`"))
        #expect(!readme.contains("a terminal (or `TERM=dumb`)"))
    }
}
