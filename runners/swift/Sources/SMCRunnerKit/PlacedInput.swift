import Foundation

/// Where the codec's input lies (runners/PROTOCOL.md P.2), and the ownership check.
///
/// Without `shift` the block is exactly the input. With `shift` K the input starts K bytes
/// into a 16-aligned block (so K bytes past an 8-aligned address) and `guardBytes` zero
/// bytes follow it: a decoder that counts padding from the address, or reads past the end
/// of its input, decodes another value instead of failing.
public final class PlacedInput {
    public static let guardBytes = 64

    /// Every byte handed to the codec, guard bytes included.
    private let block: UnsafeMutableRawBufferPointer
    private let shift: Int
    /// The input, for codecs that read raw memory.
    public let bytes: UnsafeRawBufferPointer

    init(_ input: [UInt8], shift: Int) {
        let count = shift == 0 ? input.count : shift + input.count + Self.guardBytes
        block = .allocate(byteCount: max(count, 1), alignment: 16)
        block.initializeMemory(as: UInt8.self, repeating: 0)
        self.shift = shift
        let window = UnsafeMutableRawBufferPointer(rebasing: block[shift..<shift + input.count])
        input.withUnsafeBytes { window.copyMemory(from: $0) }
        bytes = UnsafeRawBufferPointer(window)
    }

    deinit { block.deallocate() }

    /// The input as a `Data` slice of the same memory: with `shift` K its indices start at
    /// K (a codec that indexes it from 0 reads the wrong bytes) and the guard bytes follow.
    public var data: Data {
        guard let base = block.baseAddress else { return Data() }
        let whole = Data(bytesNoCopy: base, count: block.count, deallocator: .none)
        return whole[shift..<shift + bytes.count]
    }

    /// P.2 ownership: complements every byte, so values that are views into the input
    /// (instead of copies) show other contents when they are converted afterwards.
    func overwrite() {
        for i in 0..<block.count { block[i] ^= 0xff }
    }
}
