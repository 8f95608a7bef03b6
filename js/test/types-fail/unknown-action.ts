// An action the contract does not have.
import { createBridge } from "./kit/bridge.js";

const bridge = createBridge();
// expect-error TS2345
bridge.send("subscribe", 1, {});
// expect-error TS2339
bridge.subscribe({});
