import Foundation

/// A growable byte buffer for one encode call.
///
/// It grows geometrically and writes through a raw pointer, so single bytes and bulk
/// payloads cost no per-byte collection overhead. Alignment is computed from `count`,
/// i.e. from the start of the buffer (spec §3.1), never from the memory address.
///
/// It may start on borrowed memory (`encodeToArray` lends it the storage of the result
/// array, so an encoding that fits is never copied); the first growth moves the bytes
/// into memory the buffer owns.
///
/// Owned storage comes from `malloc` and grows with `realloc`, which extends a large block
/// in place (mremap on glibc) instead of allocating a second one and copying: a message of
/// a few hundred KiB costs one growing block rather than a chain of ever larger ones, each
/// of which glibc would map, fault in and trim again on every message. `takeData()` hands
/// that block to a `Data` without a copy.
///
/// Its state lives behind a pointer (as `SMCReader`'s does): the typed writes of `SMCWriter`
/// are `@inlinable`, so generated code in another module writes straight into the buffer,
/// and Swift checks exclusive access to a class's stored `var`s at run time wherever it
/// cannot see every access (a `swift_beginAccess` per access: 3× the instructions of a
/// typed encode when the writes were inlined across the module boundary), but never to
/// memory reached through a pointer. Allocated in init, freed in deinit; never shared.
@usableFromInline
final class OutputBuffer {
    @usableFromInline
    struct State {
        @usableFromInline var storage: UnsafeMutableRawPointer
        @usableFromInline var capacity: Int
        @usableFromInline var ownsStorage: Bool
        @usableFromInline var count: Int
    }

    @usableFromInline let state: UnsafeMutablePointer<State>

    @inlinable var storage: UnsafeMutableRawPointer {
        @inline(__always) get { state.pointee.storage }
        @inline(__always) set { state.pointee.storage = newValue }
    }
    @inlinable var capacity: Int {
        @inline(__always) get { state.pointee.capacity }
        @inline(__always) set { state.pointee.capacity = newValue }
    }
    private var ownsStorage: Bool {
        get { state.pointee.ownsStorage }
        set { state.pointee.ownsStorage = newValue }
    }
    @inlinable var count: Int {
        @inline(__always) get { state.pointee.count }
        @inline(__always) set { state.pointee.count = newValue }
    }

    private static func makeState(
        _ storage: UnsafeMutableRawPointer, _ capacity: Int, owns: Bool
    ) -> UnsafeMutablePointer<State> {
        let state = UnsafeMutablePointer<State>.allocate(capacity: 1)
        state.initialize(
            to: State(storage: storage, capacity: capacity, ownsStorage: owns, count: 0))
        return state
    }

    init(initialCapacity: Int = 256) {
        let capacity = max(initialCapacity, 16)
        state = Self.makeState(Self.allocate(capacity), capacity, owns: true)
    }

    private static func allocate(_ size: Int) -> UnsafeMutableRawPointer {
        guard let block = malloc(size) else {
            fatalError("OutputBuffer: out of memory (\(size) bytes)")
        }
        return block
    }

    /// Writes into `borrowed` until it is full; the caller keeps it alive meanwhile.
    private init(borrowing borrowed: UnsafeMutableRawPointer, capacity: Int) {
        state = Self.makeState(borrowed, capacity, owns: false)
    }

    deinit {
        if state.pointee.ownsStorage { free(state.pointee.storage) }
        state.deallocate()
    }

    /// Whether `encodeToArray` should be used: the output is large and its size is bounded
    /// from above (`hintIsUpperBound`), so it is written straight into the result array,
    /// each byte once, with only one output-sized block allocated per call (a second large
    /// block per call makes glibc trim and re-fault the heap each time, costing ~40× a
    /// memcpy on the bench machine). Below `directEncodingThreshold` the final copy of an
    /// owned buffer is cheaper than an array with uninitialized storage (a generic-metadata
    /// lookup, ~20 ns); an unbounded guess would risk one more large allocation.
    static func encodesDirectly(capacityHint: Int, hintIsUpperBound: Bool) -> Bool {
        hintIsUpperBound && capacityHint >= directEncodingThreshold
    }

    static let directEncodingThreshold = 8 * 1024

    /// Encodes with `write` straight into the storage of the returned array, sized
    /// `capacityHint`. Should the output not fit after all, the buffer spills into owned
    /// memory and is copied once at the end.
    static func encodeToArray(
        capacityHint: Int,
        _ write: (OutputBuffer) throws -> Void
    ) throws -> [UInt8] {
        var spilled: OutputBuffer? = nil
        let direct = try [UInt8](unsafeUninitializedCapacity: max(capacityHint, 16)) {
            buffer, initialized in
            guard let base = buffer.baseAddress else { return }
            let out = OutputBuffer(
                borrowing: UnsafeMutableRawPointer(base),
                capacity: buffer.count)
            try write(out)
            if out.ownsStorage {
                spilled = out
            } else {
                initialized = out.count
            }
        }
        return spilled?.bytes ?? direct
    }

    @inlinable @inline(__always)
    func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    @usableFromInline
    func grow(_ extra: Int) {
        var newCapacity = max(capacity &* 2, 16)  // capacity is 0 after takeData()
        while newCapacity - count < extra { newCapacity = newCapacity &* 2 }
        if ownsStorage {
            guard let bigger = realloc(storage, newCapacity) else {
                fatalError("OutputBuffer: out of memory (\(newCapacity) bytes)")
            }
            storage = bigger
        } else {
            let bigger = Self.allocate(newCapacity)
            bigger.copyMemory(from: storage, byteCount: count)
            storage = bigger
            ownsStorage = true
        }
        capacity = newCapacity
    }

    @inlinable @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends a fixed-width integer in little-endian order (spec §2.1).
    @inlinable @inline(__always)
    func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        reserve(size)
        (storage + count).storeBytes(of: value.littleEndian, as: T.self)
        count += size
    }

    @inlinable @inline(__always)
    func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Reserves `n` bytes and lets `body` write up to `n` of them at the write position,
    /// which it receives with its offset from the buffer start (for alignment, spec §3.1);
    /// `body` returns how many it wrote.
    @inline(__always)
    func appendRaw(_ n: Int, _ body: (UnsafeMutableRawPointer, Int) throws -> Int) rethrows {
        reserve(n)
        count += try body(storage + count, count)
    }

    /// Zero padding up to a multiple of `alignment` from the buffer start (spec §3.2).
    /// Padding of up to 7 bytes with 8 bytes free is one 8-byte store of zeros (the bytes
    /// past the padding are free capacity, overwritten by the next append), not a `memset`
    /// call: a typed list's padding was ~16 instructions in `memset` alone (callgrind).
    @inlinable @inline(__always)
    func appendPadding(alignment: Int) {
        let padding = (alignment - (count & (alignment - 1))) & (alignment - 1)
        if padding == 0 { return }
        if padding < 8 && capacity &- count >= 8 {
            (storage + count).storeBytes(of: 0 as UInt64, as: UInt64.self)
        } else {
            reserve(padding)
            (storage + count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        }
        count += padding
    }

    /// A tag and a fixed-width number after it in little-endian order (an int32 or int64,
    /// spec §4.1–§4.2), behind one capacity check instead of one per part.
    @inlinable @inline(__always)
    func appendTagged<T: FixedWidthInteger>(_ tag: UInt8, _ value: T) {
        let size = MemoryLayout<T>.size
        reserve(1 &+ size)
        let p = storage + count
        p.storeBytes(of: tag, as: UInt8.self)
        (p + 1).storeBytes(of: value.littleEndian, as: T.self)
        count &+= 1 &+ size
    }

    /// A tag, zero padding to a multiple of 8 from the buffer start and a 64-bit pattern
    /// (a float64, spec §4.3), behind one capacity check: 16 bytes cover the longest form
    /// (1 + 7 + 8). Eight zero bytes go after the tag and the number over them, so the
    /// padding is zeroed without a variable-length fill; the bytes past the end are
    /// reserved capacity, overwritten by the next append.
    @inlinable @inline(__always)
    func appendTaggedAligned64(_ tag: UInt8, _ bits: UInt64) {
        reserve(16)
        let p = storage + count
        let padding = (8 &- ((count &+ 1) & 7)) & 7
        p.storeBytes(of: tag, as: UInt8.self)
        (p + 1).storeBytes(of: 0 as UInt64, as: UInt64.self)
        (p + 1 + padding).storeBytes(of: bits.littleEndian, as: UInt64.self)
        count &+= 9 &+ padding
    }

    /// A tag and a size field (a List or Map header, spec §7), one capacity check for the
    /// one-byte size form; longer forms take `appendSize`'s call.
    @inlinable @inline(__always)
    func appendTaggedSize(_ tag: UInt8, _ size: Int) throws {
        if size >= 0 && size < 254 {
            reserve(2)
            let p = storage + count
            p.storeBytes(of: tag, as: UInt8.self)
            (p + 1).storeBytes(of: UInt8(truncatingIfNeeded: size), as: UInt8.self)
            count &+= 2
        } else {
            append(tag)
            try appendLongSize(size)
        }
    }

    /// A tag, the size of `bytes` and the bytes (a string or Uint8List, spec §5–§6.1),
    /// one capacity check when the size takes one byte.
    @inlinable @inline(__always)
    func appendTaggedSized(_ tag: UInt8, _ bytes: UnsafeRawBufferPointer) throws {
        let n = bytes.count
        guard n < 254, let base = bytes.baseAddress else {
            try appendTaggedSize(tag, n)
            append(contentsOf: bytes)
            return
        }
        reserve(2 &+ n)
        let p = storage + count
        p.storeBytes(of: tag, as: UInt8.self)
        (p + 1).storeBytes(of: UInt8(truncatingIfNeeded: n), as: UInt8.self)
        (p + 2).copyMemory(from: base, byteCount: n)
        count &+= 2 &+ n
    }

    /// A size field in the shortest form (spec §2.2). The one-byte form, almost every size
    /// on real channels, is inlined at every call; the rest is a call.
    @inlinable @inline(__always)
    func appendSize(_ size: Int) throws {
        if size >= 0 && size < 254 {
            append(UInt8(truncatingIfNeeded: size))
        } else {
            try appendLongSize(size)
        }
    }

    @usableFromInline
    func appendLongSize(_ size: Int) throws {
        if size < 0 || UInt64(size) > UInt64(UInt32.max) {
            throw SMCEncodingError("size \(size) does not fit the 32-bit size field")
        }
        if size <= 0xFFFF {
            append(254)
            appendLittleEndian(UInt16(size))
        } else {
            append(255)
            appendLittleEndian(UInt32(size))
        }
    }

    /// Typed-list elements in little-endian order; on little-endian hosts one memcpy.
    @inlinable
    func appendElements<T: FixedWidthInteger>(_ elements: [T]) {
        appendElements(elements) { $0 }
    }

    /// Elements written as their `Bits` patterns (e.g. Double as UInt64) in little-endian
    /// order. `bits` must reinterpret the bit pattern unchanged, so on little-endian hosts
    /// the in-memory elements are the wire bytes and go out with one bulk copy; the
    /// per-element path is the portable fallback (big-endian hosts).
    @inlinable
    func appendElements<T, Bits: FixedWidthInteger>(_ elements: [T], bits: (T) -> Bits) {
        #if _endian(little)
            if MemoryLayout<T>.stride == MemoryLayout<Bits>.size {
                elements.withUnsafeBytes { append(contentsOf: $0) }
                return
            }
        #endif
        let width = MemoryLayout<Bits>.size
        reserve(elements.count &* width)
        for element in elements { appendLittleEndian(bits(element)) }
    }

    /// A copy of the bytes written, made with one bulk copy.
    var bytes: [UInt8] { [UInt8](UnsafeRawBufferPointer(start: storage, count: count)) }

    /// The bytes written as `Data`, made with one bulk copy.
    var data: Data { Data(bytes: storage, count: count) }

    /// The bytes written as `Data`; the buffer starts again empty. Up to `copiedTakeMax`
    /// bytes are copied into the `Data` and a buffer kept for the next message
    /// (`isKeptForReuse`) keeps its block: one malloc and a short copy, where a hand-over
    /// costs the shrinking `realloc` and the `Data`'s deallocator closure (callgrind,
    /// bench/README.md "ninth round"). Anything longer hands the block to the `Data`, shrunk
    /// to fit, without a copy; a kept-size buffer then takes a new block of the same
    /// capacity, so the next message of that size does not grow again from nothing.
    func takeData() -> Data {
        // The kept buffer's small message first: the common case costs one test.
        let copies = (count <= Self.copiedTakeMax && isKeptForReuse) || !ownsStorage || count == 0
        guard !copies, let block = realloc(storage, count) else {
            let copy = data
            count = 0
            return copy
        }
        let result = Data(bytesNoCopy: block, count: count, deallocator: .free)
        count = 0
        if isKeptForReuse {
            storage = Self.allocate(capacity)
        } else {
            // Empty with no block of its own (capacity 0, not owned, so never read, written
            // or freed): a large buffer is not kept, and a write after all allocates in `grow`.
            ownsStorage = false
            capacity = 0
        }
        return result
    }

    static let copiedTakeMax = 4 * 1024
}

// MARK: A buffer kept per thread

extension OutputBuffer {
    /// Runs `body` with this thread's kept buffer, empty (or a new one when the thread has
    /// none, or when a caller up the stack is using it), and keeps it for the next call
    /// unless it grew beyond `reusableKeepMax`. For small messages the buffer's object and
    /// its block are a third of an encode (three allocations per message instead of one,
    /// the result); Kotlin's codec keeps its buffer the same way. `body` must copy out
    /// what it needs: the buffer is reused once it returns.
    static func withReusable<Result>(_ body: (OutputBuffer) throws -> Result) rethrows
        -> Result
    {
        let buffer = takeReusable()
        defer { buffer.offerForReuse() }
        return try body(buffer)
    }

    /// This thread's kept buffer, empty, taken out of its slot (so a caller further down the
    /// stack gets a new one); a new buffer when the thread has none. Hand it back with
    /// `offerForReuse()` once done with it.
    static func takeReusable() -> OutputBuffer {
        let key = reusableKey
        guard let slot = pthread_getspecific(key) else { return OutputBuffer() }
        pthread_setspecific(key, nil)
        return Unmanaged<OutputBuffer>.fromOpaque(slot).takeRetainedValue()
    }

    /// Keeps this buffer, emptied, as the thread's buffer for the next message, unless it is
    /// not `isKeptForReuse` or the thread keeps one already. The caller must not use it again.
    func offerForReuse() {
        guard isKeptForReuse else { return }
        let key = Self.reusableKey
        guard pthread_getspecific(key) == nil else { return }
        count = 0
        pthread_setspecific(key, Unmanaged.passRetained(self).toOpaque())
    }

    /// Whether the buffer is worth keeping for the next message: it owns its block and the
    /// block is no larger than `reusableKeepMax`.
    var isKeptForReuse: Bool { ownsStorage && capacity <= Self.reusableKeepMax }

    static let reusableKeepMax = 64 * 1024

    /// The thread-specific slot; its destructor releases a thread's buffer when it exits.
    private static let reusableKey: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { slot in
            let pointer: UnsafeMutableRawPointer? = slot
            if let pointer = pointer { Unmanaged<OutputBuffer>.fromOpaque(pointer).release() }
        }
        precondition(status == 0, "OutputBuffer: pthread_key_create failed (\(status))")
        return key
    }()
}
