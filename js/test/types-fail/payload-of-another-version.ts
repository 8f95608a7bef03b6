// kit: wide (the test-only contracts with apply v1 and v2)
// A payload typed for apply v1 passed where v2 is expected: v2 requires a plan v1 lacks.
import { createBridge, type ApplyV1Payload } from "./kit/bridge.js";

const bridge = createBridge();
const fromVersionOne: ApplyV1Payload = { slug: "new-user-promo", memo: "빠른 상담" };
// expect-error TS2345
bridge.applyV2(fromVersionOne);
// expect-error TS2345
bridge.send("apply", 2, fromVersionOne);
// expect-error TS2345
bridge.apply(fromVersionOne);
