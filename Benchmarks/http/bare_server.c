/*
 * The floor `make load` measures layoutd against: libmicrohttpd with nothing on top.
 * Loopback only. POST /echo takes the whole body (up to 1 MiB, as layoutd does) and answers
 * 200 with a fixed 200-byte JSON body, about a set-constant answer's size; GET /healthz
 * answers "ok"; anything else 404. The daemon is set up as layoutd sets up its own
 * (epoll thread pool or thread per connection, 64 KiB a connection, backlog 1024).
 *
 *   bare_server pool|single|tpc [PORT] [THREADS]
 *   cc -O2 -o bare_server bare_server.c $(pkg-config --cflags --libs libmicrohttpd)
 */
#include <arpa/inet.h>
#include <microhttpd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define BODY_LIMIT (1u << 20)

static const char ANSWER[] =
    "{\"revision\":2,\"frames\":{\"avatar\":{\"x\":20,\"y\":8,\"width\":40,\"height\":40},"
    "\"title\":{\"x\":72,\"y\":8,\"width\":200,\"height\":20}},\"removed\":[],\"diagnostics\":[],"
    "\"padding\":\"......................................\"}";
_Static_assert(sizeof ANSWER - 1 == 200, "the answer is 200 bytes");

/* What a request has received: its body, or that the body was too large. */
struct upload {
    char *bytes;
    size_t size, capacity;
    int too_large;
};

static enum MHD_Result answer(struct MHD_Connection *c, unsigned status, const char *body, size_t size, const char *type) {
    struct MHD_Response *r = MHD_create_response_from_buffer(size, (void *)body, MHD_RESPMEM_PERSISTENT);
    if (!r) return MHD_NO;
    MHD_add_response_header(r, MHD_HTTP_HEADER_CONTENT_TYPE, type);
    enum MHD_Result ok = MHD_queue_response(c, status, r);
    MHD_destroy_response(r);
    return ok;
}

static enum MHD_Result on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                                  const char *version, const char *data, size_t *data_size, void **state) {
    (void)cls, (void)version;
    struct upload *u = *state;
    if (!u) { /* headers only, so far */
        if (!(u = calloc(1, sizeof *u))) return MHD_NO;
        *state = u;
        return MHD_YES;
    }
    if (*data_size) { /* a piece of the body */
        size_t n = *data_size;
        *data_size = 0;
        if (u->too_large || u->size + n > BODY_LIMIT) { u->too_large = 1; return MHD_YES; }
        if (u->size + n > u->capacity) {
            size_t capacity = u->capacity ? u->capacity : 1024;
            while (capacity < u->size + n) capacity *= 2;
            char *grown = realloc(u->bytes, capacity);
            if (!grown) return MHD_NO;
            u->bytes = grown, u->capacity = capacity;
        }
        memcpy(u->bytes + u->size, data, n);
        u->size += n;
        return MHD_YES;
    }
    if (!strcmp(method, "POST") && !strcmp(url, "/echo"))
        return u->too_large ? answer(c, 413, "", 0, "text/plain") : answer(c, 200, ANSWER, sizeof ANSWER - 1, "application/json");
    if (!strcmp(method, "GET") && !strcmp(url, "/healthz")) return answer(c, 200, "ok", 2, "text/plain");
    return answer(c, 404, "", 0, "text/plain");
}

static void on_completed(void *cls, struct MHD_Connection *c, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls, (void)c, (void)code;
    struct upload *u = *state;
    if (u) free(u->bytes), free(u);
    *state = NULL;
}

static volatile sig_atomic_t stopping;
static void on_signal(int s) { (void)s, stopping = 1; }

int main(int argc, char **argv) {
    const char *mode = argc > 1 ? argv[1] : "pool";
    unsigned short port = argc > 2 ? (unsigned short)atoi(argv[2]) : 8098;
    unsigned threads = argc > 3 ? (unsigned)atoi(argv[3]) : 2;
    unsigned flags = MHD_USE_ERROR_LOG | MHD_USE_INTERNAL_POLLING_THREAD;
    if (!strcmp(mode, "pool") || !strcmp(mode, "single")) flags |= MHD_USE_EPOLL;
    else if (!strcmp(mode, "tpc")) flags |= MHD_USE_THREAD_PER_CONNECTION | MHD_USE_POLL, threads = 1;
    else return fprintf(stderr, "bare_server: mode is pool, single or tpc\n"), 2;
    if (!strcmp(mode, "single")) threads = 1;

    struct sockaddr_in loopback = {.sin_family = AF_INET, .sin_port = htons(port), .sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
    struct MHD_Daemon *d = MHD_start_daemon(
        flags, port, NULL, NULL, on_request, NULL, MHD_OPTION_SOCK_ADDR, &loopback, MHD_OPTION_CONNECTION_LIMIT, 4096u,
        MHD_OPTION_CONNECTION_TIMEOUT, 30u, MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)64 * 1024,
        MHD_OPTION_LISTEN_BACKLOG_SIZE, 1024u, MHD_OPTION_NOTIFY_COMPLETED, on_completed, NULL,
        MHD_OPTION_THREAD_POOL_SIZE, threads > 1 ? threads : 0u, MHD_OPTION_END);
    if (!d) return fprintf(stderr, "bare_server: cannot listen on 127.0.0.1:%u (%s)\n", port, mode), 1;
    fprintf(stderr, "bare_server: %s, %u thread(s), 127.0.0.1:%u, libmicrohttpd %s\n", mode, threads, port, MHD_get_version());
    signal(SIGINT, on_signal);
    signal(SIGTERM, on_signal);
    while (!stopping) pause();
    MHD_stop_daemon(d);
    return 0;
}
