#ifndef BRIDGEKIT_CJANSSON_SHIM_H
#define BRIDGEKIT_CJANSSON_SHIM_H
#include <jansson.h>
#endif
