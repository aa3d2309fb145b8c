import Foundation

/// The state of the live link to the back end (seed 002).
///
/// The offset is back-end time minus device time, in milliseconds: positive when the back end's
/// clock is ahead of the device's.
public enum ConnectionState: Sendable, Equatable, Codable, CustomStringConvertible {
    /// The link is up; the offset is known.
    case connected(backEndTimeOffsetMs: Int)
    /// The link is down. The offset is the last known one (nil if the link was never up);
    /// `isInitializing` is true while a connection attempt runs after the link was enabled.
    case disconnected(backEndTimeOffsetMs: Int?, isInitializing: Bool)

    /// The offset in milliseconds of the back end relative to the device, if known.
    public var backEndTimeOffsetMs: Int? {
        switch self {
        case .connected(let offset): offset
        case .disconnected(let offset, _): offset
        }
    }

    public var isConnected: Bool {
        if case .connected = self { return true }
        return false
    }

    public var isInitializing: Bool {
        if case .disconnected(_, let initializing) = self { return initializing }
        return false
    }

    /// Whether this state is worth reporting after `previous`: the first one, or a change of
    /// case or of isInitializing — not a new offset from the next ping.
    public func isNews(after previous: ConnectionState?) -> Bool {
        guard let previous else { return true }
        return previous.isConnected != isConnected || previous.isInitializing != isInitializing
    }

    /// Converts a back-end date to a device date by subtracting the offset; nil when no offset
    /// is known.
    public func deviceDate(for backEndDate: Date) -> Date? {
        guard let offset = backEndTimeOffsetMs else { return nil }
        return backEndDate.addingTimeInterval(-Double(offset) / 1000)
    }

    /// Converts a back-end timestamp (milliseconds since the Unix epoch) to a device date.
    public func deviceDate(forBackEndMilliseconds milliseconds: Int64) -> Date? {
        deviceDate(for: Date(timeIntervalSince1970: Double(milliseconds) / 1000))
    }

    public var description: String { described(clock: backEndTimeOffsetMs.map(Self.describe(offset:))) }

    /// The state in words, `clock` saying the back end's clock ("3 ms ahead"; nil: not known).
    public func described(clock: String?) -> String {
        switch self {
        case .connected:
            "connected (back-end clock \(clock ?? "offset unknown"))"
        case .disconnected(_, let initializing):
            (initializing ? "disconnected, connecting" : "disconnected")
                + (clock.map { " (last back-end clock \($0))" } ?? " (back-end clock offset unknown)")
        }
    }

    private static func describe(offset: Int) -> String {
        if offset == 0 { return "in step with this device" }
        return offset > 0 ? "\(offset) ms ahead" : "\(-offset) ms behind"
    }

    // A flat JSON form that scripts can read with one lookup:
    // {"status":"connected","backEndTimeOffsetMs":12,"isInitializing":false}
    // {"status":"disconnected","backEndTimeOffsetMs":null,"isInitializing":true}
    private enum CodingKeys: String, CodingKey {
        case status, backEndTimeOffsetMs, isInitializing
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let status = try container.decode(String.self, forKey: .status)
        switch status {
        case "connected":
            self = .connected(backEndTimeOffsetMs: try container.decode(Int.self, forKey: .backEndTimeOffsetMs))
        case "disconnected":
            self = .disconnected(
                backEndTimeOffsetMs: try container.decodeIfPresent(Int.self, forKey: .backEndTimeOffsetMs),
                isInitializing: try container.decode(Bool.self, forKey: .isInitializing))
        default:
            throw DecodingError.dataCorruptedError(
                forKey: .status, in: container,
                debugDescription: "expected \"connected\" or \"disconnected\", found \"\(status)\"")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .connected(let offset):
            try container.encode("connected", forKey: .status)
            try container.encode(offset, forKey: .backEndTimeOffsetMs)
            try container.encode(false, forKey: .isInitializing)  // every key in both cases
        case .disconnected(let offset, let initializing):
            try container.encode("disconnected", forKey: .status)
            try container.encode(offset, forKey: .backEndTimeOffsetMs)  // explicit null when unknown
            try container.encode(initializing, forKey: .isInitializing)
        }
    }
}
