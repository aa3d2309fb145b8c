import ConnCore
import ConnProtocol
import Foundation

/// What an answer to a request from the outbox (`conn request`) proves, and the part of it kept.
///
/// Delivery is a final answer from the request's own origin (redirects are never followed) whose
/// status is one `--expect` lists, or any 2xx without it — and not a captive portal's page (an
/// HTML 2xx to a request that did not ask for HTML). 408, 425, 429 and 5xx ask to try later
/// (with Retry-After); 401 and 403 pause the queue as for messages when the profile's token was
/// sent, else fail the request (its own credentials were refused); any other answer fails it,
/// kept with the answer for `outbox resend` or `delete`: 409 too, which for most APIs is a
/// conflict that no retry resolves.
enum RequestOutcome {
    static func classify(_ response: HTTPExchangeResponse, request: StoredRequest, profileTokenSent: Bool, now: Date) -> (DeliveryOutcome, KeptAnswer?) {
        let status = response.status
        let answer = KeptAnswer(response)
        // Only the failures say it: a delivered request's body is not read twice.
        var said: String { summary(of: response) }
        let proves = request.expect.map { $0.contains(status) } ?? (200...299).contains(status)
        if proves {
            if (200...299).contains(status), isPortalPage(response, request: request) {
                return (.retry(code: "portal", message: "the server answered \(status) with an HTML page the request did not ask for (a captive portal?)",
                               status: status, retryAfter: nil), nil)
            }
            let replayed = response.header(ConnProtocol.replayedHeader)?.lowercased() == "true"
            return (.sent(uid: "", dateTime: "", replayed: replayed, status: status), answer)
        }
        switch status {
        case 300...399:
            let location = response.header("Location") ?? ""
            let target = URL(string: location, relativeTo: URL(string: request.url)).flatMap { Origin($0.absoluteURL) }
            let requestOrigin = URL(string: request.url).flatMap(Origin.init)
            // Leaving the origin is a portal's or a proxy's way; within it, the API's own answer.
            if target == nil || target != requestOrigin {
                return (.retry(code: "redirected", message: "the server answered \(status), a redirect to \(location.prefix(200)), not the request's answer (a captive portal or a proxy's login page?); redirects are not followed for requests",
                               status: status, retryAfter: Backoff.retryAfter(response.header("Retry-After"), now: now)), nil)
            }
            return (.rejected(code: "redirected", message: "the server answered \(status), a redirect to \(location.prefix(200)) on its own origin; redirects are not followed for requests (--expect \(status) if this is the answer that proves delivery)",
                              status: status), answer)
        case 401 where profileTokenSent, 403 where profileTokenSent:
            return (.auth(code: status == 401 ? "unauthorized" : "forbidden", message: "\(status): the server refused the profile's token\(said)", status: status), answer)
        case 401, 403:
            return (.rejected(code: "authRefused", message: "\(status): the server refused the request's credentials\(said)", status: status), answer)
        case 407:
            return (.auth(code: ErrorCode.proxyAuthRequired.rawValue, message: "407: the proxy wants credentials", status: status), nil)
        case 408, 425, 429, 500...599:
            return (.retry(code: "http\(status)", message: "the server answered \(status)\(said)", status: status,
                           retryAfter: Backoff.retryAfter(response.header("Retry-After"), now: now)), answer)
        default:
            return (.rejected(code: "http\(status)", message: "the server answered \(status)\(said)", status: status), answer)
        }
    }

    /// ": the first line of the body" when it is short text, for the error people read.
    private static func summary(of response: HTTPExchangeResponse) -> String {
        guard !response.body.isEmpty, let text = String(data: response.body.prefix(400), encoding: .utf8) else { return "" }
        let line = text.split(whereSeparator: \.isNewline).first.map(String.init)?.trimmingBlanks() ?? ""
        return line.isEmpty ? "" : ": " + String(line.prefix(200))
    }

    /// An HTML page in answer to a request that did not ask for HTML.
    private static func isPortalPage(_ response: HTTPExchangeResponse, request: StoredRequest) -> Bool {
        let accept = request.headers.first { $0.name.caseInsensitiveCompare("Accept") == .orderedSame }?.value.lowercased() ?? ""
        if accept.contains("html") { return false }
        return response.looksLikeHTMLPage
    }
}
