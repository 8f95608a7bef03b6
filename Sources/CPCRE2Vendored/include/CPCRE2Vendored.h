/* The vendored PCRE2 as one module (trait VendoredC): the 8-bit library, as
 * Sources/CPCRE2/shim.h is for the system library. */
#ifndef BRIDGEKIT_CPCRE2_VENDORED_H
#define BRIDGEKIT_CPCRE2_VENDORED_H
#ifndef PCRE2_CODE_UNIT_WIDTH
#define PCRE2_CODE_UNIT_WIDTH 8
#endif
#include "pcre2.h"
#endif
