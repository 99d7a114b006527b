import Dispatch
@preconcurrency import Glibc  // for stdout, a C global
import JSONStore

setvbuf(stdout, nil, _IOLBF, 0)  // print each line as it comes, even into a pipe

struct Todo: Codable, Identifiable, Sendable {
    var id: String  // comes from the file name, not from the file
    var title: String
    var status: String
    var priority: Int
}

let store = try JSONStore(directory: "data")
let byPriority = Query.all.sorted(by: \Todo.priority, descending: true)
let token = store.observe(Todo.self, byPriority, on: .main) { change in
    switch change {
    case .initial(let todos):  // Results<Todo>
        print("\(todos.count) todos, first: \(todos.first?.title ?? "-")")
    case .update(let todos, let changes):  // Realm's index spaces, plus the values
        for todo in changes.inserted { print("new:", todo.title) }
        for m in changes.modified {
            print("changed:", m.new.title, m.old.priority, "->", m.new.priority)
            for change in m.changes {  // the members that changed, as JSON Pointers
                print("  \(change.path):", change.old ?? .null, "->", change.new ?? .null)
            }
        }
        for todo in changes.deleted { print("gone:", todo.title) }
        for bad in changes.invalid { print("invalid:", bad.error) }
        print("now \(todos.count) todos")
    case .error(let error):  // the directory vanished; it is re-attached
        print(error)
    }
}
dispatchMain()
