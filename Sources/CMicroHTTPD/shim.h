/* libmicrohttpd's variadic entry points do not import into Swift: these shims pass
 * options through MHD_OPTION_ARRAY and fix the variadic calls to the forms we use. */
#ifndef LAYOUTD_MHD_SHIM_H
#define LAYOUTD_MHD_SHIM_H
#include <stdint.h>
#include <sys/socket.h>
#include <netinet/in.h>
#include <microhttpd.h>

static inline struct MHD_Daemon *layoutd_mhd_start(unsigned int flags, const struct sockaddr *addr,
        MHD_AcceptPolicyCallback accept_policy, MHD_AccessHandlerCallback handler, void *cls, MHD_RequestCompletedCallback completed,
        MHD_NotifyConnectionCallback connection_notify,
        unsigned int threads, unsigned int connection_limit, unsigned int timeout_seconds,
        size_t connection_memory, unsigned int backlog, void *tls_certificate_callback) {
    /* Options that may be absent are appended: an MHD_OPTION_END inside the array ends it. */
    struct MHD_OptionItem ops[12] = {
        {MHD_OPTION_SOCK_ADDR, 0, (void *)addr},
        {MHD_OPTION_CONNECTION_LIMIT, connection_limit, NULL},
        {MHD_OPTION_CONNECTION_TIMEOUT, timeout_seconds, NULL},
        {MHD_OPTION_CONNECTION_MEMORY_LIMIT, (intptr_t)connection_memory, NULL},
        {MHD_OPTION_LISTEN_BACKLOG_SIZE, backlog, NULL},
        {MHD_OPTION_NOTIFY_COMPLETED, (intptr_t)completed, cls},
        {MHD_OPTION_NOTIFY_CONNECTION, (intptr_t)connection_notify, cls},
    };
    int n = 7;
    if (threads > 1) ops[n++] = (struct MHD_OptionItem){MHD_OPTION_THREAD_POOL_SIZE, threads, NULL};
    if (tls_certificate_callback) {
        /* A gnutls_certificate_retrieve_function2, asked at each handshake: the certificate
         * can change while the daemon runs (MHD_OPTION_HTTPS_MEM_CERT is fixed at start). */
        ops[n++] = (struct MHD_OptionItem){MHD_OPTION_HTTPS_CERT_CALLBACK, 0, tls_certificate_callback};
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

#endif
