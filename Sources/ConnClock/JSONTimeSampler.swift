import ConnCore
import ConnProtocol
import Foundation
import NIOFoundationCompat
import NIOHTTP1

/// Takes clock samples from the back end's /time resource over one kept-alive connection of its
/// own (`TimeConnection`), with the token only for the configured server's origin.
struct JSONTimeSampler {
    let url: URL
    let credentials: Credentials?
    let trust: ServerTrust
    let timeout: Duration
    let clock: SampleClock
    var egress = Egress.any
    /// The proxy the settings give for `url` (nil: direct).
    var proxy: ProxyServer?

    static let maxAnswerBytes = 64 * 1024

    /// One discarded warm-up exchange (connection set-up inflates it; it also follows
    /// redirects by conn's policy, `SameOriginRedirects`, so the samples ask the final URL
    /// directly), then `count` samples.
    func samples(_ count: Int, interval: Duration) async throws -> [ClockSample] {
        var session = Session(sampler: self, url: url)
        do {
            try await session.warmUp()
            var samples: [ClockSample] = []
            for index in 0..<count {
                if index > 0 { try await Task.sleep(for: interval) }
                samples.append(try await session.sample())
            }
            await session.close()
            return samples
        } catch {
            await session.close()
            throw error
        }
    }

    /// The connection in use and the URL the warm-up settled on.
    private struct Session {
        let sampler: JSONTimeSampler
        var url: URL
        var connection: TimeConnection?

        init(sampler: JSONTimeSampler, url: URL) {
            self.sampler = sampler
            self.url = url
        }

        mutating func warmUp() async throws {
            var redirects = SameOriginRedirects(from: url)
            while true {
                let response = try await exchange().response
                guard let next = try redirects.next(status: response.status, location: response.headers.first(name: "Location"), from: url) else {
                    _ = try sampler.time(in: response, from: url)
                    return
                }
                url = next
            }
        }

        mutating func sample() async throws -> ClockSample {
            let exchange = try await exchange()
            let time = try sampler.time(in: exchange.response, from: url)
            let sample = ClockSample(t1: exchange.t1, t2: time.t2, t3: time.t3, t4: exchange.t4)
            try sample.checkServerTimesFitTheExchange(from: url.absoluteString)
            return sample
        }

        /// One exchange on the open connection; a kept-alive connection the server closed
        /// meanwhile is replaced once. t1 is read after the TCP connect; with TLS the handshake
        /// still falls inside that sample, whose long round trip the clock filter then drops.
        private mutating func exchange() async throws -> TimeConnection.Exchange {
            var headers = [("Accept", "application/json")]
            if let authorization = sampler.credentials?.authorization(for: url) { headers.append(("Authorization", authorization)) }
            let head = ChannelHTTPExchange.requestHead(for: url, headers: headers, keepAlive: true,
                                                       proxy: TimeConnection.forwards(url, through: sampler.proxy))
            if let connection {
                do {
                    return try await connection.exchange(head, timeout: sampler.timeout)
                } catch ChannelHTTPExchange.Failure.closedEarly {
                    await connection.close()
                    self.connection = nil
                } catch {
                    throw HTTPTransport.describe(error, url: url, timeout: sampler.timeout)
                }
            }
            let opened = try await TimeConnection.open(to: url, trust: sampler.trust, timeout: sampler.timeout,
                                                       maxBytes: JSONTimeSampler.maxAnswerBytes, clock: sampler.clock, egress: sampler.egress,
                                                       proxy: sampler.proxy)
            connection = opened
            do {
                return try await opened.exchange(head, timeout: sampler.timeout)
            } catch {
                // The handshake runs with the first request: a refused certificate is known here.
                let described = HTTPTransport.describe(error, url: url, timeout: sampler.timeout)
                throw sampler.proxy == nil ? await HTTPTransport.explainingCertificate(described, url: url, trust: sampler.trust, timeout: sampler.timeout,
                                                                                       egress: sampler.egress) : described
            }
        }

        func close() async {
            await connection?.close()
        }
    }

    /// The back end's times in an answer: it must be a 200 with {"t2":…,"t3":…}, both plausible.
    func time(in response: ChannelHTTPExchange.Response, from url: URL) throws -> TimeSample {
        guard response.status == 200 else {
            throw ConnError.unexpectedStatus(response.status, from: url, expected: "the server's time",
                                             hint: "The json method needs the protocol's /time resource; try --method http-date.")
        }
        guard let time = try? JSONDecoder().decode(TimeSample.self, from: response.body),
            WireTime.isPlausible(time.t2), WireTime.isPlausible(time.t3)
        else {
            throw ConnError.dataError(.badTimeAnswer, "\(url.absoluteString) did not answer with {\"t2\":…,\"t3\":…}",
                                      hint: "Try --method http-date, which needs only a Date header.")
        }
        return time
    }
}
