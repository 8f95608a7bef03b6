// The 신청 button of the event page, fixed: apply v2 where the app takes it, v1 (without
// contactTime, which v1 does not have) on the builds that know only v1.
export function apply(bridge, form) {
  return bridge.offer("apply", {
    2: { slug: form.slug, plan: form.plan, contactTime: form.contactTime },
    1: { slug: form.slug, plan: form.plan },
  });
}
