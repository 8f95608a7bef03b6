// kit: custom-action
// share is answered by app code: it resolves with its result type (ShareV1Result), which has no
// route or url, and whose fields keep their schema types.
import { createBridge } from "./kit/bridge.js";

export async function sharePage(): Promise<unknown[]> {
  const result = await createBridge().share({ url: "https://event.sendy.co.kr/new-user-promo", title: "센디" });
  const shared: boolean = result.shared;
  // expect-error TS2339
  const route: string = result.route;
  // expect-error TS2322
  const target: number | undefined = result.target;
  return [shared, route, target];
}
