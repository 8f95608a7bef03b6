// apply needs its slug.
import { createBridge } from "./kit/bridge.js";

// expect-error TS2345
createBridge().apply({ plan: "basic" });
