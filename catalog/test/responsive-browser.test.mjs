// The catalog, the link builder and the funnel page on phones and on a desktop, in Debian's headless
// Chromium (cdp.mjs): at 360, 390 and 430 px (emulated phones) and 1280 px, no page scrolls sideways,
// the link builder's inputs take the full width on a phone, and Korean breaks between words
// (word-break: keep-all), not between syllables. Screenshots of every page at 390 and 1280 px go
// to $CI_ARTIFACTS/responsive/ (default .build/ci-artifacts/responsive/) for people to look at.
//
// Run by `make catalog-test` (part of `make test`). Without bridgectl or chromium it FAILS saying so.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { Browser } from "./cdp.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const bridgectl = process.env.BRIDGECTL || path.join(repoRoot, ".build", "debug", "bridgectl");
const artifacts = path.join(process.env.CI_ARTIFACTS || path.join(repoRoot, ".build", "ci-artifacts"), "responsive");
const phones = [360, 390, 430];
const desktop = 1280;
const screenshotWidths = new Set([390, desktop]);

let out;
let browser;
let pages = [];

function htmlFiles(folder, prefix = "") {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) found.push(...htmlFiles(full, prefix + name + "/"));
    else if (name.endsWith(".html")) found.push(prefix + name);
  }
  return found;
}

before(async () => {
  assert.ok(existsSync(bridgectl), `no bridgectl at ${bridgectl}: run swift build (or set BRIDGECTL)`);
  out = mkdtempSync(path.join(tmpdir(), "bridgekit-responsive-"));
  const docs = spawnSync(bridgectl, ["docs", "--contracts", path.join(repoRoot, "contracts"), "--out", path.join(out, "catalog")], { encoding: "utf8" });
  assert.equal(docs.status, 0, docs.stderr);
  const funnel = spawnSync(bridgectl, ["funnel", "--contracts", path.join(repoRoot, "contracts"), path.join(repoRoot, "docs", "examples", "funnel-events.ndjson"),
    "--html", path.join(out, "funnel.html")], { encoding: "utf8" });
  assert.equal(funnel.status, 0, funnel.stderr);
  pages = htmlFiles(path.join(out, "catalog")).map((file) => ({ name: "catalog/" + file, url: pathToFileURL(path.join(out, "catalog", file)).href }));
  pages.push({ name: "funnel.html", url: pathToFileURL(path.join(out, "funnel.html")).href });
  browser = await Browser.launch();
});

after(async () => {
  if (browser) await browser.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

/** What the page looks like at this width: how wide its content is, and the link builder's fields. */
const measure = `(() => {
  const root = document.documentElement;
  const wide = Array.from(document.querySelectorAll("body *")).filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
    .slice(0, 5).map((element) => element.tagName.toLowerCase() + (element.id ? "#" + element.id : "") + (element.className ? "." + String(element.className).split(" ")[0] : ""));
  const form = document.querySelector("form#link-builder");
  const fields = form ? Array.from(form.querySelectorAll("input[type=text], select")).map((field) => ({
    name: field.name || field.id, width: field.getBoundingClientRect().width, formWidth: form.clientWidth })) : [];
  const selects = form ? Array.from(form.querySelectorAll("select option:checked")).map((option) => option.textContent) : [];
  return { scrollWidth: root.scrollWidth, innerWidth: window.innerWidth, wide, fields, selects,
    wordBreak: getComputedStyle(document.body).wordBreak };
})()`;

for (const width of [...phones, desktop]) {
  describe(`every page at ${width} px`, () => {
    let page;
    before(async () => {
      page = await browser.newPage({ width, height: width === desktop ? 900 : 844, mobile: width !== desktop });
    });

    test("scrolls no page sideways, and breaks Korean between words", async () => {
      assert.ok(pages.length > 3, "the catalog has pages");
      for (const { name, url } of pages) {
        page.errors.length = 0;
        await page.goto(url);
        const shown = await page.evaluate(measure);
        assert.ok(shown.scrollWidth <= shown.innerWidth, `${name} at ${width} px is ${shown.scrollWidth} px wide: ${shown.wide.join(", ")}`);
        assert.equal(shown.wordBreak, "keep-all", `${name}: Korean must break between words`);
        assert.deepEqual(page.errors, [], `${name}: console errors`);
        if (screenshotWidths.has(width)) {
          mkdirSync(artifacts, { recursive: true });
          writeFileSync(path.join(artifacts, name.replace(/[\/]/g, "-").replace(/\.html$/, "") + `-${width}.png`), await page.screenshot());
        }
      }
    });

    if (width !== desktop) {
      test("gives the link builder's inputs the full width of the form", async () => {
        const builder = pages.find((entry) => entry.name === "catalog/link-builder.html");
        assert.ok(builder, "the catalog has a link builder page");
        await page.goto(builder.url);
        const shown = await page.evaluate(measure);
        assert.ok(shown.fields.length > 3, "the form has fields");
        for (const field of shown.fields) {
          // The form's padding on both sides is all the room a field may leave.
          assert.ok(field.width >= field.formWidth - 2 * 16 - 1, `${field.name} is ${Math.round(field.width)} px of a ${field.formWidth} px form`);
        }
      });
    }
  });
}
