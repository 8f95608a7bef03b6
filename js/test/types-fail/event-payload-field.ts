// navigation_completed's payload has requestId, route, outcome and reason: another field, or an
// outcome the audit log does not name, does not compile; the meta's version is a number.
import { createBridge } from "./kit/bridge.js";

export const seen: string[] = [];
createBridge().on("navigation_completed", (payload, meta) => {
  // expect-error TS2339
  seen.push(payload.url);
  // expect-error TS2367
  if (payload.outcome === "navigate") seen.push(payload.route);
  // expect-error TS2322
  const version: string = meta.version;
  seen.push(version);
});
