/* libpq, PostgreSQL's client library (Debian: libpq-dev). */
#include <libpq-fe.h>
