#!/usr/bin/env python3
"""One peer validator over an NDJSON corpus, as a whole process: load the contract schemas,
register them with the library's own registry/resolver, then check every line and write one
verdict per line (1 valid, 0 invalid) to VERDICTS.

usage: peers.py PEER SCHEMAS_DIR CORPUS VERDICTS
PEER: jsonschema-rs | fastjsonschema | jsonschema

A message is valid when it parses, names a known action and version, and meets that action
version's schema (which $refs the envelope and campaign schemas): the same rule as
`bridgectl validate`. Every peer parses with orjson, the fastest Python parser. orjson keeps
the last of duplicate keys; bridge messages refuse them, so run.sh applies that parse rule
to every peer's verdicts in the comparison, outside the timed process.
Formats are annotations (2020-12 default): no peer asserts `format`.
"""
import copy
import json
import os
import sys

import orjson

def contract_table(schemas_dir):
    """(action, version) -> schema file, read from the manifest next to SCHEMAS_DIR, so the peers
    take exactly the action versions bridgectl takes."""
    with open(os.path.join(schemas_dir, os.pardir, "manifest.json"), "rb") as f:
        manifest = orjson.loads(f.read())
    return {(action, int(version)): entry["schema"]
            for action, declared in manifest["actions"].items()
            for version, entry in declared["versions"].items()}


def load_schemas(directory):
    schemas = {}
    for name in sorted(os.listdir(directory)):
        if name.endswith(".json"):
            with open(os.path.join(directory, name), "rb") as f:
                schemas[name] = orjson.loads(f.read())
    return schemas


def make_jsonschema_rs(schemas, contracts):
    import jsonschema_rs
    registry = jsonschema_rs.Registry([(s["$id"], s) for s in schemas.values()])
    return {key: jsonschema_rs.validator_for(schemas[file], registry=registry, validate_formats=False).is_valid
            for key, file in contracts.items()}


def make_jsonschema(schemas, contracts):
    from jsonschema import Draft202012Validator
    from referencing import Registry, Resource
    registry = Registry().with_resources((s["$id"], Resource.from_contents(s)) for s in schemas.values())
    return {key: Draft202012Validator(schemas[file], registry=registry).is_valid for key, file in contracts.items()}


def to_draft7(node):
    """fastjsonschema knows draft-07 at most: there `$ref` ignores its siblings and `$defs` is
    `definitions`. Rewritten so the meaning is the same: siblings go beside the $ref in allOf."""
    if isinstance(node, list):
        return [to_draft7(item) for item in node]
    if not isinstance(node, dict):
        return node
    node = {("definitions" if k == "$defs" else k): to_draft7(v) for k, v in node.items()}
    if isinstance(node.get("$ref"), str):
        node["$ref"] = node["$ref"].replace("#/$defs/", "#/definitions/")
    node.pop("$schema", None)
    if "$ref" in node and len(node) > 1:
        keep = {k: node.pop(k) for k in ("$id", "definitions", "title", "description") if k in node}
        reference = {"$ref": node.pop("$ref")}
        node = keep | {"allOf": [reference, node]}
    return node


def make_fastjsonschema(schemas, contracts):
    import fastjsonschema
    converted = {s["$id"]: to_draft7(copy.deepcopy(s)) for s in schemas.values()}
    for schema in converted.values():
        schema["$schema"] = "http://json-schema.org/draft-07/schema#"

    def local_only(uri):
        if uri not in converted:
            raise LookupError("not a contract schema: " + uri)  # nothing is fetched
        return converted[uri]

    validators = {}
    for key, file in contracts.items():
        validate = fastjsonschema.compile(converted[schemas[file]["$id"]], handlers={"https": local_only},
                                          use_formats=False)

        def is_valid(instance, validate=validate):
            try:
                validate(instance)
                return True
            except fastjsonschema.JsonSchemaValueException:
                return False
        validators[key] = is_valid
    return validators


PEERS = {"jsonschema-rs": make_jsonschema_rs, "fastjsonschema": make_fastjsonschema, "jsonschema": make_jsonschema}


def main(argv):
    if len(argv) != 5 or argv[1] not in PEERS:
        sys.exit(__doc__)
    peer, schemas_dir, corpus, verdicts_path = argv[1:]
    validators = PEERS[peer](load_schemas(schemas_dir), contract_table(schemas_dir))
    loads = orjson.loads
    verdicts = bytearray()
    with open(corpus, "rb") as lines:
        for line in lines:
            try:
                message = loads(line)
            except orjson.JSONDecodeError:
                verdicts += b"0\n"
                continue
            if type(message) is not dict:
                verdicts += b"0\n"
                continue
            action, version = message.get("action"), message.get("version")
            # bool is an int in Python (a JSON true is not a version); lists cannot be looked up
            hashable = type(action) is str and type(version) in (int, float)
            check = validators.get((action, version)) if hashable else None
            verdicts += b"1\n" if check is not None and check(message) else b"0\n"
    with open(verdicts_path, "wb") as out:
        out.write(verdicts)


if __name__ == "__main__":
    main(sys.argv)
