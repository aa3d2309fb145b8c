#include <sqlite3.h>

// sqlite3_config is variadic, which Swift cannot call: one wrapper per setting conn uses.

// SQLite's memory statistics (sqlite3_memory_used and friends) take a global mutex on every
// allocation and free; conn never reads them, and a fetch of 100,000 e-mails spent about 4 % of
// its time in that mutex. Must run before SQLite initialises; later it returns SQLITE_MISUSE and
// changes nothing.
static inline int conn_sqlite3_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
