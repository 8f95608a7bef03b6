// link-builder.js: builds a link exactly as `bridgectl link build` does (DeeplinkURLBuilder.link
// and LinkValueTidying on the Swift side): each value tidied with the same warnings, then checked
// against its parameter type or the contract's campaign rules, then encoded once. Used by the
// contract catalog's link builder page (loaded there as a classic script after link-rules.js, so
// its only import is link-rules.js); the shim does not load it. Plain ES2017.

import {
  CAMPAIGN_ORDER, COMPOSED_FORM, PARAMETER_RULES, WHITESPACE_REMOVED, campaignViolation, composed, controlWarning,
  encodeComponent, firstControl, looksEncoded, plainText, refusal, shown, trimmed
} from "./link-rules.js";

const PARAMETER_WORDS = {
  string: "any non-empty text",
  int: "digits only, no sign, at most 9223372036854775807",
  uuid: "8-4-4-4-12 hexadecimal digits",
  slug: "1 to 64 lower-case letters a-z, digits and hyphens"
};

/** "1 to 64 lower-case letters a-z, digits and hyphens", for a parameter type. */
function parameterRuleWords(type) {
  return PARAMETER_WORDS[type] || PARAMETER_WORDS.string;
}

function alreadyEncodedWarning(value) {
  const plain = plainText(value);
  return shown(value) + " looks percent-encoded already, and it is encoded again (% becomes %25)" +
    (plain !== null ? "; if you meant " + shown(plain) + ", give that instead" : "");
}

/** Why a link could not be built, worded as `bridgectl link build` words it. kind: "usage" | "invalid". */
export class LinkError extends Error {
  constructor(kind, message) {
    super(message);
    this.name = "LinkError";
    this.kind = kind;
  }
}

/**
 * A value given to the builder: trimmed, composed, then warned about; with `strict`, a value that
 * looks encoded already is refused. Returns {value, warnings: [{field, message}]}.
 */
export function tidyValue(given, field, strict) {
  const warnings = [];
  if (given === "") return { value: given, warnings: warnings };
  let value = given;
  const trim = trimmed(value);
  if (trim.removed) {
    value = trim.text;
    warnings.push({ field: field, message: WHITESPACE_REMOVED });
  }
  const nfc = composed(value);
  if (nfc !== value) {
    value = nfc;
    warnings.push({ field: field, message: COMPOSED_FORM });
  }
  const control = firstControl(value);
  if (control >= 0) warnings.push({ field: field, message: controlWarning(control) });
  if (looksEncoded(value)) {
    if (strict) {
      const plain = plainText(value);
      throw new LinkError("invalid", field + ": " + shown(value) + " looks percent-encoded already" +
        (plain !== null ? "; give the plain text (" + shown(plain) + ") instead" : ""));
    }
    warnings.push({ field: field, message: alreadyEncodedWarning(value) });
  }
  return { value: value, warnings: warnings };
}

// The link builder (DeeplinkURLBuilder.link), for a table of routes:
// {webBaseURL, customScheme, routes: [{name, pattern, parameters: {name: type}, query: [[name, type]]}], campaignRules}

function list(names) {
  return names.length === 0 ? "none" : names.join(", ");
}

function badValue(field, value, type) {
  return new LinkError("invalid", field + ": \"" + value + "\" is not a valid " + type + " (" + parameterRuleWords(type) + ")");
}

function patternSegments(pattern) {
  return pattern.split("/").filter(function (segment) { return segment !== ""; });
}

/**
 * The link for `routeName`, exactly as `bridgectl link build` prints it: {url, warnings}. Each
 * value is tidied (tidyValue), then checked: path and query values against their types, campaign
 * values against the rules. `campaign` maps field names (campaign_id, group_id, variant, utm_*) to
 * values; options: {scheme: "https" | "custom", strict}. Throws LinkError.
 */
export function buildLink(table, routeName, parameters, query, campaign, options) {
  const settings = options || {};
  const route = table.routes.filter(function (candidate) { return candidate.name === routeName; })[0];
  if (!route) throw new LinkError("usage", "unknown route \"" + routeName + "\" (routes: " + list(table.routes.map(function (r) { return r.name; })) + ")");
  const warnings = [];
  function tidy(value, field) {
    const result = tidyValue(value, field, settings.strict === true);
    result.warnings.forEach(function (warning) { warnings.push(warning); });
    return result.value;
  }
  const parameterNames = patternSegments(route.pattern).filter(function (s) { return s.charAt(0) === ":"; }).map(function (s) { return s.slice(1); });
  const clean = {};
  Object.keys(parameters).sort().forEach(function (name) { clean[name] = tidy(parameters[name], "path." + name); });
  const declared = route.query.map(function (field) { return field[0]; });
  const order = declared.filter(function (name) { return Object.prototype.hasOwnProperty.call(query, name); })
    .concat(Object.keys(query).sort().filter(function (name) { return declared.indexOf(name) < 0; }));
  const cleanQuery = {};
  order.forEach(function (name) { cleanQuery[name] = query[name].map(function (value) { return tidy(value, "query." + name); }); });

  Object.keys(clean).sort().forEach(function (given) {
    if (parameterNames.indexOf(given) < 0) {
      throw new LinkError("usage", "route " + routeName + " has no parameter \"" + given + "\" (parameters: " + list(parameterNames) + ")");
    }
  });
  parameterNames.forEach(function (name) {
    if (!Object.prototype.hasOwnProperty.call(clean, name)) {
      throw new LinkError("usage", "route " + routeName + " needs parameter \"" + name + "\" (parameters: " + list(parameterNames) + ")");
    }
    const type = route.parameters[name] || "string";
    if (!(PARAMETER_RULES[type] || PARAMETER_RULES.string)(clean[name])) throw badValue("path." + name, clean[name], type);
  });
  Object.keys(cleanQuery).sort().forEach(function (given) {
    if (declared.indexOf(given) < 0) {
      throw new LinkError("usage", "route " + routeName + " has no query field \"" + given + "\" (query fields: " + list(declared) + ")");
    }
  });
  const items = [];
  route.query.forEach(function (field) {
    const values = (cleanQuery[field[0]] || []).filter(function (value) { return value !== ""; });
    values.forEach(function (value) {
      if (!(PARAMETER_RULES[field[1]] || PARAMETER_RULES.string)(value)) throw badValue("query." + field[0], value, field[1]);
    });
    values.forEach(function (value) { items.push([field[0], value]); });
  });
  const given = campaign || {};
  const standard = CAMPAIGN_ORDER;
  Object.keys(given).sort().forEach(function (name) {
    if (standard.indexOf(name) < 0 && (name.indexOf("utm_") !== 0 || name.length <= 4)) {
      throw new LinkError("usage", "campaign field \"" + name + "\": utm keys are \"utm_\" followed by a name, e.g. utm_source");
    }
  });
  standard.concat(Object.keys(given).sort().filter(function (name) { return standard.indexOf(name) < 0; })).forEach(function (name) {
    if (!Object.prototype.hasOwnProperty.call(given, name) || given[name] === "") return;
    const value = tidy(given[name], "campaign." + name);
    if (value === "") return;
    const violation = campaignViolation(table.campaignRules, name, value);
    if (violation !== null) throw new LinkError("invalid", "campaign." + name + ": " + refusal(violation, value));
    items.push([name, value]);
  });
  const path = "/" + patternSegments(route.pattern).map(function (segment) {
    return segment.charAt(0) === ":" ? encodeComponent(clean[segment.slice(1)]) : encodeComponent(segment);
  }).join("/");
  const queryText = items.length === 0 ? "" : "?" + items.map(function (item) { return encodeComponent(item[0]) + "=" + encodeComponent(item[1]); }).join("&");
  const url = settings.scheme === "custom" ? table.customScheme + "://" + path.slice(1) + queryText : table.webBaseURL + path + queryText;
  return { url: url, warnings: warnings };
}
