import CMalloc
import Glibc

/// Keeps the heap of a command that runs for hours (`conn watch`, `conn agent`, `conn top`) from
/// growing with the churn of a link that comes and goes. Its live objects stay at about 2 MB, but
/// glibc gives each thread that allocates an arena of its own and keeps the pages of freed
/// memory: under an hour of link flaps the arenas' size grew by several MB while what was in use
/// did not (`malloc_stats`, bench/run soak). Two arenas instead of one per thread, and the free
/// pages handed back once a minute, keep the resident heap near what is in use.
public enum HeapTrim {
    /// How often `trim()` runs in a live session.
    public static let interval: Duration = .seconds(60)

    /// At most two malloc arenas from now on (glibc reads MALLOC_ARENA_MAX only at start; a
    /// value set there is left alone).
    public static func limitArenas() {
        guard getenv("MALLOC_ARENA_MAX") == nil else { return }
        _ = mallopt(M_ARENA_MAX, 2)
    }

    /// Hands the free pages of every arena back to the kernel. Cheap on a heap of a few MB.
    public static func trim() {
        _ = malloc_trim(0)
    }
}
