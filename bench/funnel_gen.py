#!/usr/bin/env python3
"""A seeded Mixpanel-style export for `bridgectl funnel`, of any size (bench/funnel-duckdb.py).

usage: funnel_gen.py OUT.ndjson MEGABYTES [SEED]

Visits of the seven kinds the funnel tests draw (a healthy push, a messenger page with a CTA, a
step without campaign_id, home within 10 s, home after 10 s, a cold start signed in and consumed,
a cold start signed in and lost), two visits a second, people taking turns so a person's visits
never overlap, written in time order across people (as an export is). Entries name their screen
with target_screen, so a reader needs no route table. The same seed and size give the same bytes.
"""
import heapq
import json
import random
import sys

CAMPAIGNS = ["2025Q3_signup_retarget", "2025Q4_신차_프로모션", "2026Q1_truck_week", "2026Q1_order_reminder"]
VARIANTS = ["A", "B"]
KINDS = ["healthyPush", "healthyPage", "missingCampaign", "homeLanding", "homeAfterWindow",
         "coldStartConsumed", "coldStartLost"]
START = 1_764_547_200  # 2025-12-01 00:00:00 UTC
PEOPLE = 40_000


def visit_events(kind, campaign, variant):
    """(offset seconds, event, properties) of one visit."""
    source = "kakaotalk" if kind == "healthyPage" else "push"
    tag = {"campaign_id": campaign, "variant": variant, "source": source}
    device = {"$os": "iOS", "app_version": "5.12.0", "mp_lib": "swift"}
    if kind == "healthyPage":
        return [(0, "event_webview_opened", {**tag, "target_screen": "vehicle_list", **device}),
                (5, "event_webview_cta_clicked", {**tag, "action": "view_vehicles", "target_screen": "vehicle_list"}),
                (6, "screen_view", {**tag, "screen": "vehicle_list", **device})]
    if kind in ("coldStartConsumed", "coldStartLost"):
        last = "order_detail" if kind == "coldStartConsumed" else "vehicle_list"
        return [(0, "push_clicked", {**tag, "target_screen": "order_detail", "cold_start": True, **device}),
                (20, "sign_in_success", {"method": "kakao"}),
                (22, "screen_view", {**tag, "screen": last, **device})]
    push = (0, "push_clicked", {**tag, "target_screen": "vehicle_detail", **device})
    detail = {**tag, "screen": "vehicle_detail", **device}
    if kind == "healthyPush":
        return [push, (2, "screen_view", detail)]
    if kind == "missingCampaign":
        return [push, (2, "screen_view", {"screen": "vehicle_detail", **device})]
    if kind == "homeLanding":
        return [push, (3, "home_screen", dict(device)), (40, "screen_view", detail)]
    return [push, (2, "screen_view", detail), (15, "home_screen", dict(device))]


def generate(path, megabytes, seed=2026):
    rng = random.Random(seed)
    limit = megabytes * 1_000_000
    written = 0
    pending = []  # (time, order, line): events of visits still under way
    order = 0
    visit = 0
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        while written < limit:
            start = START + visit // 2
            # Everything before this visit's start is final: later visits start later.
            while pending and pending[0][0] < start:
                line = heapq.heappop(pending)[2]
                out.write(line)
                written += len(line.encode())
            person = f"person-{visit % PEOPLE}"
            kind = rng.choice(KINDS)
            campaign, variant = rng.choice(CAMPAIGNS), rng.choice(VARIANTS)
            for offset, event, properties in visit_events(kind, campaign, variant):
                record = {"event": event, "properties": {"distinct_id": person, "time": start + offset, **properties}}
                heapq.heappush(pending, (start + offset, order, json.dumps(record, ensure_ascii=False, separators=(",", ":")) + "\n"))
                order += 1
            visit += 1
        while pending:
            out.write(heapq.heappop(pending)[2])
    return visit


if __name__ == "__main__":
    visits = generate(sys.argv[1], int(sys.argv[2]), int(sys.argv[3]) if len(sys.argv) > 3 else 2026)
    print(f"{sys.argv[1]}: {visits} visits", file=sys.stderr)
