"""Installed games. Each subpackage exposes ``game``, a :class:`GameBinding`.

``get(game_id)`` loads and checks a game once; ``load_path(dir)`` loads a game
from a folder outside the package (a DSL file plus an optional ``rules.py``).
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import lru_cache
from pathlib import Path

from ..engine import Game, GameBinding, load


def installed() -> list[str]:
    packages = {info.name for info in pkgutil.iter_modules(__path__) if info.ispkg}
    return sorted(packages | set(_dsl_only()))


def _dsl_only() -> dict[str, Path]:
    """Folders holding only ``<id>/<id>.yaml``: games written without any Python."""
    found: dict[str, Path] = {}
    for folder in __path__:
        for child in Path(folder).iterdir():
            dsl = child / f"{child.name}.yaml"
            if dsl.is_file() and not (child / "__init__.py").exists() and child.name.isidentifier():
                found[child.name] = dsl
    return found


@lru_cache(maxsize=None)
def get(game_id: str) -> Game:
    if game_id not in installed():
        raise KeyError(f"no installed game {game_id!r} (installed: {', '.join(installed())})")
    bare = _dsl_only().get(game_id)
    if bare is not None:
        from ..engine.yaml_game import binding_from_dsl  # noqa: PLC0415

        return load(binding_from_dsl(bare, game_id))
    module = importlib.import_module(f"{__name__}.{game_id}")
    return load(module.game)


def load_path(path: str | Path) -> Game:
    """Load a game from a folder with ``rules.py`` or from a bare DSL file."""
    path = Path(path)
    rules = path / "rules.py" if path.is_dir() else None
    if rules is not None and rules.exists():
        spec = importlib.util.spec_from_file_location(f"intrigue_external_{path.name}", rules)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return load(module.game)
    dsl = path if path.is_file() else next(iter(sorted(path.glob("*.yaml"))))
    from ..engine.yaml_game import binding_from_dsl  # noqa: PLC0415 - a game with no Python

    return load(binding_from_dsl(dsl))
