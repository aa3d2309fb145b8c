import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The standard process metrics of Prometheus's client libraries, read from /proc/self:
/// resident memory, CPU time, open descriptors, start time.
struct ProcessMetrics: Sendable {
    var residentMemoryBytes: Double?
    var cpuSeconds: Double?
    var openFDs: Double?
    var startTimeSeconds: Double?

    static func read() -> ProcessMetrics {
        var metrics = ProcessMetrics()
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        let pageSize = Double(sysconf(Int32(_SC_PAGESIZE)))
        // /proc/self/stat: the fields after the command name's closing parenthesis (which may
        // itself hold spaces); utime and stime are fields 14 and 15, starttime 22, rss 24.
        if let stat = try? String(contentsOfFile: "/proc/self/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        {
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            if fields.count > 22, let user = Double(fields[11]), let system = Double(fields[12]),
                let start = Double(fields[19]), let pages = Double(fields[21]), ticks > 0
            {
                metrics.cpuSeconds = (user + system) / ticks
                metrics.residentMemoryBytes = pages * pageSize
                if let boot = bootTimeSeconds { metrics.startTimeSeconds = boot + start / ticks }
            }
        }
        if let entries = try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd") {
            metrics.openFDs = Double(entries.count - 1)  // less the descriptor that read the directory
        }
        return metrics
    }

    /// When the machine booted (Unix time): read once, it does not change.
    private static let bootTimeSeconds = bootTime()

    private static func bootTime() -> Double? {
        guard let text = try? String(contentsOfFile: "/proc/stat", encoding: .utf8) else { return nil }
        for line in text.split(separator: "\n") where line.hasPrefix("btime ") {
            return Double(line.dropFirst(6).trimmingCharacters(in: .whitespaces))
        }
        return nil
    }
}
