import CCurses
import Foundation

/// The terminal through ncurses (terminfo): the alternate screen, keys one at a time, redraws
/// that send only what changed. Touched from one thread only (ncurses is not thread-safe);
/// `end()` gives the terminal back as it was, and is safe to call twice.
final class CursesDisplay {
    enum Key: Equatable {
        case quit, pause, probeNow, up, down, resized
    }

    private let colors: Bool
    private var ended = false

    /// nil when the terminal cannot be driven (an unknown TERM, say).
    init?(colors wanted: Bool, waitMilliseconds: Int32) {
        setlocale(LC_ALL, "")
        guard conn_curses_start(waitMilliseconds) == 0 else { return nil }
        colors = wanted && conn_curses_colors() == 1
    }

    deinit { end() }

    var size: (columns: Int, rows: Int) { (Int(conn_curses_columns()), Int(conn_curses_rows())) }

    /// Draws a whole screen (what did not change is not sent again).
    func draw(_ rows: [TopScreen.Row]) {
        conn_curses_erase()
        for (index, row) in rows.enumerated() {
            var column: Int32 = 0
            for run in row where !run.text.isEmpty {
                let (bold, pair) = attributes(run.emphasis)
                conn_curses_put(Int32(index), column, run.text, bold ? 1 : 0, pair)
                column += Int32(run.text.count)
            }
        }
        conn_curses_refresh()
    }

    /// The next key within the wait given at start; nil when none came (or one that means nothing).
    func readKey() -> Key? {
        let key = conn_curses_read_key()
        switch key {
        case Int32(UInt8(ascii: "q")), Int32(UInt8(ascii: "Q")): return .quit
        case Int32(UInt8(ascii: "p")), Int32(UInt8(ascii: "P")), Int32(UInt8(ascii: " ")): return .pause
        case Int32(UInt8(ascii: "r")), Int32(UInt8(ascii: "R")): return .probeNow
        case conn_curses_key_up(), Int32(UInt8(ascii: "k")): return .up
        case conn_curses_key_down(), Int32(UInt8(ascii: "j")): return .down
        case conn_curses_key_resize(): return .resized
        default: return nil
        }
    }

    /// Leaves the alternate screen and restores the terminal's modes.
    func end() {
        guard !ended else { return }
        ended = true
        endwin()
    }

    private func attributes(_ emphasis: TopScreen.Emphasis) -> (bold: Bool, pair: Int32) {
        switch emphasis {
        case .plain: (false, 0)
        case .bold: (true, 0)
        case .good: (false, colors ? 1 : 0)
        case .bad: (!colors, colors ? 2 : 0)
        case .warn: (false, colors ? 3 : 0)
        case .dim: (false, colors ? 4 : 0)
        }
    }
}
