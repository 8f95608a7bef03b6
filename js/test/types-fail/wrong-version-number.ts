// The bundled contracts have apply v1 only: neither send nor a pinned function takes a v2.
import { createBridge } from "./kit/bridge.js";

const bridge = createBridge();
// expect-error TS2345
bridge.send("apply", 2, { slug: "new-user-promo" });
// expect-error TS2551
bridge.applyV2({ slug: "new-user-promo" });
