// The floor for the drag benchmark: the same traffic shape as layoutd-drag-bench's paced
// mode (N client threads, each sending a small message at 120 Hz with its own phase and
// timing the reply) against a bare epoll echo server with one thread per core, as
// layoutd's stream reactors are. No WebSocket framing, no JSON, no engine: what is left
// is the kernel, the scheduler and the machine. Loopback only; bounded in time.
//
//   cc -O2 -pthread -o /tmp/echo_floor Benchmarks/streams/echo_floor.c
//   /tmp/echo_floor [drags=64] [seconds=8] [reply_bytes=300]
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

static int drags = 64, reply_bytes = 300;
static double seconds = 8, start_at;
static int epfd[2];
static double *lat; static int *nlat;

static double now(void) { struct timespec t; clock_gettime(CLOCK_MONOTONIC, &t); return t.tv_sec + t.tv_nsec / 1e9; }

static void *reactor(void *arg) {
    int ep = *(int *)arg; struct epoll_event ev[64]; char buf[65536], out[65536];
    memset(out, 'x', sizeof out);
    for (;;) {
        int n = epoll_wait(ep, ev, 64, 1000);
        for (int i = 0; i < n; i++) {
            ssize_t got = recv(ev[i].data.fd, buf, sizeof buf, MSG_DONTWAIT);
            if (got <= 0) continue;
            send(ev[i].data.fd, out, reply_bytes, MSG_NOSIGNAL);
        }
    }
    return NULL;
}

static void *drag(void *arg) {
    int k = (int)(long)arg, one = 1;
    int fd = socket(AF_INET, SOCK_STREAM, 0);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(8098), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (connect(fd, (struct sockaddr *)&a, sizeof a)) { perror("connect"); exit(1); }
    setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
    char msg[32] = "{\"c500lead\": 16.5}", buf[65536];
    double next = start_at + (double)k / drags / 120, end = start_at + seconds;
    while (now() < end) {
        struct timespec ts = { (time_t)next, (long)((next - (time_t)next) * 1e9) };
        while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL)) {}
        next += 1.0 / 120;
        double t0 = now();
        send(fd, msg, strlen(msg), MSG_NOSIGNAL);
        int got = 0;
        while (got < reply_bytes) { ssize_t r = recv(fd, buf, sizeof buf, 0); if (r <= 0) exit(1); got += r; }
        lat[k * 2000 + nlat[k]++] = (now() - t0) * 1e6;
        if (nlat[k] >= 2000) break;
    }
    return NULL;
}

static int cmp(const void *a, const void *b) { double x = *(double *)a, y = *(double *)b; return x < y ? -1 : x > y; }

int main(int argc, char **argv) {
    if (argc > 1) drags = atoi(argv[1]);
    if (argc > 2) seconds = atof(argv[2]);
    if (argc > 3) reply_bytes = atoi(argv[3]);
    if (seconds > 16) seconds = 16;
    int ls = socket(AF_INET, SOCK_STREAM, 0), one = 1;
    setsockopt(ls, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
    struct sockaddr_in a = { .sin_family = AF_INET, .sin_port = htons(8098), .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
    if (bind(ls, (struct sockaddr *)&a, sizeof a) || listen(ls, 1024)) { perror("listen"); return 1; }
    pthread_t t;
    for (int i = 0; i < 2; i++) { epfd[i] = epoll_create1(0); pthread_create(&t, NULL, reactor, &epfd[i]); }
    lat = calloc((size_t)drags * 2000, sizeof *lat); nlat = calloc(drags, sizeof *nlat);
    start_at = now() + 0.2;
    pthread_t th[1024];
    for (long k = 0; k < drags; k++) pthread_create(&th[k], NULL, drag, (void *)k);
    for (int k = 0; k < drags; k++) {   // accept each drag's connection, spread over the reactors
        int c = accept(ls, NULL, NULL);
        setsockopt(c, IPPROTO_TCP, TCP_NODELAY, &one, sizeof one);
        struct epoll_event ev = { .events = EPOLLIN, .data.fd = c };
        epoll_ctl(epfd[k % 2], EPOLL_CTL_ADD, c, &ev);
    }
    for (int k = 0; k < drags; k++) pthread_join(th[k], NULL);
    int n = 0;
    for (int k = 0; k < drags; k++) for (int i = 0; i < nlat[k]; i++) lat[n++] = lat[k * 2000 + i];
    qsort(lat, n, sizeof *lat, cmp);
    printf("{\"bench\":\"stream-echo-floor\",\"mode\":\"paced-120hz\",\"drags\":%d,\"updates\":%d,\"p50_us\":%.0f,\"p99_us\":%.0f,\"max_us\":%.0f}\n",
           drags, n, lat[n / 2], lat[(int)(n * 0.99)], lat[n - 1]);
    return 0;
}
