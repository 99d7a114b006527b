import Foundation
import TestSupport
import Testing

/// Runs `script` with bash; `$JSONSTORE` is the built binary, `$STORE` the store and
/// `$SCRATCH` a directory of the test's own.
func shell(_ script: String, store: TemporaryStore, scratch: TemporaryStore? = nil)
    async throws -> JSONStoreBinary.Result
{
    var environment = ["STORE": store.path]
    if let scratch { environment["SCRATCH"] = scratch.path }
    let variables = environment
    return try await blocking { try JSONStoreBinary.shell(script, environment: variables) }
}

/// `put` reads a document from whatever it is handed: a pipe fed slowly, a large document
/// through `cat`, a FIFO made by `<(…)`, a person typing at a terminal. Only a regular file
/// ends at its first short read; everything else is read to its end.
@Suite("Documents through pipes, FIFOs and terminals")
struct InputStreamTests {
    @Test("a slow producer on a pipe: read to the end, not to the first pause")
    func slowPipe() async throws {
        let temp = try TemporaryStore()
        let result = try await shell(
            #"(printf '{"title":'; sleep 0.3; printf '"slow"}') | "$JSONSTORE" --dir "$STORE" put slow"#,
            store: temp)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stderr == "")
        #expect(temp.readFile("slow.json") == "{\n  \"title\": \"slow\"\n}\n")
    }

    @Test("200 KB through cat and '-', and through a FIFO from <(…)")
    func largeThroughCatAndFIFO() async throws {
        let temp = try TemporaryStore()
        let scratch = try TemporaryStore()
        let pad = String(repeating: "0123456789", count: 20_000)
        try scratch.writeFile("big.json", "{\"pad\": \"\(pad)\"}")
        var result = try await shell(
            #"cat "$SCRATCH/big.json" | "$JSONSTORE" --dir "$STORE" put big -"#, store: temp,
            scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(temp.readFile("big.json") == "{\n  \"pad\": \"\(pad)\"\n}\n")
        result = try await shell(
            #""$JSONSTORE" --dir "$STORE" put fifo <(cat "$SCRATCH/big.json"; sleep 0.2; echo)"#,
            store: temp, scratch: scratch)
        #expect(result.status == 0, "\(result.stderr)")
        #expect(temp.readFile("fifo.json") == "{\n  \"pad\": \"\(pad)\"\n}\n")
    }

    @Test("over the limit through a pipe: the same message as a file, nothing written")
    func overLimitThroughPipe() async throws {
        let temp = try TemporaryStore()
        // 17 MiB from a producer: refused once 16 MiB and a byte have arrived (the producer
        // then meets a closed pipe, which is its business: its complaints go to /dev/null).
        let result = try await shell(
            #"{ printf '{"pad": "'; yes x | tr -d '\n' | head -c 17825792; printf '"}'; } 2>/dev/null | "$JSONSTORE" --dir "$STORE" put huge"#,
            store: temp)
        #expect(result.status == 1)
        #expect(result.stderr == "jsonstore: <stdin>: larger than the 16 MiB limit for an item\n")
        #expect(temp.readFile("huge.json") == nil)
        #expect(try temp.names().isEmpty)
    }

    @Test(
        "JSON typed by hand at a terminal, a line at a time, ended with Ctrl-D",
        .enabled(if: executable("tmux") != nil, "tmux is not installed: apt-get install tmux"))
    func typedAtTerminal() async throws {
        let temp = try TemporaryStore()
        let scratch = try TemporaryStore()
        // A tmux server of its own, its descriptors away from ours; the status file is
        // waited for with a deadline of 20 s.
        let result = try await shell(
            #"""
            tmux() { command tmux -L "jsonstore-input-$$" -f /dev/null "$@" </dev/null >/dev/null 2>&1; }
            trap 'tmux kill-server' EXIT
            tmux new-session -d -x 80 -y 24 "'$JSONSTORE' --dir '$STORE' put typed; echo \$? > '$SCRATCH/status'"
            tmux send-keys -t 0 '{"title":' Enter
            tmux send-keys -t 0 '"typed"}' Enter
            tmux send-keys -t 0 C-d
            for _ in $(seq 1000); do [ -s "$SCRATCH/status" ] && break; sleep 0.02; done
            cat "$SCRATCH/status"
            """#, store: temp, scratch: scratch)
        #expect(result.stdout == "0\n", "\(result.stderr)")
        #expect(temp.readFile("typed.json") == "{\n  \"title\": \"typed\"\n}\n")
    }
}
