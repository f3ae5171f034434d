"""The LINE WORKS stand-in's content upload and image messages, over real HTTP: it refuses an image
message naming a file it never issued, and an upload without the bearer token."""

from __future__ import annotations

import httpx

from core.channels.line_works_client import BaseUrls, WorksClient
from core.emulator.line_works import WorksStandIn
from tests.worksfixtures import credentials, works, works_ready  # noqa: F401

ROOM = "room-1"


def test_the_stand_in_refuses_an_unknown_file_and_an_upload_without_the_token(works: WorksStandIn) -> None:
    works.add_channel(ROOM)
    client = WorksClient(credentials(), base_urls=_at(works))
    try:
        refused = client.send_to_channel(ROOM, {"type": "image", "fileId": "jp1.1628695315008671000.1.0.2000001.0.0.0"})
        assert refused.http_status == 400 and "content.fileId" in str(refused.message)
        plain = client.send_to_channel(ROOM, {"type": "image", "previewImageUrl": "http://example.com/p.png",
                                              "originalContentUrl": "https://example.com/o.png"})
        assert plain.http_status == 400 and "previewImageUrl" in str(plain.message)
        by_url = client.send_to_channel(ROOM, {"type": "image", "previewImageUrl": "https://example.com/p.png",
                                               "originalContentUrl": "https://example.com/o.png"})
        assert by_url.http_status == 201

        token = client.token()
        bot = f"{works.base_url}/v1.0/bots/{credentials().bot_id}/attachments"
        asked = httpx.post(bot, json={"fileName": "month.png"}, headers={"Authorization": f"Bearer {token}"})
        assert asked.status_code == 200
        upload_url, file_id = asked.json()["uploadUrl"], asked.json()["fileId"]
        assert httpx.post(bot, json={"fileName": ""}, headers={"Authorization": f"Bearer {token}"}).status_code == 400
        assert httpx.post(bot, json={"fileName": "month.png"}).status_code == 401
        form = {"Filedata": ("month.png", b"\x89PNG...", "image/png")}
        assert httpx.post(upload_url, files=form).status_code == 401  # without the bearer token: kept nothing
        assert works.files == {}
        assert client.send_to_channel(ROOM, {"type": "image", "fileId": file_id}).http_status == 400  # not uploaded yet
        assert httpx.post(upload_url, files={"other": ("month.png", b"x", "image/png")},
                          headers={"Authorization": f"Bearer {token}"}).status_code == 400
        assert httpx.post(upload_url, files=form, headers={"Authorization": f"Bearer {token}"}).status_code == 200
        assert works.files == {file_id: b"\x89PNG..."}
        assert httpx.post(upload_url, files=form, headers={"Authorization": f"Bearer {token}"}).status_code == 404
        assert client.send_to_channel(ROOM, {"type": "image", "fileId": file_id}).http_status == 201
    finally:
        client.close()


def _at(works: WorksStandIn) -> BaseUrls:
    return BaseUrls(works.base_url, works.base_url)
