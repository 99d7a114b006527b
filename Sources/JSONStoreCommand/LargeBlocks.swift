import Glibc

/// The C library's allocator told to give large blocks back to the system when they are
/// freed, for the whole run.
///
/// glibc maps a block of 128 KiB or more on its own and unmaps it when it is freed, but
/// the first time such a block is freed it raises that threshold to the block's size (up
/// to 32 MiB), so every later block below the new threshold comes from the heap and its
/// pages stay with the process when it is freed. A follower's load makes and frees many
/// (the files' bytes read a batch at a time, the listing's arrays, the first results),
/// so a follower of 100,000 items held 51 MB of anonymous memory after its initial event
/// where 29 MB were in use (`scripts/bench memory`). Setting the threshold, even to its
/// default, turns the raising off; blocks of that size are rare on the edit path, so the
/// cost is a map and an unmap per load batch.
enum LargeBlocks {
    /// `mallopt`'s parameter for the size from which a block is mapped on its own
    /// (`M_MMAP_THRESHOLD` in `<malloc.h>`, which the Glibc module does not bring).
    private static let mmapThreshold: Int32 = -3

    /// Fixes the threshold at 128 KiB, glibc's own starting value. Whether it was set: a
    /// C library without `mallopt` (or one that refuses it) leaves its defaults.
    @discardableResult
    static func returnWhenFreed() -> Bool {
        // Looked up at run time: `mallopt` is declared in `<malloc.h>`, outside the module.
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "mallopt") else {
            return false
        }
        typealias MallOpt = @convention(c) (Int32, Int32) -> Int32
        let mallopt = unsafeBitCast(symbol, to: MallOpt.self)
        return mallopt(mmapThreshold, 128 * 1024) == 1
    }
}
