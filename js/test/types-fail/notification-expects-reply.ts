// An action whose schema requires an id expects a reply: send and offer refuse { notify: true }
// for it, as the shim does at run time (INVALID_PARAMS); an action that may be a notification takes it.
import { createBridge } from "./kit/bridge.js";

const bridge = createBridge();
// expect-error TS2769
bridge.send("apply", 2, { slug: "new-user-promo", plan: "premium" }, { notify: true });
// expect-error TS2769
bridge.offer("apply", { 2: { slug: "new-user-promo", plan: "premium" }, 1: { slug: "new-user-promo" } }, { notify: true });
// expect-error TS2769
bridge.send("apply", 1, { slug: "new-user-promo" }, { notify: true, timeoutMs: 5 });
bridge.send("start", 1, {}, { notify: true });
bridge.offer("view_vehicles", { 1: { vehicleType: "damas" } }, { notify: true });
bridge.send("apply", 2, { slug: "new-user-promo", plan: "premium" }, { timeoutMs: 5 });
