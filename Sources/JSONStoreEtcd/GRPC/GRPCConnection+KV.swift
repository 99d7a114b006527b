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
        let read = try RangePages.read(
            prefix: prefix, revision: revision, pageSize: pageSize, pageBytes: pageBytes,
            page: { request throws(EtcdError) in
                let answer = try call(
                    "/etcdserverpb.KV/Range", request.encoded, until: Deadline(seconds: timeout))
                do {
                    return try EtcdRPC.RangeResponse(decoding: answer)
                } catch {
                    throw bad("a range's answer: \(error)")
                }
            }, refused: bad)
        return (read.revision, read.keyValues)
    }
}
