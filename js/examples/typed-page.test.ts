// A typed test of the page against the fake host (compiled with tsc --strict, not run).
import { createBridge } from "../bridge.js";
import { createFakeHost, installFakeHost, type FakeHost, type PageUsage } from "../testing/fake-host.js";

export async function applyOpensTheForm(): Promise<boolean> {
  const page = { location: { href: "https://event.sendy.co.kr/e?campaign_id=c1", assign(url: string): void {} } };
  const host: FakeHost = installFakeHost({ window: page, mode: "callback" });
  host.failNext("DUPLICATE").replyNext({ ok: true, result: { route: "applyForm", url: "u", pendingLogin: false } });
  const result = await createBridge({ window: page }).applyV1({ slug: "new-user-promo" });
  const sent = host.messages[0];
  host.uninstall();
  return result.route === "applyForm" && sent.action === "apply" && host.rejected.length === 0;
}

// The page against an app build that knows only apply v1; its calls become the usage file.
export async function offersV1ToOlderBuilds(): Promise<PageUsage> {
  const page = { location: { href: "https://sendy.co.kr/event/new-user-promo", assign(url: string): void {} } };
  const host: FakeHost = createFakeHost({ release: "ios@5.12.0" }).install(page);
  await createBridge({ window: page }).offer("apply", { 2: { slug: "new-user-promo", plan: "basic" }, 1: { slug: "new-user-promo" } });
  await host.writeUsage("usage.json", { merge: true });
  return host.usage();
}

// An event from the fake host reaches the page's handler once flushed.
export async function hearsNavigationCompleted(): Promise<boolean> {
  const page = { location: { href: "https://sendy.co.kr/event/new-user-promo", assign(url: string): void {} } };
  const host: FakeHost = installFakeHost({ window: page, loggedIn: false });
  const outcomes: string[] = [];
  const stop = createBridge({ window: page }).on("navigation_completed", (payload) => { outcomes.push(payload.outcome); });
  host.emit("navigation_completed", 1, { requestId: "r-0123456789", route: "applyForm", outcome: "navigated" });
  await host.flush();
  stop();
  return outcomes.length === 1 && host.events.length === 1;
}
