// An event neither the contract nor the built-in events have: subscribing to it does not compile.
import { createBridge } from "./kit/bridge.js";

const bridge = createBridge();
// expect-error TS2345
bridge.on("navigation_complete", () => {});
// expect-error TS2345
bridge.on("coupon_issued", () => {});
