import Foundation

/// conn's policy for absent values: a key of the output contract is always there, `null` when
/// its value is absent. Swift's synthesized `Encodable` leaves nil properties out
/// (`encodeIfPresent`); this encoder wraps the real one and writes them as `null` instead, at
/// every depth, so no payload needs a hand-written `encode(to:)` for it.
struct NullKeepingEncoder: Encoder {
    let base: any Encoder

    var codingPath: [any CodingKey] { base.codingPath }
    var userInfo: [CodingUserInfoKey: Any] { base.userInfo }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        KeyedEncodingContainer(NullKeepingKeyedContainer(base: base.container(keyedBy: type)))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        NullKeepingUnkeyedContainer(base: base.unkeyedContainer())
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        NullKeepingSingleValueContainer(base: base.singleValueContainer())
    }

    /// The value to hand to the real encoder: wrapped, so its own properties are encoded by this
    /// policy too — except the types the real encoder writes by its own strategies (dates as
    /// timestamps, URLs as strings), which must reach it as themselves.
    static func wrap<Value: Encodable>(_ value: Value) -> any Encodable {
        switch value {
        case is Date, is URL, is Data, is Decimal, is String, is Bool, is Double, is Float,
             is Int, is Int8, is Int16, is Int32, is Int64, is UInt, is UInt8, is UInt16, is UInt32, is UInt64:
            // Also every primitive: their generic `encode` here would wrap them again, forever.
            value
        default: Wrapped(value: value)
        }
    }

    struct Wrapped<Value: Encodable>: Encodable {
        let value: Value
        func encode(to encoder: any Encoder) throws { try value.encode(to: NullKeepingEncoder(base: encoder)) }
    }
}

private struct NullKeepingKeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    var base: KeyedEncodingContainer<Key>
    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil(forKey key: Key) throws { try base.encodeNil(forKey: key) }
    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        try base.encode(NullKeepingEncoder.wrap(value), forKey: key)
    }

    // Absent values: null, not left out.
    private mutating func present<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { try base.encodeNil(forKey: key) }
    }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try present(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try present(value, key) }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeepingKeyedContainer<NestedKey>(base: base.nestedContainer(keyedBy: keyType, forKey: key)))
    }
    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NullKeepingUnkeyedContainer(base: base.nestedUnkeyedContainer(forKey: key))
    }
    mutating func superEncoder() -> any Encoder { NullKeepingEncoder(base: base.superEncoder()) }
    mutating func superEncoder(forKey key: Key) -> any Encoder { NullKeepingEncoder(base: base.superEncoder(forKey: key)) }
}

private struct NullKeepingUnkeyedContainer: UnkeyedEncodingContainer {
    var base: any UnkeyedEncodingContainer
    var codingPath: [any CodingKey] { base.codingPath }
    var count: Int { base.count }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode<T: Encodable>(_ value: T) throws { try base.encode(NullKeepingEncoder.wrap(value)) }
    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        KeyedEncodingContainer(NullKeepingKeyedContainer<NestedKey>(base: base.nestedContainer(keyedBy: keyType)))
    }
    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        NullKeepingUnkeyedContainer(base: base.nestedUnkeyedContainer())
    }
    mutating func superEncoder() -> any Encoder { NullKeepingEncoder(base: base.superEncoder()) }
}

private struct NullKeepingSingleValueContainer: SingleValueEncodingContainer {
    var base: any SingleValueEncodingContainer
    var codingPath: [any CodingKey] { base.codingPath }

    mutating func encodeNil() throws { try base.encodeNil() }
    mutating func encode<T: Encodable>(_ value: T) throws { try base.encode(NullKeepingEncoder.wrap(value)) }
}
