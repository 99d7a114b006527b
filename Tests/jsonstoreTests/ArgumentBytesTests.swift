import Foundation
import TestSupport
import Testing

/// Ids are bytes: an argument that is not UTF-8 is refused before anything is touched, and
/// a file name that is not UTF-8 is shown by its bytes.
@Suite("Arguments and file names that are not UTF-8")
struct ArgumentBytesTests {
    @Test("put, get and delete of an id that is not UTF-8: exit 64, nothing touched")
    func refusedIDs() async throws {
        let temp = try TemporaryStore.tasks()
        let before = try temp.itemFiles()
        for command in [
            #"echo '{}' | "$JSONSTORE" --dir "$STORE" put $'\x80abc'"#,
            #""$JSONSTORE" --dir "$STORE" get $'\xffabc'"#,
            #""$JSONSTORE" --dir "$STORE" delete tea $'\xffabc'"#,
            #""$JSONSTORE" --dir "$STORE" set $'ab\xc3' title=x"#,
        ] {
            let result = try await shell(command, store: temp)
            #expect(result.status == 64, "\(command): \(result.stderr)")
            #expect(result.stderr.contains("is not valid UTF-8"), "\(command)")
            #expect(!result.stderr.contains("\u{FFFD}"), "\(command)")
        }
        #expect(try temp.itemFiles() == before)
        let shown = try await shell(#""$JSONSTORE" --dir "$STORE" get $'\x80abc'"#, store: temp)
        #expect(shown.stderr.contains(#"'\x80abc'"#))
    }

    @Test("a file name that is not UTF-8 is shown by its bytes in check and list")
    func fileNamesShownByBytes() async throws {
        let temp = try TemporaryStore.tasks()
        let created = try await shell(#"printf '{}' > "$STORE"/$'\x80abc.json'"#, store: temp)
        #expect(created.status == 0)
        let check = try await jsonstore(temp, ["check"])
        #expect(check.status == 1)
        #expect(check.stdout.contains(#"\x80abc.json: the file name is not valid UTF-8"#))
        #expect(!check.stdout.contains("\u{FFFD}"))
        let list = try await jsonstore(temp, ["list"])
        #expect(list.stderr.contains(#"\x80abc.json"#))
        #expect(!list.stderr.contains("\u{FFFD}"))
    }
}
