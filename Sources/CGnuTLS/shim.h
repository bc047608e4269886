/* GnuTLS (Debian: libgnutls28-dev, which libmicrohttpd-dev already brings): the SHA-1 of the
   WebSocket handshake, and the server certificate handed to libmicrohttpd per handshake. */
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
#include <gnutls/abstract.h>

/* The callback as a C function pointer (the typedef above is a function type, which Swift
   would import as a closure). */
typedef gnutls_certificate_retrieve_function2 *layoutd_certificate_callback;
