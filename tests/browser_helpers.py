"""Headless Chromium for the page tests: Debian's ``chromium`` driven by playwright.

No browser is downloaded: playwright launches the system's Chromium by its path. A page
records every console error or warning, uncaught error and failed request as a problem,
and every URL it requests.
"""

from __future__ import annotations

import shutil
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest

CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
"""The system's Chromium, or None when it is not installed."""

FLAGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

needs_chromium = pytest.mark.skipif(
    CHROMIUM is None,
    reason="Chromium is not installed (apt-get install chromium): the page was not checked "
    "in a browser",
)


@dataclass
class Browser:
    """A page of headless Chromium, with what went wrong on it and what it requested."""

    page: Any
    problems: list[str] = field(default_factory=list)
    requests: list[str] = field(default_factory=list)


@contextmanager
def chromium_page(profile: Path, width: int = 1400, height: int = 1000) -> Iterator[Browser]:
    """A fresh page of headless Chromium with its profile in ``profile``; closed after."""
    try:
        from playwright.sync_api import ConsoleMessage, Request, sync_playwright
    except ImportError:  # pragma: no cover - a set-up error, reported as a failure
        pytest.fail("the playwright package is missing: install the dev dependencies")
    assert CHROMIUM is not None
    with sync_playwright() as driver:
        context = driver.chromium.launch_persistent_context(
            str(profile),
            executable_path=CHROMIUM,
            headless=True,
            args=FLAGS,
            viewport={"width": width, "height": height},
        )
        try:
            browser = Browser(context.new_page())

            def on_console(message: ConsoleMessage) -> None:
                if message.type in ("error", "warning"):
                    browser.problems.append(f"console {message.type}: {message.text}")

            def on_failed(request: Request) -> None:
                browser.problems.append(f"request failed: {request.url}: {request.failure}")

            browser.page.on("console", on_console)
            browser.page.on("pageerror", lambda e: browser.problems.append(f"page error: {e}"))
            browser.page.on("requestfailed", on_failed)
            browser.page.on("request", lambda request: browser.requests.append(request.url))
            yield browser
        finally:
            context.close()
