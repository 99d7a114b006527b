@preconcurrency import Glibc  // for stdout, a C global
import JSONStore

setvbuf(stdout, nil, _IOLBF, 0)

let store = try JSONStore(directory: "data")
// A board: a section per status, highest priority first in each, with counts and sums.
let board = Query.all.sorted(by: "priority", descending: true)
    .grouped(by: "status", aggregating: ["priority"])

func show(_ results: Results<Item>) {
    for section in results.sections {  // in the order of the values; missing first
        let status = section.key?.stringValue ?? "(no status)"
        let sum = section.sum(of: "priority")?.text ?? "-"
        let top = section.first?["title"]?.stringValue ?? "-"
        print("\(status): \(section.count), priority \(sum), top: \(top)")
    }
}

// Only status and priority edits count; a burst within 50 ms is one update (250 ms at most).
let policy = DeliveryPolicy.coalesce(window: 0.05, cap: 0.25)
for await change in store.changes(board, policy: policy, members: ["status", "priority"]) {
    switch change {
    case .initial(let results):
        show(results)
    case .update(let results, let changes):
        let s = changes.sections  // Realm's sectioned index spaces, as UIKit applies them
        print("sections +\(s.sectionsToInsert) -\(s.sectionsToDelete), recounted \(s.recounted)")
        print("rows -\(s.deletions) +\(s.insertions) ~\(s.modifications)")
        for m in changes.modified where m.changed("status") {
            print("\(m.new.id): \(m.old["status"] ?? .null) -> \(m.new["status"] ?? .null)")
        }
        show(results)
        exit(0)
    case .error(let error):
        print(error)
    }
}
