/// A strict, single-pass JSON reader (RFC 8259) specialised to the inbox document: it hands
/// back each record's fields and the record's own bytes, and skips (while still validating)
/// anything else.
///
/// Why not JSONDecoder or JSONSerialization: on 100,000 e-mails (43 MB) JSONDecoder alone
/// took 0.55 s and JSONSerialization 0.85–1.3 s — most of the whole fetch's 1.5 s budget — and
/// neither says where a record's bytes are, which the cache keeps. This reader does both in one
/// pass; Tests/ConnInboxTests check it against JSONSerialization on random and broken documents.
struct InboxJSONScanner {
    /// Where reading stopped, and why: the document is not JSON.
    struct SyntaxError: Error, Equatable {
        var offset: Int
        var reason: String
    }

    /// Where a string value's contents lie in the document, and whether they hold escapes: read
    /// into a String only when needed (`text(of:in:)`). Offsets are 32-bit: a document is at
    /// most `maximumDocumentBytes`.
    struct TextSpan: Sendable, Equatable {
        private var start: UInt32
        /// The length; the top bit says the contents hold escapes.
        private var packed: UInt32

        static let absent = TextSpan(start: 0, packed: .max)
        var isAbsent: Bool { packed == .max }

        init(_ range: Range<Int>, escaped: Bool) {
            start = UInt32(range.lowerBound)
            packed = UInt32(range.count) | (escaped ? 1 << 31 : 0)
        }

        private init(start: UInt32, packed: UInt32) {
            self.start = start
            self.packed = packed
        }

        var range: Range<Int> { Int(start)..<Int(start) + Int(packed & ~(1 << 31)) }
        var escaped: Bool { packed & (1 << 31) != 0 }
    }

    /// The largest document whose offsets a TextSpan holds.
    static let maximumDocumentBytes = Int(Int32.max)

    /// A record's values: one slot per field of `fieldNames`, `.absent` when absent or null.
    struct RawRecord {
        var values: [TextSpan]
        /// The record's bytes as received, from `{` to `}`.
        var bytes: Range<Int>
        /// A field's key was written with escapes (`"su\u0062ject"`): valid JSON, but SQLite's
        /// json_extract does not match it, so these bytes cannot be kept as they are.
        var escapedFieldKey = false
        /// The first field whose value is not a string or null, and what it is instead.
        var wrongType: (field: String, found: String)?
    }

    enum Shape: Equatable {
        /// The document is an object and has an "inbox" array.
        case inbox
        /// The document has more than one "inbox" field: which one is meant is anyone's guess.
        case inboxRepeated
        case notAnObject
        case noInboxField
        /// "inbox" is there but is not an array: what it is.
        case inboxNotAnArray(String)
    }

    private let bytes: UnsafeRawBufferPointer
    /// The record fields to read, then "inbox".
    private let knownKeys: [[UInt8]]
    private var inboxKey: Int { knownKeys.count - 1 }
    private var position = 0
    /// Whether the key `readKey` read last held escapes.
    private var lastKeyEscaped = false
    /// Deep enough for any inbox; shallow enough for the recursion to fit a thread's stack.
    private let maximumDepth = 100

    /// - Parameters:
    ///   - bytes: the whole document.
    ///   - fieldNames: the record fields to read; others are skipped.
    ///   - checked: the document was read whole before (`record(at:)` after `read`).
    /// Re-reading a document `read` has checked: its strings' UTF-8 is not checked again.
    private let checked: Bool

    init(_ bytes: UnsafeRawBufferPointer, fieldNames: [String], checked: Bool = false) {
        self.bytes = bytes
        self.checked = checked
        knownKeys = (fieldNames + ["inbox"]).map { Array($0.utf8) }
    }

    /// Reads the whole document, calling `record` with each element of the inbox array: its
    /// index, and the record, or for an element that is not an object what it is instead.
    mutating func read(record: (Int, Result<RawRecord, KindError>) -> Void) throws(SyntaxError) -> Shape {
        skipWhitespace()
        guard position < bytes.count else { throw SyntaxError(offset: position, reason: "the document is empty") }
        guard bytes[position] == UInt8(ascii: "{") else {
            try skipValue(depth: 0)
            try expectEnd()
            return .notAnObject
        }
        position += 1
        var shape = Shape.noInboxField
        try readMembers(depth: 1) { scanner, key throws(SyntaxError) in
            guard key == scanner.inboxKey else { return try scanner.skipValue(depth: 1) }
            guard shape == .noInboxField else {
                try scanner.skipValue(depth: 1)
                shape = .inboxRepeated
                return
            }
            guard scanner.bytes[scanner.position] == UInt8(ascii: "[") else {
                let kind = scanner.kindOfNextValue()
                try scanner.skipValue(depth: 1)
                shape = .inboxNotAnArray(kind)
                return
            }
            scanner.position += 1
            var index = 0
            try scanner.readElements(depth: 2) { scanner throws(SyntaxError) in
                if scanner.bytes[scanner.position] == UInt8(ascii: "{") {
                    record(index, .success(try scanner.readRecord()))
                } else {
                    let kind = scanner.kindOfNextValue()
                    try scanner.skipValue(depth: 2)
                    record(index, .failure(KindError(kind: kind)))
                }
                index += 1
            }
            shape = .inbox
        }
        try expectEnd()
        return shape
    }

    /// The record (an object) that starts at `start` of a document `read` has already checked:
    /// a pass over the records reads each one again from where it lies instead of keeping every
    /// record's fields from the first reading.
    mutating func record(at start: Int) throws(SyntaxError) -> RawRecord {
        position = start
        guard position < bytes.count, bytes[position] == UInt8(ascii: "{") else { throw unexpected("a record") }
        return try readRecord()
    }

    /// An element of the inbox array that is not an object: what it is.
    struct KindError: Error { var kind: String }

    // MARK: - Records

    private mutating func readRecord() throws(SyntaxError) -> RawRecord {
        let start = position
        position += 1
        var values = [TextSpan](repeating: .absent, count: knownKeys.count - 1)
        var wrongType: (field: String, found: String)?
        // A key given twice: the first one counts, as it does for SQLite's json_extract, which
        // reads the cached record's fields.
        var seen: UInt64 = 0
        var escapedFieldKey = false
        try readMembers(depth: 3) { scanner, key throws(SyntaxError) in
            guard let slot = key, slot != scanner.inboxKey else { return try scanner.skipValue(depth: 3) }
            if scanner.lastKeyEscaped { escapedFieldKey = true }
            let first = seen & (1 << slot) == 0
            seen |= 1 << slot
            switch scanner.bytes[scanner.position] {
            case UInt8(ascii: "\""):
                let (range, escaped) = try scanner.readStringRange()
                if first { values[slot] = TextSpan(range, escaped: escaped) }
            case UInt8(ascii: "n"):
                try scanner.skipValue(depth: 3)
            default:
                let kind = scanner.kindOfNextValue()
                try scanner.skipValue(depth: 3)
                if wrongType == nil { wrongType = (String(decoding: scanner.knownKeys[slot], as: UTF8.self), kind) }
            }
        }
        return RawRecord(values: values, bytes: start..<position, escapedFieldKey: escapedFieldKey, wrongType: wrongType)
    }

    // MARK: - Structure

    /// Reads `"key": value` pairs up to the closing brace (the opening one already read).
    /// `member` gets the key as an index into `knownKeys`, or nil, and must consume the value,
    /// which starts at `position`.
    private mutating func readMembers(depth: Int, _ member: (inout InboxJSONScanner, Int?) throws(SyntaxError) -> Void) throws(SyntaxError) {
        guard depth <= maximumDepth else { throw SyntaxError(offset: position, reason: "values are nested more than \(maximumDepth) deep") }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "}") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            guard bytes[position] == UInt8(ascii: "\"") else { throw unexpected("a quoted key") }
            let key = try readKey()
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            guard bytes[position] == UInt8(ascii: ":") else { throw unexpected("':' after a key") }
            position += 1
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            try member(&self, key)
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "}"):
                position += 1
                return
            default: throw unexpected("',' or '}'")
            }
        }
    }

    /// Reads array elements up to the closing bracket (the opening one already read); `element`
    /// must consume the value, which starts at `position`.
    private mutating func readElements(depth: Int, _ element: (inout InboxJSONScanner) throws(SyntaxError) -> Void) throws(SyntaxError) {
        guard depth <= maximumDepth else { throw SyntaxError(offset: position, reason: "values are nested more than \(maximumDepth) deep") }
        skipWhitespace()
        if position < bytes.count, bytes[position] == UInt8(ascii: "]") {
            position += 1
            return
        }
        while true {
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            try element(&self)
            skipWhitespace()
            guard position < bytes.count else { throw endOfInput() }
            switch bytes[position] {
            case UInt8(ascii: ","): position += 1
            case UInt8(ascii: "]"):
                position += 1
                return
            default: throw unexpected("',' or ']'")
            }
        }
    }

    /// Validates and passes over one value of any kind.
    private mutating func skipValue(depth: Int) throws(SyntaxError) {
        skipWhitespace()
        guard position < bytes.count else { throw endOfInput() }
        switch bytes[position] {
        case UInt8(ascii: "{"):
            position += 1
            try readMembers(depth: depth + 1) { scanner, _ throws(SyntaxError) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "["):
            position += 1
            try readElements(depth: depth + 1) { scanner throws(SyntaxError) in try scanner.skipValue(depth: depth + 1) }
        case UInt8(ascii: "\""): _ = try readStringRange()
        case UInt8(ascii: "t"): try expectLiteral("true")
        case UInt8(ascii: "f"): try expectLiteral("false")
        case UInt8(ascii: "n"): try expectLiteral("null")
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try skipNumber()
        default: throw unexpected("a value")
        }
    }

    /// What the next value is, for messages ("a number", "an array"…).
    private func kindOfNextValue() -> String {
        guard position < bytes.count else { return "missing" }
        switch bytes[position] {
        case UInt8(ascii: "{"): return "an object"
        case UInt8(ascii: "["): return "an array"
        case UInt8(ascii: "\""): return "a string"
        case UInt8(ascii: "t"), UInt8(ascii: "f"): return "a boolean"
        case UInt8(ascii: "n"): return "null"
        default: return "a number"
        }
    }

    private mutating func expectEnd() throws(SyntaxError) {
        skipWhitespace()
        guard position == bytes.count else { throw unexpected("the end of the document") }
    }

    // MARK: - Scalars

    private mutating func skipWhitespace() {
        while position < bytes.count {
            switch bytes[position] {
            case 0x20, 0x0A, 0x0D, 0x09: position += 1
            default: return
            }
        }
    }

    private mutating func expectLiteral(_ literal: StaticString) throws(SyntaxError) {
        let count = literal.utf8CodeUnitCount
        guard position + count <= bytes.count else { throw endOfInput() }
        let expected = UnsafeRawBufferPointer(start: literal.utf8Start, count: count)
        guard bytes[position..<position + count].elementsEqual(expected) else { throw unexpected("\(literal)") }
        position += count
    }

    private mutating func skipNumber() throws(SyntaxError) {
        func digits() -> Int {
            let start = position
            while position < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[position]) { position += 1 }
            return position - start
        }
        if bytes[position] == UInt8(ascii: "-") { position += 1 }
        guard position < bytes.count else { throw endOfInput() }
        if bytes[position] == UInt8(ascii: "0") {
            position += 1
        } else if digits() == 0 {
            throw unexpected("a digit")
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: ".") {
            position += 1
            guard digits() > 0 else { throw position < bytes.count ? unexpected("a digit after '.'") : endOfInput() }
        }
        if position < bytes.count, bytes[position] == UInt8(ascii: "e") || bytes[position] == UInt8(ascii: "E") {
            position += 1
            if position < bytes.count, bytes[position] == UInt8(ascii: "+") || bytes[position] == UInt8(ascii: "-") { position += 1 }
            guard digits() > 0 else { throw position < bytes.count ? unexpected("a digit in the exponent") : endOfInput() }
        }
    }

    /// Which of `knownKeys` a key is (decoding it first if it holds escapes), or nil.
    private mutating func readKey() throws(SyntaxError) -> Int? {
        let (range, escaped) = try readStringRange()
        lastKeyEscaped = escaped
        if escaped {
            let decoded = Array(Self.unescape(range, in: bytes).utf8)
            return knownKeys.firstIndex(of: decoded)
        }
        let key = bytes[range]
        return knownKeys.firstIndex { $0.count == key.count && $0.elementsEqual(key) }
    }

    /// A string value's contents, unescaped (the document already validated by `read`).
    static func text(of span: TextSpan, in bytes: UnsafeRawBufferPointer) -> String {
        span.escaped ? unescape(span.range, in: bytes) : String(decoding: UnsafeRawBufferPointer(rebasing: bytes[span.range]), as: UTF8.self)
    }

    /// Validates a string (UTF-8, escapes, no control characters) and returns its contents'
    /// range, and whether it holds escapes.
    private mutating func readStringRange() throws(SyntaxError) -> (Range<Int>, escaped: Bool) {
        position += 1  // the opening quote
        let start = position
        var escaped = false
        var ascii = true
        while true {
            skipPlainStringBytes(ascii: &ascii)
            guard position < bytes.count else { throw endOfInput() }
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: "\""):
                let range = start..<position
                position += 1
                if !ascii, !checked, String(validating: UnsafeRawBufferPointer(rebasing: bytes[range]), as: UTF8.self) == nil {
                    throw SyntaxError(offset: start, reason: "a string is not valid UTF-8")
                }
                return (range, escaped)
            case UInt8(ascii: "\\"):
                escaped = true
                position += 1
                guard position < bytes.count else { throw endOfInput() }
                switch bytes[position] {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"), UInt8(ascii: "n"),
                     UInt8(ascii: "r"), UInt8(ascii: "t"):
                    position += 1
                case UInt8(ascii: "u"):
                    try checkUnicodeEscape()
                default: throw unexpected("an escape (\\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u)")
                }
            case 0..<0x20: throw SyntaxError(offset: position, reason: "a control character (0x\(String(byte, radix: 16))) inside a string")
            default:
                if byte >= 0x80 { ascii = false }
                position += 1
            }
        }
    }

    /// Moves past the bytes of a string that need no look of their own — all but `"`, `\` and
    /// control characters — eight at a time, and stops on the first byte that does; `ascii`
    /// turns false when a word holds a byte over 0x7F (perhaps one after the string's end: that
    /// costs a needless UTF-8 check, never a wrong answer). Text is most of an inbox's bytes, and
    /// a byte at a time through readStringRange's switch was the reader's largest cost.
    private mutating func skipPlainStringBytes(ascii: inout Bool) {
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highBits: UInt64 = 0x8080_8080_8080_8080
        while position + 8 <= bytes.count {
            let word = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: position, as: UInt64.self))
            if word & highBits != 0 { ascii = false }
            let quotes = word ^ (ones &* UInt64(UInt8(ascii: "\"")))
            let backslashes = word ^ (ones &* UInt64(UInt8(ascii: "\\")))
            // A byte's high bit ends up set where the byte is `"` or `\` (a zero in `quotes` or
            // `backslashes`) or below 0x20. A borrow can also mark bytes after a true match,
            // never before one: the lowest mark is the first byte to look at.
            let marks = ((quotes &- ones) & ~quotes | (backslashes &- ones) & ~backslashes | (word &- ones &* 0x20) & ~word) & highBits
            if marks != 0 {
                position += marks.trailingZeroBitCount / 8
                return
            }
            position += 8
        }
    }

    /// `\uXXXX`, with a surrogate pair where one is needed (position on the `u`).
    private mutating func checkUnicodeEscape() throws(SyntaxError) {
        let unit = try readHex4()
        if (0xD800..<0xDC00).contains(unit) {
            guard position + 1 < bytes.count, bytes[position] == UInt8(ascii: "\\"), bytes[position + 1] == UInt8(ascii: "u") else {
                throw SyntaxError(offset: position, reason: "a \\u escape is half a surrogate pair")
            }
            position += 1
            guard (0xDC00..<0xE000).contains(try readHex4()) else { throw SyntaxError(offset: position, reason: "a \\u escape is half a surrogate pair") }
        } else if (0xDC00..<0xE000).contains(unit) {
            throw SyntaxError(offset: position, reason: "a \\u escape is half a surrogate pair")
        }
    }

    /// The four hex digits after a `u` (position on the `u`).
    private mutating func readHex4() throws(SyntaxError) -> UInt32 {
        position += 1
        guard position + 4 <= bytes.count else { throw endOfInput() }
        var value: UInt32 = 0
        for _ in 0..<4 {
            let byte = bytes[position]
            let digit: UInt8
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = byte - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = byte - UInt8(ascii: "a") + 10
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = byte - UInt8(ascii: "A") + 10
            default: throw unexpected("a hex digit in a \\u escape")
            }
            value = value << 4 | UInt32(digit)
            position += 1
        }
        return value
    }

    /// Decodes a string already validated by `readStringRange`.
    private static func unescape(_ range: Range<Int>, in bytes: UnsafeRawBufferPointer) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(range.count)
        var index = range.lowerBound
        func hex4(at start: Int) -> UInt32 {
            bytes[start..<start + 4].reduce(0) { value, byte in
                let digit: UInt8 = byte <= UInt8(ascii: "9") ? byte - UInt8(ascii: "0") : (byte | 0x20) - UInt8(ascii: "a") + 10
                return value << 4 | UInt32(digit)
            }
        }
        while index < range.upperBound {
            let byte = bytes[index]
            guard byte == UInt8(ascii: "\\") else {
                output.append(byte)
                index += 1
                continue
            }
            let code = bytes[index + 1]
            index += 2
            switch code {
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(at: index)
                index += 4
                if (0xD800..<0xDC00).contains(scalar) {
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (hex4(at: index + 2) - 0xDC00)
                    index += 6
                }
                UTF8.encode(Unicode.Scalar(scalar) ?? "\u{FFFD}") { output.append($0) }
            default: output.append(code)  // \" \\ \/
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    // MARK: - Errors

    private func endOfInput() -> SyntaxError {
        SyntaxError(offset: bytes.count, reason: "the document ends in the middle of a value")
    }

    private func unexpected(_ expected: String) -> SyntaxError {
        guard position < bytes.count else { return endOfInput() }
        let byte = bytes[position]
        let found = (0x21..<0x7F).contains(byte) ? "'\(Character(Unicode.Scalar(byte)))'" : "byte 0x\(String(byte, radix: 16))"
        return SyntaxError(offset: position, reason: "expected \(expected), found \(found)")
    }
}
