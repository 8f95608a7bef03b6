// A typed event page: every action and version of the contract through the generated types.
// `make test` compiles it with tsc --strict --noEmit (js/test/types.test.mjs); it is not run.
import { BridgeError, createBridge, type Bridge, type BridgeResult, type ViewVehiclesV1Payload } from "../bridge.js";
import { validate } from "../validators.js";

const bridge: Bridge = createBridge({ validate: true });

export async function onApply(plan: "basic" | "premium" | "business", memo?: string): Promise<BridgeResult> {
  const latest = await bridge.apply({ slug: "new-user-promo", plan, memo });
  const pinned = await bridge.applyV1({ slug: "new-user-promo" });
  return latest.pendingLogin ? latest : pinned;
}

export async function onViewVehicles(filters: ViewVehiclesV1Payload): Promise<string> {
  const result = await bridge.viewVehicles(filters);
  await bridge.viewVehiclesV1({ vehicleType: "damas", page: 2 }, { timeoutMs: 1000 });
  // view_vehicles needs no reply: sent as a notification it resolves once posted.
  const posted: BridgeResult | undefined = await bridge.viewVehiclesV1({ sort: "price" }, { notify: true });
  return result.url + String(posted === undefined);
}

export async function onStart(): Promise<void> {
  try {
    await bridge.start({ referrer: "new-user-promo", promoCode: "WELCOME50" });
    await bridge.startV1();
    await bridge.send("start", 1, { promoCode: "PUSH2026" });
  } catch (error) {
    if (error instanceof BridgeError && error.code === "INVALID_PARAMS") {
      for (const detail of error.details) console.warn(detail.instanceLocation, detail.keyword, detail.error);
    }
  }
}

export async function links(): Promise<string[]> {
  const checked = validate({ v: 1, action: "start", version: 1, payload: {} });
  return [
    await bridge.linkFor("apply", { slug: "new-user-promo" }),
    await bridge.linkFor("view_vehicles", { region: "서울" }, { campaign: false }),
    checked.valid ? "valid" : checked.errors.map((error) => error.instanceLocation).join(","),
  ];
}

export function supported(): boolean {
  return bridge.isSupported("apply") && bridge.supports("start", 1) && bridge.stats.rejectedBeforeSending === 0;
}

// Every app build in the field: the highest version it takes, v1 for builds that know only v1.
export async function onApplyEverywhere(plan: "basic" | "premium" | "business"): Promise<BridgeResult> {
  try {
    return await bridge.offer("apply", { 2: { slug: "new-user-promo", plan, contactTime: "evening" }, 1: { slug: "new-user-promo", plan } });
  } catch (error) {
    if (error instanceof BridgeError && error.code === "UNSUPPORTED_VERSION") {
      console.warn("this app takes apply", error.supportedVersions ?? [], bridge.capabilities()?.app?.version);
    }
    throw error;
  }
}

// The app tells the page how a navigation that waited (for login, for the app to start) ended.
export function followNavigations(show: (text: string) => void): () => void {
  return bridge.on("navigation_completed", (payload, meta) => {
    if (payload.outcome === "cancelled_by_logout" || payload.outcome === "failed") show(`${payload.route}: ${payload.reason ?? payload.outcome}`);
    else show(`${meta.event} v${meta.version}: ${payload.requestId} ${payload.route}`);
  });
}
