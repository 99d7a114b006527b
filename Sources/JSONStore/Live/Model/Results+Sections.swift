extension Results {
    /// The sections of grouped results (`Query.grouped(by:)`), one per value, in order;
    /// empty for results that are not grouped.
    ///
    /// For example:
    ///
    /// ```swift
    /// for section in results.sections {
    ///     print(section.key ?? "(no status)", section.count, section.sum(of: "estimate") ?? 0)
    ///     for task in section.prefix(3) { print("  ", task.id) }
    /// }
    /// ```
    public var sections: Sections { Sections(results: self) }

    /// The section of the value `key` (`nil` for the items lacking the member), if the
    /// results have one. O(log n).
    public func section(for key: JSONValue?) -> Section? {
        guard let index = groups?.index(of: key) else { return nil }
        return sections[index]
    }

    /// The sections of grouped results. Indexing is O(log n).
    public struct Sections: RandomAccessCollection, Sendable {
        let results: Results

        public var startIndex: Int { 0 }
        public var endIndex: Int { results.groups?.count ?? 0 }

        public subscript(index: Int) -> Section {
            let groups = results.groups!
            let (key, summary) = groups.group(at: index)
            let start = SortKey.start(ofGroup: key, descending: groups.descending)
            return Section(
                results: results, key: key, offset: results.tree.rank(of: start),
                summary: summary)
        }
    }

    /// One section of grouped results: the items whose member has one value (or holds it
    /// in an array), in the query's order, and its figures, kept live.
    public struct Section: RandomAccessCollection, Sendable {
        let results: Results
        /// The value of the member the results are grouped by; `nil` for the section of
        /// the items that lack it.
        public let key: JSONValue?
        /// The index in the whole results of the section's first element.
        public let offset: Int
        let summary: GroupSummary

        public var startIndex: Int { 0 }
        public var endIndex: Int { summary.count }

        /// The element at `position` in the section. O(log n).
        public subscript(position: Int) -> Element {
            precondition(indices.contains(position), "row \(position) out of 0..<\(count)")
            return results[offset + position]
        }

        /// The sum of the numbers the section's items have at `member`, one of the members
        /// the query aggregates (`grouped(by:aggregating:)`), exact (`0.1 + 0.2` is `0.3`);
        /// `nil` when no item has a number there or the query does not aggregate it.
        public func sum(of member: String) -> JSONNumber? {
            aggregate(member).flatMap { $0.count == 0 ? nil : $0.sum.value }
        }

        /// The smallest number the section's items have at `member`, as it is written.
        public func min(of member: String) -> JSONNumber? { aggregate(member)?.minimum }

        /// The largest number the section's items have at `member`, as it is written.
        public func max(of member: String) -> JSONNumber? { aggregate(member)?.maximum }

        /// How many of the section's items have a number at `member`.
        public func count(of member: String) -> Int { aggregate(member)?.count ?? 0 }

        private func aggregate(_ member: String) -> Aggregate? {
            guard let index = results.query.grouping?.aggregated.firstIndex(of: member)
            else { return nil }
            return summary.aggregates[index]
        }
    }
}
