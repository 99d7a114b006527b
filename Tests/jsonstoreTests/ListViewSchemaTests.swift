import Foundation
import JSONStore
import TestSupport
import Testing

extension FollowTerminalTests {
    @Test(
        "on a terminal: a hand edit that breaks the schema marks its row, the pane shows why at its member, e refuses a copy that breaks it"
    )
    func schemaInTheView() async throws {
        let temp = try sampleStore()
        try temp.store.setSchema(
            Array(
                #"{"properties": {"priority": {"type": "integer", "maximum": 5}}, "required": ["title"]}"#
                    .utf8))
        let scratch = try TemporaryStore()
        // The editor of `e`: makes the copy break the schema.
        let editor = scratch.path + "/editor"
        try ExecutableScript.write(
            "#!/bin/sh\nsed -i 's/\"priority\": [0-9]*/\"priority\": 7/' \"$1\"\n", to: editor)
        let result = try await shell(
            """
            tmux() { SHELL=/bin/bash command tmux -L "jsonstore-schema-$$" -f /dev/null "$@" </dev/null 2>/dev/null; }
            trap 'tmux kill-server' EXIT
            waitfor() { for _ in $(seq 1000); do tmux capture-pane -p -t 0 | grep -qF -- "$1" && return 0; sleep 0.02; done; echo "NOT SHOWN: $1"; tmux capture-pane -p -t 0; exit 1; }
            tmux new-session -d -x 160 -y 24 "env TERM=xterm-256color VISUAL='\(editor)' '$JSONSTORE' --dir '$STORE' list --follow; echo EXIT=\\$? > '$SCRATCH/status'" >/dev/null
            waitfor 'Fix the bike'
            sed -i 's/"priority": 1/"priority": 9/' "$STORE/bike.json"
            waitfor '1 invalid'
            tmux send-keys -t 0 p
            waitfor '! /priority: 9 is greater than the maximum 5'
            tmux capture-pane -p -t 0
            tmux send-keys -t 0 j
            tmux send-keys -t 0 e
            waitfor 'not saved'
            tmux capture-pane -p -t 0
            tmux send-keys -t 0 q
            for _ in $(seq 1000); do [ -s "$SCRATCH/status" ] && break; sleep 0.02; done
            cat "$SCRATCH/status"
            """, store: temp, scratch: scratch)
        #expect(result.stdout.hasSuffix("EXIT=0\n"), "\(result.stdout)")
        #expect(result.stdout.contains("! /priority: 9 is greater than the maximum 5"))
        // The notice wraps where the terminal ends (a long temporary path moves it).
        let unwrapped = result.stdout.replacing("\n ", with: " ")
        #expect(unwrapped.contains("7 is greater than the maximum 5"), "\(result.stdout)")
        // The second row (taxes, by id) was not written: the copy broke the schema.
        #expect(try temp.store.item("taxes")?["priority"] == 3)
        for folder in try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        where folder.hasPrefix("jsonstore-edit-") {
            let copy = NSTemporaryDirectory() + "/" + folder + "/taxes.json"
            if FileManager.default.fileExists(atPath: copy) {
                try? FileManager.default.removeItem(atPath: NSTemporaryDirectory() + "/" + folder)
            }
        }
    }
}
