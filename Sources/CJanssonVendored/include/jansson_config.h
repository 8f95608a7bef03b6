/*
 * jansson_config.h for the vendored jansson (bridgekit, trait VendoredC).
 *
 * Written for bridgekit in place of the file jansson's configure generates from
 * jansson_config.h.in; the values are the ones Debian's libjansson-dev 2.14 ships for
 * 64-bit Linux, and they hold for every platform the package declares (Linux, macOS, iOS
 * with clang): long long exists, localeconv exists, clang has the __atomic builtins.
 */
#ifndef JANSSON_CONFIG_H
#define JANSSON_CONFIG_H

#define JSON_INLINE inline

#define JSON_INTEGER_IS_LONG_LONG 1
#define JSON_HAVE_LOCALECONV 1
#define JSON_HAVE_ATOMIC_BUILTINS 1
#define JSON_HAVE_SYNC_BUILTINS 1
#define JSON_PARSER_MAX_DEPTH 2048

#endif
