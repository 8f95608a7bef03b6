/* sc_map.h: a string-keyed hash map to size_t (util.c). */
#ifndef SC_MAP_H
#define SC_MAP_H

#include <stddef.h>
#include <stdint.h>

typedef struct sc_map_slot {
    char *key; /* owned; NULL = empty slot */
    size_t klen;
    size_t value;
    uint64_t hash;
} sc_map_slot;

typedef struct sc_map {
    sc_map_slot *slots;
    size_t cap;
    size_t count;
} sc_map;

void sc_map_init(sc_map *m);
void sc_map_free(sc_map *m);
/* Inserts; when the key exists, replaces the value only if overwrite. 0 ok, -1 no memory. */
int sc_map_put(sc_map *m, const char *key, size_t klen, size_t value, int overwrite);
/* 1 found (value in *out), 0 not found. */
int sc_map_get(const sc_map *m, const char *key, size_t klen, size_t *out);
/* Keys made from pointers (the address as text) for identity maps. */
int sc_map_put_ptr(sc_map *m, const void *ptr, size_t value);
int sc_map_get_ptr(const sc_map *m, const void *ptr, size_t *out);

#endif /* SC_MAP_H */
