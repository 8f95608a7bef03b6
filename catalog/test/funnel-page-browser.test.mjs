// The page of `bridgectl funnel --html` in a real browser (Debian's headless Chromium over the
// DevTools protocol, cdp.mjs, as the catalog's tests): loaded as XHTML, so Chromium's XML parser
// refuses markup that is not well-formed; the bars have the widths their rates say; nothing
// outside the file is requested; a screenshot is saved for people ($CI_ARTIFACTS/funnel-page.png).
//
// Run by `make catalog-test` (part of `make test`). Without bridgectl or chromium it FAILS.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, test } from "node:test";
import { Browser } from "./cdp.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const bridgectl = process.env.BRIDGECTL || path.join(repoRoot, ".build", "debug", "bridgectl");
const artifacts = process.env.CI_ARTIFACTS || path.join(repoRoot, ".build", "ci-artifacts");
const log = path.join(repoRoot, "docs", "examples", "funnel-events.ndjson");

let out;
let browser;
let page;

before(async () => {
  assert.ok(existsSync(bridgectl), `no bridgectl at ${bridgectl}: run swift build (or set BRIDGECTL)`);
  out = mkdtempSync(path.join(tmpdir(), "bridgekit-funnel-"));
  const done = spawnSync(bridgectl, ["funnel", log, "--html", path.join(out, "funnel.html")], { encoding: "utf8" });
  assert.equal(done.status, 0, done.stderr);
  // The same bytes under .xhtml: Chromium then parses with its XML parser.
  copyFileSync(path.join(out, "funnel.html"), path.join(out, "funnel.xhtml"));
  browser = await Browser.launch();
  page = await browser.newPage({ width: 1100, height: 900 });
});

after(async () => {
  if (browser) await browser.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

test("the page is well-formed XHTML with SVG: the XML parser reports no error", async () => {
  await page.goto(pathToFileURL(path.join(out, "funnel.xhtml")).href);
  const found = await page.evaluate(`({
    parserErrors: document.getElementsByTagName("parsererror").length,
    svgs: document.getElementsByTagNameNS("http://www.w3.org/2000/svg", "svg").length,
    contentType: document.contentType
  })`);
  assert.equal(found.contentType, "application/xhtml+xml");
  assert.equal(found.parserErrors, 0);
  // A bar chart per metric, and the time axis.
  assert.equal(found.svgs, 5);
});

test("as HTML: no console error, styled, each bar as wide as its rate, no request outside the file", async () => {
  page.errors.length = 0;
  await page.goto(pathToFileURL(path.join(out, "funnel.html")).href);
  const found = await page.evaluate(`({
    title: document.title,
    background: getComputedStyle(document.querySelector("section")).backgroundColor,
    charts: Array.from(document.querySelectorAll("svg")).map((svg) => ({
      title: svg.querySelector("title").textContent,
      bars: Array.from(svg.querySelectorAll("rect:nth-of-type(2n)")).map((rect) => rect.getBBox().width),
      values: Array.from(svg.querySelectorAll("text.value")).map((text) => text.textContent)
    })),
    resources: performance.getEntriesByType("resource").map((entry) => entry.name)
  })`);
  assert.deepEqual(page.errors, []);
  assert.equal(found.title, `Funnel: ${log}`);
  assert.equal(found.background, "rgb(255, 255, 255)", "the inline stylesheet applies");
  assert.deepEqual(found.resources, []);
  const reach = found.charts[0];
  assert.equal(reach.title, "target-screen reach");
  // all 4/6, then the groups in order: push A 2/2, push B 0/2, kakaotalk A 1/1, kakaotalk B 1/1.
  assert.deepEqual(reach.values, ["66.7% (4/6)", "100.0% (2/2)", "0.0% (0/2)", "100.0% (1/1)", "100.0% (1/1)"]);
  assert.deepEqual(reach.bars, [240, 360, 0, 360, 360]);
  assert.deepEqual(found.charts[1].values[0], "16.7% (1/6)");
  assert.deepEqual(found.charts[2].values, ["50.0% (1/2)", "100.0% (1/1)", "0.0% (0/1)", "- (0/0)", "- (0/0)"]);
});

test("the time axis: a line per metric over the UTC days, and the notes the text output gives", async () => {
  const found = await page.evaluate(`({
    axis: document.querySelector("svg.time-axis").getBoundingClientRect().width,
    lines: document.querySelectorAll("svg.time-axis polyline").length,
    days: Array.from(document.querySelectorAll("section.days td:first-child")).map((cell) => cell.textContent),
    text: document.body.textContent
  })`);
  assert.ok(found.axis > 0, "the time axis is drawn");
  assert.equal(found.lines, 4);
  assert.deepEqual(found.days, ["2025-12-01"]);
  assert.match(found.text, /2 signed in/);
  assert.match(found.text, /missing at screen_view 1/);
  assert.match(found.text, /not significant at 5%/);
});

test("a screenshot of the page, for people to look at", async () => {
  mkdirSync(artifacts, { recursive: true });
  const png = await page.screenshot();
  assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "a PNG");
  writeFileSync(path.join(artifacts, "funnel-page.png"), png);
});
