/* fontconfig: which font files the system has, by family, weight and slant (Debian: libfontconfig-dev). */
#include <fontconfig/fontconfig.h>

/* FC_FAMILY and friends are string macros Swift imports as strings; FcPatternBuild's
   varargs are not importable, so patterns are built with FcPatternAdd* from Swift. */
