// A seeded corpus of bridge messages for the agreement test of the generated validators with the
// app's C checker: valid messages of every action version, then mutated ones (missing and extra
// members, wrong types, enum and pattern misses), with Korean and astral text, lengths on both
// sides of each limit counted in code points, numbers written as 1.0, 1e2 or 10e-1, and objects
// without duplicate keys. The same seed gives the same lines, as JSON text (numbers are written
// by this module, so "1.0" and "1e2" reach both checkers as text). Object keys never hold U+0000:
// the app's parser refuses such a key before any schema (like a duplicate key), so it is not a
// validator's case; string values may hold it.

/** mulberry32: small, fast, deterministic. */
export function random(seed) {
  let state = seed >>> 0;
  const next = function () {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const rng = {
    next,
    int: (min, max) => min + Math.floor(next() * (max - min + 1)),
    chance: (p) => next() < p,
    pick: (items) => items[Math.floor(next() * items.length)],
  };
  return rng;
}

// ---------------------------------------------------------------------------------------------
// JSON text with chosen spellings of numbers.

/** A number that a message may carry in one of several spellings. */
class Spelled {
  constructor(value, text) {
    this.value = value;
    this.text = text;
  }
}

function spellings(n) {
  if (!Number.isInteger(n) || Math.abs(n) > 1e6) return [JSON.stringify(n)];
  const forms = [String(n), n + ".0", n + "e0", n + "E0", n * 10 + "e-1"];
  if (n !== 0 && n % 100 === 0) forms.push(n / 100 + "e2", n / 100 + "E+2");
  if (n === 0) forms.push("-0", "0.000", "0e5");
  return forms;
}

/** The message as JSON text; integers are spelled at random (1, 1.0, 1e0, 10e-1...). */
export function toJSON(value, rng) {
  if (value instanceof Spelled) return value.text;
  if (typeof value === "number") return rng && Number.isInteger(value) ? rng.pick(spellings(value)) : JSON.stringify(value);
  if (Array.isArray(value)) return "[" + value.map((item) => toJSON(item, rng)).join(",") + "]";
  if (value !== null && typeof value === "object") {
    return "{" + Object.keys(value).map((key) => JSON.stringify(key) + ":" + toJSON(value[key], rng)).join(",") + "}";
  }
  return JSON.stringify(value);
}

// ---------------------------------------------------------------------------------------------
// Text.

const KOREAN = "신청센디시작하기더많은차량보러가기서울경기남부빠른상담부탁드립니다감사";
const ASTRAL = ["🚚", "𝒜", "😀", "𠀀", "🇰🇷"];
const LETTERS = "abcdefghijklmnopqrstuvwxyz";
const TRICKY = ["", " ", "a b", "/", "~", "~0", "a/b~c", "\u0000", "\n", "\t", "\"", "\\", "é", "e\u0301", "\u2028", "<\/script>", "%20", "+"];

function pieceOf(rng) {
  switch (rng.int(0, 5)) {
    case 0: return rng.pick(KOREAN);
    case 1: return rng.pick(ASTRAL);
    case 2: return rng.pick(TRICKY);
    case 3: return String(rng.int(0, 9));
    default: return rng.pick(LETTERS);
  }
}

/** Text of exactly `length` code points, mixed scripts (astral characters count as one). */
export function textOf(rng, length, alphabet) {
  let text = "";
  for (let i = 0; i < length; i++) {
    if (alphabet) {
      text += rng.pick(alphabet);
      continue;
    }
    let piece = pieceOf(rng);
    while ([...piece].length !== 1) piece = pieceOf(rng);
    text += piece;
  }
  return text;
}

/** A length near a limit: the limit, one less, one more, or anything up to twice it. */
function lengthNear(rng, limit) {
  return Math.max(0, rng.pick([limit - 1, limit, limit + 1, rng.int(0, limit * 2)]));
}

const SLUG_CHARS = [..."abcdefghijklmnopqrstuvwxyz0123456789-"];
function slug(rng) {
  return rng.chance(0.85) ? textOf(rng, rng.int(1, 64), SLUG_CHARS) : rng.pick(["", "New", "a_b", "a b", textOf(rng, 65, SLUG_CHARS), "슬러그", "a/b"]);
}

function anyText(rng) {
  return rng.chance(0.5) ? textOf(rng, rng.int(0, 12)) : rng.pick(TRICKY);
}

/** A member name the app's parser accepts: any text but U+0000. */
function keyText(rng) {
  return anyText(rng).replace(/\u0000/g, "") || "k";
}

/** Any JSON value, small. */
export function anyValue(rng, depth = 0) {
  switch (rng.int(0, depth > 2 ? 5 : 7)) {
    case 0: return null;
    case 1: return rng.chance(0.5);
    case 2: return rng.int(-3, 120);
    case 3: return rng.pick([0.5, -1.25, 1e-7, 3.14, 2.5, 1e21, -0.01, 0.07]);
    case 4:
    case 5: return anyText(rng);
    case 6: return Array.from({ length: rng.int(0, 3) }, () => anyValue(rng, depth + 1));
    default: {
      const object = {};
      for (let i = rng.int(0, 3); i > 0; i--) object[keyText(rng)] = anyValue(rng, depth + 1);
      return object;
    }
  }
}

function sometimes(rng, p, good) {
  return rng.chance(p) ? good() : anyValue(rng);
}

// ---------------------------------------------------------------------------------------------
// Envelope and campaign (both contract sets share them).

const CAMPAIGN = {
  campaign_id: (rng) => rng.chance(0.7) ? textOf(rng, rng.int(1, 64), [..."Ab9_.-"]).replace(/^[_.-]/, "c") : rng.pick(["", "_x", "a b", "캠페인", textOf(rng, 65, ["a"])]),
  group_id: (rng) => textOf(rng, lengthNear(rng, rng.pick([1, 32]))),
  variant: (rng) => textOf(rng, lengthNear(rng, rng.pick([1, 64]))),
  utm_source: (rng) => textOf(rng, lengthNear(rng, rng.pick([1, 128]))),
  utm_medium: (rng) => rng.pick(["alimtalk", "push", ""]),
  utm_campaign: (rng) => textOf(rng, rng.int(0, 20)),
  utm_term: (rng) => textOf(rng, lengthNear(rng, 128)),
  utm_content: (rng) => textOf(rng, rng.int(1, 5)),
};

function campaign(rng) {
  const value = {};
  for (const name of Object.keys(CAMPAIGN)) if (rng.chance(0.2)) value[name] = sometimes(rng, 0.95, () => CAMPAIGN[name](rng));
  if (rng.chance(0.05)) value[rng.pick(["source", "utm_id", "캠페인"])] = anyText(rng);
  return value;
}

function requestId(rng) {
  if (rng.chance(0.9)) return textOf(rng, 1, [..."Ab7"]) + textOf(rng, rng.int(7, 63), [..."abcXYZ019_-"]);
  return rng.pick(["", "short", "-abcdefgh", textOf(rng, 65, ["a"]), "abcdefgh ij", "아이디아이디아이디"]);
}

function sentAt(rng) {
  return rng.pick([
    "2026-11-29T12:00:00Z", "2026-11-29T12:00:00.123+09:00", "2026-02-30T12:00:00Z", "2026-11-29 12:00:00",
    "not a date", "2026-12-31T23:59:60Z", textOf(rng, lengthNear(rng, 40), [..."2026-T:Z"]),
  ]);
}

/** An envelope around a payload; each member sometimes left out or replaced. */
function envelope(rng, action, version, payload, requiresId) {
  const message = { v: sometimes(rng, 0.98, () => 1) };
  if (requiresId || rng.chance(0.8)) message.id = sometimes(rng, 0.97, () => requestId(rng));
  message.action = rng.chance(0.97) ? action : rng.pick(["unknown_action", "Apply", "", 5, "a".repeat(33), "apply2", "probe", "start"]);
  message.version = rng.chance(0.95) ? version : rng.pick([0, 2, 3, 999, 1000, 1.5, "1", null, -1]);
  message.payload = rng.chance(0.96) ? payload : rng.pick([[], null, "x", 3, {}]);
  if (rng.chance(0.3)) message.campaign = rng.chance(0.95) ? campaign(rng) : anyValue(rng);
  if (rng.chance(0.7)) message.sentAt = rng.chance(0.8) ? "2026-11-29T12:00:00.000Z" : sometimes(rng, 0.95, () => sentAt(rng));
  return message;
}

// ---------------------------------------------------------------------------------------------
// Payloads: each field near its contract (valid or just off), sometimes anything at all.

const BUNDLED_PAYLOADS = {
  "apply 1": {
    slug: (rng) => slug(rng),
    plan: (rng) => rng.pick(["basic", "premium", "business", "gold", "Basic", ""]),
    memo: (rng) => textOf(rng, lengthNear(rng, 200)),
  },
  "view_vehicles 1": {
    vehicleType: (rng) => rng.pick(["damas", "labo", "1ton", "2.5ton", "5ton", "11ton", "Damas"]),
    region: (rng) => textOf(rng, lengthNear(rng, rng.pick([1, 40]))),
    sort: (rng) => rng.pick(["recommended", "price", "distance", "newest"]),
    page: (rng) => rng.pick([rng.int(-1, 102), 1, 100, 101, 0, 2.5, "2", 1e2]),
    from: (rng) => slug(rng),
  },
  "start 1": {
    referrer: (rng) => slug(rng),
    promoCode: (rng) => rng.chance(0.8) ? textOf(rng, lengthNear(rng, rng.pick([4, 16])), [..."ABZ09"]) : rng.pick(["welcome", "WELCOME 1", "프로모션코드"]),
  },
};

const UUID = "3f1c2a9e-7b4d-4c1a-9e2f-0a1b2c3d4e5f";
const WIDE_PAYLOADS = {
  "apply 1": BUNDLED_PAYLOADS["apply 1"],
  "apply 2": {
    slug: (rng) => slug(rng),
    plan: (rng) => rng.pick(["basic", "gold", "premium"]),
    seats: (rng) => rng.int(0, 10),
  },
  "probe 1": {
    kind: (rng) => rng.pick(["a", "b", "c", 1, 2.5, 2, null, true, false, { x: [1, 2] }, { x: [1, 2, 3] }, { x: [2, 1] }, [1, "1"], ["1", 1], [1, 1]]),
    mode: (rng) => rng.pick([{ k: [1, { z: null }] }, { k: [1, { z: 0 }] }, { k: [1, { z: null }], j: 1 }, { k: [1] }, JSON.parse('{"k":[1,{"z":null}]}')]),
    count: (rng) => rng.pick([rng.int(-8, 55), 3 * rng.int(-2, 17), 48, 51, -6, 4.5, 3.0000001]),
    ratio: (rng) => rng.pick([0, -0.01, 0.01 * rng.int(0, 160), 1.5, 1.51, 0.07, 0.1 + 0.2, 1e-3, 0.3, 1.4999999999]),
    label: (rng) => rng.chance(0.7) ? textOf(rng, lengthNear(rng, rng.pick([2, 5])), [..."a가𝒜 1", "🚚"]) : anyText(rng),
    when: (rng) => rng.pick(["2026-11-29T12:00:00Z", "2026-11-29t12:00:00z", "2026-12-31T23:59:60Z", "2026-12-31T22:59:60-01:00",
      "2026-12-31T23:59:60+09:00", "2024-02-29T00:00:00.5+00:00", "2023-02-29T00:00:00Z", "2026-11-29T12:00:00", "2026-11-29T24:00:00Z", "2026-11-29T12:00:00+9:00"]),
    day: (rng) => rng.pick(["2026-01-31", "2026-04-31", "2000-02-29", "1900-02-29", "2026-1-01", 20260101, "２０２６-01-01"]),
    clock: (rng) => rng.pick(["12:00:00Z", "12:00:00", "23:59:60Z", "12:00:00.Z", "12:00:00.25-05:30", "1:00:00Z"]),
    span: (rng) => rng.pick(["P1D", "PT1H", "P1Y2M3DT4H5M6S", "P", "PT", "P1W", "P1Y1W", "P1D2M", "PT1S2H", "1D"]),
    token: (rng) => rng.pick([UUID, UUID.toUpperCase(), UUID.slice(1), UUID.replace(/-/g, ""), "zz" + UUID.slice(2), 7]),
    pointer: (rng) => rng.pick(["", "/a", "/a~1b", "/a~2", "a", "/~", "/한글"]),
    hop: (rng) => rng.pick(["0", "1#", "01", "2/a", "#", "-1", "3/a~0"]),
    tags: (rng) => Array.from({ length: rng.int(0, 5) }, () => rng.pick(["a", "bb", "ccc", "dddd", "가", "🚚🚚🚚", 1])),
    pair: (rng) => rng.pick([[1, "a"], [1.0, "b"], ["1", "a"], [1, "a", 2], [1], [], [2.5, "x"]]),
    tuple: (rng) => Array.from({ length: rng.int(0, 3) }, () => anyValue(rng)),
    bag: (rng) => {
      const bag = {};
      for (let i = rng.int(0, 4); i > 0; i--) bag[rng.pick(["x-a", "x-bb", "12", "3", "ab", "toolong", "a/b", "~", "x-"])] = rng.pick([1, 2.5, "s", true, null]);
      return bag;
    },
    choice: (rng) => rng.pick(["", "ab", "abc", 9, 10, 11.5, 10.0, null]),
    single: (rng) => rng.pick([1, 4.5, 5, 5.5, "s", "t", 6]),
    both: (rng) => rng.pick([-1, 0, 0.5, 10, 10.5, 12, "1"]),
    never: (rng) => rng.pick(["x", 1, null, []]),
    cond: (rng) => rng.pick(["ab", "abc", "한글로", 3, 3.5, null, true]),
    list: (rng) => Array.from({ length: rng.int(0, 6) }, () => rng.pick([7, 7, 7.0, 8, "7"])),
    some: (rng) => Array.from({ length: rng.int(0, 3) }, () => rng.pick([1, "s", null])),
    chain: (rng) => {
      function node(depth) {
        const value = {};
        if (rng.chance(0.9)) value.value = rng.pick([1, 2, 2.5, "3"]);
        if (depth < 3 && rng.chance(0.6)) value.next = node(depth + 1);
        if (rng.chance(0.1)) value.extra = true;
        return value;
      }
      return node(0);
    },
    deps: (rng) => {
      const deps = {};
      for (const key of ["a", "b", "c", "d", "e", "f", "g"]) if (rng.chance(0.4)) deps[key] = 1;
      return deps;
    },
    names: (rng) => rng.pick([{}, { a: 1 }, []]),
    off: (rng) => anyValue(rng),
    on: (rng) => anyValue(rng),
  },
};

function payload(rng, fields) {
  const value = {};
  for (const name of Object.keys(fields)) if (rng.chance(0.45)) value[name] = sometimes(rng, 0.9, () => fields[name](rng));
  if (rng.chance(0.06)) value[rng.pick(["extra", "Slug", "slug ", "a/b", "~x"])] = anyValue(rng);
  return value;
}

/**
 * `count` messages (JSON text, one per line) for the actions of `contracts` ("bundled" or
 * "wide"), from `seed`. About one in twenty-five is not even an object.
 */
export function corpus(contracts, count, seed) {
  const rng = random(seed);
  const fields = contracts === "wide" ? WIDE_PAYLOADS : BUNDLED_PAYLOADS;
  const versions = Object.keys(fields);
  const lines = [];
  for (let i = 0; i < count; i++) {
    let message;
    if (rng.chance(0.04)) {
      message = rng.pick([[], [1], "apply", 1, null, true, { v: 1 }]);
    } else {
      const [action, version] = rng.pick(versions).split(" ");
      const body = payload(rng, fields[action + " " + version]);
      message = envelope(rng, action, Number(version), body, action === "apply");
      if (rng.chance(0.04)) message[rng.pick(["extra", "ID", "sentat"])] = anyValue(rng);
      if (rng.chance(0.03)) delete message[rng.pick(["v", "action", "version", "payload"])];
    }
    lines.push(toJSON(message, rng));
  }
  return lines;
}

export { Spelled };
