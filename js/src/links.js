// links.js: the Universal Link of a destination, built with the URL rules the app shares
// (link-rules.js), so a fallback link equals `bridgectl link build` output; and the warnings about
// the page's campaign, worded as the app words them. The shim imports it when a page first asks
// for a link or the warnings, or a call first falls back (fallback.js): a page that only calls
// the app never loads it. Plain ES2017.

import { BridgeError, versionEntry, own } from "./errors.js";
import { PARAMETER_RULES, encodeComponent, readCampaignFromObject, readCampaignFromURL } from "./link-rules.js";

// A number in plain decimal, as the app writes it into a URL: never an exponent (1e-7 is
// 0.0000001), the shortest digits that read back as the same number.
function plainNumber(value) {
  const text = String(value);
  const match = /^(-?)(\d)(?:\.(\d+))?e([+-]\d+)$/.exec(text);
  if (!match) return text;
  const digits = match[2] + (match[3] || "");
  const point = 1 + Number(match[4]);
  if (point <= 0) return match[1] + "0." + "0".repeat(-point) + digits;
  if (point >= digits.length) return match[1] + digits + "0".repeat(point - digits.length);
  return match[1] + digits.slice(0, point) + "." + digits.slice(point);
}

function pointerValue(root, pointer) {
  let current = root;
  for (const raw of pointer.split("/").slice(1)) {
    const token = raw.replace(/~1/g, "/").replace(/~0/g, "~");
    if (own(current, token) === undefined) return undefined;
    current = current[token];
  }
  return current;
}

const invalidParam = (pointer, message) => new BridgeError("INVALID_PARAMS", pointer + ": " + message, [{ instanceLocation: pointer, error: message }]);

// The text a payload value has in a URL (strings as they are, numbers in decimal, booleans as
// words), percent-encoded once; "" for an empty string. field: [name, pointer, type].
function fieldText(value, field) {
  const kind = typeof value;
  const text = kind === "string" ? value : kind === "number" && isFinite(value) ? plainNumber(value) : kind === "boolean" ? String(value) : null;
  if (text === null) throw invalidParam(field[1], "a " + (value === null ? "null" : kind) + " cannot be put into a link");
  const rule = PARAMETER_RULES[field[2]] || PARAMETER_RULES.string;
  if (text !== "" && !rule(text)) throw invalidParam(field[1], JSON.stringify(text) + " is not a valid " + field[2]);
  return encodeChecked(text, field[1]);
}

function encodeChecked(text, pointer) {
  try {
    return encodeComponent(text);
  } catch (error) {
    throw invalidParam(pointer, "contains a lone surrogate, which has no UTF-8 form");
  }
}

/**
 * webBaseURL + the route pattern with parameters filled + the query in the manifest's order,
 * then the campaign fields in the fixed order. Throws INVALID_PARAMS when it cannot be built.
 */
export function linkFromMessage(contract, entry, message, campaign) {
  if (entry.handler === "custom") throw new BridgeError("UNAVAILABLE", message.action + " is answered by the app's code: it has no link");
  let path = "";
  for (const segment of entry.pattern.split("/")) {
    if (segment === "") continue;
    if (segment.charAt(0) !== ":") {
      path += "/" + encodeComponent(segment);
      continue;
    }
    const field = entry.parameters.filter((candidate) => candidate[0] === segment.slice(1))[0];
    const value = pointerValue(message, field[1]);
    if (value === undefined) throw invalidParam(field[1], "is required to build the link to " + entry.route);
    const text = fieldText(value, field);
    if (text === "") throw invalidParam(field[1], "is empty, and " + entry.route + " needs it in its path");
    path += "/" + text;
  }
  const items = [];
  for (const field of entry.query) {
    const value = pointerValue(message, field[1]);
    const text = value === undefined || value === null ? "" : fieldText(value, field);
    if (text !== "") items.push(encodeComponent(field[0]) + "=" + text);
  }
  for (const field of campaign ? contract.campaignRules.fields : []) {
    const value = campaign[field.name];
    if (typeof value === "string" && value !== "") items.push(encodeComponent(field.name) + "=" + encodeChecked(value, "/campaign/" + field.name));
  }
  return contract.webBaseURL + (path || "/") + (items.length ? "?" + items.join("&") : "");
}

/**
 * The Universal Link of an action's destination for a payload, as the fallback opens it.
 * With `campaign`, the campaign fields ride along; without, it is the `url` a reply carries.
 */
export function buildUniversalLinkFor(table, action, version, payload, campaign) {
  const found = versionEntry(table, action, version);
  const message = { v: table.envelope, action: action, version: found.version, payload: payload === undefined ? {} : payload };
  return linkFromMessage(table, found.contract, message, campaign || null);
}

/**
 * The warnings about a page's campaign (its URL, or the object a page passed instead): the
 * values the shim dropped and why, as the app's LinkValueTidying words them.
 */
export function campaignWarningsFor(contract, source) {
  if (typeof source === "string") return readCampaignFromURL(contract.campaignRules, source).warnings;
  if (source && typeof source === "object") return readCampaignFromObject(contract.campaignRules, source).warnings;
  return Object.freeze([]);
}
