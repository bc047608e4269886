/* libmicrohttpd's variadic entry points do not import into Swift: these shims pass
 * options through MHD_OPTION_ARRAY and fix the variadic calls to the forms we use. */
#ifndef LAYOUTD_MHD_SHIM_H
#define LAYOUTD_MHD_SHIM_H
#include <stdint.h>
#include <strings.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

/* Percent-decoding of the path and query, as libmicrohttpd's own, except that a %00 would end
 * the C string it hands on and cut what follows silently (`app.js%00.png` served app.js): such
 * a URL becomes a lone control character instead, which the server refuses with 400. */
static size_t layoutd_mhd_unescape(void *cls, struct MHD_Connection *c, char *s) {
    (void)cls; (void)c;
    for (const char *p = s; *p; p++) {
        if (p[0] == '%' && p[1] == '0' && p[2] == '0') {
            s[0] = 0x01;
            s[1] = 0;
            return 1;
        }
    }
    return MHD_http_unescape(s);
}

static inline struct MHD_Daemon *layoutd_mhd_start(unsigned int flags, const struct sockaddr *addr,
        MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler, void *cls, MHD_RequestCompletedCallback completed,
        MHD_NotifyConnectionCallback connection_notify,
        unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds,
        size_t connection_memory, unsigned int backlog, void *tls_certificate_callback, const char *tls_priorities) {
    /* Options that may be absent are appended: an MHD_OPTION_END inside the array ends it. */
    struct MHD_OptionItem ops[14] = {
        {MHD_OPTION_SOCK_ADDR, 0, (void *)addr},
        {MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory, NULL},
        {MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_notify, cls},
        {MHD_OPTION_UNESCAPE_CALLBACK, (intptr_t)layoutd_mhd_unescape, NULL},
    };
    int n = 8;
    if (threads > 1) ops[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, threads, NULL};
    if (tls_certificate_callback) {
        /* A gnutls_certificate_retrieve_function2, asked at each handshake: the certificate
         * can change while the daemon runs (MHD_OPTION_HTTPS_MEM_CERT is fixed at start). */
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_CERT_CALLBACK, 0, tls_certificate_callback};
        /* GnuTLS's priority string: which versions and suites a handshake may agree on. */
        if (tls_priorities) ops[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_PRIORITIES, 0, (void *)tls_priorities};
        flags |= MHD_USE_TLS;
    }
    ops[n] = (struct MHD_OptionItem){MHD_OPTION_END, 0, NULL};
    return MHD_start_daemon(flags, 0, accept_policy, cls, handler, cls, MHD_OPTION_ARRAY, ops, MHD_OPTION_END);
}

static inline uint16_t layoutd_mhd_port(struct MHD_Daemon *d) {
    const union MHD_DaemonInfo *info = MHD_get_daemon_info(d, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

/* A response owning a copy of the body (MHD_RESPMEM_MUST_COPY). */
static inline struct MHD_Response *layoutd_mhd_response_copy(size_t size, const void *buffer) {
    return MHD_create_response_from_buffer(size, (void *)buffer, MHD_RESPMEM_MUST_COPY);
}

static inline enum MHD_Result layoutd_mhd_upgrade_close(struct MHD_UpgradeResponseHandle *urh) {
    return MHD_upgrade_action(urh, MHD_UPGRADE_ACTION_CLOSE);
}

/* A connection's socket, peer address and the context its notify callback keeps. */
static inline int layoutd_mhd_connection_fd(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

static inline const struct sockaddr *layoutd_mhd_client_address(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    return info ? info->client_addr : NULL;
}

static inline void *layoutd_mhd_socket_context(struct MHD_Connection *c) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(c, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
    return info ? info->socket_context : NULL;
}

/* Swift does not see the enum's cases. */
static inline int layoutd_mhd_is_started(enum MHD_ConnectionNotificationCode code) {
    return code == MHD_CONNECTION_NOTIFY_STARTED;
}

/* A request's header (or query) lines with their lengths: a NUL inside one shows as a length
 * past the C string's. */
typedef struct {
    int content_lengths;
    int transfer_encodings;
    int bad_bytes;
    const char *first_bad;
} layoutd_header_scan;

static enum MHD_Result layoutd_scan_value(void *cls, enum MHD_ValueKind kind, const char *key, size_t key_size, const char *value, size_t value_size) {
    layoutd_header_scan *scan = cls;
    int bad = 0;
    for (size_t i = 0; i < key_size; i++) if ((unsigned char)key[i] < 0x21 || key[i] == 0x7f) bad = 1;
    for (size_t i = 0; value && i < value_size; i++) {
        unsigned char b = (unsigned char)value[i];
        if ((b < 0x20 && b != '\t') || b == 0x7f) bad = 1;
    }
    /* libmicrohttpd 0.9.75 measures a header's value with strlen, so `Bearer KEY\0junk` reads as
     * `Bearer KEY`. The value lies in place in its read buffer, its line's CR (or LF) overwritten
     * by the terminator: a byte after the terminator other than that line's LF (or the NUL it
     * also wrote) is what followed a NUL inside the line. */
    if (kind == MHD_HEADER_KIND && value) {
        unsigned char after = (unsigned char)value[value_size + 1];
        if (after != '\n' && after != 0) bad = 1;
    }
    if (bad) {
        if (!scan->bad_bytes) scan->first_bad = key;
        scan->bad_bytes++;
    }
    if (strcasecmp(key, "Content-Length") == 0) scan->content_lengths++;
    if (strcasecmp(key, "Transfer-Encoding") == 0) scan->transfer_encodings++;
    return MHD_YES;
}

static inline layoutd_header_scan layoutd_mhd_scan(struct MHD_Connection *c, enum MHD_ValueKind kind) {
    layoutd_header_scan scan = {0, 0, 0, NULL};
    MHD_get_connection_values_n(c, kind, layoutd_scan_value, &scan);
    return scan;
}

#endif
