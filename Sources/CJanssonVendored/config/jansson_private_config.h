/*
 * jansson_private_config.h for the vendored jansson (bridgekit, trait VendoredC).
 *
 * Written for bridgekit in place of the header jansson's configure or CMake generates.
 * Every platform the package builds on (Linux with glibc, macOS, iOS) is POSIX with the
 * headers and functions below; the hash seed is read from /dev/urandom, which an iOS app's
 * sandbox may read.
 */
#ifndef BRIDGEKIT_JANSSON_PRIVATE_CONFIG_H
#define BRIDGEKIT_JANSSON_PRIVATE_CONFIG_H

#if defined(__linux__)
#define HAVE_ENDIAN_H 1
#endif
#define HAVE_FCNTL_H 1
#define HAVE_SCHED_H 1
#define HAVE_UNISTD_H 1
#define HAVE_SYS_PARAM_H 1
#define HAVE_SYS_STAT_H 1
#define HAVE_SYS_TIME_H 1
#define HAVE_SYS_TYPES_H 1
#define HAVE_STDINT_H 1

#define HAVE_CLOSE 1
#define HAVE_GETPID 1
#define HAVE_GETTIMEOFDAY 1
#define HAVE_OPEN 1
#define HAVE_READ 1
#define HAVE_SCHED_YIELD 1

#define HAVE_SYNC_BUILTINS 1
#define HAVE_ATOMIC_BUILTINS 1

#define HAVE_LOCALE_H 1
#define HAVE_SETLOCALE 1

#define USE_URANDOM 1

#define INITIAL_HASHTABLE_ORDER 3

#endif
