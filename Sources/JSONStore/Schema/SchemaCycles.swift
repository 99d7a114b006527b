/// Finds a schema that applies itself to the same value without end: a cycle of `$ref`s
/// and in-place applicators (`allOf`, `anyOf`, `oneOf`, `not`, `if`/`then`/`else`,
/// `dependentSchemas`) that never steps into a member or an element. Such a schema would
/// never finish checking anything, so it is refused when compiled.
enum SchemaCycles {
    static func check(_ program: SchemaProgram) throws(SchemaCompileError) {
        // Iterative depth-first search; 0 unseen, 1 on the path, 2 done.
        var state = [UInt8](repeating: 0, count: program.nodes.count)
        for start in program.nodes.indices where state[start] == 0 {
            var stack: [(node: Int, next: Int)] = [(start, 0)]
            state[start] = 1
            while let (node, next) = stack.last {
                let edges = inPlace(program.nodes[node].keywords)
                guard next < edges.count else {
                    state[node] = 2
                    stack.removeLast()
                    continue
                }
                stack[stack.count - 1].next += 1
                let target = edges[next]
                switch state[target] {
                case 0:
                    state[target] = 1
                    stack.append((target, 0))
                case 1:
                    throw SchemaCompileError(
                        pointer: program.nodes[target].pointer,
                        "this schema refers to itself without end (a $ref cycle that checks no member or element)"
                    )
                default:
                    break
                }
            }
        }
    }

    /// The nodes a node's keywords apply to the same value.
    private static func inPlace(_ keywords: [SchemaKeyword]) -> [Int] {
        var nodes: [Int] = []
        for keyword in keywords {
            switch keyword {
            case .ref(let node), .dynamicRef(let node, _), .not(let node): nodes.append(node)
            case .allOf(let list), .anyOf(let list), .oneOf(let list): nodes += list
            case .condition(let condition, let then, let otherwise):
                nodes.append(condition)
                if let then { nodes.append(then) }
                if let otherwise { nodes.append(otherwise) }
            case .dependentSchemas(let map): nodes += map.map(\.node)
            default: break
            }
        }
        return nodes
    }
}
