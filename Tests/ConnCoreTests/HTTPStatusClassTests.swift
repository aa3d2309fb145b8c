import ConnCore
import Foundation
import Testing

/// One reading of a status for every command: which class, and which error (code and exit status).
@Suite("HTTPStatusClass")
struct HTTPStatusClassTests {
    @Test("every status from 100 to 599 (and beyond) falls in exactly the class the table says")
    func classes() {
        for status in 0...700 {
            let expected: HTTPStatusClass
            switch status {
            case 200..<300: expected = .success
            case 304: expected = .notModified
            case 300..<400: expected = .redirect
            case 401, 403: expected = .authRefused
            case 408, 409, 425, 429, 500..<600: expected = .tryLater
            default: expected = .refused
            }
            #expect(HTTPStatusClass(status) == expected, "\(status)")
        }
    }

    @Test("the error for an unwanted status: 77 authRefused, 75 serverError, 69 httpStatus")
    func errors() throws {
        let url = try #require(URL(string: "http://127.0.0.1:8080/inbox"))
        for (status, code, exit) in [(401, ErrorCode.authRefused, ExitStatus.permission), (403, .authRefused, .permission),
                                     (429, .serverError, .temporaryFailure), (503, .serverError, .temporaryFailure),
                                     (404, .httpStatus, .unavailable), (204, .httpStatus, .unavailable), (302, .httpStatus, .unavailable)] {
            let error = ConnError.unexpectedStatus(status, from: url, expected: "the inbox")
            #expect(error.code == code && error.exitStatus == exit, "\(status): \(error)")
            #expect(error.message.contains(url.absoluteString) && error.message.contains(String(status)), "\(error.message)")
        }
    }
}
