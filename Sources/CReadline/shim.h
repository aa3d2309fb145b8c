// GNU readline for `conn repl`. Swift 6 refuses readline's mutable globals as not
// concurrency-safe, so they are read and set through these small functions.
#ifndef CONN_READLINE_SHIM_H
#define CONN_READLINE_SHIM_H

#include <stdio.h>
#include <stdlib.h>
#include <readline/readline.h>
#include <readline/history.h>

typedef char **(*conn_rl_completion_function)(const char *text, int start, int end);

static inline void conn_rl_set_completion(conn_rl_completion_function function) {
    rl_attempted_completion_function = function;
}

/// Readline's own signal handlers stay out of the way: conn handles SIGINT and SIGWINCH.
static inline void conn_rl_configure(const char *name) {
    rl_readline_name = name;
    rl_catch_signals = 0;
    rl_catch_sigwinch = 0;
    // Words are split at blanks only, as the REPL's tokenizer does (so `--state=sent` and
    // `ann@example.com` are one word).
    rl_basic_word_break_characters = " \t\n";
    rl_completer_word_break_characters = " \t\n";
}

/// A command typed over several lines (an open quote) is one history entry, in the file too:
/// each entry is written after a `#<time>` line, and a file read back joins the lines between
/// two such lines into one entry (files without them read a line an entry, as before).
static inline void conn_rl_multiline_history(void) {
    history_comment_char = '#';
    history_write_timestamps = 1;
    history_multiline_entries = 1;
}

/// Called from the completion function: no file-name completion for this attempt (readline
/// resets the flag before each attempt).
static inline void conn_rl_completion_over(void) { rl_attempted_completion_over = 1; }

/// Appends no space after a completion (an option that takes `=`, say).
static inline void conn_rl_set_completion_append(int character) { rl_completion_append_character = character; }

static inline const char *conn_rl_line_buffer(void) { return rl_line_buffer; }
static inline int conn_rl_point(void) { return rl_point; }
static inline void conn_rl_set_point(int point) { rl_point = point; }
static inline int conn_rl_end(void) { return rl_end; }
static inline int conn_rl_done(void) { return rl_done; }

/// Writes to the terminal through the same stream readline draws on, then flushes it.
static inline void conn_rl_print(const char *text) {
    fputs(text, stdout);
    fflush(stdout);
}

/// The newest history entry, or NULL.
static inline const char *conn_history_last(void) {
    HIST_ENTRY *entry = history_get(history_base + history_length - 1);
    return entry ? entry->line : NULL;
}

/// The terminal's size changed.
static inline void conn_rl_resize(void) { rl_resize_terminal(); }

#endif
