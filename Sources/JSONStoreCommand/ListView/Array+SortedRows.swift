/// Rows as ascending arrays of indices: where a row is, and two such arrays as one.
extension Array where Element == Int {
    /// Where `value` is in this ascending array, found by binary search.
    func position(ofAscending value: Int) -> Int? {
        let low = count(below: value)
        return low < count && self[low] == value ? low : nil
    }

    /// How many elements of this ascending array are below `value`, by binary search.
    func count(below value: Int) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if self[middle] < value { low = middle + 1 } else { high = middle }
        }
        return low
    }

    /// Two ascending arrays of distinct rows as one.
    static func merge(_ a: [Int], _ b: [Int]) -> [Int] {
        merging(a, b, by: <)
    }
}
