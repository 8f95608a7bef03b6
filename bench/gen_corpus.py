#!/usr/bin/env python3
"""Seeded corpus of bridge messages, one per line (NDJSON), for bench/run.sh.

About 90% valid. Korean text in memo/region/campaign fields, some lines written with \\u
escapes (ensure_ascii), every invalid kind the contract fixtures know (the ones about a
message; origin and frame kinds are the host's, not the message's), plus lines that are not
JSON, duplicate keys, and valid edge cases (maxLength exactly, format-invalid sentAt, 1.0).

usage: gen_corpus.py COUNT OUT.ndjson EXPECTED.txt [--seed N]
EXPECTED.txt holds the intended verdict per line (1 valid, 0 invalid): a fifth opinion in
the comparison, so a shared mistake of every validator would still show.
"""
import json
import os
import random
import sys

# The action versions the contracts declare: a "wrong version" is one the manifest does not have
# (apply 2 became a real version, so a fixed list would drift).
with open(os.path.join(os.path.dirname(os.path.abspath(__file__)), os.pardir, "contracts", "manifest.json")) as _f:
    DECLARED = {action: {int(v) for v in entry["versions"]} for action, entry in json.load(_f)["actions"].items()}

KOREAN_WORDS = ["신청", "센디", "차량", "이벤트", "서울", "부산", "강남구", "화물", "용달", "이사",
                "할인", "쿠폰", "첫", "고객", "감사", "메모", "빠른", "배송", "가능", "문의"]
REGIONS = ["서울", "서울 강남구", "부산", "대구 수성구", "인천", "경기 성남시 분당구", "제주", "광주"]
SLUGS = ["new-user-promo", "summer-2026", "card-scanner", "b2b-trial", "welcome", "a", "x" * 64]
PLANS = ["basic", "premium", "business"]
VEHICLES = ["damas", "labo", "1ton", "2.5ton", "5ton"]
SORTS = ["recommended", "price", "distance"]
SOURCES = ["kakaotalk", "push", "naver", "google", "instagram"]


def korean(rng, words):
    return " ".join(rng.choice(KOREAN_WORDS) for _ in range(words))


def request_id(rng):
    return "%08x-%04x-4%03x-%04x-%012x" % (rng.getrandbits(32), rng.getrandbits(16), rng.getrandbits(12),
                                          rng.getrandbits(16), rng.getrandbits(48))


def sent_at(rng):
    if rng.random() < 0.01:
        return "2026-13-45T99:00:00Z"  # not a date-time: format is an annotation, so still valid
    return "2026-%02d-%02dT%02d:%02d:%02d.%03dZ" % (rng.randint(1, 12), rng.randint(1, 28), rng.randint(0, 23),
                                                   rng.randint(0, 59), rng.randint(0, 59), rng.randint(0, 999))


def campaign(rng):
    fields = {"campaign_id": "2026Q%d_%s" % (rng.randint(1, 4), rng.choice(["signup", "retarget", "b2b"])),
              "group_id": rng.choice(["A", "B", "control"]),
              "variant": rng.choice(["card_scanner_cta", "차량보기_버튼", "start-now"]),
              "utm_source": rng.choice(SOURCES),
              "utm_medium": rng.choice(["alimtalk", "push", "cpc"]),
              "utm_campaign": rng.choice(["가을_프로모션", "signup_2026", "첫이사"]),
              "utm_content": korean(rng, 2)}
    keys = rng.sample(sorted(fields), rng.randint(1, len(fields)))
    return {k: fields[k] for k in keys}


def envelope(rng, action, payload, with_id=True):
    message = {"v": 1}
    if with_id:
        message["id"] = request_id(rng)
    message["action"] = action
    message["version"] = 1
    message["payload"] = payload
    if rng.random() < 0.5:
        message["campaign"] = campaign(rng)
    if rng.random() < 0.9:
        message["sentAt"] = sent_at(rng)
    return message


def valid_apply(rng):
    payload = {"slug": rng.choice(SLUGS)}
    if rng.random() < 0.5:
        payload["plan"] = rng.choice(PLANS)
    if rng.random() < 0.4:
        payload["memo"] = korean(rng, rng.randint(1, 12))
    if rng.random() < 0.02:
        payload["memo"] = "가" * 200  # exactly maxLength in code points (600 bytes)
    message = envelope(rng, "apply", payload)
    if rng.random() < 0.02:
        message["version"] = 1.0  # a whole-number real is an integer in JSON Schema
    return message


def valid_view(rng):
    payload = {}
    if rng.random() < 0.6:
        payload["vehicleType"] = rng.choice(VEHICLES)
    if rng.random() < 0.5:
        payload["region"] = rng.choice(REGIONS)
    if rng.random() < 0.02:
        payload["region"] = "서" * 40
    if rng.random() < 0.4:
        payload["sort"] = rng.choice(SORTS)
    if rng.random() < 0.4:
        payload["page"] = rng.randint(1, 100)
    if rng.random() < 0.3:
        payload["from"] = rng.choice(SLUGS)
    return envelope(rng, "view_vehicles", payload, with_id=rng.random() < 0.8)


def valid_start(rng):
    payload = {}
    if rng.random() < 0.4:
        payload["referrer"] = rng.choice(SLUGS)
    if rng.random() < 0.3:
        payload["promoCode"] = rng.choice(["WELCOME", "SENDY2026", "B2B0"])
    return envelope(rng, "start", payload)


VALID = [valid_apply, valid_apply, valid_view, valid_view, valid_start]


def invalid(rng, kind):
    """One message of an invalid kind: (message or raw text)."""
    apply, view, start = valid_apply(rng), valid_view(rng), valid_start(rng)
    if kind == "bad-slug": apply["payload"]["slug"] = "New Promo"
    elif kind == "campaign-source": apply["campaign"] = {"campaign_id": "x1", "source": "push"}
    elif kind == "extra-payload-field": return _extra(rng, apply, view, start)
    elif kind == "missing-id": apply.pop("id")
    elif kind == "missing-slug": apply["payload"].pop("slug")
    elif kind == "oversize-memo": apply["payload"]["memo"] = "가" * 201
    elif kind == "slug-wrong-type": apply["payload"]["slug"] = 42
    elif kind == "unknown-plan": apply["payload"]["plan"] = "gold"
    elif kind == "wrong-version":
        message = rng.choice([apply, view, start])
        return message | {"version": max(DECLARED[message["action"]]) + rng.choice([1, 2])}
    elif kind == "bad-action-name": return start | {"action": "START"}
    elif kind == "bad-campaign-id": return start | {"campaign": {"campaign_id": "summer promo"}}
    elif kind == "envelope-v2": return start | {"v": 2}
    elif kind == "missing-payload": start.pop("payload")
    elif kind == "long-referrer": start["payload"]["referrer"] = "a" * 65
    elif kind == "lowercase-promo": start["payload"]["promoCode"] = "welcome"
    elif kind == "promo-wrong-type": start["payload"]["promoCode"] = 2026
    elif kind == "unknown-action": return start | {"action": "start_now"}
    elif kind == "bad-from": view["payload"]["from"] = "Event_Promo"
    elif kind == "empty-region": view["payload"]["region"] = ""
    elif kind == "oversize-region": view["payload"]["region"] = "서울특별시" * 9
    elif kind == "page-as-string": view["payload"]["page"] = "2"
    elif kind == "page-fraction": view["payload"]["page"] = 2.5
    elif kind == "page-zero": view["payload"]["page"] = 0
    elif kind == "unknown-vehicle-type": view["payload"]["vehicleType"] = "truck"
    elif kind == "duplicate-keys":
        return ('{"v":1,"id":"%s","action":"apply","version":1,"payload":{"slug":"new-user-promo","slug":"other-promo"}}'
                % request_id(rng))
    elif kind == "not-json":
        return encode(rng, apply)[:-7]
    else:
        raise ValueError(kind)
    if kind in ("bad-slug", "campaign-source", "missing-id", "missing-slug", "oversize-memo", "slug-wrong-type",
                "unknown-plan"):
        return apply
    if kind in ("missing-payload", "long-referrer", "lowercase-promo", "promo-wrong-type"):
        return start
    return view


def _extra(rng, apply, view, start):
    message = rng.choice([apply, view, start])
    message["payload"][rng.choice(["coupon", "color"])] = "FREE"
    return message


INVALID_KINDS = ["bad-slug", "campaign-source", "extra-payload-field", "missing-id", "missing-slug", "oversize-memo",
                 "slug-wrong-type", "unknown-plan", "wrong-version", "bad-action-name", "bad-campaign-id",
                 "envelope-v2", "missing-payload", "long-referrer", "lowercase-promo", "promo-wrong-type",
                 "unknown-action", "bad-from", "empty-region", "oversize-region", "page-as-string", "page-fraction",
                 "page-zero", "unknown-vehicle-type", "duplicate-keys", "not-json"]


def encode(rng, message):
    # A third of the lines escape every non-ASCII character as \uXXXX, as some web stacks do.
    return json.dumps(message, ensure_ascii=rng.random() < 0.33, separators=(",", ":"))


def main(argv):
    args = [a for a in argv[1:] if not a.startswith("--seed")]
    seed = 20261129
    for a in argv[1:]:
        if a.startswith("--seed="):
            seed = int(a.split("=", 1)[1])
    if len(args) != 3:
        sys.exit(__doc__)
    count, out_path, expected_path = int(args[0]), args[1], args[2]
    rng = random.Random(seed)
    with open(out_path, "w", encoding="utf-8") as out, open(expected_path, "w") as expected:
        for index in range(count):
            if rng.random() < 0.9:
                line, ok = encode(rng, rng.choice(VALID)(rng)), "1"
            else:
                # every kind appears, in turn, so a small corpus still has them all
                made = invalid(rng, INVALID_KINDS[index % len(INVALID_KINDS)])
                line, ok = (made if isinstance(made, str) else encode(rng, made)), "0"
            out.write(line + "\n")
            expected.write(ok + "\n")


if __name__ == "__main__":
    main(sys.argv)
