"""Issue 41: the project's packages read one way, and no module imports one that imports it back.

From the bottom: the rules engine (``scorekeeper``), the sensing (``firmware_bridge``), then
what both web apps share (``web_common``) beside the wire the board and the hub speak
(``tournament_wire``), then the two apps, the board's (``web``) and the tournament hub
(``hub``), which know nothing of each other, and on top the ``skitter`` command
(``skitter_cli``), which runs either. An import counts wherever it is written: at the top of a
module or inside a function; only one under ``if TYPE_CHECKING:`` (never run) does not.

The import graph is grimp's (the library import-linter is built on); circles are found in it
by networkx as strongly connected components.
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import grimp
import networkx as nx
import pytest

pytestmark = pytest.mark.unit

LAYERS = (
    grimp.Layer("skitter_cli"),
    grimp.Layer("web", "hub", independent=True),
    grimp.Layer("web_common", "tournament_wire", independent=True),
    grimp.Layer("firmware_bridge"),
    grimp.Layer("scorekeeper"),
)
"""Highest first: a package may import only from the layers below its own, and never from a
sibling in its own layer."""
PACKAGES = ("scorekeeper", "firmware_bridge", "web_common", "tournament_wire", "web", "hub",
            "skitter_cli", "skibbitt", "skibbitt_app")


ROOT = Path(__file__).resolve().parents[2]


@contextmanager
def project_first() -> Iterator[None]:
    """Each package found where the project keeps it. grimp finds a package by its import
    spec, and pytest puts ``tests/`` on ``sys.path``: there ``tests/hub/`` (the hub's tests,
    no ``__init__.py``) would be found as a namespace package ``hub`` before the installed
    one is looked for. A namespace package picked up that way is forgotten again after."""
    saved = list(sys.path)
    sys.path.insert(0, str(ROOT))
    importlib.invalidate_caches()
    for name in PACKAGES:
        module = sys.modules.get(name)
        if module is not None and getattr(module, "__file__", None) is None:
            del sys.modules[name]
    try:
        yield
    finally:
        sys.path[:] = saved
        importlib.invalidate_caches()


@pytest.fixture(scope="module")
def graph() -> grimp.ImportGraph:
    with project_first():
        for name in PACKAGES:  # the project's own packages, not a folder of tests
            spec = importlib.util.find_spec(name)
            assert spec is not None and spec.origin == str(ROOT / name / "__init__.py"), spec
        return grimp.build_graph(*PACKAGES, exclude_type_checking_imports=True,
                                 cache_dir=None)


def test_no_package_imports_one_above_it_or_beside_it(graph: grimp.ImportGraph) -> None:
    """The hub and the board's app import nothing of each other; nothing below imports up."""
    illegal = graph.find_illegal_dependencies_for_layers(layers=LAYERS)
    assert sorted(_routes(illegal)) == []


def _routes(illegal: set[grimp.PackageDependency]) -> list[str]:
    """Each import against the layers, by the modules that make it (what to fix)."""
    return [f"{d.importer} -> {d.imported}: {' | '.join(route.heads)} ... "
            f"{' | '.join(route.tails)}" for d in illegal for route in d.routes]


def test_the_hub_and_the_board_share_only_the_common_ground_and_the_wire(
        graph: grimp.ImportGraph) -> None:
    """Said the plain way, so a failure names the very modules: no hub module imports a web
    module, and no web module a hub one."""
    crossing = sorted(
        f"{importer} -> {imported}"
        for mine, theirs in (("hub", "web"), ("web", "hub"))
        for importer in graph.find_descendants(mine) | {mine}
        for imported in graph.find_modules_directly_imported_by(importer)
        if imported == theirs or imported.startswith(f"{theirs}."))
    assert crossing == []


def test_no_module_imports_one_that_imports_it_back(graph: grimp.ImportGraph) -> None:
    imports = nx.DiGraph()
    for module in graph.modules:
        imports.add_node(module)
        imports.add_edges_from((module, imported)
                               for imported in graph.find_modules_directly_imported_by(module))
    circles = sorted(sorted(c) for c in nx.strongly_connected_components(imports) if len(c) > 1)
    assert circles == []


@pytest.mark.parametrize("name", PACKAGES)
def test_the_tests_import_each_package_from_the_project_not_a_folder_of_tests(
        name: str) -> None:
    """``tests/hub`` (the hub's tests) beside ``hub`` (the hub): inside a test run ``import
    hub`` is the project's package, its ``__init__.py`` run, never a namespace package that
    mixes the two (a test that imported the real one again then lost ``hub.bursts``)."""
    module = importlib.import_module(name)
    assert getattr(module, "__file__", None) == str(ROOT / name / "__init__.py"), module
