// The formats the generated validators assert (RFC 3339 and its Appendix A durations, RFC 4122
// UUIDs, RFC 6901 pointers), each bound tried at its edge and one past it.
import assert from "node:assert/strict";
import { test } from "node:test";
import { FORMATS, isMultipleOf } from "../src/schema-runtime.js";

function judged(format, cases) {
  for (const [text, expected] of cases) {
    assert.equal(FORMATS[format](text), expected, `${format} ${JSON.stringify(text)}`);
  }
}

test("date: months 1 to 12, days up to the month's length, February 29 in leap years only", () => {
  judged("date", [
    ["2026-01-31", true], ["2026-01-32", false], ["2026-00-10", false], ["2026-12-01", true], ["2026-13-01", false],
    ["2026-04-30", true], ["2026-04-31", false], ["2026-01-00", false], ["2026-01-01", true],
    ["2024-02-29", true], ["2026-02-29", false], ["2026-02-28", true], ["1900-02-29", false], ["2000-02-29", true],
    ["2026-1-01", false], ["2026-01-011", false], ["2026/01/01", false], ["2026-0a-01", false],
  ]);
});

test("time: hours to 23, minutes to 59, second 60 only at 23:59 UTC, an offset or Z required", () => {
  judged("time", [
    ["23:59:59Z", true], ["24:00:00Z", false], ["00:59:00Z", true], ["00:60:00Z", false],
    ["23:59:60Z", true], ["23:58:60Z", false], ["23:59:61Z", false],
    ["08:59:60+09:00", true], ["08:59:60+08:00", false], ["18:59:60-05:00", true],
    ["12:00:00+23:59", true], ["12:00:00+24:00", false], ["12:00:00+00:60", false],
    ["12:00:00.5Z", true], ["12:00:00.Z", false], ["12:00:00", false], ["12:00:00z", true],
    ["12:00:00+0900", false], ["12:00:00+09:00x", false],
  ]);
});

test("date-time: a date, T (either case), a time", () => {
  judged("date-time", [
    ["2026-12-07T15:00:00Z", true], ["2026-12-07t15:00:00Z", true], ["2026-12-07 15:00:00Z", false],
    ["2026-12-32T15:00:00Z", false], ["2026-12-07T15:00:00", false], ["2026-12-07T", false],
  ]);
});

test("duration: units in order, each once; weeks alone; a T only before time units", () => {
  judged("duration", [
    ["P3W", true], ["P1W", true], ["PW", false], ["P1W2D", false], ["P", false], ["PT", false],
    ["P1Y2M3D", true], ["P1D", true], ["PT1H", true], ["P1DT2H3M4S", true], ["PT36H", true],
    ["P1H", false], ["P2M1Y", false], ["P1Y1Y", false], ["P1YT", false], ["P1Y2D", false], ["PT1H2S", false],
    ["P1DT", false], ["1D", false], ["P1.5D", false], ["p1D", false],
  ]);
});

test("uuid: 8-4-4-4-12 hexadecimal digits, either case", () => {
  judged("uuid", [
    ["3f1c2a9e-0b1d-4c2e-9f00-aabbccddeeff", true], ["3F1C2A9E-0B1D-4C2E-9F00-AABBCCDDEEFF", true],
    ["3f1c2a9e-0b1d-4c2e-9f00-aabbccddeef", false], ["3f1c2a9e-0b1d-4c2e-9f00-aabbccddeeff0", false],
    ["3f1c2a9e0b1d-4c2e-9f00-aabbccddeeff", false], ["3f1c2a9g-0b1d-4c2e-9f00-aabbccddeeff", false],
  ]);
});

test("json-pointer: empty, or slash-led tokens where ~ is only ~0 or ~1", () => {
  judged("json-pointer", [
    ["", true], ["/", true], ["/a/b", true], ["/a~0b", true], ["/a~1b", true], ["/a~2b", false], ["/a~", false], ["a", false],
  ]);
});

test("relative-json-pointer: a number without leading zeros, then # or a pointer", () => {
  judged("relative-json-pointer", [
    ["0", true], ["1/a", true], ["10#", true], ["01", false], ["#", false], ["1#/a", false], ["2/a~2", false], ["", false],
  ]);
});

// multipleOf where value / divisor overflows to Infinity: the checker's verdicts (bridgectl
// validate --schema on {"multipleOf": D}), so the page refuses what the app refuses.
test("multipleOf with a quotient past the largest double decides as the checker does", () => {
  const cases = [
    [0.5, 1e-320, false], [3, 1e-320, true], [1e308, 1e-320, true],
    [1e308, 0.3, false], [1e308, 0.5, true], [-1e308, 0.25, true],
    [0.5, 0.3, false], [3, 0.3, true], [0.5, 1e-300, true],
  ];
  for (const [value, divisor, expected] of cases) {
    assert.equal(isMultipleOf(value, divisor), expected, `${value} multipleOf ${divisor}`);
  }
});
