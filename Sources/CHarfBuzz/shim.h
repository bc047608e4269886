/* HarfBuzz: shaping with its own OpenType functions (Debian: libharfbuzz-dev). */
#include <hb.h>
#include <hb-ot.h>
