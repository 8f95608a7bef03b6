// The 신청 button of the event page, as first written: the latest apply (v2, with contactTime).
export function apply(bridge, form) {
  return bridge.apply({ slug: form.slug, plan: form.plan, contactTime: form.contactTime });
}
