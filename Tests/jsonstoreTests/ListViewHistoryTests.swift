import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// `h` and `u` in the list view: the selected item's history in the pane, and an undo of
/// its last change after y/N, refused in the header with why.
@Suite("The list view's history and undo")
struct ListViewHistoryTests {
    @Test("h asks for the selected item's history, shows it lit, follows the selection; h hides")
    func historyPane() throws {
        let temp = try TemporaryStore()
        try temp.store.put("item-000000", ["title": "Task 0", "status": "open"])
        try temp.store.put("item-000000", ["title": "Task 0", "status": "done"])
        let entries = try temp.store.history(of: "item-000000")
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        #expect(model.historyToLoad == nil)
        _ = model.handle(.character("h"), page: 9)
        #expect(model.historyToLoad?.id == "item-000000")
        var frame = model.frame(width: 120, height: 14, now: 1)
        #expect(frame.text.contains { $0.contains("reading the history of item-000000") })
        model.showHistory("item-000000", .success(entries), asOf: 0)
        #expect(model.historyToLoad == nil)
        frame = model.frame(width: 120, height: 14, now: 1)
        let change = try #require(frame.text.firstIndex { $0.contains("status: open → done") })
        #expect(frame.text.contains { $0.contains("2  ") && $0.contains("modified  jsonstore") })
        #expect(frame.text.contains { $0.contains("1  ") && $0.contains("created") })
        let column = frame.text[change].distance(
            from: frame.text[change].startIndex,
            to: frame.text[change].range(of: "status")!.lowerBound)
        #expect(frame.rows[change][column].style.background == .yellow)
        // Another row: its history is asked for.
        _ = model.handle(.down, page: 9)
        #expect(model.historyToLoad?.id == "item-000001")
        // A read begun before a change came is read again.
        model.showHistory("item-000001", .success([]), asOf: -1)
        #expect(model.historyToLoad?.id == "item-000001")
        model.showHistory("item-000001", .success([]), asOf: 0)
        frame = model.frame(width: 120, height: 14, now: 1)
        #expect(frame.text.contains { $0.contains("no change of item-000001 in the history") })
        _ = model.handle(.character("h"), page: 9)
        #expect(model.historyToLoad == nil)
        #expect(!model.frame(width: 120, height: 14, now: 1).text[2].contains("│"))
    }

    @Test("u asks y/N, then asks the app to undo; a refusal shows in the header until a key")
    func undo() {
        let (results, _) = makeResults(3)
        var model = liveModel(results)
        #expect(model.handle(.character("u"), page: 9) == .none)
        let footer = model.frame(width: 120, height: 14, now: 1).text.last ?? ""
        #expect(footer.contains("undo the last change of item-000000? y/N"), "\(footer)")
        #expect(model.handle(.character("n"), page: 9) == .none)
        _ = model.handle(.character("u"), page: 9)
        #expect(model.handle(.character("y"), page: 9) == .undo(id: "item-000000"))
        model.undoRefused("item-000000: /title changed since 41\u{1B}[2J")
        let header = model.frame(width: 160, height: 14, now: 1).text[0]
        #expect(header.contains("undo refused: item-000000: /title changed since 41"), "\(header)")
        #expect(!header.contains("\u{1B}"))
        _ = model.handle(.down, page: 9)
        #expect(!model.frame(width: 160, height: 14, now: 1).text[0].contains("undo refused"))
    }
}

extension FollowTerminalTests {
    @Test("on a terminal: h shows a hand edit in the history; u then y undoes it")
    func historyAndUndo() async throws {
        let temp = try sampleStore()
        let scratch = try TemporaryStore()
        let result = try await shell(
            """
            tmux() { SHELL=/bin/bash command tmux -L "jsonstore-history-$$" -f /dev/null "$@" </dev/null 2>/dev/null; }
            trap 'tmux kill-server' EXIT
            waitfor() { for _ in $(seq 1000); do tmux capture-pane -p -t 0 | grep -qF -- "$1" && return 0; sleep 0.02; done; echo "NOT SHOWN: $1"; tmux capture-pane -p -t 0; exit 1; }
            tmux new-session -d -x 140 -y 24 "env TERM=xterm-256color '$JSONSTORE' --dir '$STORE' list --follow; echo EXIT=\\$? > '$SCRATCH/status'" >/dev/null
            waitfor 'Fix the bike'
            tmux send-keys -t 0 h
            waitfor 'created'
            sed -i 's/"done"/"doing"/' "$STORE/bike.json"
            waitfor 'status: done → doing'
            tmux send-keys -t 0 u
            waitfor 'undo the last change of bike? y/N'
            tmux send-keys -t 0 y
            waitfor 'undid the last change'
            tmux capture-pane -p -t 0
            tmux send-keys -t 0 q
            for _ in $(seq 1000); do [ -s "$SCRATCH/status" ] && break; sleep 0.02; done
            cat "$SCRATCH/status"
            """, store: temp, scratch: scratch)
        #expect(result.stdout.hasSuffix("EXIT=0\n"), "\(result.stdout)")
        #expect(result.stdout.contains("undid the last change of bike"), "\(result.stdout)")
        #expect(try temp.store.item("bike")?["status"] == "done")
    }
}
