// ncurses (libncurses-dev, the wide-character build) for `conn top`. Swift 6 refuses ncurses's
// mutable globals (stdscr) and cannot call its macros (COLOR_PAIR, A_BOLD), so they go through
// these small functions.
#ifndef CONN_CURSES_SHIM_H
#define CONN_CURSES_SHIM_H

#define _XOPEN_SOURCE_EXTENDED 1
#include <locale.h>
#include <ncursesw/curses.h>

/// Starts curses on the terminal: no echo, keys one at a time, arrows as KEY_UP, no cursor,
/// getch waiting at most `wait_ms`. Returns 0, or -1 when the terminal cannot be used.
static inline int conn_curses_start(int wait_ms) {
    // newterm, not initscr: initscr ends the process on a terminal it does not know.
    SCREEN *screen = newterm(NULL, stdout, stdin);
    if (screen == NULL) return -1;
    set_term(screen);
    cbreak();
    noecho();
    nonl();
    keypad(stdscr, TRUE);
    curs_set(0);
    wtimeout(stdscr, wait_ms);
    return 0;
}

/// Colours on the terminal's own background: pair 1 green, 2 red, 3 yellow, 4 dim (blue).
static inline int conn_curses_colors(void) {
    if (!has_colors()) return 0;
    start_color();
    use_default_colors();
    init_pair(1, COLOR_GREEN, -1);
    init_pair(2, COLOR_RED, -1);
    init_pair(3, COLOR_YELLOW, -1);
    init_pair(4, COLOR_BLUE, -1);
    return 1;
}

static inline int conn_curses_rows(void) { return getmaxy(stdscr); }
static inline int conn_curses_columns(void) { return getmaxx(stdscr); }
static inline int conn_curses_read_key(void) { return wgetch(stdscr); }
static inline void conn_curses_erase(void) { werase(stdscr); }
static inline void conn_curses_refresh(void) { wrefresh(stdscr); }

/// Writes `text` (UTF-8) at row, column with attributes: bold, and a colour pair (0: none).
static inline void conn_curses_put(int row, int column, const char *text, int bold, int pair) {
    attr_t attributes = (bold ? A_BOLD : A_NORMAL) | (pair > 0 ? COLOR_PAIR(pair) : 0);
    wattrset(stdscr, attributes);
    mvwaddstr(stdscr, row, column, text);
    wattrset(stdscr, A_NORMAL);
}

static inline int conn_curses_key_up(void) { return KEY_UP; }
static inline int conn_curses_key_down(void) { return KEY_DOWN; }
static inline int conn_curses_key_resize(void) { return KEY_RESIZE; }

#endif
