import JSONStore

struct Task: Codable, Identifiable, Sendable {
    var id: String
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")
let open = Query.all.filter { (task: Task) in task.status != "done" }

for await change in store.changes(Task.self, open) {  // ends when the loop does
    if case .initial(let tasks) = change {
        print("\(tasks.count) open tasks")
        break
    }
}
