/// A growable byte buffer for one encode call.
///
/// It grows geometrically and writes through a raw pointer, so single bytes and bulk
/// payloads cost no per-byte collection overhead. Alignment is computed from `count`,
/// i.e. from the start of the buffer (spec §3.1), never from the memory address.
final class OutputBuffer {
    private var storage: UnsafeMutableRawPointer
    private var capacity: Int
    private(set) var count: Int = 0

    init(initialCapacity: Int = 256) {
        capacity = max(initialCapacity, 16)
        storage = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: 16)
    }

    deinit { storage.deallocate() }

    @inline(__always)
    private func reserve(_ extra: Int) {
        if capacity - count < extra { grow(extra) }
    }

    private func grow(_ extra: Int) {
        var newCapacity = capacity &* 2
        while newCapacity - count < extra { newCapacity = newCapacity &* 2 }
        let bigger = UnsafeMutableRawPointer.allocate(byteCount: newCapacity, alignment: 16)
        bigger.copyMemory(from: storage, byteCount: count)
        storage.deallocate()
        storage = bigger
        capacity = newCapacity
    }

    @inline(__always)
    func append(_ byte: UInt8) {
        reserve(1)
        storage.storeBytes(of: byte, toByteOffset: count, as: UInt8.self)
        count += 1
    }

    /// Appends a fixed-width integer in little-endian order (spec §2.1).
    @inline(__always)
    func appendLittleEndian<T: FixedWidthInteger>(_ value: T) {
        let size = MemoryLayout<T>.size
        reserve(size)
        (storage + count).storeBytes(of: value.littleEndian, as: T.self)
        count += size
    }

    func append(contentsOf bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        reserve(bytes.count)
        (storage + count).copyMemory(from: base, byteCount: bytes.count)
        count += bytes.count
    }

    /// Zero padding up to a multiple of `alignment` from the buffer start (spec §3.2).
    @inline(__always)
    func appendPadding(alignment: Int) {
        let padding = (alignment - (count & (alignment - 1))) & (alignment - 1)
        if padding == 0 { return }
        reserve(padding)
        (storage + count).initializeMemory(as: UInt8.self, repeating: 0, count: padding)
        count += padding
    }

    /// A size field in the shortest form (spec §2.2).
    func appendSize(_ size: Int) throws {
        if size < 0 || UInt64(size) > UInt64(UInt32.max) {
            throw SMCEncodingError("size \(size) does not fit the 32-bit size field")
        }
        if size < 254 {
            append(UInt8(size))
        } else if size <= 0xFFFF {
            append(254)
            appendLittleEndian(UInt16(size))
        } else {
            append(255)
            appendLittleEndian(UInt32(size))
        }
    }

    /// Typed-list elements in little-endian order; on little-endian hosts one memcpy.
    func appendElements<T: FixedWidthInteger>(_ elements: [T]) {
        #if _endian(little)
        elements.withUnsafeBytes { append(contentsOf: $0) }
        #else
        for element in elements { appendLittleEndian(element) }
        #endif
    }

    var bytes: [UInt8] {
        [UInt8](UnsafeRawBufferPointer(start: storage, count: count))
    }
}
