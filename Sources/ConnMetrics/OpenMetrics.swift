import Foundation

/// OpenMetrics 1.0 for a scrape that asks for it (Prometheus asks for it first). swift-prometheus
/// writes the 0.0.4 text format; the two differ, for what conn writes, in three places: a
/// counter's family is named without `_total` in its TYPE and HELP lines (its samples keep it),
/// the media type, and the `# EOF` that ends the exposition.
public enum OpenMetrics {
    public static let contentType = "application/openmetrics-text; version=1.0.0; charset=utf-8"

    /// Whether an Accept header prefers OpenMetrics to the text format: it names
    /// `application/openmetrics-text` with a quality above that of `text/plain` (absent: 0).
    public static func isPreferred(byAccept accept: String?) -> Bool {
        guard let accept else { return false }
        var openMetrics = 0.0, text = 0.0
        for range in accept.split(separator: ",") {
            let parts = range.split(separator: ";").map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
            guard let type = parts.first else { continue }
            let quality = parts.dropFirst().first { $0.hasPrefix("q=") }.flatMap { Double($0.dropFirst(2)) } ?? 1
            guard quality.isFinite, quality >= 0 else { continue }
            if type == "application/openmetrics-text" { openMetrics = max(openMetrics, quality) }
            if type == "text/plain" { text = max(text, quality) }
        }
        return openMetrics > 0 && openMetrics >= text
    }

    /// The 0.0.4 text `text` as OpenMetrics 1.0.
    public static func convert(_ text: String) -> String {
        var counters = Set<String>()
        for line in text.split(separator: "\n") where line.hasPrefix("# TYPE ") && line.hasSuffix(" counter") {
            let name = line.dropFirst("# TYPE ".count).dropLast(" counter".count)
            if name.hasSuffix("_total") { counters.insert(String(name)) }
        }
        var lines: [Substring] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: true) {
            if line.hasPrefix("# TYPE ") || line.hasPrefix("# HELP ") {
                let prefix = line.prefix(7)
                let rest = line.dropFirst(7)
                let name = rest.prefix { $0 != " " }
                if counters.contains(String(name)) {
                    lines.append(prefix + name.dropLast("_total".count) + rest.dropFirst(name.count))
                    continue
                }
            }
            lines.append(line)
        }
        return lines.joined(separator: "\n") + "\n# EOF\n"
    }
}
