extension Array {
    /// `Array(unsafeUninitializedCapacity:initializingWith:)`, but `[]` for a `count` of 0
    /// without calling `body`: the standard library's initializer writes its count into
    /// the empty array every thread shares, a data race (ThreadSanitizer reported it in CI,
    /// an empty base64 value made beside the journal's reader of an empty array).
    package init(
        uninitializedCount count: Int,
        initializingWith body: (inout UnsafeMutableBufferPointer<Element>, inout Int) -> Void
    ) {
        guard count > 0 else {
            self = []
            return
        }
        self.init(unsafeUninitializedCapacity: count, initializingWith: body)
    }
}
