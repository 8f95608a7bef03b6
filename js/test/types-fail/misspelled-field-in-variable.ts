// The same misspelling in a variable declared with the payload's type (an object literal too).
import type { ApplyV1Payload } from "./kit/bridge.js";

// expect-error TS2322
const payload: ApplyV1Payload = { slug: "new-user-promo", pln: "basic" };
export default payload;
