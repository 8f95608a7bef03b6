// A typed test of the page against the fake host (compiled with tsc --strict, not run).
import { createBridge } from "../bridge.js";
import { installFakeHost, type FakeHost } from "../testing/fake-host.js";

export async function applyOpensTheForm(): Promise<boolean> {
  const page = { location: { href: "https://event.sendy.co.kr/e?campaign_id=c1", assign(url: string): void {} } };
  const host: FakeHost = installFakeHost({ window: page, mode: "callback" });
  host.failNext("DUPLICATE").replyNext({ ok: true, result: { route: "applyForm", url: "u", pendingLogin: false } });
  const result = await createBridge({ window: page }).applyV1({ slug: "new-user-promo" });
  const sent = host.messages[0];
  host.uninstall();
  return result.route === "applyForm" && sent.action === "apply" && host.rejected.length === 0;
}
