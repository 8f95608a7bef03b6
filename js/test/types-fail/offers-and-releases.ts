// bridge.offer types each payload by its version and needs at least one; the fake host knows the
// app builds of releases.json by name.
import { createBridge } from "./kit/bridge.js";
import { installFakeHost } from "./kit/testing/fake-host.js";

const bridge = createBridge();
// expect-error TS2345
bridge.offer("apply", {});
// expect-error TS2741
bridge.offer("apply", { 2: { slug: "new-user-promo" }, 1: { slug: "new-user-promo" } });
// expect-error TS2345
bridge.offer("apply", { 3: { slug: "new-user-promo" } });
// expect-error TS2345
bridge.offer("start", { 2: {} });
// expect-error TS2820
installFakeHost({ release: "ios@5.1.0" });
