import Foundation
import Testing
@testable import ConnCore

/// The output contract's rule for absent values: the key is there, with `null`.
@Suite("absent values as null")
struct NullKeepingEncoderTests {
    struct Inner: Encodable { var note: String?; var small: Int8?; var float: Float? }
    struct Payload: Encodable {
        var name: String?
        var at: Date?
        var url: URL?
        var inner: Inner?
        var items: [Inner]
        var map: [String: Inner?]
        var count: UInt16
    }

    @Test("nil properties are null at every depth: nested objects, arrays, dictionaries; dates and URLs keep their form")
    func nullsEverywhere() throws {
        let payload = Payload(name: nil, at: Date(timeIntervalSince1970: 1.5), url: URL(string: "http://x/a"),
                              inner: Inner(note: nil, small: 3, float: nil), items: [Inner(note: "n", small: nil, float: 1.5)],
                              map: ["k": Inner(note: nil, small: nil, float: nil)], count: 7)
        let text = try JSONOutput.encode(payload)
        #expect(text == #"{"at":"1970-01-01T00:00:01.500Z","count":7,"inner":{"float":null,"note":null,"small":3},"#
            + #""items":[{"float":1.5,"note":"n","small":null}],"map":{"k":{"float":null,"note":null,"small":null}},"#
            + #""name":null,"schemaVersion":1,"url":"http://x/a"}"#)
    }
}
