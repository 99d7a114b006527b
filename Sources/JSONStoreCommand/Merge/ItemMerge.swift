import JSONStore

/// A three-way merge of an item by member, for `jsonstore merge-driver`: what git's line
/// merge cannot do for a pretty-printed file, where two edits of neighbouring members
/// touch neighbouring lines.
///
/// A member changed on one side only takes that side's value (removed, if that side
/// removed it); changed alike on both, that value; objects changed on both sides merge
/// member by member, recursively. Anything else changed on both sides differently, an
/// array too (arrays merge whole), is a conflict. The merged item keeps the member order
/// of ours, the members only theirs added after them, in theirs' order.
enum ItemMerge {
    /// A member both sides changed differently: its path, and each side's value (`nil`:
    /// that side removed it).
    struct Conflict: Equatable {
        let path: [String]
        let ours: JSONValue?
        let theirs: JSONValue?
    }

    /// The merge of `ours` and `theirs` from `base`, and the conflicts; where there are
    /// conflicts the merged object holds ours' values.
    static func merge(base: JSONObject, ours: JSONObject, theirs: JSONObject)
        -> (merged: JSONObject, conflicts: [Conflict])
    {
        merge(base, ours, theirs, at: [])
    }

    /// - Complexity: O(n) in the members of the three objects (a `JSONObject` looks a key
    ///   up by scanning, so each side is indexed once: 40,000 members took 27 s before).
    private static func merge(
        _ base: JSONObject, _ ours: JSONObject, _ theirs: JSONObject, at path: [String]
    ) -> (merged: JSONObject, conflicts: [Conflict]) {
        let (baseValues, ourValues, theirValues) = (values(base), values(ours), values(theirs))
        var merged: [JSONObject.Member] = []
        var conflicts: [Conflict] = []
        var keys = ours.keys
        keys += theirs.keys.filter {
            ourValues[UTF8Key($0)] == nil && baseValues[UTF8Key($0)] == nil
        }
        for key in keys {
            let name = UTF8Key(key)
            let (b, o, t) = (baseValues[name], ourValues[name], theirValues[name])
            let value: JSONValue?
            if o == t {
                value = o
            } else if o == b {
                value = t
            } else if t == b {
                value = o
            } else if case .object(let oo)? = o, case .object(let to)? = t {
                let bo: JSONObject
                if case .object(let object)? = b { bo = object } else { bo = JSONObject() }
                let inner = merge(bo, oo, to, at: path + [key])
                conflicts += inner.conflicts
                value = .object(inner.merged)
            } else {
                conflicts.append(Conflict(path: path + [key], ours: o, theirs: t))
                value = o
            }
            if let value { merged.append(JSONObject.Member(key: key, value: value)) }
        }
        return (JSONObject(uniqueMembers: merged), conflicts)
    }

    /// `object`'s values by key.
    private static func values(_ object: JSONObject) -> [UTF8Key: JSONValue] {
        var values: [UTF8Key: JSONValue] = [:]
        values.reserveCapacity(object.count)
        for member in object { values[UTF8Key(member.key)] = member.value }
        return values
    }

    /// `ours` with git's conflict markers around each top-level member that has a
    /// conflict: ours' version of the member, then theirs', so the file says what each
    /// side wanted (and is, as git means it to be, not valid JSON until resolved).
    static func marked(
        _ merged: JSONObject, theirs: JSONObject, conflicts: [Conflict], ours: String,
        other: String
    ) -> String {
        let conflicted = Set(conflicts.compactMap(\.path.first).map(UTF8Key.init))
        let (mergedValues, theirValues) = (values(merged), values(theirs))
        var lines = ["{"]
        let members =
            merged.keys
            + theirs.keys.filter {
                conflicted.contains(UTF8Key($0)) && mergedValues[UTF8Key($0)] == nil
            }
        for (index, key) in members.enumerated() {
            let last = index == members.count - 1
            let name = UTF8Key(key)
            func member(_ value: JSONValue?) -> [String] {
                value.map { PrettyMember.lines(key, $0, last: last, forTerminal: false) } ?? []
            }
            guard conflicted.contains(name) else {
                lines += member(mergedValues[name])
                continue
            }
            lines += ["<<<<<<< \(ours)"] + member(mergedValues[name]) + ["======="]
            lines += member(theirValues[name]) + [">>>>>>> \(other)"]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
