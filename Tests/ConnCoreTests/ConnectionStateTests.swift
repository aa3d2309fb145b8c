import ConnCore
import Foundation
import Testing

@Suite("ConnectionState (seed 002)")
struct ConnectionStateTests {
    static let states: [ConnectionState] = [
        .connected(backEndTimeOffsetMs: 1234),
        .connected(backEndTimeOffsetMs: -250),
        .disconnected(backEndTimeOffsetMs: nil, isInitializing: true),
        .disconnected(backEndTimeOffsetMs: nil, isInitializing: false),
        .disconnected(backEndTimeOffsetMs: 86_400_000, isInitializing: false),
    ]

    @Test("JSON round trip keeps every case equal", arguments: states)
    func roundTrip(_ state: ConnectionState) throws {
        let data = try JSONEncoder().encode(state)
        #expect(try JSONDecoder().decode(ConnectionState.self, from: data) == state)
    }

    @Test func jsonShapeIsFlatWithExplicitNull() throws {
        let json = try JSONOutput.encode(ConnectionState.disconnected(backEndTimeOffsetMs: nil, isInitializing: true))
        #expect(json == #"{"backEndTimeOffsetMs":null,"isInitializing":true,"schemaVersion":1,"status":"disconnected"}"#)
        let connected = try JSONOutput.encode(ConnectionState.connected(backEndTimeOffsetMs: 12))
        #expect(connected == #"{"backEndTimeOffsetMs":12,"isInitializing":false,"schemaVersion":1,"status":"connected"}"#)
    }

    @Test func unknownStatusIsRejected() {
        #expect(throws: DecodingError.self) {
            try JSONDecoder().decode(ConnectionState.self, from: Data(#"{"status":"maybe"}"#.utf8))
        }
    }

    @Test("the offset read from JSON as the wire writes it, in each state; a missing one is nil, not 0")
    func offsetFromJSON() throws {
        func decoded(_ json: String) throws -> ConnectionState { try JSONDecoder().decode(ConnectionState.self, from: Data(json.utf8)) }
        #expect(try decoded(#"{"status":"connected","backEndTimeOffsetMs":5}"#) == .connected(backEndTimeOffsetMs: 5))
        #expect(try decoded(#"{"status":"disconnected","backEndTimeOffsetMs":-7,"isInitializing":false}"#)
            == .disconnected(backEndTimeOffsetMs: -7, isInitializing: false))
        #expect(try decoded(#"{"status":"disconnected","backEndTimeOffsetMs":null,"isInitializing":true}"#).backEndTimeOffsetMs == nil)
    }

    @Test("deviceDate subtracts the offset: a back end 1.5 s ahead reports dates 1.5 s late")
    func deviceDateSubtractsOffset() throws {
        let backEndDate = Date(timeIntervalSince1970: 1_700_000_000)
        let state = ConnectionState.connected(backEndTimeOffsetMs: 1500)
        #expect(try #require(state.deviceDate(for: backEndDate)).timeIntervalSince1970 == 1_699_999_998.5)
        #expect(try #require(state.deviceDate(forBackEndMilliseconds: 1_700_000_000_000)).timeIntervalSince1970 == 1_699_999_998.5)
        let behind = ConnectionState.disconnected(backEndTimeOffsetMs: -250, isInitializing: false)
        #expect(try #require(behind.deviceDate(for: backEndDate)).timeIntervalSince1970 == 1_700_000_000.25)
    }

    @Test func deviceDateIsNilWithoutOffset() {
        let state = ConnectionState.disconnected(backEndTimeOffsetMs: nil, isInitializing: false)
        #expect(state.deviceDate(for: Date()) == nil)
        #expect(state.deviceDate(forBackEndMilliseconds: 0) == nil)
    }

    @Test func descriptionSaysWhichWayTheClockIs() {
        #expect(ConnectionState.connected(backEndTimeOffsetMs: 40).description == "connected (back-end clock 40 ms ahead)")
        #expect(ConnectionState.connected(backEndTimeOffsetMs: -40).description == "connected (back-end clock 40 ms behind)")
        #expect(ConnectionState.disconnected(backEndTimeOffsetMs: nil, isInitializing: true).description
            == "disconnected, connecting (back-end clock offset unknown)")
        #expect(ConnectionState.disconnected(backEndTimeOffsetMs: 0, isInitializing: false).description
            == "disconnected (last back-end clock in step with this device)")
    }
}

@Suite("Network status and connectivity models")
struct StatusModelTests {
    @Test("the banner says the network works only when something answered: a refusal, a wrong answer, a proxy's no — not a timeout, an unknown name, no route, or an internet check's silence")
    func bannerClaimsOnlyWhatWasSeen() {
        func banner(_ reason: StateReason?) -> String? { NetworkState(state: .serverUnreachable, reason: reason).banner }
        for answered in [StateReason.refused, .tlsError, .httpStatus, .unexpectedBody, .redirected, .proxyAuthRequired, .proxyRefused] {
            #expect(banner(answered)?.contains("Your network works") == true, "\(answered)")
        }
        for silent in [StateReason.timeout, .nxdomain, .noRoute, .unreachable, .limited, .dnsBroken, .proxyUnreachable, nil] {
            #expect(banner(silent) == "Can't reach the server; conn keeps trying.", "\(String(describing: silent))")
        }
        #expect(NetworkState(state: .online).banner == nil && NetworkState(state: .offline, reason: .noCarrier).banner == NetworkStatus.offline.banner)
    }

    @Test("each state but online has its own banner; each its own details; the raw values are the JSON words")
    func eachOfflineStateHasItsOwnBanner() {
        #expect(NetworkStatus.online.banner == nil)
        let banners = [NetworkStatus.offline, .serverUnreachable, .portal].compactMap(\.banner)
        #expect(Set(banners).count == 3)
        #expect(Set(NetworkStatus.allCases.map(\.details)).count == 4)
        #expect(NetworkStatus.allCases.map(\.rawValue) == ["online", "offline", "serverUnreachable", "portal"])
    }

    @Test(arguments: [
        DeviceConnectivity.online, .offline(.noRoute), .limited, .portal(url: "http://portal.example/login"), .dnsBroken,
    ])
    func connectivityRoundTrips(_ value: DeviceConnectivity) throws {
        let data = try JSONEncoder().encode(value)
        #expect(try JSONDecoder().decode(DeviceConnectivity.self, from: data) == value)
    }

    @Test func onlyCellularIsExpensive() {
        #expect(InterfaceKind.allCases.filter(\.isExpensive) == [.wwan])
    }
}
