"""What one browser context costs the browser tests: Debian's full Chromium beside its
headless build, each opening the scoreboard in fresh contexts.

    python bench/chromium_contexts.py [--contexts 20] [--page /]

A browser test opens a context of its own (cookies and storage of its own), loads a page in
it and closes it when done; the suite opens some 370. For each browser, one
``skitter serve`` child serves the simulated board; the browser is launched once, as the
suite's workers launch theirs (the suite's switches), and then ``--contexts`` times a context
is opened, ``--page`` loaded in it until the page has drawn its first state, and the context
closed. The figure is the processor time of the browser's processes (and those it has ended)
over those contexts, divided by their number, with the wall time of one and the browser's
processes seen at the end.

The full browser (``/usr/bin/chromium``) was what the suite used before; its headless build
(``/usr/bin/chromium-headless-shell``, package ``chromium-headless-shell``) draws pages with
the same engine without a browser's window around them: the full one readies an address bar
(two pages of its own) for every window, so for every context.
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

from machine import print_header
from serve_proc import ServeProcess

TICKS = os.sysconf("SC_CLK_TCK")


def tree(root: int) -> tuple[float, int]:
    """Processor seconds of ``root``'s descendants (their own, and those of the children
    they have ended), and how many there are."""
    children: dict[int, list[int]] = {}
    cpu: dict[int, float] = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            stat = Path(f"/proc/{entry}/stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        children.setdefault(int(fields[1]), []).append(int(entry))
        cpu[int(entry)] = sum(int(f) for f in fields[11:15]) / TICKS
    total, count, todo = 0.0, 0, list(children.get(root, []))
    while todo:
        pid = todo.pop()
        total += cpu.get(pid, 0.0)
        count += 1
        todo.extend(children.get(pid, []))
    return total, count


def measure(playwright: object, executable: str, url: str, contexts: int) -> tuple[float, str]:
    """One browser's processor time per context, and its line (with the wall time)."""
    from browser_support import CHROMIUM_ARGS  # (tests/support, on the path once machine is)

    browser = playwright.chromium.launch(executable_path=executable,  # type: ignore[attr-defined]
                                         args=CHROMIUM_ARGS)
    try:
        # the Playwright driver is this process's child; the browser is the driver's
        before, _ = tree(os.getpid())
        started = time.perf_counter()
        for _ in range(contexts):
            ctx = browser.new_context(viewport={"width": 1280, "height": 720})
            page = ctx.new_page()
            page.goto(url)
            page.wait_for_function("document.body.dataset.seq !== undefined")
            ctx.close()
        wall = (time.perf_counter() - started) / contexts
        after, processes = tree(os.getpid())
    finally:
        browser.close()
    per = (after - before) / contexts
    return per, (f"{Path(executable).name:26} {per:5.2f} s of processor time a context, "
                 f"{wall:5.2f} s wall, {processes} processes at the end")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--contexts", type=int, default=20)
    parser.add_argument("--page", default="/")
    args = parser.parse_args()
    from browser_support import CHROMIUM, HEADLESS_CHROMIUM

    missing = [p for p in (CHROMIUM, HEADLESS_CHROMIUM) if not os.path.exists(p)]
    if missing:
        print(f"not installed: {', '.join(missing)}", file=sys.stderr)
        return 1
    from playwright.sync_api import sync_playwright

    print_header("Chromium: processor time of one browser context")
    print(f"{args.contexts} contexts each, the page {args.page} of a simulated board "
          f"loaded in each until drawn")
    print()
    with tempfile.TemporaryDirectory() as tmp, ServeProcess(Path(tmp)) as served:  # ready
        url = served.url + args.page
        with sync_playwright() as playwright:
            (before, full), (now, headless) = (measure(playwright, path, url, args.contexts)
                                               for path in (CHROMIUM, HEADLESS_CHROMIUM))
    print("before (the full browser):", full)
    print("now (the headless build): ", headless)
    print()
    print(f"Result: a context a browser test opens costs {now:.2f} s of processor time, "
          f"{before:.2f} s before ({before / now:.1f} times as much).")
    return 0


if __name__ == "__main__":
    sys.exit(main())
