/*
 * config.h for the vendored PCRE2 (bridgekit, trait VendoredC).
 *
 * Written for bridgekit in place of the header configure or CMake generates (PCRE2's
 * NON-AUTOTOOLS-BUILD describes this route): the 8-bit library with Unicode support, the
 * build the checker uses, with upstream's default limits (the checker sets its own, lower,
 * match, depth and heap limits on every match context).
 *
 * No JIT, on every platform: iOS forbids writable executable memory to apps, a hardened
 * macOS app needs an extra entitlement for it, and so the Linux CI run of this trait tests
 * exactly the interpreter an iOS app ships. The checker skips pcre2_jit_compile when
 * SC_REGEX_NO_JIT is defined (Package.swift defines it with this trait).
 */
#ifndef BRIDGEKIT_PCRE2_CONFIG_H
#define BRIDGEKIT_PCRE2_CONFIG_H

#define SUPPORT_PCRE2_8 1
#define SUPPORT_UNICODE 1
/* SUPPORT_JIT stays undefined (see above). */

#define HAVE_INTTYPES_H 1
#define HAVE_LIMITS_H 1
#define HAVE_MEMMOVE 1
#define HAVE_STDINT_H 1
#define HAVE_STDIO_H 1
#define HAVE_STDLIB_H 1
#define HAVE_STRERROR 1
#define HAVE_STRINGS_H 1
#define HAVE_STRING_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_UNISTD_H 1
#define HAVE_WCHAR_H 1
#define STDC_HEADERS 1

/* The library is linked statically into the app or bridgectl. */
#define PCRE2_STATIC 1

#define HEAP_LIMIT 20000000
#define LINK_SIZE 2
#define MATCH_LIMIT 10000000
#define MATCH_LIMIT_DEPTH MATCH_LIMIT
#define MAX_NAME_COUNT 10000
#define MAX_NAME_SIZE 32
#define NEWLINE_DEFAULT 2 /* LF */
#define PARENS_NEST_LIMIT 250

#define PACKAGE "pcre2"
#define PACKAGE_NAME "PCRE2"
#define PACKAGE_VERSION "10.42"
#define PACKAGE_STRING "PCRE2 10.42"
#define VERSION "10.42"

#endif
