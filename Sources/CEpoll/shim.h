/* epoll and eventfd for the stream reactors. struct epoll_event is packed on x86-64, so
 * it stays on this side: Swift sees descriptors and counts only. */
#ifndef LAYOUTD_EPOLL_SHIM_H
#define LAYOUTD_EPOLL_SHIM_H
#include <stdint.h>
#include <unistd.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>

static inline int layoutd_epoll_create(void) { return epoll_create1(EPOLL_CLOEXEC); }

static inline int layoutd_eventfd(void) { return eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC); }

/* Level-triggered readability (and the peer hanging up). */
static inline int layoutd_epoll_add(int ep, int fd) {
    struct epoll_event ev;
    ev.events = EPOLLIN | EPOLLRDHUP;
    ev.data.fd = fd;
    return epoll_ctl(ep, EPOLL_CTL_ADD, fd, &ev);
}

static inline int layoutd_epoll_remove(int ep, int fd) { return epoll_ctl(ep, EPOLL_CTL_DEL, fd, NULL); }

/* Waits for up to `max` (at most 64) ready descriptors, written to `fds`. */
static inline int layoutd_epoll_wait(int ep, int *fds, int max, int timeout_ms) {
    struct epoll_event events[64];
    if (max > 64) max = 64;
    int n = epoll_wait(ep, events, max, timeout_ms);
    for (int i = 0; i < n; i++) fds[i] = events[i].data.fd;
    return n;
}

/* The calling thread's nice value (Linux keeps one a thread): the workers that answer heavy
 * requests run below the threads that answer light ones. */
#include <sys/resource.h>
#include <sys/syscall.h>
static inline int layoutd_nice_this_thread(int nice) {
    return setpriority(PRIO_PROCESS, (id_t)syscall(SYS_gettid), nice);
}
#endif
