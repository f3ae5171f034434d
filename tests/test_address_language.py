"""The address LINE calls, told in the manager's language: a bad address of their own, a missing or
failing cloudflared carry catalog codes, so the Connect LINE wizard and the CLI can say them in Japanese."""

from __future__ import annotations

from pathlib import Path

import pytest

from core.receiving.address import DOWNLOAD_PAGE, AddressError, AddressProblem, QuickTunnel, check_own_address, endpoint
from core.texts import describe
from tests.test_public_address import _script


@pytest.mark.parametrize(("address", "english", "japanese"), [
    ("http://example.com", "'http://example.com' is not an https:// address; LINE calls https only",
     "'http://example.com' は https:// のアドレスではありません。LINEは https のアドレスにだけ送信します。"),
    ("https://example.com/?a=1", "'https://example.com/?a=1': give the address without ?…, #… or a user name",
     "'https://example.com/?a=1': ?… や #…、ユーザー名を付けずにアドレスを入力してください。"),
])
def test_a_bad_address_of_ones_own_in_each_language(address: str, english: str, japanese: str) -> None:
    with pytest.raises(AddressError) as refused:
        check_own_address(address)
    assert refused.value.problem is AddressProblem.INVALID
    assert str(refused.value) == english and describe(refused.value, "ja") == japanese


def test_a_too_long_address_in_japanese() -> None:
    with pytest.raises(AddressError) as refused:
        endpoint("https://example.com/" + "a" * 600)
    assert refused.value.code == "address.too_long"
    assert describe(refused.value, "ja").startswith("Webhookのアドレスが") and "文字までです。" in describe(refused.value, "ja")


def test_a_missing_cloudflared_in_japanese(tmp_path: Path) -> None:
    tunnel = QuickTunnel(search_path=str(tmp_path / "empty"), beside=[tmp_path / "none"])
    with pytest.raises(AddressError) as missing:
        tunnel.start(8765)
    japanese = describe(missing.value, "ja")
    assert japanese.startswith("このコンピューターには cloudflared") and DOWNLOAD_PAGE in japanese


def test_a_cloudflared_that_exits_in_japanese(tmp_path: Path) -> None:
    tunnel = QuickTunnel(_script(tmp_path / "bin", "exit 3\n"), url_timeout=1e6)  # only its exit ends the wait
    with pytest.raises(AddressError) as exited:
        tunnel.start(8765)
    assert exited.value.problem is AddressProblem.EXITED
    assert str(exited.value) == "cloudflared stopped (exit code 3) and did not give an address"
    assert describe(exited.value, "ja") == "cloudflared がアドレスを返さずに終了しました（終了コード 3）。"
