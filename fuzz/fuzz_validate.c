/*
 * fuzz_validate.c: arbitrary bytes as a bridge message, against the fixed contract schemas.
 *
 * The contract schemas (contracts/schemas, registered together so their $refs resolve)
 * and one keyword-rich schema are compiled once. Each input goes through sc_parse with
 * the bridge's limits, then through sc_is_valid and sc_validate for every schema; the two
 * modes must agree (fuzz_check_modes_agree), which turns a silent logic slip into a crash.
 */
#include "fuzz_common.h"

#define CONTRACT_BASE "https://bridge.sendy.co.kr/contracts/schemas/"

static const char *const contract_schemas[] = {"envelope.v1.json", "campaign.v1.json", "apply.v1.json",
                                               "view_vehicles.v1.json", "start.v1.json"};
#define CONTRACT_COUNT (sizeof contract_schemas / sizeof contract_schemas[0])

/* Reaches the keywords the contracts do not use: applicators, unevaluated*, dynamic refs, formats. */
static const char torture_schema[] =
    "{\"$schema\":\"https://json-schema.org/draft/2020-12/schema\","
    "\"$id\":\"https://fuzz.example/torture\","
    "\"$dynamicAnchor\":\"node\","
    "\"$defs\":{\"pos\":{\"type\":\"integer\",\"exclusiveMinimum\":0,\"multipleOf\":3},"
    "\"tree\":{\"$dynamicAnchor\":\"node\",\"type\":[\"object\",\"array\",\"string\",\"number\",\"null\",\"boolean\"],"
    "\"items\":{\"$dynamicRef\":\"#node\"},\"additionalProperties\":{\"$ref\":\"#/$defs/tree\"}}},"
    "\"anyOf\":[{\"type\":\"array\",\"prefixItems\":[{\"type\":\"string\",\"format\":\"date-time\"},"
    "{\"$ref\":\"#/$defs/pos\"}],\"items\":{\"type\":[\"string\",\"number\"],\"maxLength\":8},"
    "\"contains\":{\"const\":1},\"minContains\":1,\"maxContains\":3,\"uniqueItems\":true,\"unevaluatedItems\":false},"
    "{\"type\":\"object\",\"properties\":{\"a\":{\"format\":\"email\"},\"u\":{\"format\":\"uri\"},"
    "\"h\":{\"format\":\"hostname\"},\"i\":{\"format\":\"ipv6\"},\"d\":{\"format\":\"duration\"},"
    "\"r\":{\"format\":\"regex\"},\"j\":{\"format\":\"json-pointer\"},\"t\":{\"format\":\"uri-template\"},"
    "\"n\":{\"format\":\"idn-hostname\"},\"e\":{\"format\":\"idn-email\"},\"q\":{\"format\":\"iri\"},"
    "\"x\":{\"type\":\"string\",\"pattern\":\"^(\\\\p{Letter}|\\\\d|\\\\w\\\\s)+$\",\"minLength\":2}},"
    "\"patternProperties\":{\"^x-\":{\"enum\":[1,\"a\",null,[1],{\"k\":true}]},\"(a+)+$\":{\"not\":{\"type\":\"null\"}}"
    "},"
    "\"propertyNames\":{\"maxLength\":16},\"dependentRequired\":{\"a\":[\"u\"]},"
    "\"dependentSchemas\":{\"h\":{\"required\":[\"i\"]}},\"if\":{\"required\":[\"t\"]},\"then\":{\"minProperties\":2},"
    "\"else\":{\"maxProperties\":6},\"unevaluatedProperties\":{\"$ref\":\"#/$defs/tree\"}},"
    "{\"oneOf\":[{\"type\":\"number\",\"maximum\":1e300},{\"type\":\"integer\",\"minimum\":-5}]},"
    "{\"allOf\":[{\"type\":\"string\"},{\"not\":{\"const\":\"\"}}],\"contentEncoding\":\"base64\"}]}";

static sc_schema *schemas[CONTRACT_COUNT * 2 + 2];
static size_t schema_count;
static const char *schema_names[CONTRACT_COUNT * 2 + 2];

static void setup(void)
{
    sc_registry *registry = sc_registry_new();
    char dir[4096];
    snprintf(dir, sizeof dir, "%s/contracts/schemas", fuzz_root());
    if (fuzz_register_dir(registry, dir) < CONTRACT_COUNT) {
        fprintf(stderr, "fuzz setup: expected %zu contract schemas in %s\n", CONTRACT_COUNT, dir);
        abort();
    }
    for (int assert_format = 0; assert_format <= 1; assert_format++) {
        for (size_t i = 0; i < CONTRACT_COUNT; i++) {
            char uri[512];
            snprintf(uri, sizeof uri, CONTRACT_BASE "%s", contract_schemas[i]);
            sc_options opts;
            sc_options_init(&opts);
            opts.assert_format = assert_format;
            sc_error err;
            sc_schema *schema = sc_compile(registry, uri, &opts, &err);
            if (!schema) {
                fprintf(stderr, "fuzz setup: %s: %s at %s\n", uri, err.text, err.location);
                abort();
            }
            schema_names[schema_count] = contract_schemas[i];
            schemas[schema_count++] = schema;
        }
    }
    for (int assert_format = 0; assert_format <= 1; assert_format++) {
        sc_error err;
        json_t *doc = sc_parse(torture_schema, sizeof torture_schema - 1, NULL, &err);
        if (!doc) {
            fprintf(stderr, "fuzz setup: torture schema: %s\n", err.text);
            abort();
        }
        sc_options opts;
        sc_options_init(&opts);
        opts.assert_format = assert_format;
        sc_schema *schema = sc_compile_document(doc, NULL, &opts, &err);
        json_decref(doc);
        if (!schema) {
            fprintf(stderr, "fuzz setup: torture schema: %s at %s\n", err.text, err.location);
            abort();
        }
        schema_names[schema_count] = "torture";
        schemas[schema_count++] = schema;
    }
    /* Compiled schemas live for the whole run; the registry is no longer needed. */
    sc_registry_free(registry);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    static int ready;
    if (!ready) {
        setup();
        ready = 1;
    }
    /* The bridge's own limits (manifest.limits and the host's defaults). */
    sc_parse_limits limits = {.max_bytes = 65536,
                              .max_depth = 64,
                              .max_string_length = 16384,
                              .max_properties = 256,
                              .max_array_length = 1024};
    sc_error err;
    json_t *instance = sc_parse((const char *)data, size, &limits, &err);
    if (!instance) {
        FUZZ_CHECK(err.code != SC_ERROR_NONE && err.text[0] != '\0', "a refused input has no error code or text");
        return 0;
    }
    int may_hold_nul = memmem(data, size, "\\u0000", 6) != NULL;
    for (size_t i = 0; i < schema_count; i++)
        fuzz_check_modes_agree(schemas[i], instance, schema_names[i], !may_hold_nul);
    json_decref(instance);
    return 0;
}
