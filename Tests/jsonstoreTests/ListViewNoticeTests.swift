import Foundation
import TestSupport
import Testing

@testable import JSONStore
@testable import JSONStoreCommand

/// The footer's notices: one that does not fit is wrapped over the rows above the footer,
/// never cut, so a path that keeps the user's text is there whole.
@Suite("The list view's notices, whole")
struct ListViewNoticeTests {
    @Test("a bulk edit refused names the document in the position and keeps the path whole")
    func refusedBulkEdit() throws {
        let temp = try TemporaryStore.tasks()
        let edit = BulkEdit(store: temp.store, ids: ["bike", "tea"]) { path in
            // The user breaks the document on line 4, column 5.
            _ = FileManager.default.createFile(
                atPath: path,
                contents: Data("{\n  \"bike\": {\n    \"title\": \"x\",\n    }\n}\n".utf8))
            return .success(0)
        }
        let notice = edit.run()
        let lines = notice.split(separator: "\n").map(String.init)
        #expect(lines.count == 2, "\(notice)")
        #expect(
            lines.first?.hasPrefix("not applied: marked-items.json:3:17: ") == true, "\(notice)")
        let prefix = "your text is kept in "
        #expect(lines.last?.hasPrefix(prefix) == true, "\(notice)")
        let file = String(lines.last?.dropFirst(prefix.count) ?? "")
        #expect(file.hasSuffix("/marked-items.json"))
        #expect(FileManager.default.fileExists(atPath: file))
        defer {
            try? FileManager.default.removeItem(
                atPath: (file as NSString).deletingLastPathComponent)
        }

        // On an 80-column screen the path is drawn whole, wrapped over the rows above the
        // footer, each line of the notice on rows of its own.
        let (results, _) = makeResults(30)
        var model = liveModel(results)
        model.tell(notice)
        let text = model.frame(width: 80, height: 24, now: 1).text
        let bottom = text.suffix(4).map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(bottom.joined().contains(file), "\(bottom)")
        // The words, then the path: on one row when it fits, else the path on rows of its
        // own (a long temporary folder).
        #expect(bottom.contains { $0.hasPrefix("your text is kept in") }, "\(bottom)")
        #expect(
            bottom.contains { $0.hasPrefix("not applied: marked-items.json:3:17:") }, "\(bottom)")
        #expect(!text.joined().contains("…"))
    }
}
