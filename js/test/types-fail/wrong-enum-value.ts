// A plan the contract does not list.
import { createBridge } from "./kit/bridge.js";

// expect-error TS2322
createBridge().apply({ slug: "new-user-promo", plan: "gold" });
