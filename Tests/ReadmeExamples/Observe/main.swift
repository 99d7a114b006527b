import Dispatch
import JSONStore

struct Task: Codable, Identifiable, Sendable {
    var id: String  // comes from the file name, not from the file
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")
let byPriority = Query.all.sorted(by: \Task.priority, descending: true)
let token = store.observe(Task.self, byPriority, on: .main) { change in
    switch change {
    case .initial(let tasks):  // Results<Task>
        print("\(tasks.count) tasks, first: \(tasks.first?.title ?? "-")")
    case .update(let tasks, let changes):  // Realm's index spaces, plus the values
        for task in changes.inserted { print("new:", task.title) }
        for m in changes.modified {
            print("changed:", m.new.title, m.old.priority, "->", m.new.priority)
        }
        for task in changes.deleted { print("gone:", task.title) }
        for bad in changes.invalid { print("invalid:", bad.error) }
        print("now \(tasks.count) tasks")
    case .error(let error):  // the directory vanished; it is re-attached
        print(error)
    }
}
dispatchMain()
