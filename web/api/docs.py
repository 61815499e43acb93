"""``/docs`` served from a Python package, so the API reference works with no internet.

FastAPI's default page loads Swagger UI from a CDN and is blank offline (at a tournament
venue, often). The ``swagger-ui-bundle-v2`` package (the connexion maintainers' bundle of
Swagger UI's release files, kept current) carries a Swagger UI that reads OpenAPI 3.1, as
FastAPI writes it; its files are mounted under ``/docs-assets`` and the page points there.
"""

from __future__ import annotations

from pathlib import Path

from fastapi import FastAPI
from fastapi.openapi.docs import get_swagger_ui_html
from fastapi.responses import HTMLResponse
from fastapi.staticfiles import StaticFiles
from swagger_ui_bundle import swagger_ui_path

ASSETS = "/docs-assets"
ASSET_DIR = Path(str(swagger_ui_path))


def install_docs(app: FastAPI) -> None:
    """Add ``/docs`` and its assets to an app made with ``docs_url=None, redoc_url=None``."""
    app.mount(ASSETS, StaticFiles(directory=ASSET_DIR), name="docs-assets")

    @app.get("/docs", include_in_schema=False)
    async def docs() -> HTMLResponse:
        return get_swagger_ui_html(
            openapi_url=app.openapi_url or "/openapi.json",
            title=f"{app.title}: API",
            swagger_js_url=f"{ASSETS}/swagger-ui-bundle.js",
            swagger_css_url=f"{ASSETS}/swagger-ui.css",
            swagger_favicon_url="/static/favicon.svg",
        )
