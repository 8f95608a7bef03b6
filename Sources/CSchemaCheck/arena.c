/*
 * arena.c: per-message bump arenas for jansson, so bulk validation does not pay malloc and
 * free for every value of every message.
 *
 * jansson's allocator hooks (json_set_alloc_funcs) are process-wide, so arenas are opt-in: the
 * hooks are installed only by sc_arena_install_hooks, which bridgectl calls for its bulk path
 * (validate --ndjson). A process that never calls it (an app embedding the host, whose other
 * code may use jansson too) keeps jansson's own allocator, reserves nothing, and
 * sc_arena_new returns NULL there, so every caller parses on the heap. Once installed, the
 * hooks route by thread and by address:
 *   - allocation goes to an arena only while this thread is inside sc_parse_in_arena
 *     (a thread-local pointer); everywhere else, and when the arena is full, it is malloc;
 *   - free recognises arena memory by address (all arenas are slabs of one reserved region)
 *     and does nothing for it; any other pointer goes to free.
 * So schemas, registries and every json_t made outside sc_parse_in_arena live on the
 * ordinary heap exactly as before, and a pointer jansson hands to a caller (json_dumps)
 * is still malloc memory. Under AddressSanitizer, reset poisons the slab, so a value used
 * after its arena was reset is reported instead of read silently.
 */
#define _GNU_SOURCE
#include "schemacheck.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#if defined(__SANITIZE_ADDRESS__)
#define SC_ASAN 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define SC_ASAN 1
#endif
#endif
#ifdef SC_ASAN
#include <sanitizer/asan_interface.h>
#define SC_POISON(p, n)   ASAN_POISON_MEMORY_REGION((p), (n))
#define SC_UNPOISON(p, n) ASAN_UNPOISON_MEMORY_REGION((p), (n))
#else
#define SC_POISON(p, n)   ((void)(p), (void)(n))
#define SC_UNPOISON(p, n) ((void)(p), (void)(n))
#endif

#define SC_ARENA_SLAB_SIZE ((size_t)512 * 1024)
#define SC_ARENA_SLABS     256 /* 128 MiB of address space, reserved, touched only as used */

struct sc_arena {
    char *base;
    size_t used;
    size_t slab;
    size_t heap_allocations; /* made with malloc (slab full) since the last reset */
};

/* Set once by install_hooks and never changed; atomic because arena_free reads it on
 * threads that never called sc_arena_new. */
static char *_Atomic region;
static pthread_once_t install_once = PTHREAD_ONCE_INIT;
static pthread_mutex_t slabs_lock = PTHREAD_MUTEX_INITIALIZER;
static unsigned char slab_taken[SC_ARENA_SLABS];
static _Thread_local sc_arena *current_arena;

static inline int in_region(const void *pointer)
{
    char *base = atomic_load_explicit(&region, memory_order_acquire);
    return base && (uintptr_t)pointer - (uintptr_t)base < (uintptr_t)SC_ARENA_SLAB_SIZE * SC_ARENA_SLABS;
}

static void *arena_malloc(size_t size)
{
    sc_arena *arena = current_arena;
    if (arena) {
        size_t rounded = (size + 15) & ~(size_t)15;
        if (rounded >= size && rounded <= SC_ARENA_SLAB_SIZE - arena->used) {
            void *pointer = arena->base + arena->used;
            arena->used += rounded;
            SC_UNPOISON(pointer, size);
            return pointer;
        }
        arena->heap_allocations++;
    }
    return malloc(size);
}

static void arena_free(void *pointer)
{
    if (!in_region(pointer))
        free(pointer);
}

/* Memory jansson allocated before the hooks is still freed correctly afterwards: arena_free
 * passes every pointer outside the region to free, whichever hook made it. */
static void install_hooks(void)
{
    void *reserved = mmap(NULL, SC_ARENA_SLAB_SIZE * SC_ARENA_SLABS, PROT_READ | PROT_WRITE,
                          MAP_PRIVATE | MAP_ANONYMOUS | MAP_NORESERVE, -1, 0);
    if (reserved == MAP_FAILED)
        return; /* no arenas: sc_arena_new returns NULL, and jansson keeps malloc */
    SC_POISON(reserved, SC_ARENA_SLAB_SIZE * SC_ARENA_SLABS);
    atomic_store_explicit(&region, (char *)reserved, memory_order_release);
    json_set_alloc_funcs(arena_malloc, arena_free);
}

int sc_arena_install_hooks(void)
{
    pthread_once(&install_once, install_hooks);
    return atomic_load_explicit(&region, memory_order_acquire) ? 0 : -1;
}

sc_arena *sc_arena_new(void)
{
    char *base = atomic_load_explicit(&region, memory_order_acquire);
    if (!base)
        return NULL; /* the process did not opt in (sc_arena_install_hooks), or no address space */
    sc_arena *arena = malloc(sizeof *arena);
    if (!arena)
        return NULL;
    pthread_mutex_lock(&slabs_lock);
    size_t slab = 0;
    while (slab < SC_ARENA_SLABS && slab_taken[slab])
        slab++;
    if (slab < SC_ARENA_SLABS)
        slab_taken[slab] = 1;
    pthread_mutex_unlock(&slabs_lock);
    if (slab == SC_ARENA_SLABS) {
        free(arena);
        return NULL;
    }
    arena->slab = slab;
    arena->base = base + slab * SC_ARENA_SLAB_SIZE;
    arena->used = 0;
    arena->heap_allocations = 0;
    return arena;
}

void sc_arena_reset(sc_arena *arena)
{
    if (!arena)
        return;
    SC_POISON(arena->base, arena->used);
    arena->used = 0;
    arena->heap_allocations = 0;
}

void sc_arena_release(sc_arena *arena, json_t *value)
{
    /* With every allocation since the reset in the slab, the reset frees it all: jansson's
     * decref walk over the tree would only call arena_free, which does nothing. */
    if (!arena || arena->heap_allocations)
        json_decref(value);
    sc_arena_reset(arena);
}

void sc_arena_free(sc_arena *arena)
{
    if (!arena)
        return;
    sc_arena_reset(arena);
    pthread_mutex_lock(&slabs_lock);
    slab_taken[arena->slab] = 0;
    pthread_mutex_unlock(&slabs_lock);
    free(arena);
}

json_t *sc_parse_in_arena(sc_arena *arena, const char *buffer, size_t length, const sc_parse_limits *limits,
                          sc_error *error)
{
    sc_arena *outer = current_arena;
    current_arena = arena;
    json_t *value = sc_parse(buffer, length, limits, error);
    current_arena = outer;
    return value;
}
