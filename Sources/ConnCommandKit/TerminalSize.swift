import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How much text fits: the environment's COLUMNS and LINES, else the terminal's own size
/// (TIOCGWINSZ), else 80 columns and 24 rows.
public enum TerminalSize {
    /// COLUMNS, else the width of the terminal on stdout, then stderr, else 80.
    public static func columns(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), (10...10_000).contains(columns) { return columns }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            if let size = windowSize(descriptor), size.ws_col >= 10 { return Int(size.ws_col) }
        }
        return 80
    }

    /// LINES, else the height of the terminal on stdout, else 24.
    public static func rows(environment: [String: String]) -> Int {
        if let lines = environment["LINES"].flatMap(Int.init), (2...10_000).contains(lines) { return lines }
        if let size = windowSize(STDOUT_FILENO), size.ws_row >= 2 { return Int(size.ws_row) }
        return 24
    }

    private static func windowSize(_ descriptor: Int32) -> winsize? {
        var size = winsize()
        return ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0 ? size : nil
    }
}
