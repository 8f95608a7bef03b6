// A misspelled payload member ("slgu" for "slug") is refused, not sent for the app to reject.
import { createBridge } from "./kit/bridge.js";

// expect-error TS2345
createBridge().apply({ slgu: "new-user-promo" });
