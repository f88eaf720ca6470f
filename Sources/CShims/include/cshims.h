#ifndef REALMTUI_CSHIMS_H
#define REALMTUI_CSHIMS_H
#include <stdint.h>

/// Takes (wait != 0: waits for) an OFD write lock on byte `start` of `fd`. Returns 0 or errno.
int rt_ofd_lock(int fd, long start, int wait);
/// Takes a shared OFD read lock on byte `start`. Returns 0 or errno.
int rt_ofd_lock_shared(int fd, long start, int wait);
/// Releases an OFD lock on byte `start`. Returns 0 or errno.
int rt_ofd_unlock(int fd, long start);
/// Releases every OFD lock this open file description holds on `fd`'s file. Returns 0 or errno.
int rt_ofd_unlock_all(int fd);
/// Waits on a futex word shared between processes while it equals `expected`,
/// for at most `timeout_ms` milliseconds (-1: no limit). Returns 0, or errno (EAGAIN, ETIMEDOUT, EINTR).
int rt_futex_wait(uint32_t *word, uint32_t expected, int timeout_ms);
/// Wakes every waiter on a futex word shared between processes.
int rt_futex_wake_all(uint32_t *word);
/// Atomic operations on words shared between processes (sequentially consistent). Inline, so
/// the reader-table scans of every commit compile to plain loads instead of calls.
static inline uint32_t rt_atomic_load32(uint32_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
static inline uint32_t rt_atomic_add32(uint32_t *word, uint32_t value) { return __atomic_add_fetch(word, value, __ATOMIC_SEQ_CST); }
static inline void rt_atomic_store32(uint32_t *word, uint32_t value) { __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }
static inline uint64_t rt_atomic_load64(uint64_t *word) { return __atomic_load_n(word, __ATOMIC_SEQ_CST); }
static inline void rt_atomic_store64(uint64_t *word, uint64_t value) { __atomic_store_n(word, value, __ATOMIC_SEQ_CST); }
static inline int rt_atomic_cas64(uint64_t *word, uint64_t expected, uint64_t desired) {
    return __atomic_compare_exchange_n(word, &expected, desired, 0, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST);
}
/// Relaxed bit operations for in-process bitsets read by several threads (a lost race only
/// repeats work, never skips it).
static inline uint64_t rt_relaxed_load64(uint64_t *word) { return __atomic_load_n(word, __ATOMIC_RELAXED); }
static inline void rt_relaxed_or64(uint64_t *word, uint64_t bits) { __atomic_fetch_or(word, bits, __ATOMIC_RELAXED); }
static inline void rt_relaxed_and64(uint64_t *word, uint64_t bits) { __atomic_fetch_and(word, bits, __ATOMIC_RELAXED); }
/// Copies `count` words that other threads may be setting bits in into `target` (not shared yet).
static inline void rt_relaxed_copy64(uint64_t *target, uint64_t *source, unsigned long count) {
    for (unsigned long i = 0; i < count; i++) target[i] = __atomic_load_n(source + i, __ATOMIC_RELAXED);
}
/// Fills `buffer` with `count` random bytes from the kernel. Returns 0 or errno.
int rt_random_bytes(void *buffer, unsigned long count);

/// Creates an anonymous in-memory file (memfd). Returns the fd or -1 with errno set.
int rt_memfd_create(const char *name);
/// Tests byte `start` of `fd` for an OFD lock held by another open file description that would
/// conflict with a write lock. Returns 1 if such a lock exists, 0 if none, or -errno.
int rt_ofd_test(int fd, long start);

/// The width in columns of the terminal on `fd` (ioctl TIOCGWINSZ), or 0 when `fd` is not a
/// terminal or reports no width.
int rt_terminal_columns(int fd);

#endif
