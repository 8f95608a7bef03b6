/*
 * fuzz_compile.c: arbitrary bytes as a schema.
 *
 * The registry holds the official meta-schemas (2020-12, 2019-09, draft-07, -06, -04), so a fuzzed
 * schema may $ref them. A schema that compiles is then used: a few fixed instances and
 * the schema document itself are validated in both modes, which must agree. Compilation
 * must either succeed or fail with an error sentence; never crash, leak or hang.
 */
#include "fuzz_common.h"

static sc_registry *registry;
static json_t *probes[8];
static size_t probe_count;

static void setup(void)
{
    registry = sc_registry_new();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/metaschemas", fuzz_root());
    if (fuzz_register_dir(registry, dir) < 2) {
        fprintf(stderr, "fuzz setup: no meta-schemas under %s\n", dir);
        abort();
    }
    static const char *const texts[] = {
        "null",
        "0",
        "-1.5e3",
        "\"a1 b\"",
        "[]",
        "{}",
        "[1,\"x\",{\"a\":[true,null]},[2,2]]",
        "{\"v\":1,\"id\":\"abcdefgh1\",\"action\":\"apply\",\"version\":1,\"payload\":{\"slug\":\"x\"}}",
    };
    for (size_t i = 0; i < sizeof texts / sizeof texts[0]; i++) {
        sc_error err;
        probes[probe_count++] = sc_parse(texts[i], strlen(texts[i]), NULL, &err);
    }
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (!registry)
        setup();
    sc_parse_limits limits = {.max_bytes = 1 << 20, .max_depth = 128};
    sc_error err;
    json_t *document = sc_parse((const char *)data, size, &limits, &err);
    if (!document)
        return 0;
    sc_options opts;
    sc_options_init(&opts);
    /* Vary dialect, format and content assertion with the input, so every path is reached. */
    static const sc_dialect dialects[] = {SC_DIALECT_2020_12, SC_DIALECT_2019_09, SC_DIALECT_DRAFT7, SC_DIALECT_DRAFT6,
                                          SC_DIALECT_DRAFT4};
    opts.default_dialect = dialects[size % 5];
    opts.assert_format = (size & 8) != 0;
    opts.assert_content = (size & 16) != 0;
    sc_schema *schema = sc_compile_document(document, registry, &opts, &err);
    if (!schema) {
        FUZZ_CHECK(err.code != SC_ERROR_NONE && err.text[0] != '\0', "a refused schema has no error code or text");
    } else {
        int may_hold_nul = memmem(data, size, "\\u0000", 6) != NULL;
        for (size_t i = 0; i < probe_count; i++)
            fuzz_check_modes_agree(schema, probes[i], "probe", 1);
        fuzz_check_modes_agree(schema, document, "schema as its own instance", !may_hold_nul);
        sc_schema_free(schema);
    }
    json_decref(document);
    return 0;
}
