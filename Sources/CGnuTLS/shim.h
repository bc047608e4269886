/* GnuTLS, for the SHA-1 of the WebSocket handshake only (Debian: libgnutls28-dev, which
   libmicrohttpd-dev already brings). */
#include <gnutls/gnutls.h>
#include <gnutls/crypto.h>
