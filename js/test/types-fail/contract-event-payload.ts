// login_state_changed, the contract's own event (generated into BridgeEvents): its payload has
// loggedIn (a boolean) and reason (login, logout, session_expired); another field, loggedIn used as
// text, a reason the schema does not list, or a payload missing loggedIn does not compile.
import { createBridge, type LoginStateChangedPayload } from "./kit/bridge.js";

export const seen: boolean[] = [];
createBridge().on("login_state_changed", (payload, meta) => {
  // expect-error TS2339
  seen.push(payload.userId);
  // expect-error TS2322
  const text: string = payload.loggedIn;
  // expect-error TS2367
  if (payload.reason === "kicked") seen.push(meta.version === 1);
  seen.push(text === "" || payload.loggedIn);
});
// expect-error TS2741
export const missing: LoginStateChangedPayload = { reason: "login" };
