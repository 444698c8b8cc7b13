"""The index page in headless Chromium: every SVG loads with a size, and nothing errs.

Needs Debian's ``chromium`` (``apt-get install chromium``) and the Python ``playwright``
package, which drives that browser: no browser is downloaded. Skipped when Chromium is
not installed. A screenshot of the whole page is saved as ``artifacts/diagrams-index.png``.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from browser_helpers import chromium_page, needs_chromium

from buckshot.diagrams.write import chart_diagrams

REPO = Path(__file__).resolve().parents[2]
INDEX = REPO / "diagrams" / "index.html"
SCREENSHOT = REPO / "artifacts" / "diagrams-index.png"

pytestmark = needs_chromium

_IMAGES = """() => Array.from(document.images).map((img) => {
    const box = img.getBoundingClientRect();
    return {src: img.getAttribute("src"), complete: img.complete,
            natural: [img.naturalWidth, img.naturalHeight], shown: [box.width, box.height]};
})"""


@pytest.mark.slow
def test_index_page_shows_every_svg_without_errors(tmp_path: Path) -> None:
    with chromium_page(tmp_path / "profile") as browser:
        browser.page.goto(INDEX.as_uri(), wait_until="load")
        images = browser.page.evaluate(_IMAGES)
        SCREENSHOT.parent.mkdir(exist_ok=True)
        browser.page.screenshot(path=str(SCREENSHOT), full_page=True)
        problems = browser.problems

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
