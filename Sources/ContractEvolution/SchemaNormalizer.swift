import SchemaCheck
import JSONCore

/// JSON Schema (2020-12, and draft-07's forms) to `NormalSchema`: `$ref`s are followed (a ref
/// back into a schema being expanded becomes a recursion marker), the ref's target and `allOf`
/// members are merged with the schema's own keywords, and `anyOf`/`oneOf` whose branches have
/// disjoint types become one schema. So `{"$ref": "#/$defs/x"}` and the inlined x, or one object
/// split over two `allOf` members, normalise to the same thing.
struct SchemaNormalizer {
    let documents: SchemaDocuments
    /// Bound on nested expansion, so a pathological set of refs cannot blow up.
    private static let maxDepth = 48

    func normalize(uri: String) -> NormalSchema? {
        guard let (key, resource) = documents.resolve(uri, base: uri) else { return nil }
        return normalize(resource.value, base: resource.base, draft7: resource.draft7, draft4: resource.draft4, expanding: [key])
    }

    func normalize(_ schema: JSONValue, base: String, draft7: Bool, draft4: Bool = false, expanding: [String]) -> NormalSchema {
        guard case .object(let object) = schema else {
            var constant = schema.boolValue == false ? NormalSchema.nothing : NormalSchema.anything
            constant.source = base
            return constant
        }
        guard expanding.count < Self.maxDepth else {
            var marker = NormalSchema()
            marker.recursiveReference = expanding.last
            return marker
        }
        var base = base
        if let id = object["$id"]?.stringValue, !(draft7 && id.hasPrefix("#")) {
            base = URIReference.withoutFragment(URIReference.resolve(id, against: base))
        }
        func sub(_ value: JSONValue) -> NormalSchema {
            normalize(value, base: base, draft7: draft7, draft4: draft4, expanding: expanding)
        }

        var parts: [NormalSchema] = []
        if let reference = object["$ref"]?.stringValue {
            parts.append(referenced(reference, base: base, expanding: expanding))
            // In draft-07 a $ref replaces its siblings.
            if draft7 { return parts[0] }
        }
        var own = keywords(of: object, sub: sub, draft7: draft7, draft4: draft4)
        own.source = base
        parts.append(own)
        for member in object["allOf"]?.arrayValue ?? [] { parts.append(sub(member)) }
        // The ref's members come first (an envelope's v, id, action...), the schema's own
        // annotations win over what it refers to.
        var merged = parts.dropFirst().reduce(parts[0]) { SchemaMerge.merge($0, $1) }
        merged.annotations = own.annotations.merging(merged.annotations) { first, _ in first }
        for (keyword, isOneOf) in [("anyOf", false), ("oneOf", true)] {
            guard let branches = object[keyword]?.arrayValue else { continue }
            let normalized = branches.map(sub)
            if let single = SchemaMerge.union(normalized, exclusive: isOneOf) {
                merged = SchemaMerge.merge(merged, single)
            } else if isOneOf {
                merged.oneOf.append(normalized)
            } else {
                merged.anyOf.append(normalized)
            }
        }
        if let unevaluated = object["unevaluatedProperties"] {
            // It sees what every adjacent subschema evaluated; once those are merged into one set
            // of properties it is additionalProperties over that set, unless something evaluates
            // members conditionally.
            let conditional = !merged.anyOf.isEmpty || !merged.oneOf.isEmpty || !merged.allOf.isEmpty
                || merged.other.keys.contains(where: { ["if", "dependentSchemas", "$dynamicRef"].contains($0) })
            if merged.additional == nil && !conditional {
                merged.additional = Child(sub(unevaluated))
                merged.additionalFromUnevaluated = true
            } else if merged.additional == nil {
                merged.other["unevaluatedProperties"] = unevaluated
            }
        }
        return SchemaMerge.simplified(merged)
    }

    private func referenced(_ reference: String, base: String, expanding: [String]) -> NormalSchema {
        guard let (key, resource) = documents.resolve(reference, base: base) else {
            // Resolved by the checker (a meta-schema, say) but not here: compared as written.
            var opaque = NormalSchema()
            opaque.other["$ref"] = .string(URIReference.resolve(reference, against: base))
            return opaque
        }
        if expanding.contains(key) {
            var marker = NormalSchema()
            marker.recursiveReference = key
            return marker
        }
        return normalize(resource.value, base: resource.base, draft7: resource.draft7, draft4: resource.draft4, expanding: expanding + [key])
    }

    private static let annotationKeywords: Set<String> = [
        "title", "description", "default", "examples", "deprecated", "readOnly", "writeOnly", "$comment",
        "contentMediaType", "contentEncoding", "contentSchema",
    ]
    private static let structuralKeywords: Set<String> = [
        "$schema", "$id", "$anchor", "$dynamicAnchor", "$defs", "definitions", "$vocabulary", "$ref", "allOf",
        "anyOf", "oneOf", "unevaluatedProperties",
    ]
    private static let unmodelledAssertions: Set<String> = [
        "if", "then", "else", "dependentSchemas", "unevaluatedItems", "$dynamicRef", "$recursiveRef", "contains",
        "minContains", "maxContains",
    ]

    /// The schema's own keywords, without `$ref` and the applicators merged by the caller.
    private func keywords(of object: JSONObject, sub: (JSONValue) -> NormalSchema, draft7: Bool, draft4: Bool) -> NormalSchema {
        var schema = NormalSchema()
        for (key, value) in object {
            switch key {
            case "type":
                let names = value.arrayValue?.compactMap(\.stringValue) ?? value.stringValue.map { [$0] } ?? []
                var atoms = Set<TypeAtom>()
                for name in names { atoms.formUnion(TypeAtom.atoms(ofTypeName: name) ?? []) }
                schema.types = atoms
            case "enum":
                schema.values = (value.arrayValue ?? []).map(\.canonicalNumbers)
            case "const" where !draft4:
                schema.values = [value.canonicalNumbers]
                schema.valuesFromConst = true
            case "minLength": schema.minLength = value.integerValue.map { Int($0) }
            case "maxLength": schema.maxLength = value.integerValue.map { Int($0) }
            case "pattern": if let text = value.stringValue { schema.patterns = [text] }
            case "format": if let text = value.stringValue { schema.formats = [text] }
            case "minimum": schema.minimum = value.numberValue
            case "maximum": schema.maximum = value.numberValue
            // draft-04 writes an exclusive bound as a boolean beside minimum or maximum.
            case "exclusiveMinimum": schema.exclusiveMinimum = value.numberValue ?? (value.boolValue == true ? object["minimum"]?.numberValue : nil)
            case "exclusiveMaximum": schema.exclusiveMaximum = value.numberValue ?? (value.boolValue == true ? object["maximum"]?.numberValue : nil)
            case "multipleOf": if let number = value.numberValue { schema.multipleOf = [number] }
            case "prefixItems": schema.prefixItems = (value.arrayValue ?? []).map(sub)
            case "items":
                if let list = value.arrayValue {
                    schema.prefixItems = list.map(sub)
                    if let rest = object["additionalItems"] { schema.items = Child(sub(rest)) }
                } else {
                    schema.items = Child(sub(value))
                }
            case "additionalItems": break
            case "minItems": schema.minItems = value.integerValue.map { Int($0) }
            case "maxItems": schema.maxItems = value.integerValue.map { Int($0) }
            case "uniqueItems": schema.uniqueItems = value.boolValue ?? false
            case "properties":
                for (name, member) in value.objectValue ?? JSONObject() {
                    schema.properties.append(NamedSchema(name: name, schema: sub(member)))
                }
            case "required":
                schema.required = Array(Set((value.arrayValue ?? []).compactMap(\.stringValue))).sorted()
            case "additionalProperties": schema.additional = Child(sub(value))
            case "patternProperties":
                for (pattern, member) in value.objectValue ?? JSONObject() {
                    schema.patternProperties.append(NamedSchema(name: pattern, schema: sub(member)))
                }
            case "propertyNames": schema.propertyNames = Child(sub(value))
            case "minProperties": schema.minProperties = value.integerValue.map { Int($0) }
            case "maxProperties": schema.maxProperties = value.integerValue.map { Int($0) }
            case "dependentRequired":
                for (name, list) in value.objectValue ?? JSONObject() {
                    schema.dependentRequired[name] = (list.arrayValue ?? []).compactMap(\.stringValue).sorted()
                }
            case "dependencies" where draft7:
                for (name, member) in value.objectValue ?? JSONObject() {
                    if let list = member.arrayValue {
                        schema.dependentRequired[name] = list.compactMap(\.stringValue).sorted()
                    } else {
                        schema.other["dependencies/" + name] = member
                    }
                }
            case "not": schema.not = [sub(value)]
            case _ where Self.structuralKeywords.contains(key):
                break
            case _ where Self.unmodelledAssertions.contains(key):
                schema.other[key] = value
            default:
                // Annotations, and unknown keywords, which validators ignore.
                schema.annotations[key] = value
            }
        }
        return schema
    }
}
