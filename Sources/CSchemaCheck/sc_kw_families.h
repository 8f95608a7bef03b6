/* sc_kw_families.h: every keyword family's compile and validate functions, for the table in keywords.c (kw_*.c). */
#ifndef SC_KW_FAMILIES_H
#define SC_KW_FAMILIES_H

#include "sc_kw.h"

/* kw_type.c */
int sc_compile_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_type(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_enum(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_enum(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_const(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_const(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_numeric.c */
int sc_compile_multiple_of(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_multiple_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_exclusive_flag(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_bound(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_string.c */
int sc_compile_length(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_length(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_pattern(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_pattern(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_format.c */
int sc_compile_format(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_format(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_content.c */
int sc_compile_content_encoding(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_content_media_type(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_content(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_array.c */
int sc_compile_item_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_item_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_unique_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_unique_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_prefix_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_additional_items(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_contains(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_contains(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_contains_bound(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
/* kw_object.c */
int sc_compile_property_count(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_property_count(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_required(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_dependent_required(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_dependent_schemas(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_dependencies(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_dependencies(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_pattern_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_pattern_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_additional_properties(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_additional_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_property_names(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_property_names(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_applicator.c; sc_compile_subschema serves every keyword whose value is one schema */
int sc_compile_schema_list(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_all_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_any_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_one_of(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_subschema(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_not(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_if(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_if(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_ref.c */
int sc_compile_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_compile_dynamic_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_compile_recursive_ref(sc_cctx *c, const sc_cnode *cn, sc_kw *kw, json_t *value);
int sc_validate_dynamic_ref(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
/* kw_unevaluated.c (compiled by sc_compile_subschema) */
int sc_validate_unevaluated_properties(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);
int sc_validate_unevaluated_items(sc_vctx *v, const sc_kw *kw, const json_t *instance, sc_ann *ann);

#endif /* SC_KW_FAMILIES_H */
