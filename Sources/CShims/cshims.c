#define _GNU_SOURCE
#include <sys/ioctl.h>
#include "cshims.h"
#include <errno.h>
#include <fcntl.h>
#include <linux/futex.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

static int ofd(int fd, long start, short type, int wait) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = type;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = 1;
    fl.l_pid = 0;
    for (;;) {
        if (fcntl(fd, wait ? F_OFD_SETLKW : F_OFD_SETLK, &fl) == 0) return 0;
        if (errno == EINTR && wait) continue;
        return errno;
    }
}

int rt_ofd_lock(int fd, long start, int wait) { return ofd(fd, start, F_WRLCK, wait); }
int rt_ofd_lock_shared(int fd, long start, int wait) { return ofd(fd, start, F_RDLCK, wait); }
int rt_ofd_unlock(int fd, long start) { return ofd(fd, start, F_UNLCK, 0); }

int rt_ofd_unlock_all(int fd) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_UNLCK;
    fl.l_whence = SEEK_SET;  /* l_start 0, l_len 0: every byte, however far */
    return fcntl(fd, F_OFD_SETLK, &fl) == 0 ? 0 : errno;
}

int rt_futex_wait(uint32_t *word, uint32_t expected, int timeout_ms) {
    struct timespec ts, *tsp = 0;
    if (timeout_ms >= 0) {
        ts.tv_sec = timeout_ms / 1000;
        ts.tv_nsec = (long)(timeout_ms % 1000) * 1000000L;
        tsp = &ts;
    }
    long r = syscall(SYS_futex, word, FUTEX_WAIT, expected, tsp, 0, 0);
    return r == 0 ? 0 : errno;
}

int rt_futex_wake_all(uint32_t *word) {
    long r = syscall(SYS_futex, word, FUTEX_WAKE, 0x7fffffff, 0, 0, 0);
    return r >= 0 ? 0 : errno;
}

int rt_ofd_test(int fd, long start) {
    struct flock fl;
    memset(&fl, 0, sizeof fl);
    fl.l_type = F_WRLCK;
    fl.l_whence = SEEK_SET;
    fl.l_start = start;
    fl.l_len = 1;
    fl.l_pid = 0;
    if (fcntl(fd, F_OFD_GETLK, &fl) != 0) return -errno;
    return fl.l_type == F_UNLCK ? 0 : 1;
}

int rt_random_bytes(void *buffer, unsigned long count) {
    unsigned char *p = buffer;
    while (count > 0) {
        ssize_t n = getrandom(p, count, 0);
        if (n < 0) { if (errno == EINTR) continue; return errno; }
        p += n; count -= (unsigned long)n;
    }
    return 0;
}

int rt_memfd_create(const char *name) { return memfd_create(name, MFD_CLOEXEC); }

int rt_terminal_columns(int fd) {
    struct winsize size;
    if (ioctl(fd, TIOCGWINSZ, &size) != 0) return 0;
    return size.ws_col;
}
