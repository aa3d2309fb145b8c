import ConnCore
import Foundation

/// The offset of any HTTP server's clock from its `Date` header, which has 1 s resolution, refined
/// htpdate-style: each request is timed so that, by the current estimate, the server's clock ticks
/// over a second while it handles it; whether the header shows the earlier or the later second
/// halves the interval the offset can be in.
///
/// Each answer proves: the server's clock read D…D+1000 ms at some moment between t1 and t4, so
/// the offset lies in [D − t4, D + 1000 − t1]. The estimate is the intersection of those intervals.
struct HTTPDateEstimator {
    let transport: HTTPTransport
    let url: URL
    let clock: SampleClock
    let maxRequests: Int
    let precisionMS: Double

    struct Outcome {
        var estimate: ClockEstimate
        var requests: Int
    }

    func estimate() async throws -> Outcome {
        var low = -Double.infinity, high = Double.infinity
        var bestRTT = Double.infinity
        var seen: [(t4: Double, dateMS: Double)] = []
        var requests = 0
        var proofOfMovement = false
        while requests < maxRequests || !proofOfMovement {
            if requests >= maxRequests || (requests > 0 && high - low <= 2 * precisionMS) {
                // Done narrowing; make sure the Date was seen to move (a cache's does not).
                if proofOfMovement { break }
                let wait = seen[0].t4 + 1000 - clock.nowMS()
                if wait > 0 { try await Task.sleep(for: .milliseconds(Int64(wait.rounded(.up)) + 1)) }
            } else if requests > 0 {
                // Aim the server's processing moment at a second boundary, by the middle estimate.
                let middle = (low + high) / 2
                let now = clock.nowMS()
                let boundary = ((now + middle + bestRTT / 2 + 30) / 1000).rounded(.up) * 1000
                let sendAt = boundary - middle - bestRTT / 2
                if sendAt > now { try await Task.sleep(for: .milliseconds(Int64((sendAt - now).rounded()))) }
            }
            let t1 = clock.nowMS()
            let response = try await transport.send(HTTPExchangeRequest(url: url, headers: [("Cache-Control", "no-cache")], maxResponseBytes: 1 << 20))
            let t4 = clock.nowMS()
            requests += 1
            guard let header = response.header("Date"), let dateMS = Self.parse(header) else {
                throw ConnError.dataError(.noDateHeader, "\(url.absoluteString) sent no usable Date header",
                                          hint: "The http-date method needs a server that sends Date (RFC 9110).")
            }
            // A request that starts a second or more after another ended must see a later Date;
            // a cache or proxy answering with a stored one does not.
            if let earlier = seen.first(where: { t1 - $0.t4 >= 1000 }) {
                if earlier.dateMS == dateMS {
                    throw ConnError.dataError(.cachedDate, "the Date header from \(url.absoluteString) did not change over \(Int((t1 - earlier.t4) / 1000)) s: a cache or proxy answers, not the server",
                                              hint: "Use a URL the cache does not serve, or another method.")
                }
                proofOfMovement = true
            }
            seen.append((t4, dateMS))
            bestRTT = min(bestRTT, t4 - t1)
            let newLow = max(low, dateMS - t4), newHigh = min(high, dateMS + 1000 - t1)
            if newLow > newHigh {
                throw ConnError.dataError(.inconsistentDate, "the Date headers from \(url.absoluteString) contradict each other: its clock jumped, or several servers with different clocks answer")
            }
            (low, high) = (newLow, newHigh)
        }
        let estimate = ClockEstimate(offsetMS: (low + high) / 2, uncertaintyMS: (high - low) / 2, rttMS: bestRTT, jitterMS: 0,
                                     used: requests, total: requests)
        return Outcome(estimate: estimate, requests: requests)
    }

    static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]

    /// Parses the IMF-fixdate form, `Sun, 06 Nov 1994 08:49:37 GMT`, to ms since the epoch.
    static func parse(_ text: String) -> Double? {
        let parts = text.split(separator: " ")
        guard parts.count == 6, parts[5] == "GMT", let day = Int(parts[1]), let month = months.firstIndex(of: String(parts[2])),
            let year = Int(parts[3])
        else { return nil }
        let time = parts[4].split(separator: ":").compactMap { Int($0) }
        guard time.count == 3 else { return nil }
        var components = DateComponents()
        (components.year, components.month, components.day) = (year, month + 1, day)
        (components.hour, components.minute, components.second) = (time[0], time[1], time[2])
        components.timeZone = TimeZone(identifier: "GMT")
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "GMT")!
        return calendar.date(from: components).map { $0.timeIntervalSince1970 * 1000 }
    }
}
