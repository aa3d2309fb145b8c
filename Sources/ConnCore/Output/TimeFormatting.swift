/// Durations for people: "45 s", "12 min", "3 h", "2 days".
public enum TimeFormatting {
    public static func age(seconds: Double) -> String {
        switch seconds {
        case ..<60: "\(Int(seconds)) s"
        case ..<3600: "\(Int(seconds / 60)) min"
        case ..<86400: "\(Int(seconds / 3600)) h"
        default: "\(Int(seconds / 86400)) days"
        }
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
