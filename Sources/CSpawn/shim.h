#include <spawn.h>
#include <sys/pidfd.h>

// glibc declares this only under _GNU_SOURCE, which Swift's Glibc module is built without; the
// prototype is glibc's own (2.34 and later). Foundation's Process closes a child's inherited
// descriptors by listing /proc/self/fd, and crashes doing so in a process with more than about
// 1,300 of them (swift-corelibs-foundation PR 5472); closefrom in the child has no such limit.
extern int posix_spawn_file_actions_addclosefrom_np(posix_spawn_file_actions_t *actions, int from);
