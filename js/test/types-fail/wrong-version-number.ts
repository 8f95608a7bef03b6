// A version the contracts do not have: neither send nor a pinned function takes it.
import { createBridge } from "./kit/bridge.js";

const bridge = createBridge();
// expect-error TS2345
bridge.send("apply", 999, { slug: "new-user-promo", plan: "basic" });
// expect-error TS2551
bridge.applyV3({ slug: "new-user-promo", plan: "basic" });
