"""The index page in headless Chromium: every SVG loads with a size, and nothing errs.

Needs Debian's ``chromium`` (``apt-get install chromium``) and the Python ``playwright``
package, which drives that browser: no browser is downloaded. Skipped when Chromium is
not installed. A screenshot of the whole page is saved as ``artifacts/diagrams-index.png``.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from buckshot.diagrams.catalogue import chart_diagrams

REPO = Path(__file__).resolve().parents[1]
INDEX = REPO / "diagrams" / "index.html"
SCREENSHOT = REPO / "artifacts" / "diagrams-index.png"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

pytestmark = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (apt-get install chromium): the index page was not "
    "checked in a browser",
)

_IMAGES = """() => Array.from(document.images).map((img) => {
    const box = img.getBoundingClientRect();
    return {src: img.getAttribute("src"), complete: img.complete,
            natural: [img.naturalWidth, img.naturalHeight], shown: [box.width, box.height]};
})"""


def test_index_page_shows_every_svg_without_errors(tmp_path: Path) -> None:
    try:
        from playwright.sync_api import ConsoleMessage, Request, sync_playwright
    except ImportError:  # pragma: no cover - a set-up error, reported as a failure
        pytest.fail("the playwright package is missing: install the dev dependencies")
    assert CHROMIUM is not None
    problems: list[str] = []

    def on_console(message: ConsoleMessage) -> None:
        if message.type in ("error", "warning"):
            problems.append(f"console {message.type}: {message.text}")

    def on_failed(request: Request) -> None:
        problems.append(f"request failed: {request.url}: {request.failure}")

    with sync_playwright() as driver:
        browser = driver.chromium.launch_persistent_context(
            str(tmp_path / "profile"),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": 1400, "height": 1000},
        )
        try:
            page = browser.new_page()
            page.on("console", on_console)
            page.on("pageerror", lambda error: problems.append(f"page error: {error}"))
            page.on("requestfailed", on_failed)
            page.goto(INDEX.as_uri(), wait_until="load")
            images = page.evaluate(_IMAGES)
            SCREENSHOT.parent.mkdir(exist_ok=True)
            page.screenshot(path=str(SCREENSHOT), full_page=True)
        finally:
            browser.close()

    assert problems == []
    sources = [image["src"] for image in images]
    expected = {f"{d.stem}.svg" for d in chart_diagrams()} | {"stack.svg"}
    assert expected <= set(sources)
    assert any(source.startswith("traces/") for source in sources)
    for image in images:
        assert image["complete"], f"{image['src']} did not load"
        assert min(image["natural"]) > 0, f"{image['src']} has no size: {image}"
        assert min(image["shown"]) > 0, f"{image['src']} is not shown: {image}"
    assert SCREENSHOT.stat().st_size > 0
