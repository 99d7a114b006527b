extension GRPCConnection {
    /// Every key that starts with `prefix`, at one revision, read in pages (`RangePages`)
    /// by `KV.Range`.
    ///
    /// - Parameter timeout: the seconds each page may take.
    /// - Returns: the revision read at, and the keys in key order.
    package func range(
        prefix: [UInt8], revision: Int64? = nil, pageSize: Int = 1_000,
        pageBytes: Int = 4 << 20, timeout: Double = 30
    ) throws(EtcdError) -> (revision: Int64, keyValues: [EtcdClient.KeyValue]) {
        var pages = RangePages(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes)
        while true {
            let request = EtcdRPC.RangeRequest(
                key: pages.start, rangeEnd: pages.end, limit: Int64(pages.limit),
                revision: pages.revision ?? 0)
            let answer = try call(
                "/etcdserverpb.KV/Range", request.encoded, until: Deadline(seconds: timeout))
            let page: EtcdRPC.RangeResponse
            do {
                page = try EtcdRPC.RangeResponse(decoding: answer)
            } catch {
                throw bad("a range's answer: \(error)")
            }
            switch pages.take(
                page.keyValues, at: pages.revision ?? page.header.revision, more: page.more)
            {
            case .success(true): continue
            case .success(false): return (pages.revision ?? 0, pages.found)
            case .failure(let refusal): throw bad(refusal.reason)
            }
        }
    }
}
