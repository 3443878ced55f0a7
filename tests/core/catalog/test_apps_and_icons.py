"""MCP Apps and icons read statically: the apps demo (a real SDK server) walked in both eras is recorded in the
snapshot per tool and `ui://` resource with what a strict host flags; icons are judged without fetching anything,
and only safe raster data is handed on to be drawn."""

from __future__ import annotations

import base64

import anyio
import pytest

from catalog_inspector.core.catalog import ICON_BYTES, Snapshot, apps_json, icons_of, ui_words
from catalog_inspector.core.config import Limits
from catalog_inspector.core.session import SessionWorker
from catalog_inspector.demo.apps import png
from tests.helpers import demo_spec

FAST = Limits(request_timeout=5.0, deadline=30.0)


async def apps_demo(*era: str) -> Snapshot:
    with anyio.fail_after(60):
        return await SessionWorker(demo_spec("apps", *era), FAST).walk_once()


@pytest.mark.anyio
@pytest.mark.parametrize("era", [(), ("--legacy",)], ids=["2026-07-28", "2025-11-25"])
async def test_the_snapshot_records_each_interface_and_view_with_its_findings(era: tuple[str, ...]) -> None:
    snapshot = await apps_demo(*era)
    assert snapshot.server["protocol_version"] == ("2025-11-25" if era else "2026-07-28")
    apps = snapshot.to_json()["mcp_apps"]
    assert apps["tools"]["show_weather"] == {
        "resource_uri": "ui://weather/view.html",
        "visibility": ["model", "app"],
        "resource_listed": True,
    }
    assert apps["tools"]["open_dashboard"]["resource_listed"] is False
    assert "rich_result" not in apps["tools"], "only tools with an interface"
    assert apps["resources"]["ui://weather/view.html"]["permissions"] == {"camera": {}}
    assert [(f["item"], f["code"]) for f in apps["findings"]] == [
        ("tools/open_dashboard", "app_resource_missing"),
        ("resources/ui://loose/view.html", "app_mime_type"),
        ("resources/ui://loose/view.html", "app_csp_open"),
    ]
    assert snapshot.server["icons"][0]["mimeType"] == "image/png", "the server's own icons are kept as sent"
    assert "show_weather" in snapshot.to_json()["tools"][0]["name"], "the tool objects stay exactly as sent"


@pytest.mark.anyio
async def test_an_interface_whose_resources_list_failed_is_neither_listed_nor_missing() -> None:
    snapshot = await apps_demo()
    tools = snapshot.tools.items
    from dataclasses import replace

    from catalog_inspector.core.catalog import ListResult

    failed = replace(snapshot, lists={**snapshot.lists, "resources": ListResult("failed")})
    apps = apps_json(failed)
    assert apps["tools"]["open_dashboard"]["resource_listed"] is None
    assert apps["findings"] == [], "nobody knows whether it is missing"
    words = ui_words(next(t for t in tools if t["name"] == "open_dashboard"), "tools", None)
    assert words[0] == "MCP Apps interface: ui://dashboard/view.html — the resources list was not walked whole"


def _data(mime: str, data: bytes) -> dict[str, str]:
    return {"src": f"data:{mime};base64,{base64.b64encode(data).decode()}"}


def test_icons_are_judged_and_only_safe_raster_data_is_handed_on() -> None:
    real = png()
    item = {
        "icons": [
            {**_data("image/png", real), "sizes": ["4x4"]},
            _data("image/svg+xml", b"<svg xmlns='http://www.w3.org/2000/svg'><script/></svg>"),
            {"src": "https://icons.example.invalid/a.png", "mimeType": "image/png"},
            _data("image/png", b"GIF89a not a png"),
            _data("image/tiff", b"II*\x00"),
            {"src": "data:image/png;base64," + "A" * (ICON_BYTES * 2)},
            {"src": "data:image/png;base64,@@@"},
            {"src": "file:///etc/passwd"},
            "not an object",
        ]
    }
    icons = icons_of(item)
    assert [icon.kind for icon in icons] == [
        "raster",
        "svg",
        "remote",
        "refused",
        "refused",
        "refused",
        "refused",
        "refused",
    ]
    assert icons[0].data == real and icons[0].sizes == "4x4"
    assert all(icon.data is None for icon in icons[1:]), "nothing but checked raster bytes goes to the decoder"
    assert icons[1].note == "an SVG: described, never drawn"
    assert icons[2].note == "listed by its URL, never fetched" and icons[2].source.startswith("https://")
    assert icons[3].note == "its bytes are not image/png"
    assert icons[4].note == "image/tiff is not PNG, JPEG, GIF or WebP"
    assert icons[5].note == "over the 256 KiB icon cap"
    assert icons[6].note == "its data is not valid base64"
    assert icons[7].note == "not a data: or https: URI"
    assert len(icons) == 8, "at most eight icons of one item are looked at"
