/* libxml2's streaming reader, for Interface Builder documents. */
#ifndef LAYOUTD_LIBXML2_SHIM_H
#define LAYOUTD_LIBXML2_SHIM_H
#include <libxml/parser.h>
#include <libxml/tree.h>
#include <libxml/xmlerror.h>
#include <libxml/xmlreader.h>
#endif
