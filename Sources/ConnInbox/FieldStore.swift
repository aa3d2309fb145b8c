import GRDB

/// The text fields of many messages in a few large buffers: a thread of 100,000 messages keeps
/// its from, to, subject, text and dateTime here instead of in 100,000 strings (an allocation
/// and a header each: 11 MB where the bytes are 7). Buffers are 1 MiB (or one record's size),
/// filled one after another, so growing never copies what is stored.
struct FieldStore {
    /// Where a record's fields are: its buffer, where they start, and each one's length.
    struct Location {
        var buffer: Int32
        var start: Int32
        var lengths: (UInt32, UInt32, UInt32, UInt32, UInt32)
    }

    private var buffers: [[UInt8]] = []
    private static let bufferSize = 1 << 20

    /// Stores five text columns of `row`, from `first` on (NULL as empty).
    mutating func append(_ row: Row, from first: Int) -> Location {
        let parts: [String] = (first..<(first + 5)).map { row[$0] as String? ?? "" }
        let size = parts.reduce(0) { $0 + $1.utf8.count }
        if buffers.isEmpty || buffers[buffers.count - 1].count + size > buffers[buffers.count - 1].capacity {
            var buffer: [UInt8] = []
            buffer.reserveCapacity(max(Self.bufferSize, size))
            buffers.append(buffer)
        }
        let index = buffers.count - 1
        let start = buffers[index].count
        for part in parts { buffers[index].append(contentsOf: part.utf8) }
        let length = { (part: Int) in UInt32(parts[part].utf8.count) }
        return Location(buffer: Int32(index), start: Int32(start), lengths: (length(0), length(1), length(2), length(3), length(4)))
    }

    /// The five fields stored at `location`.
    func fields(at location: Location) -> [String] {
        let buffer = buffers[Int(location.buffer)]
        var start = Int(location.start)
        let lengths = location.lengths
        return [lengths.0, lengths.1, lengths.2, lengths.3, lengths.4].map { length in
            defer { start += Int(length) }
            return String(decoding: buffer[start..<(start + Int(length))], as: UTF8.self)
        }
    }
}
