"""Rich menus (the menu under the chat) as the Messaging API keeps them: create, upload the image, set
as the default for every user, read the default, list, delete.

Checked as LINE's reference (messaging-api.yml and the rich menu object's documented limits) states:
size width 800–2500 and height at least 250 with width / height at least 1.45; `selected`; `name` 1–300
characters; `chatBarText` 1–14; at most 20 areas, each inside the size, with an action of a type rich
menus take. The image is PNG or JPEG, at most 1 MB, of exactly the menu's pixel size (measured with
Pillow), uploaded once: LINE cannot replace a rich menu's image. A menu without an image cannot become
the default. Menus are kept across reset() like the webhook settings, as configuration, not traffic.
"""

from __future__ import annotations

import datetime as dt
import io
import secrets
import threading
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, TypeGuard

from core.emulator import responses as r
from core.emulator.exchange import Request, Response
from core.emulator.validation import MISSING, Problem, _check_postback_actions, _check_string, _check_uri

MIN_WIDTH, MAX_WIDTH, MIN_HEIGHT = 800, 2500, 250
MIN_RATIO = 1.45
MAX_AREAS = 20
NAME_MAX = 300
CHAT_BAR_MAX = 14
LABEL_MAX = 20
MESSAGE_TEXT_MAX = 300
CLIPBOARD_MAX = 1000
IMAGE_MAX_BYTES = 1024 * 1024
IMAGE_TYPES = {"image/png": "PNG", "image/jpeg": "JPEG"}
# The actions LINE lets a rich menu area take (camera, camera roll and location are quick-reply only).
ACTION_TYPES = ("postback", "message", "uri", "datetimepicker", "richmenuswitch", "clipboard")

# LINE's wording where it is known; the others are our own.
NOT_FOUND = "Not found"
IMAGE_EXISTS = "An image has already been uploaded to the richmenu"
NO_IMAGE = "must upload richmenu image before applying it to user"
NO_DEFAULT = "no default richmenu"
IMAGE_UNREADABLE = "The image is not a PNG or JPEG image"
IMAGE_TYPE_MISMATCH = "The image's format does not match its Content-Type"
UNSUPPORTED_IMAGE = "The request body must be an image with Content-Type: image/png or image/jpeg"


@dataclass(slots=True)
class RichMenu:
    rich_menu_id: str
    definition: dict[str, Any]  # size, selected, name, chatBarText, areas as created
    created_at: dt.datetime
    image: bytes | None = None
    image_type: str | None = None

    def to_json(self) -> dict[str, Any]:
        """As LINE's rich menu response object."""
        return {"richMenuId": self.rich_menu_id, **self.definition}


class RichMenus:
    """Called under the emulator's state lock."""

    def __init__(self) -> None:
        self.menus: dict[str, RichMenu] = {}
        self.default_id: str | None = None

    def create(self, body: dict[str, Any], now: dt.datetime) -> RichMenu:
        menu_id = "richmenu-" + secrets.token_hex(16)
        fields = ("size", "selected", "name", "chatBarText", "areas")
        menu = RichMenu(menu_id, {name: body[name] for name in fields}, now)
        self.menus[menu_id] = menu
        return menu

    def delete(self, menu_id: str) -> bool:
        if self.menus.pop(menu_id, None) is None:
            return False
        if self.default_id == menu_id:
            self.default_id = None
        return True

    def default(self) -> RichMenu | None:
        return None if self.default_id is None else self.menus.get(self.default_id)

    def to_json(self) -> dict[str, Any]:
        """For the control API and the demo: every menu, whether it has its image, which is the default."""
        return {"default": self.default_id,
                "richmenus": [{**m.to_json(), "hasImage": m.image is not None, "imageType": m.image_type,
                               "createdAt": m.created_at.isoformat()} for m in self.menus.values()]}


def check_rich_menu(body: dict[str, Any]) -> list[Problem]:
    problems: list[Problem] = []
    width, height = _check_size(body.get("size"), problems)
    selected = body.get("selected")
    if selected is None:
        problems.append(("selected", MISSING))
    elif not isinstance(selected, bool):
        problems.append(("selected", "must be a boolean"))
    _check_string(body.get("name"), "name", 1, NAME_MAX, problems)
    _check_string(body.get("chatBarText"), "chatBarText", 1, CHAT_BAR_MAX, problems)
    areas = body.get("areas")
    if areas is None:
        problems.append(("areas", MISSING))
    elif not isinstance(areas, list):
        problems.append(("areas", "must be an array"))
    elif len(areas) > MAX_AREAS:
        problems.append(("areas", f"Size must be between 0 and {MAX_AREAS}"))
    else:
        for i, area in enumerate(areas):
            _check_area(area, f"areas[{i}]", width, height, problems)
    return problems


def _whole(value: Any) -> TypeGuard[int]:
    return isinstance(value, int) and not isinstance(value, bool)


def _check_size(size: Any, problems: list[Problem]) -> tuple[int | None, int | None]:
    if size is None:
        problems.append(("size", MISSING))
        return None, None
    if not isinstance(size, dict):
        problems.append(("size", "must be an object"))
        return None, None
    width, height = size.get("width"), size.get("height")
    width_ok = _whole(width) and MIN_WIDTH <= width <= MAX_WIDTH
    height_ok = _whole(height) and height >= MIN_HEIGHT
    if not width_ok:
        problems.append(("size.width", MISSING if width is None else f"must be between {MIN_WIDTH} and {MAX_WIDTH}"))
    if not height_ok:
        problems.append(("size.height", MISSING if height is None else f"must be {MIN_HEIGHT} or more"))
    if not (width_ok and height_ok and _whole(width) and _whole(height)):
        return None, None
    if width / height < MIN_RATIO:
        problems.append(("size", f"width / height must be {MIN_RATIO} or more"))
    return width, height


def _check_area(area: Any, where: str, width: int | None, height: int | None, problems: list[Problem]) -> None:
    if not isinstance(area, dict):
        problems.append((where, "must be an object"))
        return
    bounds = area.get("bounds")
    if not isinstance(bounds, dict):
        problems.append((f"{where}.bounds", MISSING if bounds is None else "must be an object"))
    else:
        _check_bounds(bounds, f"{where}.bounds", width, height, problems)
    action = area.get("action")
    if not isinstance(action, dict):
        problems.append((f"{where}.action", MISSING if action is None else "must be an object"))
    else:
        _check_action(action, f"{where}.action", problems)


def _check_bounds(bounds: dict[str, Any], where: str, width: int | None, height: int | None,
                  problems: list[Problem]) -> None:
    values: dict[str, int] = {}
    for name, low in (("x", 0), ("y", 0), ("width", 1), ("height", 1)):
        value = bounds.get(name)
        if value is None:
            problems.append((f"{where}.{name}", MISSING))
        elif not _whole(value) or value < low:
            problems.append((f"{where}.{name}", f"must be a whole number, {low} or more"))
        else:
            values[name] = value
    if len(values) < 4 or width is None or height is None:
        return
    if values["x"] + values["width"] > width or values["y"] + values["height"] > height:
        problems.append((where, "must be inside the rich menu's size"))


def _check_action(action: dict[str, Any], where: str, problems: list[Problem]) -> None:
    kind = action.get("type")
    if kind not in ACTION_TYPES:
        message = MISSING if kind is None else f"Must be one of the following values: [{', '.join(ACTION_TYPES)}]"
        problems.append((f"{where}.type", message))
        return
    if "label" in action:
        _check_string(action.get("label"), f"{where}.label", 1, LABEL_MAX, problems)
    if kind == "uri":
        _check_uri(action.get("uri"), f"{where}.uri", problems)
    elif kind == "message":
        _check_string(action.get("text"), f"{where}.text", 1, MESSAGE_TEXT_MAX, problems)
    elif kind == "clipboard":
        _check_string(action.get("clipboardText"), f"{where}.clipboardText", 1, CLIPBOARD_MAX, problems)
    elif kind == "richmenuswitch":
        _check_string(action.get("richMenuAliasId"), f"{where}.richMenuAliasId", 1, 32, problems)
        _check_string(action.get("data"), f"{where}.data", 1, 300, problems)
    else:  # postback, datetimepicker
        _check_postback_actions({"action": {k: v for k, v in action.items() if k != "label"}}, where.rsplit(".", 1)[0],
                                problems)


def image_problem(content_type: str, image: bytes, menu: RichMenu) -> str | None:
    """Why LINE would refuse this image for the menu, or None. The size is the image's own pixel size."""
    from PIL import Image, UnidentifiedImageError  # only a rich menu upload needs it

    expected = IMAGE_TYPES[content_type]
    try:
        with Image.open(io.BytesIO(image)) as picture:
            found, size = picture.format, picture.size
    except (UnidentifiedImageError, OSError, ValueError):
        return IMAGE_UNREADABLE
    if found not in IMAGE_TYPES.values():
        return IMAGE_UNREADABLE
    if found != expected:
        return IMAGE_TYPE_MISMATCH
    wanted = (menu.definition["size"]["width"], menu.definition["size"]["height"])
    if size != wanted:
        return (f"The image is {size[0]}x{size[1]} pixels; the rich menu's size is {wanted[0]}x{wanted[1]}")
    return None


class RichMenuApi:
    """The endpoints, after line_api's route, auth, Content-Type and size checks."""

    def __init__(self, lock: threading.Lock, clock: Callable[[], dt.datetime], menus: RichMenus) -> None:
        self._lock = lock  # the emulator's state lock
        self._clock = clock
        self._menus = menus

    def create(self, body: dict[str, Any] | None, rid: str) -> Response:
        assert body is not None
        problems = check_rich_menu(body)
        if problems:
            return r.body_errors(problems, rid)
        with self._lock:
            menu = self._menus.create(body, self._clock())
        return r.json_response(200, {"richMenuId": menu.rich_menu_id}, rid)

    def upload(self, menu_id: str, request: Request, rid: str) -> Response:
        content_type = request.headers.get("content-type", "").partition(";")[0].strip().lower()
        if len(request.body) > IMAGE_MAX_BYTES:
            return r.error(413, r.TOO_LARGE, rid)
        with self._lock:
            menu = self._menus.menus.get(menu_id)
            has_image = menu is not None and menu.image is not None
        if menu is None:
            return r.error(404, NOT_FOUND, rid)
        if has_image:
            return r.error(400, IMAGE_EXISTS, rid)
        problem = image_problem(content_type, request.body, menu)  # outside the lock: decoding takes a while
        if problem is not None:
            return r.error(400, problem, rid)
        with self._lock:
            if menu.image is not None:
                return r.error(400, IMAGE_EXISTS, rid)
            menu.image, menu.image_type = request.body, content_type
        return r.json_response(200, {}, rid)

    def download(self, menu_id: str, rid: str) -> Response:
        with self._lock:
            menu = self._menus.menus.get(menu_id)
            image, image_type = (None, None) if menu is None else (menu.image, menu.image_type)
        if image is None or image_type is None:
            return r.error(404, NOT_FOUND, rid)
        return Response(200, image, [("Content-Type", image_type), ("X-Line-Request-Id", rid)])

    def get(self, menu_id: str, rid: str) -> Response:
        with self._lock:
            menu = self._menus.menus.get(menu_id)
            value = None if menu is None else menu.to_json()
        return r.error(404, NOT_FOUND, rid) if value is None else r.json_response(200, value, rid)

    def list(self, rid: str) -> Response:
        with self._lock:
            menus = [m.to_json() for m in self._menus.menus.values()]
        return r.json_response(200, {"richmenus": menus}, rid)

    def delete(self, menu_id: str, rid: str) -> Response:
        with self._lock:
            deleted = self._menus.delete(menu_id)
        return r.json_response(200, {}, rid) if deleted else r.error(404, NOT_FOUND, rid)

    def set_default(self, menu_id: str, rid: str) -> Response:
        with self._lock:
            menus = self._menus
            menu = menus.menus.get(menu_id)
            if menu is not None and menu.image is not None:
                menus.default_id = menu_id
        if menu is None:
            return r.error(404, NOT_FOUND, rid)
        if menu.image is None:
            return r.error(400, NO_IMAGE, rid)
        return r.json_response(200, {}, rid)

    def get_default(self, rid: str) -> Response:
        with self._lock:
            menu = self._menus.default()
            menu_id = None if menu is None else menu.rich_menu_id
        if menu_id is None:
            return r.error(404, NO_DEFAULT, rid)
        return r.json_response(200, {"richMenuId": menu_id}, rid)

    def cancel_default(self, rid: str) -> Response:
        with self._lock:
            self._menus.default_id = None
        return r.json_response(200, {}, rid)
