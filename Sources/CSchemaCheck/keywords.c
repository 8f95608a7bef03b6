/*
 * keywords.c: the keyword table, and what each keyword family's compiled data owns.
 *
 * The table is the one place that knows a keyword by its name: which family of data it
 * fills (so which member of sc_kw's union), which variant of that family it is, where it
 * exists (dialects, 2020-12 vocabularies), and its compile and validate functions. The
 * order of the table is the order of evaluation inside a schema object.
 */
#include "sc_kw_families.h"

#include <stdlib.h>

static const sc_keyword keyword_table[] = {
    /* in-place references first: their annotations count for the unevaluated keywords */
    {"$ref", SC_FAMILY_REF, 0, SC_IN_ALL, SC_VOC_CORE, SC_TRAIT_IN_PLACE, sc_compile_ref, sc_validate_ref},
    {"$dynamicRef", SC_FAMILY_DYNAMIC_REF, 0, SC_IN_2020, SC_VOC_CORE, SC_TRAIT_IN_PLACE, sc_compile_dynamic_ref,
     sc_validate_dynamic_ref},
    {"$recursiveRef", SC_FAMILY_DYNAMIC_REF, 0, SC_IN_2019, SC_VOC_CORE, SC_TRAIT_IN_PLACE, sc_compile_recursive_ref,
     sc_validate_dynamic_ref},
    /* assertions */
    {"type", SC_FAMILY_TYPE, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_type, sc_validate_type},
    {"enum", SC_FAMILY_VALUE, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_enum, sc_validate_enum},
    {"const", SC_FAMILY_VALUE, 0, SC_IN_6_ON, SC_VOC_VALIDATION, 0, sc_compile_const, sc_validate_const},
    {"multipleOf", SC_FAMILY_MULTIPLE, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_multiple_of,
     sc_validate_multiple_of},
    /* draft-04: a boolean exclusiveMaximum/exclusiveMinimum makes maximum/minimum exclusive */
    {"maximum", SC_FAMILY_BOUND, SC_BOUND_MAXIMUM, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_bound,
     sc_validate_bound},
    {"exclusiveMaximum", SC_FAMILY_BOUND, SC_BOUND_EXCLUSIVE_MAXIMUM, SC_IN_6_ON, SC_VOC_VALIDATION, 0,
     sc_compile_bound, sc_validate_bound},
    {"exclusiveMaximum", SC_FAMILY_NO_DATA, 0, SC_IN_4, SC_VOC_VALIDATION, 0, sc_compile_exclusive_flag, NULL},
    {"minimum", SC_FAMILY_BOUND, SC_BOUND_MINIMUM, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_bound,
     sc_validate_bound},
    {"exclusiveMinimum", SC_FAMILY_BOUND, SC_BOUND_EXCLUSIVE_MINIMUM, SC_IN_6_ON, SC_VOC_VALIDATION, 0,
     sc_compile_bound, sc_validate_bound},
    {"exclusiveMinimum", SC_FAMILY_NO_DATA, 0, SC_IN_4, SC_VOC_VALIDATION, 0, sc_compile_exclusive_flag, NULL},
    {"maxLength", SC_FAMILY_COUNT, SC_AT_MOST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_length, sc_validate_length},
    {"minLength", SC_FAMILY_COUNT, SC_AT_LEAST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_length, sc_validate_length},
    {"pattern", SC_FAMILY_PATTERN, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_pattern, sc_validate_pattern},
    {"format", SC_FAMILY_FORMAT, 0, SC_IN_ALL, SC_VOC_FORMAT_ANNOTATION | SC_VOC_FORMAT_ASSERTION, 0, sc_compile_format,
     sc_validate_format},
    /* annotations unless sc_options.assert_content; contentSchema is applied by them */
    {"contentEncoding", SC_FAMILY_CONTENT, 0, SC_IN_7_ON, SC_VOC_CONTENT, 0, sc_compile_content_encoding,
     sc_validate_content},
    {"contentMediaType", SC_FAMILY_CONTENT, 0, SC_IN_7_ON, SC_VOC_CONTENT, 0, sc_compile_content_media_type,
     sc_validate_content},
    {"maxItems", SC_FAMILY_COUNT, SC_AT_MOST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_item_count,
     sc_validate_item_count},
    {"minItems", SC_FAMILY_COUNT, SC_AT_LEAST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_item_count,
     sc_validate_item_count},
    {"uniqueItems", SC_FAMILY_NO_DATA, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_unique_items,
     sc_validate_unique_items},
    {"maxContains", SC_FAMILY_NO_DATA, 0, SC_IN_2019_ON, SC_VOC_VALIDATION, 0, sc_compile_contains_bound, NULL},
    {"minContains", SC_FAMILY_NO_DATA, 0, SC_IN_2019_ON, SC_VOC_VALIDATION, 0, sc_compile_contains_bound, NULL},
    {"maxProperties", SC_FAMILY_COUNT, SC_AT_MOST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_property_count,
     sc_validate_property_count},
    {"minProperties", SC_FAMILY_COUNT, SC_AT_LEAST, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_property_count,
     sc_validate_property_count},
    {"required", SC_FAMILY_REQUIRED, 0, SC_IN_ALL, SC_VOC_VALIDATION, 0, sc_compile_required, sc_validate_required},
    {"dependentRequired", SC_FAMILY_DEPENDENCIES, 0, SC_IN_2019_ON, SC_VOC_VALIDATION, 0, sc_compile_dependent_required,
     sc_validate_dependencies},
    /* applicators */
    {"allOf", SC_FAMILY_SCHEMA_LIST, 0, SC_IN_ALL, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE, sc_compile_schema_list,
     sc_validate_all_of},
    {"anyOf", SC_FAMILY_SCHEMA_LIST, 0, SC_IN_ALL, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE, sc_compile_schema_list,
     sc_validate_any_of},
    {"oneOf", SC_FAMILY_SCHEMA_LIST, 0, SC_IN_ALL, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE, sc_compile_schema_list,
     sc_validate_one_of},
    {"not", SC_FAMILY_SUBSCHEMA, 0, SC_IN_ALL, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE, sc_compile_subschema,
     sc_validate_not},
    {"if", SC_FAMILY_CONDITIONAL, 0, SC_IN_7_ON, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE, sc_compile_if, sc_validate_if},
    {"dependentSchemas", SC_FAMILY_DEPENDENCIES, 0, SC_IN_2019_ON, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE,
     sc_compile_dependent_schemas, sc_validate_dependencies},
    /* up to draft-07; kept in 2019-09 and 2020-12 for compatibility */
    {"dependencies", SC_FAMILY_DEPENDENCIES, 0, SC_IN_ALL, SC_VOC_APPLICATOR, SC_TRAIT_IN_PLACE,
     sc_compile_dependencies, sc_validate_dependencies},
    {"properties", SC_FAMILY_PROPERTIES, 0, SC_IN_ALL, SC_VOC_APPLICATOR, 0, sc_compile_properties,
     sc_validate_properties},
    {"patternProperties", SC_FAMILY_PATTERN_PROPERTIES, 0, SC_IN_ALL, SC_VOC_APPLICATOR, 0,
     sc_compile_pattern_properties, sc_validate_pattern_properties},
    /* after properties and patternProperties, whose data it borrows */
    {"additionalProperties", SC_FAMILY_ADDITIONAL_PROPERTIES, 0, SC_IN_ALL, SC_VOC_APPLICATOR,
     SC_TRAIT_BOOLEAN_IN_DRAFT4, sc_compile_additional_properties, sc_validate_additional_properties},
    {"propertyNames", SC_FAMILY_SUBSCHEMA, 0, SC_IN_6_ON, SC_VOC_APPLICATOR, 0, sc_compile_property_names,
     sc_validate_property_names},
    {"prefixItems", SC_FAMILY_ITEMS, 0, SC_IN_2020, SC_VOC_APPLICATOR, 0, sc_compile_prefix_items, sc_validate_items},
    /* one schema, or (up to 2019-09) an array of schemas for the first items */
    {"items", SC_FAMILY_ITEMS, 0, SC_IN_ALL, SC_VOC_APPLICATOR, 0, sc_compile_items, sc_validate_items},
    {"additionalItems", SC_FAMILY_ITEMS, 0, SC_IN_UP_TO_2019, SC_VOC_APPLICATOR, SC_TRAIT_BOOLEAN_IN_DRAFT4,
     sc_compile_additional_items, sc_validate_items},
    {"contains", SC_FAMILY_CONTAINS, 0, SC_IN_6_ON, SC_VOC_APPLICATOR, 0, sc_compile_contains, sc_validate_contains},
    /* last: they read what everything before them evaluated */
    {"unevaluatedItems", SC_FAMILY_SUBSCHEMA, 0, SC_IN_2019_ON, SC_VOC_UNEVALUATED, SC_TRAIT_READS_ANN,
     sc_compile_subschema, sc_validate_unevaluated_items},
    {"unevaluatedProperties", SC_FAMILY_SUBSCHEMA, 0, SC_IN_2019_ON, SC_VOC_UNEVALUATED, SC_TRAIT_READS_ANN,
     sc_compile_subschema, sc_validate_unevaluated_properties},
};

const sc_keyword *sc_keyword_table(size_t *count)
{
    *count = sizeof keyword_table / sizeof keyword_table[0];
    return keyword_table;
}

/* ---- what the family data owns ----------------------------------------------------------- */

static void free_strings(sc_str *strings, size_t count)
{
    if (!strings)
        return;
    for (size_t i = 0; i < count; i++)
        free(strings[i].s);
    free(strings);
}

void sc_kw_release(sc_kw *kw)
{
    free(kw->abs);
    kw->abs = NULL;
    if (!kw->def)
        return;
    switch (kw->def->family) {
    case SC_FAMILY_VALUE:
        json_decref(kw->as.value.value);
        break;
    case SC_FAMILY_PATTERN:
        free(kw->as.pattern.source.s);
        sc_regex_free(kw->as.pattern.re);
        break;
    case SC_FAMILY_FORMAT:
        free(kw->as.format.name.s);
        break;
    case SC_FAMILY_ITEMS:
        free(kw->as.items.prefix);
        break;
    case SC_FAMILY_SCHEMA_LIST:
        free(kw->as.list.schemas);
        break;
    case SC_FAMILY_PROPERTIES:
        free_strings(kw->as.properties.names, kw->as.properties.count);
        free(kw->as.properties.schemas);
        sc_map_free(&kw->as.properties.index);
        break;
    case SC_FAMILY_PATTERN_PROPERTIES: {
        sc_pattern_properties_kw *p = &kw->as.pattern_properties;
        free_strings(p->sources, p->count);
        if (p->res)
            for (size_t i = 0; i < p->count; i++)
                sc_regex_free(p->res[i]);
        free(p->res);
        free(p->schemas);
        break;
    }
    case SC_FAMILY_REQUIRED:
        free_strings(kw->as.required.list.names, kw->as.required.list.count);
        break;
    case SC_FAMILY_DEPENDENCIES: {
        sc_dependencies_kw *d = &kw->as.dependencies;
        free_strings(d->names, d->count);
        if (d->required)
            for (size_t i = 0; i < d->count; i++)
                free_strings(d->required[i].names, d->required[i].count);
        free(d->required);
        free(d->schemas);
        break;
    }
    case SC_FAMILY_DYNAMIC_REF:
        free(kw->as.dynamic_ref.anchor.s);
        break;
    case SC_FAMILY_NO_DATA:
    case SC_FAMILY_TYPE:
    case SC_FAMILY_MULTIPLE:
    case SC_FAMILY_BOUND:
    case SC_FAMILY_COUNT:
    case SC_FAMILY_CONTENT:
    case SC_FAMILY_CONTAINS:
    case SC_FAMILY_SUBSCHEMA:
    case SC_FAMILY_CONDITIONAL:
    case SC_FAMILY_ADDITIONAL_PROPERTIES:
    case SC_FAMILY_REF:
        break; /* nothing owned: the nodes belong to the schema */
    }
}

/* ---- the subschemas a keyword applies ---------------------------------------------------- */

size_t sc_kw_child_count(const sc_kw *kw)
{
    switch (kw->def->family) {
    case SC_FAMILY_ITEMS:
        return kw->as.items.nprefix + 1;
    case SC_FAMILY_CONTENT:
    case SC_FAMILY_CONTAINS:
    case SC_FAMILY_SUBSCHEMA:
    case SC_FAMILY_ADDITIONAL_PROPERTIES:
    case SC_FAMILY_REF:
    case SC_FAMILY_DYNAMIC_REF:
        return 1;
    case SC_FAMILY_SCHEMA_LIST:
        return kw->as.list.count;
    case SC_FAMILY_CONDITIONAL:
        return 3;
    case SC_FAMILY_PROPERTIES:
        return kw->as.properties.count;
    case SC_FAMILY_PATTERN_PROPERTIES:
        return kw->as.pattern_properties.count;
    case SC_FAMILY_DEPENDENCIES:
        return kw->as.dependencies.schemas ? kw->as.dependencies.count : 0;
    default:
        return 0;
    }
}

const sc_node *sc_kw_child(const sc_kw *kw, size_t index)
{
    switch (kw->def->family) {
    case SC_FAMILY_ITEMS:
        return index < kw->as.items.nprefix ? kw->as.items.prefix[index] : kw->as.items.rest;
    case SC_FAMILY_CONTENT:
        return kw->as.content.schema;
    case SC_FAMILY_CONTAINS:
        return kw->as.contains.schema;
    case SC_FAMILY_SUBSCHEMA:
        return kw->as.sub.schema;
    case SC_FAMILY_ADDITIONAL_PROPERTIES:
        return kw->as.additional.schema;
    case SC_FAMILY_REF:
        return kw->as.ref.target;
    case SC_FAMILY_DYNAMIC_REF:
        return kw->as.dynamic_ref.target;
    case SC_FAMILY_SCHEMA_LIST:
        return kw->as.list.schemas[index];
    case SC_FAMILY_CONDITIONAL:
        return index == 0   ? kw->as.conditional.if_schema
               : index == 1 ? kw->as.conditional.then_schema
                            : kw->as.conditional.else_schema;
    case SC_FAMILY_PROPERTIES:
        return kw->as.properties.schemas[index];
    case SC_FAMILY_PATTERN_PROPERTIES:
        return kw->as.pattern_properties.schemas[index];
    case SC_FAMILY_DEPENDENCIES:
        return kw->as.dependencies.schemas[index];
    default:
        return NULL;
    }
}
