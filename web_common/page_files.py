"""A folder of page files (HTML, CSS, images and the pages' ES modules) as the apps serve it.

The pages load their scripts as ES modules, straight from the files (no build, no bundle).
Their type is ``text/javascript`` (RFC 9239) whatever the machine's MIME table says: Python
3.11 names ``.js`` ``application/javascript`` unless ``/etc/mime.types`` says otherwise.
"""

from __future__ import annotations

import os
from pathlib import Path

from fastapi.staticfiles import StaticFiles
from starlette.responses import Response
from starlette.types import Scope

COMMON = Path(__file__).resolve().parent / "static"
"""The page files both apps' pages use: the style sheets, the words, the DOM builder, the API
call and the stream overlay's drawing (the board serves them under ``/static/``, the hub under
``/shared/``), and the markup parts (:mod:`web_common.page_parts`)."""

SCRIPT = "text/javascript; charset=utf-8"
"""A page script's type, for the folder below and any single module served on its own."""


class PageFiles(StaticFiles):
    """:class:`StaticFiles` whose scripts are always ``text/javascript``."""

    def file_response(self, full_path: str | os.PathLike[str], stat_result: os.stat_result,
                      scope: Scope, status_code: int = 200) -> Response:
        response = super().file_response(full_path, stat_result, scope, status_code)
        if os.fspath(full_path).endswith(".js"):
            response.headers["content-type"] = SCRIPT
        return response
