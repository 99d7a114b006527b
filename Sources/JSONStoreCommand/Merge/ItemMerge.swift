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

    private static func merge(
        _ base: JSONObject, _ ours: JSONObject, _ theirs: JSONObject, at path: [String]
    ) -> (merged: JSONObject, conflicts: [Conflict]) {
        var merged = JSONObject()
        var conflicts: [Conflict] = []
        var keys = ours.keys
        keys += theirs.keys.filter { ours[$0] == nil && base[$0] == nil }
        for key in keys {
            let (b, o, t) = (base[key], ours[key], theirs[key])
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
            if let value { merged[key] = value }
        }
        return (merged, conflicts)
    }

    /// `ours` with git's conflict markers around each top-level member that has a
    /// conflict: ours' version of the member, then theirs', so the file says what each
    /// side wanted (and is, as git means it to be, not valid JSON until resolved).
    static func marked(
        _ merged: JSONObject, theirs: JSONObject, conflicts: [Conflict], ours: String,
        other: String
    ) -> String {
        let conflicted = Set(conflicts.compactMap(\.path.first))
        var lines = ["{"]
        let members =
            merged.keys + theirs.keys.filter { conflicted.contains($0) && merged[$0] == nil }
        for (index, key) in members.enumerated() {
            let last = index == members.count - 1
            func member(_ value: JSONValue?) -> [String] {
                value.map { PrettyMember.lines(key, $0, last: last, forTerminal: false) } ?? []
            }
            guard conflicted.contains(key) else {
                lines += member(merged[key])
                continue
            }
            lines += ["<<<<<<< \(ours)"] + member(merged[key]) + ["======="]
            lines += member(theirs[key]) + [">>>>>>> \(other)"]
        }
        lines.append("}")
        return lines.joined(separator: "\n") + "\n"
    }
}
