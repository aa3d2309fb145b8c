import Foundation

/// The back end's clock offset in words, one way everywhere it is shown (clock-offset, top):
/// within its bound the sign means nothing, so it is "in step" without one.
public enum OffsetWording {
    /// "+5.2 ms ±0.3 ms", or "0.1 ms ±0.3 ms" within the bound; `plusMinus` for ASCII.
    public static func value(offsetMs: Double, uncertaintyMs: Double, plusMinus: String = "±") -> String {
        "\(offset(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs)) ms \(plusMinus)\(number(uncertaintyMs)) ms"
    }

    /// The offset's number alone: "+5.2", or "0.1" within the bound.
    public static func offset(offsetMs: Double, uncertaintyMs: Double) -> String {
        inStep(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs) ? number(abs(offsetMs)) : signed(offsetMs)
    }

    /// "in step: within the bound", "back end ahead" or "back end behind".
    public static func direction(offsetMs: Double, uncertaintyMs: Double) -> String {
        inStep(offsetMs: offsetMs, uncertaintyMs: uncertaintyMs) ? "in step: within the bound" : offsetMs > 0 ? "back end ahead" : "back end behind"
    }

    public static func inStep(offsetMs: Double, uncertaintyMs: Double) -> Bool { abs(offsetMs) <= uncertaintyMs }

    public static func number(_ value: Double) -> String { String(format: "%.1f", value) }
    public static func signed(_ value: Double) -> String { (value >= 0 ? "+" : "") + String(format: "%.1f", value) }
}
