extension SchemaValidator {
    /// Checks one keyword of node `node` on `value`, adding what it evaluated.
    mutating func check(
        _ keyword: SchemaKeyword, of node: Int, _ value: JSONValue, _ evaluated: inout Evaluated
    ) -> Bool {
        switch keyword {
        case .ref(let target):
            return apply(target, value, &evaluated)
        case .dynamicRef(let target, let anchor):
            var resolved = target
            if let anchor {
                for resource in scope {
                    if let found = program.dynamicAnchors[resource][anchor] {
                        resolved = found
                        break
                    }
                }
            }
            return apply(resolved, value, &evaluated)
        case .allOf(let list):
            var valid = true
            for target in list where !apply(target, value, &evaluated) {
                valid = false
                if !collecting { break }
            }
            return valid
        case .anyOf(let list):
            var matched = false
            for target in list {
                if let result = quietly(target, value) {
                    evaluated.merge(result)
                    matched = true
                }
            }
            if !matched {
                fail(node, "anyOf", "matches none of the anyOf schemas" + reasons(list, value))
            }
            return matched
        case .oneOf(let list):
            var matches: [Int] = []
            var first = Evaluated()
            for (k, target) in list.enumerated() {
                if let result = quietly(target, value) {
                    if matches.isEmpty { first = result }
                    matches.append(k)
                }
            }
            guard matches.count == 1 else {
                fail(
                    node, "oneOf",
                    matches.isEmpty
                        ? "matches none of the oneOf schemas" + reasons(list, value)
                        : "matches \(matches.count) of the oneOf schemas (\(matches.map { "#\($0)" }.joined(separator: ", "))), not exactly one"
                )
                return false
            }
            evaluated.merge(first)
            return true
        case .not(let target):
            guard quietly(target, value) == nil, !gaveUp else {
                fail(node, "not", "matches the schema it must not")
                return false
            }
            return true
        case .condition(let condition, let then, let otherwise):
            if let result = quietly(condition, value) {
                evaluated.merge(result)
                guard let then else { return true }
                return apply(then, value, &evaluated)
            }
            guard let otherwise else { return true }
            return apply(otherwise, value, &evaluated)
        case .dependentSchemas(let map):
            guard case .object(let object) = value else { return true }
            var valid = true
            for (name, target) in map where object[name] != nil {
                if !apply(target, value, &evaluated) { valid = false }
            }
            return valid
        case .prefixItems, .items, .contains, .unevaluatedItems:
            guard case .array(let array) = value else { return true }
            return checkItems(keyword, of: node, array, &evaluated)
        case .properties, .patternProperties, .additionalProperties, .propertyNames,
            .unevaluatedProperties:
            guard case .object(let object) = value else { return true }
            return checkProperties(keyword, of: node, object, &evaluated)
        default:
            return assert(keyword, of: node, value)
        }
    }

    /// Applies `target` in place, its annotations added when it holds.
    private mutating func apply(_ target: Int, _ value: JSONValue, _ evaluated: inout Evaluated)
        -> Bool
    {
        guard let result = evaluate(target, value) else { return false }
        evaluated.merge(result)
        return true
    }

    private mutating func checkItems(
        _ keyword: SchemaKeyword, of node: Int, _ array: [JSONValue], _ evaluated: inout Evaluated
    ) -> Bool {
        var valid = true
        switch keyword {
        case .prefixItems(let list):
            for (i, target) in list.prefix(array.count).enumerated()
            where evaluate(target, array[i], at: String(i)) == nil {
                valid = false
                if !collecting { return false }
            }
            evaluated.prefix = max(evaluated.prefix, min(list.count, array.count))
        case .items(let target, let from):
            for i in array.indices.dropFirst(from)
            where evaluate(target, array[i], at: String(i)) == nil {
                valid = false
                if !collecting { return false }
            }
            evaluated.allItems = true
        case .contains(let target, let minimum, let maximum):
            var matched = 0
            for (i, element) in array.enumerated() where quietly(target, element) != nil {
                matched += 1
                evaluated.indices.insert(i)
            }
            if matched < minimum {
                fail(
                    node, minimum == 1 ? "contains" : "minContains",
                    matched == 0
                        ? "holds no element that matches contains"
                        : "holds \(matched) elements that match contains, fewer than minContains \(minimum)"
                )
                valid = false
            }
            if let maximum, matched > maximum {
                fail(
                    node, "maxContains",
                    "holds \(matched) elements that match contains, more than maxContains \(maximum)"
                )
                valid = false
            }
        case .unevaluatedItems(let target):
            if !evaluated.allItems {
                for i in array.indices.dropFirst(evaluated.prefix)
                where !evaluated.indices.contains(i)
                    && evaluate(target, array[i], at: String(i)) == nil
                {
                    valid = false
                    if !collecting { return false }
                }
            }
            evaluated.allItems = true
        default:
            break
        }
        return valid
    }

    private mutating func checkProperties(
        _ keyword: SchemaKeyword, of node: Int, _ object: JSONObject, _ evaluated: inout Evaluated
    ) -> Bool {
        var valid = true
        let tracks = program.tracksProperties
        func member(_ target: Int, _ entry: JSONObject.Member, _ evaluated: inout Evaluated) {
            if tracks { evaluated.properties.insert(UTF8Key(entry.key)) }
            if evaluate(target, entry.value, at: entry.key) == nil { valid = false }
        }
        switch keyword {
        case .properties(let map):
            for entry in object {
                if let target = map[entry.key] { member(target, entry, &evaluated) }
                if !valid && !collecting { return false }
            }
        case .patternProperties(let patterns):
            for entry in object {
                for (pattern, target) in patterns where matches(pattern, entry.key, node) {
                    member(target, entry, &evaluated)
                }
                if !valid && !collecting { return false }
            }
        case .additionalProperties(let target, let named, let patterns):
            for entry in object where !named.contains(entry.key) {
                if patterns.contains(where: { matches($0, entry.key, node) }) { continue }
                if program.nodes[target].boolean == false {
                    if tracks { evaluated.properties.insert(UTF8Key(entry.key)) }
                    refuse(entry.key, target, among: named.names)
                    valid = false
                } else {
                    member(target, entry, &evaluated)
                }
                if !valid && !collecting { return false }
            }
        case .propertyNames(let target):
            for entry in object where evaluate(target, .string(entry.key), at: entry.key) == nil {
                valid = false
                if !collecting { return false }
            }
        case .unevaluatedProperties(let target):
            for entry in object where !evaluated.properties.contains(UTF8Key(entry.key)) {
                if program.nodes[target].boolean == false {
                    evaluated.properties.insert(UTF8Key(entry.key))
                    refuse(entry.key, target, among: declaredProperties(of: node))
                    valid = false
                } else {
                    member(target, entry, &evaluated)
                }
                if !valid && !collecting { return false }
            }
        default:
            break
        }
        return valid
    }

    /// Why each of `targets` fails on `value`, each reason said once, three at most: for a
    /// person reading why no branch of an `anyOf` or `oneOf` matched (`: "strnig" is not
    /// one of …; or is a string, not an array`). Evaluated again, on the failure path only.
    private mutating func reasons(_ targets: [Int], _ value: JSONValue) -> String {
        guard collecting else { return "" }
        let start = violations.count
        for target in targets { _ = evaluate(target, value) }
        var said: [String] = []
        for violation in violations[start...] where !said.contains(violation.message) {
            said.append(violation.message)
        }
        violations.removeSubrange(start...)
        guard !said.isEmpty else { return "" }
        return ": " + said.prefix(3).joined(separator: "; or ")
    }

    /// Reports the member `name`, which the `false` schema `target` refuses, with the name
    /// of `declared` it is probably a slip for (`stauts: not allowed here; did you mean
    /// status?`).
    private mutating func refuse(
        _ name: String, _ target: Int, among declared: some Sequence<String>
    ) {
        guard collecting else { return }
        path.append(name)
        defer { path.removeLast() }
        var message = "not allowed here"
        if let meant = NameSuggestion.closest(to: name, among: declared) {
            message += "; did you mean \(meant)?"
        }
        fail(target, nil, message)
    }

    /// The member names the `properties` of `node` declare.
    private func declaredProperties(of node: Int) -> [String] {
        for case .properties(let map) in program.nodes[node].keywords { return map.names }
        return []
    }

    /// Whether a member name matches a `patternProperties` pattern; a search that gives up
    /// is reported, and counts as no match.
    private mutating func matches(_ pattern: SchemaPattern, _ name: String, _ node: Int) -> Bool {
        guard let found = pattern.matches(name) else {
            fail(
                node, "patternProperties",
                "the pattern \(pattern.source) gave up after \(ECMARegex.stepLimit) steps on the member name"
            )
            return false
        }
        return found
    }
}
