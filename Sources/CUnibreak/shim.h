/* libunibreak: Unicode line break opportunities, UAX #14 (Debian: libunibreak-dev). */
#include <stddef.h>
#include <linebreak.h>
