"""The pairing codes as the relay takes them (core/relay/codes.py): hashes it can check, every batch
within its limit, and a set that changes whenever a code, its reply or the relay does."""

from __future__ import annotations

import datetime as dt
import hashlib

from core.receiving.pairing import HeldCode
from core.relay import codes

EXPIRES = dt.datetime(2026, 12, 8, 9, 0, tzinfo=dt.UTC)


def held(n: int) -> list[HeldCode]:
    return [HeldCode(f"AB3DE5{n:03d}"[-9:], "登録できました。", EXPIRES) for n in range(n)]


def test_each_code_goes_as_a_salted_hash_the_relay_checks_and_never_as_itself() -> None:
    [body] = codes.batches(held(1), salt=lambda: "s" * 32)
    [entry] = body["codes"]
    assert entry == {"salt": "s" * 32, "hash": hashlib.sha256(("s" * 32 + "AB3DE5000").encode()).hexdigest(),
                     "reply_text": "登録できました。", "expires_at": "2026-12-08T09:00:00+00:00"}
    assert body["replace_all"] is True and "AB3DE5000" not in str(body)


def test_many_codes_go_forty_a_call_the_first_replacing_and_none_clears_the_relay() -> None:
    bodies = codes.batches(held(85))
    assert [len(b["codes"]) for b in bodies] == [40, 40, 5]
    assert [b["replace_all"] for b in bodies] == [True, False, False]
    assert len({c["salt"] for b in bodies for c in b["codes"]}) == 85
    assert codes.batches([]) == [{"codes": [], "replace_all": True}]


def test_the_fingerprint_changes_with_a_code_its_reply_its_expiry_or_the_relay() -> None:
    [one] = held(1)
    base = codes.fingerprint("https://relay.example", [one])
    assert base == codes.fingerprint("https://relay.example", [one])
    assert base != codes.fingerprint("https://other.example", [one])
    assert base != codes.fingerprint("https://relay.example", [])
    assert base != codes.fingerprint("https://relay.example", [HeldCode(one.code, "Registered.", EXPIRES)])
    assert base != codes.fingerprint("https://relay.example", [HeldCode(one.code, one.reply_text,
                                                                        EXPIRES + dt.timedelta(days=1))])
