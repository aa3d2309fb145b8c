import Foundation

/// Sizes for a person: "512 B", "12.3 KB", "42.8 MB", "1.2 GB" (decimal units, as downloads show them).
public enum ByteCount {
    public static func text(_ bytes: Int) -> String {
        let value = Double(max(0, bytes))
        switch value {
        case ..<1_000: return "\(Int(value)) B"
        case ..<1_000_000: return String(format: "%.1f KB", value / 1_000)
        case ..<1_000_000_000: return String(format: "%.1f MB", value / 1_000_000)
        default: return String(format: "%.1f GB", value / 1_000_000_000)
        }
    }
}
