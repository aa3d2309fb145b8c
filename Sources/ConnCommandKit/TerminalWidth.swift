import Foundation

#if canImport(Glibc)
import Glibc
#endif

/// How wide text may be: COLUMNS, else the terminal's width (TIOCGWINSZ on stdout, then
/// stderr), else 80.
public enum TerminalWidth {
    public static func columns(environment: [String: String]) -> Int {
        if let columns = environment["COLUMNS"].flatMap(Int.init), (10...10_000).contains(columns) { return columns }
        for descriptor in [STDOUT_FILENO, STDERR_FILENO] {
            var size = winsize()
            if ioctl(descriptor, UInt(TIOCGWINSZ), &size) == 0, size.ws_col >= 10 { return Int(size.ws_col) }
        }
        return 80
    }
}
