/* The vendored jansson as one module (trait VendoredC), as Sources/CJansson/shim.h is for the
 * system library. */
#ifndef BRIDGEKIT_CJANSSON_VENDORED_H
#define BRIDGEKIT_CJANSSON_VENDORED_H
#include "jansson.h"
#endif
