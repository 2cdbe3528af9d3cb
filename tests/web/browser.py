"""Headless Chromium for the web pages' browser tests (marked `browser`), driven through
Debian's chromedriver with Selenium. Without Chromium the tests are skipped, with one line at
the end of the run (tests/conftest.py) saying how to install it; with REQUIRE_BROWSER=1 (.ci/run
sets it and installs Chromium) they fail instead.

Selenium's calls block until the browser answers, and the pages are served by the bot on the
test's own event loop: each call goes through `asyncio.to_thread` (`Browser`), so the loop
serves the page meanwhile."""

from __future__ import annotations

import asyncio
import os
import shutil
from collections.abc import Iterator
from typing import Any

import pytest

CHROMIUM = ("/usr/bin/chromium", "/usr/bin/chromium-browser")
CHROMEDRIVER = "/usr/bin/chromedriver"
SKIP_REASON = "no Chromium and chromedriver"
PHONE = (390, 844)  # an iPhone's CSS pixels: the pages must not scroll sideways there


def chromium() -> str | None:
    return next((path for path in CHROMIUM if os.path.exists(path)), shutil.which("chromium"))


def required() -> bool:
    return os.environ.get("REQUIRE_BROWSER", "") not in ("", "0")


class Browser:
    """A Chromium window the size of a phone; every call runs off the event loop."""

    def __init__(self, driver: Any) -> None:
        self.driver = driver

    async def open(self, url: str) -> None:
        await asyncio.to_thread(self.driver.get, url)

    async def run(self, script: str, *args: Any) -> Any:
        return await asyncio.to_thread(self.driver.execute_script, script, *args)

    async def click(self, selector: str) -> None:
        await self.run("document.querySelector(arguments[0]).click()", selector)

    async def errors(self) -> list[str]:
        """What the page logged as errors (a script that failed, a policy that blocked one)."""
        logs = await asyncio.to_thread(self.driver.get_log, "browser")
        return [entry["message"] for entry in logs if entry["level"] == "SEVERE"]


@pytest.fixture(scope="session")
def chromium_driver() -> Iterator[Any]:
    binary = chromium()
    if binary is None or not os.path.exists(CHROMEDRIVER):
        if required():
            pytest.fail(f"{SKIP_REASON}, but REQUIRE_BROWSER is set")
        pytest.skip(SKIP_REASON)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service

    options = webdriver.ChromeOptions()
    options.binary_location = binary
    for argument in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage"):
        options.add_argument(argument)
    # A phone's viewport, emulated: a desktop window can't be made narrower than about 500 px.
    metrics = {"width": PHONE[0], "height": PHONE[1], "pixelRatio": 3, "mobile": True}
    options.add_experimental_option("mobileEmulation", {"deviceMetrics": metrics})
    options.set_capability("goog:loggingPrefs", {"browser": "ALL"})
    driver = webdriver.Chrome(options=options, service=Service(CHROMEDRIVER))
    try:
        yield driver
    finally:
        driver.quit()


@pytest.fixture
def browser(chromium_driver: Any) -> Browser:
    chromium_driver.get_log("browser")  # what an earlier test's pages logged, read and gone
    return Browser(chromium_driver)
