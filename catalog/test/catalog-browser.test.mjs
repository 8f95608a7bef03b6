// The contract catalog (`bridgectl docs`) in a real browser: Debian's headless Chromium, driven
// over the DevTools protocol (cdp.mjs). Every page loads from file:// with no console error and
// no broken internal link; the link builder's output equals `bridgectl link build` byte for byte
// for a table of inputs, and so do its warnings and refusals; screenshots of the index and of one
// action page are saved for people to look at ($CI_ARTIFACTS, default .build/ci-artifacts/).
//
// Run by `make catalog-test` (part of `make test`), which installs chromium and a Korean font.
// Without the bridgectl binary or chromium these tests FAIL saying what is missing; never skip.
import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { after, before, describe, test } from "node:test";
import { Browser } from "./cdp.mjs";

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..", "..");
const bridgectl = process.env.BRIDGECTL || path.join(repoRoot, ".build", "debug", "bridgectl");
const artifacts = process.env.CI_ARTIFACTS || path.join(repoRoot, ".build", "ci-artifacts");
const hostile = JSON.parse(readFileSync(path.join(repoRoot, "Tests", "shared", "hostile-link-values.json"), "utf8"));

let out;
let browser;
let page;

function run(args) {
  return spawnSync(bridgectl, args, { encoding: "utf8" });
}

before(async () => {
  assert.ok(existsSync(bridgectl), `no bridgectl at ${bridgectl}: run swift build (or set BRIDGECTL)`);
  out = mkdtempSync(path.join(tmpdir(), "bridgekit-catalog-"));
  const docs = run(["docs", "--out", out]);
  assert.equal(docs.status, 0, docs.stderr);
  browser = await Browser.launch();
  page = await browser.newPage();
});

after(async () => {
  if (browser) await browser.close();
  if (out) rmSync(out, { recursive: true, force: true });
});

function htmlFiles(folder, prefix = "") {
  const found = [];
  for (const name of readdirSync(folder).sort()) {
    const full = path.join(folder, name);
    if (statSync(full).isDirectory()) found.push(...htmlFiles(full, prefix + name + "/"));
    else if (name.endsWith(".html")) found.push(prefix + name);
  }
  return found;
}

describe("every catalog page in Chromium", () => {
  test("loads from file:// with no console error, and every internal link, stylesheet and script resolves", async () => {
    const root = pathToFileURL(out + path.sep).href;
    const visited = new Map(); // page path -> ids on it
    const links = []; // [from, href]
    const queue = ["index.html"];
    while (queue.length > 0) {
      const relative = queue.shift();
      if (visited.has(relative)) continue;
      page.errors.length = 0;
      await page.goto(root + relative);
      const found = await page.evaluate(`({
        ids: Array.from(document.querySelectorAll("[id]")).map((element) => element.id),
        hrefs: Array.from(document.querySelectorAll("a[href]")).map((a) => a.href),
        assets: Array.from(document.querySelectorAll("link[href]")).map((l) => l.href)
          .concat(Array.from(document.querySelectorAll("script[src]")).map((s) => s.src)),
        styled: getComputedStyle(document.querySelector("header.site")).backgroundColor,
        title: document.title
      })`);
      assert.deepEqual(page.errors, [], `${relative}: console errors`);
      assert.notEqual(found.styled, "rgba(0, 0, 0, 0)", `${relative}: catalog.css was not applied`);
      assert.ok(found.title.length > 0, `${relative}: no title`);
      visited.set(relative, new Set(found.ids));
      for (const href of found.hrefs) links.push([relative, href]);
      for (const asset of found.assets) {
        assert.ok(asset.startsWith(root), `${relative}: external asset ${asset}`);
        assert.ok(existsSync(fileURLToPath(asset)), `${relative}: missing ${asset}`);
      }
      for (const href of found.hrefs) {
        if (!href.startsWith(root)) continue;
        const target = decodeURIComponent(href.slice(root.length).split("#")[0]);
        if (target.endsWith(".html") && !visited.has(target) && !queue.includes(target)) queue.push(target);
      }
    }
    for (const [from, href] of links) {
      assert.ok(href.startsWith(root), `${from}: link out of the catalog: ${href}`);
      const [file, fragment] = href.slice(root.length).split("#");
      const target = decodeURIComponent(file);
      assert.ok(existsSync(path.join(out, target)), `${from}: broken link ${href}`);
      // A fragment names an element on the target page, except the link builder's #route=NAME.
      if (fragment && !fragment.startsWith("route=")) {
        assert.ok(visited.get(target) && visited.get(target).has(fragment), `${from}: ${href} names no element #${fragment}`);
      }
    }
    assert.deepEqual([...visited.keys()].sort(), htmlFiles(out), "every page is reachable from the index");
  });

  test("screenshots of the index and of one action page, for people to look at", async () => {
    mkdirSync(artifacts, { recursive: true });
    for (const [name, relative] of [["catalog-index.png", "index.html"], ["catalog-apply-v1.png", "actions/apply-v1.html"]]) {
      await page.goto(pathToFileURL(path.join(out, relative)).href);
      const png = await page.screenshot();
      assert.deepEqual([...png.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47], "a PNG");
      writeFileSync(path.join(artifacts, name), png);
    }
  });
});

// ---------------------------------------------------------------------------------------------
// The link builder against `bridgectl link build`.

/** The command-line arguments for a case. */
function cliArguments(testCase) {
  const args = ["link", "build", testCase.route];
  for (const [name, value] of Object.entries(testCase.params || {})) args.push(`--param=${name}=${value}`);
  for (const [name, value] of Object.entries(testCase.query || {})) args.push(`--query=${name}=${value}`);
  for (const [name, value] of Object.entries(testCase.campaign || {})) {
    if (name === "campaign_id") args.push(`--campaign-id=${value}`);
    else if (name === "group_id") args.push(`--group-id=${value}`);
    else if (name === "variant") args.push(`--variant=${value}`);
    else args.push(`--utm=${name}=${value}`);
  }
  if (testCase.scheme === "custom") args.push("--scheme=custom");
  if (testCase.source) args.push(`--source=${testCase.source}`);
  if (testCase.strict) args.push("--strict");
  return args;
}

/** What `bridgectl link build` says: {url, warnings, error}. */
function cli(testCase) {
  const result = run(cliArguments(testCase));
  const lines = result.stderr.split("\n").filter((line) => line !== "");
  const warningPrefix = "bridgectl link build: warning: ";
  return {
    url: result.status === 0 ? result.stdout.replace(/\n$/, "") : "",
    warnings: lines.filter((line) => line.startsWith(warningPrefix)).map((line) => line.slice(warningPrefix.length)),
    error: result.status === 0 ? "" : lines.filter((line) => !line.startsWith(warningPrefix)).map((line) => line.replace(/^bridgectl link build: /, "")).join("\n"),
    status: result.status,
  };
}

/** What the catalog's form shows for the same values, typed into it as a person would. */
async function form(testCase) {
  return page.evaluate(`(() => {
    const testCase = ${JSON.stringify(testCase)};
    const form = document.getElementById("link-builder");
    const select = form.querySelector("select[name=route]");
    select.value = testCase.route;
    select.dispatchEvent(new Event("change", { bubbles: true }));
    for (const input of form.querySelectorAll("input[type=text]")) input.value = "";
    // The channel first, as a person picks it: a declared one fills in its utm values.
    const channel = form.querySelector("select[name=channel]");
    channel.value = testCase.source || "";
    channel.dispatchEvent(new Event("change", { bubbles: true }));
    const set = (name, value) => {
      const input = form.querySelector('input[name="' + name + '"]');
      if (!input) throw new Error("the form has no input " + name);
      input.value = value;
      input.dispatchEvent(new Event("input", { bubbles: true }));
    };
    for (const [name, value] of Object.entries(testCase.params || {})) set("param:" + name, value);
    for (const [name, value] of Object.entries(testCase.query || {})) set("query:" + name, value);
    for (const [name, value] of Object.entries(testCase.campaign || {})) set("campaign:" + name, value);
    form.querySelector("select[name=scheme]").value = testCase.scheme || "https";
    form.querySelector("input[name=strict]").checked = testCase.strict === true;
    form.dispatchEvent(new Event("change", { bubbles: true }));
    return {
      url: document.getElementById("link-output").textContent,
      warnings: Array.from(document.querySelectorAll("#link-warnings li")).map((item) => item.textContent),
      error: document.getElementById("link-error").textContent
    };
  })()`);
}

const cases = [
  { name: "the seed campaign link", route: "eventCampaign", params: { slug: "new-user-promo" },
    campaign: { campaign_id: "2025Q3_signup_retarget", group_id: "B", variant: "card_scanner_cta", utm_source: "kakaotalk", utm_medium: "alimtalk" } },
  { name: "Korean, spaces and + in a variant", route: "eventCampaign", params: { slug: "new-user-promo" }, campaign: { variant: "카드 스캐너 CTA+" } },
  { name: "query values with & and = and Korean", route: "applyForm", params: { slug: "new-user-promo" }, query: { plan: "premium", memo: "A&B=C 서울" } },
  { name: "the app's own scheme", route: "applyForm", params: { slug: "new-user-promo" }, query: { plan: "premium" }, scheme: "custom" },
  { name: "a route without parameters, query only", route: "vehicleList", query: { vehicleType: "damas", region: "서울 강남구", page: "2" } },
  { name: "a query value of the wrong type", route: "vehicleList", query: { page: "two" } },
  { name: "a path parameter of the wrong type", route: "eventCampaign", params: { slug: "New-Promo" } },
  { name: "a needed path parameter left empty", route: "orderDetail", params: {} },
  { name: "an int parameter", route: "orderDetail", params: { id: "42" }, campaign: { campaign_id: "order_arrived" } },
  { name: "a parameter pasted with spaces around it", route: "eventCampaign", params: { slug: " new-user-promo\t" }, campaign: { utm_campaign: " 가을 이벤트 " } },
  { name: "an encoded value refused with strict", route: "eventCampaign", params: { slug: "x" }, query: {}, campaign: { variant: "%EC%B9%B4" }, strict: true },
  { name: "an encoded query value warned about", route: "onboardingStart", query: { promoCode: "A%2FB" } },
  { name: "a route its channel may not open: externalURL for checkout", route: "checkout", params: { id: "A1" } },
  { name: "a route its channel may not open, refused with strict", route: "checkout", params: { id: "A1" },
    campaign: { variant: " B" }, strict: true },
  { name: "a declared channel matched in any case", route: "checkout", params: { id: "A1" }, campaign: { utm_source: "KakaoTalk" }, strict: true },
  { name: "the channel picked: push", route: "checkout", params: { id: "A1" }, source: "push", strict: true },
  { name: "the channel picked: externalURL, with the utm values of another", route: "reviewWrite", params: { orderId: "7" },
    campaign: { utm_source: "kakaotalk" }, source: "externalURL" },
  { name: "the app's scheme is appInternal", route: "checkout", params: { id: "A1" }, scheme: "custom", strict: true },
  { name: "a link over 2,000 characters", route: "vehicleList", query: { region: "a".repeat(1965) } },
  { name: "a link over 2,000 characters, refused with strict", route: "vehicleList", query: { region: "a".repeat(1965) }, strict: true },
];
// The shared table's builder rows, except those that cannot be typed into the form at all: a
// line break (a text input strips it) and a field the contract does not have (the form offers
// only the contract's campaign fields). bridgectl's answers to those are in the table's own tests.
const formFields = ["campaign_id", "group_id", "variant", "utm_source", "utm_medium", "utm_campaign", "utm_term", "utm_content"];
for (const row of hostile.build) {
  if (Object.values(row.campaign).some((value) => /[\r\n]/.test(value))) continue;
  if (Object.keys(row.campaign).some((name) => !formFields.includes(name))) continue;
  cases.push({ name: "table: " + row.name, route: "eventCampaign", params: { slug: "new-user-promo" }, campaign: row.campaign, strict: row.strict === true });
}

describe("the link builder builds what bridgectl link build builds", () => {
  before(async () => {
    page.errors.length = 0;
    await page.goto(pathToFileURL(path.join(out, "link-builder.html")).href);
  });

  test("the form is there, with an input per campaign field", async () => {
    const names = await page.evaluate(`Array.from(document.querySelectorAll("#link-builder input[name^='campaign:']")).map((input) => input.name)`);
    assert.deepEqual(names, ["campaign:campaign_id", "campaign:group_id", "campaign:variant", "campaign:utm_source", "campaign:utm_medium", "campaign:utm_campaign", "campaign:utm_term", "campaign:utm_content"]);
  });

  for (const testCase of cases) {
    test(testCase.name, async () => {
      const expected = cli(testCase);
      assert.ok([0, 1, 2].includes(expected.status), `bridgectl exited ${expected.status}`);
      const shown = await form(testCase);
      assert.equal(shown.url, expected.url, "the link, byte for byte");
      assert.deepEqual(shown.warnings, expected.warnings, "the warnings");
      assert.equal(shown.error, expected.error, "the refusal");
      assert.deepEqual(page.errors, [], "console errors");
    });
  }

  test("a screenshot of the link builder with the seed campaign typed in", async () => {
    const shown = await form({ route: "eventCampaign", params: { slug: "new-user-promo" },
      campaign: { campaign_id: "2025Q3_signup_retarget", group_id: "B", variant: " 카드 스캐너 CTA+", utm_source: "kakaotalk", utm_medium: "alimtalk" } });
    assert.equal(shown.warnings.length, 1, "the space before the variant is removed, with a warning");
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(path.join(artifacts, "catalog-link-builder.png"), await page.screenshot());
  });

  test("a screenshot of the link builder warning that the channel's app refuses the route", async () => {
    const shown = await form({ route: "checkout", params: { id: "A1" }, campaign: { utm_source: "newsletter" } });
    assert.deepEqual(shown.warnings, ["channel: refused from channel externalURL: route checkout is enabled from push, appInternal, bridge, kakaotalk"]);
    mkdirSync(artifacts, { recursive: true });
    writeFileSync(path.join(artifacts, "catalog-link-builder-refused.png"), await page.screenshot());
  });

  test("the channel picker lists link build's channels, and a declared one fills in its utm values", async () => {
    const options = await page.evaluate(`Array.from(document.querySelectorAll("#link-builder select[name=channel] option")).map((option) => option.value)`);
    const known = /--source must be one of (.*), not "\?"/.exec(run(["link", "build", "checkout", "--param=id=A1", "--source=?"]).stderr);
    assert.ok(known, "link build names the channels it takes");
    assert.deepEqual(options, [""].concat(known[1].split(", ")));
    const shown = await form({ route: "checkout", params: { id: "A1" }, source: "kakaotalk" });
    const expected = cli({ route: "checkout", params: { id: "A1" }, campaign: { utm_source: "kakaotalk", utm_medium: "alimtalk" }, source: "kakaotalk" });
    assert.equal(expected.status, 0);
    assert.equal(shown.url, expected.url);
    assert.ok(shown.url.endsWith("?utm_source=kakaotalk&utm_medium=alimtalk"), shown.url);
    assert.deepEqual(shown.warnings, expected.warnings);
  });

  test("the copy button selects the link", async () => {
    const built = await form({ route: "eventCampaign", params: { slug: "new-user-promo" }, source: "kakaotalk" });
    const selected = await page.evaluate(`(() => {
      window.getSelection().removeAllRanges();
      document.getElementById("copy-link").click();
      return window.getSelection().toString();
    })()`);
    assert.equal(selected, built.url);
  });

  test("the table's rows gave links and refusals both", () => {
    const statuses = cases.map((testCase) => cli(testCase).status);
    assert.ok(statuses.includes(0) && statuses.includes(1) && statuses.includes(2), statuses.join(","));
  });
});
