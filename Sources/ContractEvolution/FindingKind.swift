/// Who a change breaks when it reaches the field.
public enum Breaks: String, Sendable {
    /// Messages pages already send are rejected by the new app (the contract narrowed).
    case oldPages = "old pages"
    /// Messages new pages send are rejected by app builds in the field (the contract widened).
    case oldApps = "old apps"
    /// Either, depending on the values.
    case oldPagesOrOldApps = "old pages or old apps"
    /// Links already sent (messenger, push, marketing) stop opening what they opened.
    case links = "links in the field"
    /// Pages subscribed to an event version that new app builds no longer send, or send in a
    /// shape they reject (an event's schema accepts more: the app writes, pages read).
    case subscribedPages = "pages that subscribe"
    /// Nothing the checker or router decides changes.
    case nobody = "nobody"
}

/// The closed list of differences `bridgectl diff` reports. Each kind has one meaning and says
/// whom it breaks; docs/contracts.md lists them in a table (a test keeps the two in step).
public enum FindingKind: String, Sendable, CaseIterable {
    // Types and values
    case typeNarrowed = "type-narrowed"
    case typeWidened = "type-widened"
    case typeChanged = "type-changed"
    case nullAcceptedThroughBranch = "null-accepted-through-branch"
    case nullRejectedThroughBranch = "null-rejected-through-branch"
    case enumAdded = "enum-added"
    case enumRemoved = "enum-removed"
    case enumNarrowed = "enum-narrowed"
    case enumWidened = "enum-widened"
    case enumChanged = "enum-changed"
    case constAdded = "const-added"
    case constRemoved = "const-removed"
    case constChanged = "const-changed"
    // Bounds
    case minLengthAdded = "min-length-added", minLengthRemoved = "min-length-removed"
    case minLengthTightened = "min-length-tightened", minLengthRelaxed = "min-length-relaxed"
    case maxLengthAdded = "max-length-added", maxLengthRemoved = "max-length-removed"
    case maxLengthTightened = "max-length-tightened", maxLengthRelaxed = "max-length-relaxed"
    case minItemsAdded = "min-items-added", minItemsRemoved = "min-items-removed"
    case minItemsTightened = "min-items-tightened", minItemsRelaxed = "min-items-relaxed"
    case maxItemsAdded = "max-items-added", maxItemsRemoved = "max-items-removed"
    case maxItemsTightened = "max-items-tightened", maxItemsRelaxed = "max-items-relaxed"
    case minPropertiesAdded = "min-properties-added", minPropertiesRemoved = "min-properties-removed"
    case minPropertiesTightened = "min-properties-tightened", minPropertiesRelaxed = "min-properties-relaxed"
    case maxPropertiesAdded = "max-properties-added", maxPropertiesRemoved = "max-properties-removed"
    case maxPropertiesTightened = "max-properties-tightened", maxPropertiesRelaxed = "max-properties-relaxed"
    case minimumAdded = "minimum-added", minimumRemoved = "minimum-removed"
    case minimumTightened = "minimum-tightened", minimumRelaxed = "minimum-relaxed"
    case maximumAdded = "maximum-added", maximumRemoved = "maximum-removed"
    case maximumTightened = "maximum-tightened", maximumRelaxed = "maximum-relaxed"
    case exclusiveMinimumAdded = "exclusive-minimum-added", exclusiveMinimumRemoved = "exclusive-minimum-removed"
    case exclusiveMinimumTightened = "exclusive-minimum-tightened", exclusiveMinimumRelaxed = "exclusive-minimum-relaxed"
    case exclusiveMaximumAdded = "exclusive-maximum-added", exclusiveMaximumRemoved = "exclusive-maximum-removed"
    case exclusiveMaximumTightened = "exclusive-maximum-tightened", exclusiveMaximumRelaxed = "exclusive-maximum-relaxed"
    case multipleOfAdded = "multiple-of-added", multipleOfRemoved = "multiple-of-removed"
    case multipleOfTightened = "multiple-of-tightened", multipleOfRelaxed = "multiple-of-relaxed"
    case multipleOfChanged = "multiple-of-changed"
    // Strings
    case patternAdded = "pattern-added"
    case patternRemoved = "pattern-removed"
    case patternChanged = "pattern-changed"
    case formatAdded = "format-added"
    case formatRemoved = "format-removed"
    case formatChanged = "format-changed"
    // Objects
    case requiredAdded = "required-added"
    case requiredAddedWithDefault = "required-added-with-default"
    case requiredRemoved = "required-removed"
    case requiredRemovedWithDefault = "required-removed-with-default"
    case propertyAddedToOpenObject = "property-added-to-open-object"
    case propertyAddedToPartlyOpenObject = "property-added-to-partly-open-object"
    case propertyAddedToClosedObject = "property-added-to-closed-object"
    case propertyRemovedFromOpenObject = "property-removed-from-open-object"
    case propertyRemovedFromPartlyOpenObject = "property-removed-from-partly-open-object"
    case propertyRemovedFromClosedObject = "property-removed-from-closed-object"
    case propertyRenamed = "property-renamed"
    case objectClosed = "object-closed"
    case objectOpened = "object-opened"
    case patternPropertyAdded = "pattern-property-added"
    case patternPropertyRemoved = "pattern-property-removed"
    case dependentRequiredAdded = "dependent-required-added"
    case dependentRequiredRemoved = "dependent-required-removed"
    // Arrays
    case itemsAdded = "items-added"
    case itemsRemoved = "items-removed"
    case prefixItemAdded = "prefix-item-added"
    case prefixItemRemoved = "prefix-item-removed"
    case uniqueItemsAdded = "unique-items-added"
    case uniqueItemsRemoved = "unique-items-removed"
    // Applicators
    case anyOfBranchAdded = "any-of-branch-added"
    case anyOfBranchRemoved = "any-of-branch-removed"
    case oneOfBranchAdded = "one-of-branch-added"
    case oneOfBranchRemoved = "one-of-branch-removed"
    case allOfBranchAdded = "all-of-branch-added"
    case allOfBranchRemoved = "all-of-branch-removed"
    case notAdded = "not-added"
    case notRemoved = "not-removed"
    case notChanged = "not-changed"
    case keywordChanged = "keyword-changed"
    case annotationChanged = "annotation-changed"
    // Actions and versions
    case actionAdded = "action-added"
    case actionRemoved = "action-removed"
    case actionVersionAdded = "action-version-added"
    case actionVersionRemoved = "action-version-removed"
    case versionNotBumped = "version-not-bumped"
    // Events (app to page)
    case eventAdded = "event-added"
    case eventRemoved = "event-removed"
    case eventVersionAdded = "event-version-added"
    case eventVersionRemoved = "event-version-removed"
    // Manifest
    case actionRouteChanged = "action-route-changed"
    case actionPathChanged = "action-path-changed"
    case mappingAdded = "mapping-added"
    case mappingRemoved = "mapping-removed"
    case mappingPointerChanged = "mapping-pointer-changed"
    case mappingRenamed = "mapping-renamed"
    case mappingPointerUnresolved = "mapping-pointer-unresolved"
    case originAdded = "origin-added"
    case originRemoved = "origin-removed"
    case limitLowered = "limit-lowered"
    case limitRaised = "limit-raised"
    case duplicateWindowChanged = "duplicate-window-changed"
    case timeoutChanged = "timeout-changed"
    case fallbackChanged = "fallback-changed"
    case linkHostAdded = "link-host-added"
    case linkHostRemoved = "link-host-removed"
    case customSchemeChanged = "custom-scheme-changed"
    case bridgeNameChanged = "bridge-name-changed"
    // Routes
    case routeAdded = "route-added"
    case routeRemoved = "route-removed"
    case routeRenamed = "route-renamed"
    case routePatternChanged = "route-pattern-changed"
    case routeParameterRenamed = "route-parameter-renamed"
    case routeParameterTypeChanged = "route-parameter-type-changed"
    case routeQueryFieldAdded = "route-query-field-added"
    case routeQueryFieldRemoved = "route-query-field-removed"
    case routeQueryTypeChanged = "route-query-type-changed"
    case routeQueryFieldRenamed = "route-query-field-renamed"
    case routeBehaviourChanged = "route-behaviour-changed"
    // Accepted changes
    case acceptedChangeExpired = "accepted-change-expired"
    case acceptedChangeUnused = "accepted-change-unused"

    /// Whom the change breaks when it is made to something already in the field.
    public var breaks: Breaks {
        switch self {
        case .typeNarrowed, .nullRejectedThroughBranch, .enumAdded, .enumNarrowed, .constAdded,
             .minLengthAdded, .minLengthTightened, .maxLengthAdded, .maxLengthTightened,
             .minItemsAdded, .minItemsTightened, .maxItemsAdded, .maxItemsTightened,
             .minPropertiesAdded, .minPropertiesTightened, .maxPropertiesAdded, .maxPropertiesTightened,
             .minimumAdded, .minimumTightened, .maximumAdded, .maximumTightened,
             .exclusiveMinimumAdded, .exclusiveMinimumTightened, .exclusiveMaximumAdded, .exclusiveMaximumTightened,
             .multipleOfAdded, .multipleOfTightened, .patternAdded, .formatAdded,
             .requiredAdded, .requiredAddedWithDefault, .propertyRemovedFromClosedObject, .objectClosed,
             .dependentRequiredAdded, .itemsAdded, .uniqueItemsAdded, .anyOfBranchRemoved, .allOfBranchAdded,
             .notAdded, .actionRemoved, .actionVersionRemoved, .originRemoved, .limitLowered, .mappingPointerUnresolved:
            return .oldPages
        case .typeWidened, .nullAcceptedThroughBranch, .enumRemoved, .enumWidened, .constRemoved,
             .minLengthRemoved, .minLengthRelaxed, .maxLengthRemoved, .maxLengthRelaxed,
             .minItemsRemoved, .minItemsRelaxed, .maxItemsRemoved, .maxItemsRelaxed,
             .minPropertiesRemoved, .minPropertiesRelaxed, .maxPropertiesRemoved, .maxPropertiesRelaxed,
             .minimumRemoved, .minimumRelaxed, .maximumRemoved, .maximumRelaxed,
             .exclusiveMinimumRemoved, .exclusiveMinimumRelaxed, .exclusiveMaximumRemoved, .exclusiveMaximumRelaxed,
             .multipleOfRemoved, .multipleOfRelaxed, .patternRemoved, .formatRemoved,
             .requiredRemoved, .requiredRemovedWithDefault, .propertyAddedToClosedObject, .objectOpened,
             .dependentRequiredRemoved, .itemsRemoved, .uniqueItemsRemoved, .anyOfBranchAdded, .allOfBranchRemoved,
             .notRemoved:
            return .oldApps
        case .typeChanged, .enumChanged, .constChanged, .multipleOfChanged, .patternChanged, .formatChanged,
             .propertyAddedToOpenObject, .propertyAddedToPartlyOpenObject, .propertyRemovedFromOpenObject,
             .propertyRemovedFromPartlyOpenObject, .propertyRenamed, .patternPropertyAdded, .patternPropertyRemoved,
             .prefixItemAdded, .prefixItemRemoved, .oneOfBranchAdded, .oneOfBranchRemoved, .notChanged,
             .keywordChanged, .versionNotBumped, .actionRouteChanged, .actionPathChanged, .mappingRemoved, .mappingPointerChanged, .mappingRenamed,
             .bridgeNameChanged:
            return .oldPagesOrOldApps
        case .routeRemoved, .routeRenamed, .routePatternChanged, .routeParameterRenamed, .routeParameterTypeChanged,
             .routeQueryFieldAdded, .routeQueryTypeChanged, .routeQueryFieldRenamed, .linkHostRemoved, .customSchemeChanged:
            return .links
        case .eventRemoved, .eventVersionRemoved:
            return .subscribedPages
        case .annotationChanged, .actionAdded, .actionVersionAdded, .mappingAdded, .originAdded, .limitRaised,
             .duplicateWindowChanged, .timeoutChanged, .fallbackChanged, .linkHostAdded, .routeAdded,
             .routeQueryFieldRemoved, .routeBehaviourChanged, .acceptedChangeExpired, .acceptedChangeUnused,
             .eventAdded, .eventVersionAdded:
            return .nobody
        }
    }

    var isEventRemoval: Bool { self == .eventRemoved || self == .eventVersionRemoved }

    /// What the kind means, one sentence (the docs table's middle column).
    public var meaning: String {
        if let bound = boundDescription { return bound }
        switch self {
        case .typeNarrowed: return "a type is no longer accepted (e.g. integer where number was)"
        case .typeWidened: return "a type is accepted that was not"
        case .typeChanged: return "types were both added and removed"
        case .nullAcceptedThroughBranch: return "null is now accepted through an anyOf/oneOf branch"
        case .nullRejectedThroughBranch: return "null was accepted through an anyOf/oneOf branch and no longer is"
        case .enumAdded: return "an enum restricts values that were free"
        case .enumRemoved: return "an enum was removed: any value of the type is accepted"
        case .enumNarrowed: return "enum values were removed"
        case .enumWidened: return "enum values were added"
        case .enumChanged: return "enum values were both added and removed"
        case .constAdded: return "a const restricts a value that was free"
        case .constRemoved: return "a const was removed"
        case .constChanged: return "the const value changed"
        case .multipleOfChanged: return "multipleOf changed to a value neither divides"
        case .patternAdded: return "a pattern was added"
        case .patternRemoved: return "a pattern was removed"
        case .patternChanged: return "a pattern was replaced; the counterexample shows a string one side matches"
        case .formatAdded: return "a format was added (breaks only where the contract set asserts formats; info otherwise)"
        case .formatRemoved: return "a format was removed (info unless formats are asserted)"
        case .formatChanged: return "a format changed (info unless formats are asserted)"
        case .requiredAdded: return "a property became required"
        case .requiredAddedWithDefault: return "a property with a default became required: a default is an annotation, the checker does not fill it in"
        case .requiredRemoved: return "a property is no longer required"
        case .requiredRemovedWithDefault: return "a property with a default is no longer required; app builds in the field still require it"
        case .propertyAddedToOpenObject: return "a property was declared in an open object: compatible only when its schema accepts every value the object accepted under that name"
        case .propertyAddedToPartlyOpenObject: return "a property was declared in an object whose additionalProperties is a schema: compatible when covered by it"
        case .propertyAddedToClosedObject: return "a property was added to a closed object (additionalProperties or unevaluatedProperties false)"
        case .propertyRemovedFromOpenObject: return "a property declaration was removed from an open object: its value is no longer checked"
        case .propertyRemovedFromPartlyOpenObject: return "a property was removed from an object whose additionalProperties is a schema"
        case .propertyRemovedFromClosedObject: return "a property was removed from a closed object"
        case .propertyRenamed: return "a property was renamed: one disappeared and one with the same schema and required-ness appeared in the same object"
        case .objectClosed: return "additionalProperties/unevaluatedProperties false was added: undeclared members are rejected"
        case .objectOpened: return "an object that rejected undeclared members accepts them"
        case .patternPropertyAdded: return "a patternProperties entry was added"
        case .patternPropertyRemoved: return "a patternProperties entry was removed"
        case .dependentRequiredAdded: return "a dependentRequired entry was added"
        case .dependentRequiredRemoved: return "a dependentRequired entry was removed"
        case .itemsAdded: return "items now has a schema where anything was accepted"
        case .itemsRemoved: return "items no longer has a schema"
        case .prefixItemAdded: return "a prefixItems position was added"
        case .prefixItemRemoved: return "a prefixItems position was removed"
        case .uniqueItemsAdded: return "uniqueItems was added"
        case .uniqueItemsRemoved: return "uniqueItems was removed"
        case .anyOfBranchAdded: return "an anyOf branch was added"
        case .anyOfBranchRemoved: return "an anyOf branch was removed"
        case .oneOfBranchAdded: return "a oneOf branch was added (may also reject values that now match two branches)"
        case .oneOfBranchRemoved: return "a oneOf branch was removed"
        case .allOfBranchAdded: return "an allOf member that cannot be merged was added"
        case .allOfBranchRemoved: return "an allOf member that cannot be merged was removed"
        case .notAdded: return "a not was added"
        case .notRemoved: return "a not was removed"
        case .notChanged: return "the schema of a not changed"
        case .keywordChanged: return "a keyword this engine does not model (if/then/else, contains, dependentSchemas ...) changed"
        case .annotationChanged: return "title, description, default, examples or $comment changed: no effect on validation"
        case .actionAdded: return "a new action"
        case .actionRemoved: return "an action was removed: its messages get UNKNOWN_ACTION"
        case .actionVersionAdded: return "a new version of an action (compared with the previous version, as info)"
        case .actionVersionRemoved: return "an action version was removed: its messages get UNSUPPORTED_VERSION"
        case .versionNotBumped: return "a released action or event version (or the envelope) was edited incompatibly: the change needs a new version"
        case .eventAdded: return "a new app-to-page event"
        case .eventRemoved: return "an event was removed: new app builds never send it to the pages that subscribe"
        case .eventVersionAdded: return "a new version of an event"
        case .eventVersionRemoved: return "an event version was removed: new app builds never send it to the pages that read it"
        case .actionRouteChanged: return "an action version now navigates to another route"
        case .actionPathChanged: return "the route an action version navigates to has another path: the same message opens another URL"
        case .mappingAdded: return "an action version maps one more payload field into the link"
        case .mappingRemoved: return "an action version no longer carries a payload field into the link"
        case .mappingPointerChanged: return "a mapping takes its value from another JSON Pointer"
        case .mappingRenamed: return "a payload field fills a link field of another name (a rename: the same message opens another URL)"
        case .mappingPointerUnresolved: return "a mapping's JSON Pointer no longer resolves in the version's schema"
        case .originAdded: return "an allowed origin was added"
        case .originRemoved: return "an allowed origin was removed: pages served from it are rejected"
        case .limitLowered: return "maxMessageBytes or maxDepth was lowered"
        case .limitRaised: return "maxMessageBytes or maxDepth was raised"
        case .duplicateWindowChanged: return "duplicateWindowMs changed"
        case .timeoutChanged: return "an action version's timeoutMs changed (the shim's reply timeout)"
        case .fallbackChanged: return "an action version's fallback outside the app changed"
        case .linkHostAdded: return "a Universal Link host was added"
        case .linkHostRemoved: return "a Universal Link host was removed"
        case .customSchemeChanged: return "the custom URL scheme changed"
        case .bridgeNameChanged: return "the bridge (message handler) name changed: pages post to the old name"
        case .routeAdded: return "a new route in routes.json"
        case .routeRemoved: return "a route was removed"
        case .routeRenamed: return "a route has a new name for the same pattern"
        case .routePatternChanged: return "a route's pattern changed"
        case .routeParameterRenamed: return "a path parameter was renamed (same pattern shape)"
        case .routeParameterTypeChanged: return "a path parameter's type changed"
        case .routeQueryFieldAdded: return "a typed query field was declared; links with other values in it are rejected"
        case .routeQueryFieldRemoved: return "a query field declaration was removed (its values are kept untyped)"
        case .routeQueryTypeChanged: return "a query field's type changed"
        case .routeQueryFieldRenamed: return "a query field was declared under another name; links already sent carry the old one"
        case .routeBehaviourChanged: return "requiresAuth, tab, list, screen or presentation changed"
        case .acceptedChangeExpired: return "an accepted change has expired: fix the contract or renew the entry"
        case .acceptedChangeUnused: return "an accepted change matches no finding"
        default: return rawValue
        }
    }

    private var boundDescription: String? {
        let parts = rawValue.split(separator: "-")
        guard let verb = parts.last, ["added", "removed", "tightened", "relaxed"].contains(verb) else { return nil }
        let keywordWords = parts.dropLast().joined(separator: "-")
        guard let keyword = FindingKind.boundKeywords[keywordWords] else { return nil }
        switch verb {
        case "added": return "\(keyword) was added"
        case "removed": return "\(keyword) was removed"
        case "tightened": return "\(keyword) now accepts less"
        default: return "\(keyword) now accepts more"
        }
    }

    static let boundKeywords: [String: String] = [
        "min-length": "minLength", "max-length": "maxLength", "min-items": "minItems", "max-items": "maxItems",
        "min-properties": "minProperties", "max-properties": "maxProperties", "minimum": "minimum",
        "maximum": "maximum", "exclusive-minimum": "exclusiveMinimum", "exclusive-maximum": "exclusiveMaximum",
        "multiple-of": "multipleOf",
    ]
}

extension FindingKind {
    /// The keywords a rejection must come from to prove this kind (the checker's output units
    /// name them), so a counterexample for "maxItems tightened" is not one that minItems
    /// rejects. nil: any error at the place proves it (the kind is about a whole subschema).
    var provingKeywords: Set<String>? {
        switch self {
        case .typeNarrowed, .typeWidened, .typeChanged: return ["type", "enum", "const", "false"]
        case .nullAcceptedThroughBranch, .nullRejectedThroughBranch: return ["type", "anyOf", "oneOf", "enum", "const"]
        case .enumAdded, .enumRemoved, .enumNarrowed, .enumWidened, .enumChanged, .constAdded, .constRemoved, .constChanged:
            return ["enum", "const"]
        case .minLengthAdded, .minLengthRemoved, .minLengthTightened, .minLengthRelaxed: return ["minLength"]
        case .maxLengthAdded, .maxLengthRemoved, .maxLengthTightened, .maxLengthRelaxed: return ["maxLength"]
        case .minItemsAdded, .minItemsRemoved, .minItemsTightened, .minItemsRelaxed: return ["minItems"]
        case .maxItemsAdded, .maxItemsRemoved, .maxItemsTightened, .maxItemsRelaxed: return ["maxItems"]
        case .minPropertiesAdded, .minPropertiesRemoved, .minPropertiesTightened, .minPropertiesRelaxed: return ["minProperties"]
        case .maxPropertiesAdded, .maxPropertiesRemoved, .maxPropertiesTightened, .maxPropertiesRelaxed: return ["maxProperties"]
        case .minimumAdded, .minimumRemoved, .minimumTightened, .minimumRelaxed,
             .exclusiveMinimumAdded, .exclusiveMinimumRemoved, .exclusiveMinimumTightened, .exclusiveMinimumRelaxed:
            return ["minimum", "exclusiveMinimum"]
        case .maximumAdded, .maximumRemoved, .maximumTightened, .maximumRelaxed,
             .exclusiveMaximumAdded, .exclusiveMaximumRemoved, .exclusiveMaximumTightened, .exclusiveMaximumRelaxed:
            return ["maximum", "exclusiveMaximum"]
        case .multipleOfAdded, .multipleOfRemoved, .multipleOfTightened, .multipleOfRelaxed, .multipleOfChanged: return ["multipleOf"]
        case .patternAdded, .patternRemoved, .patternChanged: return ["pattern"]
        case .formatAdded, .formatRemoved, .formatChanged: return ["format"]
        case .requiredAdded, .requiredAddedWithDefault, .requiredRemoved, .requiredRemovedWithDefault: return ["required"]
        case .propertyAddedToClosedObject, .propertyRemovedFromClosedObject, .objectClosed, .objectOpened:
            return ["additionalProperties", "unevaluatedProperties", "false"]
        case .dependentRequiredAdded, .dependentRequiredRemoved: return ["dependentRequired", "dependencies"]
        case .uniqueItemsAdded, .uniqueItemsRemoved: return ["uniqueItems"]
        case .notAdded, .notRemoved, .notChanged: return ["not"]
        default: return nil
        }
    }

    /// The proving keywords for a proof that `side` accepts. A list of values added where there
    /// was none also lets in values the old schema's own bounds refused (`{}` under
    /// minProperties 1), and a list removed lets in values the new one's bounds refuse: that
    /// direction is proven by the refusing side's type and bounds, not by its enum.
    func provingKeywords(acceptedBy side: Side) -> Set<String>? {
        switch (self, side) {
        case (.enumAdded, .new), (.constAdded, .new), (.enumRemoved, .old), (.constRemoved, .old):
            return (provingKeywords ?? []).union(Self.simpleConstraintKeywords)
        default:
            return provingKeywords
        }
    }

    /// The keywords `SchemaMerge.meetsSimpleConstraints` reads, and `type`.
    static let simpleConstraintKeywords: Set<String> = [
        "type", "minLength", "maxLength", "minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf",
        "minItems", "maxItems", "minProperties", "maxProperties",
    ]
}

extension FindingKind {
    /// The table of docs/contracts.md: kind, meaning, whom it breaks. A bound's four kinds
    /// (added, removed, tightened, relaxed) share a row. A test keeps the docs equal to this.
    public static var documentationTable: String {
        var rows = ["| kind | meaning | breaks |", "|---|---|---|"]
        var done = Set<FindingKind>()
        for kind in allCases where !done.contains(kind) {
            let parts = kind.rawValue.split(separator: "-")
            let stem = parts.dropLast().joined(separator: "-")
            if let keyword = boundKeywords[stem], parts.last == "added" {
                let group = ["added", "removed", "tightened", "relaxed"].compactMap { FindingKind(rawValue: stem + "-" + $0) }
                done.formUnion(group)
                let names = group.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                rows.append("| \(names) | \(keyword) added, removed, made stricter, made looser | added, tightened: old pages; removed, relaxed: old apps |")
                continue
            }
            done.insert(kind)
            rows.append("| `\(kind.rawValue)` | \(kind.meaning) | \(kind.breaks.rawValue) |")
        }
        return rows.joined(separator: "\n") + "\n"
    }
}
