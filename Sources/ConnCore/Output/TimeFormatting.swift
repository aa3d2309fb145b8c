import Foundation

/// Durations as conn prints them, in one place. Three styles, by what the number is.
public enum TimeFormatting {
    /// How long ago, or how long until, roughly: "45 s", "12 min", "3 h", "2 days".
    public static func age(seconds: Double) -> String {
        switch seconds {
        case ..<60: "\(Int(seconds)) s"
        case ..<3600: "\(Int(seconds / 60)) min"
        case ..<86400: "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86400)) days"
        }
    }

    /// A measured time, with the precision it deserves: "3.25ms", "120ms", "2.50s".
    public static func timing(milliseconds ms: Double) -> String {
        ms < 10 ? String(format: "%.2fms", ms) : ms < 1000 ? String(format: "%.0fms", ms) : String(format: "%.2fs", ms / 1000)
    }

    /// A configured length, exactly: "24 h", "90 min", "45 s", "2.5 s".
    public static func exact(_ duration: Duration) -> String {
        let seconds = duration.seconds
        if seconds >= 3600, seconds.truncatingRemainder(dividingBy: 3600) == 0 { return "\(Int(seconds / 3600)) h" }
        if seconds >= 60, seconds.truncatingRemainder(dividingBy: 60) == 0 { return "\(Int(seconds / 60)) min" }
        return seconds == seconds.rounded() ? "\(Int(seconds)) s" : "\(seconds) s"
    }
}

extension Duration {
    /// Milliseconds, with fractions.
    public var milliseconds: Double {
        let (seconds, attoseconds) = components
        return Double(seconds) * 1000 + Double(attoseconds) / 1e15
    }
}

extension Duration {
    /// Seconds, with fractions.
    public var seconds: Double { milliseconds / 1000 }
}
