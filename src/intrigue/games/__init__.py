"""Installed games, and games from anywhere. Each subpackage exposes ``game``, a :class:`GameBinding`.

``resolve(spec)`` is the one way every command finds a game: an installed id, or
the path of a game's YAML file (or of a folder holding ``<id>.yaml`` and maybe a
``rules.py``). ``get(game_id)`` loads and checks an installed game once;
``add_folder(dir)`` adds the games of a folder beside the installed ones (what
``intrigue serve --games DIR`` does), so that ``installed()`` lists them and
``get`` finds them by id.
"""

from __future__ import annotations

import importlib
import importlib.util
import pkgutil
from functools import lru_cache
from pathlib import Path

from ..engine import BindingError, Game, GameBinding, load

#: Games added from folders outside the package: id -> the YAML file or folder.
_EXTRA: dict[str, Path] = {}


def installed() -> list[str]:
    packages = {info.name for info in pkgutil.iter_modules(__path__) if info.ispkg}
    return sorted(packages | set(_dsl_only()) | set(_EXTRA))


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
    extra = _EXTRA.get(game_id)
    if extra is not None:
        return load_path(extra, game_id)
    bare = _dsl_only().get(game_id)
    if bare is not None:
        from ..engine.yaml_game import binding_from_dsl  # noqa: PLC0415

        return load(binding_from_dsl(bare, game_id))
    module = importlib.import_module(f"{__name__}.{game_id}")
    return load(module.game)


def resolve(spec: str | Path, relative_to: str | Path | None = None) -> Game:
    """An installed game by id, or the game of a YAML file or folder (a relative path is taken from
    ``relative_to``, else from the working directory). Raises ``KeyError`` naming what exists."""
    text = str(spec)
    if isinstance(spec, str) and spec in installed():
        return get(spec)
    path = Path(text).expanduser()
    if not path.is_absolute() and relative_to is not None:
        path = Path(relative_to) / path
    if path.is_file() or (path.is_dir() and any(path.glob("*.yaml"))):
        resolved = path.resolve()
        return _load_file(resolved, resolved.stat().st_mtime_ns if resolved.is_file() else 0)
    raise KeyError(f"no installed game {text!r} and no such game file "
                   f"(installed: {', '.join(installed())}; or give the path of a game's .yaml file)")


@lru_cache(maxsize=64)
def _load_file(path: Path, stamp: int) -> Game:
    return load_path(path)


def load_path(path: str | Path, game_id: str | None = None) -> Game:
    """Load a game from a folder with ``rules.py`` or from a bare DSL file."""
    path = Path(path)
    rules = path / "rules.py" if path.is_dir() else None
    if rules is not None and rules.exists():
        spec = importlib.util.spec_from_file_location(f"intrigue_external_{path.name}", rules)
        assert spec and spec.loader
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return load(module.game)
    dsl = path if path.is_file() else _folder_file(path)
    from ..engine.yaml_game import binding_from_dsl  # noqa: PLC0415 - a game with no Python

    base = _extended(dsl)
    if base is not None:  # an extension file: the game it extends, merged, under the extension's name
        if (base.parent / "rules.py").exists() or (base.parent / "__init__.py").exists():
            raise BindingError(f"{dsl} extends {base.name}, a game with Python, whose binding lists its "
                               "extension files: play that game (its installed id, with its options)")
        binding = binding_from_dsl(base, game_id or dsl.stem)
        binding.extensions = (dsl.resolve(),)
        return load(binding)
    python_game = _python_game_with(dsl)
    if python_game is not None:  # its DSL alone cannot run: the names its conditions use are the binding's
        raise BindingError(f"{dsl} is the DSL file of the installed game {python_game!r}, whose rules are "
                           f"in Python: play that game by its id (game: {python_game})")
    return load(binding_from_dsl(dsl, game_id))


def _python_game_with(dsl: Path) -> str | None:
    """The id of the installed game with Python whose DSL file this is (that file, or a byte-for-byte
    copy such as the seed documents), else None."""
    try:
        text = dsl.read_bytes()
    except OSError:
        return None
    for folder in __path__:
        for child in Path(folder).iterdir():
            own = child / f"{child.name}.yaml"
            if (child / "rules.py").exists() and own.is_file() and own.read_bytes() == text:
                return child.name
    return None


def _extended(dsl: Path) -> Path | None:
    """The DSL file an extension file (top-level ``extends``) extends, else None."""
    import yaml  # noqa: PLC0415

    try:
        data = yaml.safe_load(dsl.read_text(encoding="utf-8"))
    except (OSError, yaml.YAMLError):
        return None  # loading the file itself reports it
    named = data.get("extends") if isinstance(data, dict) else None
    return (dsl.parent / named).resolve() if isinstance(named, str) and named else None


def _folder_file(path: Path) -> Path:
    named = path / f"{path.name}.yaml"
    return named if named.is_file() else next(iter(sorted(path.glob("*.yaml"))))


def add_folder(folder: str | Path) -> tuple[list[str], list[str]]:
    """Add the games of ``folder`` beside the installed ones: each ``<id>.yaml`` in it, and each
    ``<id>/`` folder holding ``<id>.yaml`` (or, given one ``<id>.yaml`` file, that game alone).
    Returns ``(added ids, problems)``; a game that does not load, or whose id an installed game
    already has, is a problem and is not added."""
    folder = Path(folder).expanduser().resolve()
    candidates: dict[str, Path] = {}
    if folder.is_file():
        if folder.suffix not in (".yaml", ".yml") or not folder.stem.isidentifier():
            return [], [f"{folder}: a game's file is named <id>.yaml, its id letters, digits and '_'"]
        candidates[folder.stem] = folder
    elif not folder.is_dir():
        return [], [f"{folder} is neither a folder nor a game's .yaml file"]
    for child in sorted(folder.iterdir()) if folder.is_dir() else ():
        if child.is_file() and child.suffix in (".yaml", ".yml") and child.stem.isidentifier():
            candidates[child.stem] = child
        elif child.is_dir() and (child / f"{child.name}.yaml").is_file() and child.name.isidentifier():
            candidates[child.name] = child
    added, problems = [], []
    for game_id, path in candidates.items():
        if game_id in installed() and _EXTRA.get(game_id) != path:
            problems.append(f"{path}: a game with the id {game_id!r} is already installed; rename the file")
            continue
        _EXTRA[game_id] = path
        try:
            get(game_id)
        except Exception as exc:  # noqa: BLE001 - a game under construction: say why, serve the others
            del _EXTRA[game_id]
            problems.append(f"{path}: does not load: {str(exc).splitlines()[0][:300]}")
            continue
        added.append(game_id)
    return added, problems


def source_of(game: Game) -> str:
    """What to call a game in messages: its DSL file."""
    return str(game.binding.dsl_path)


__all__ = ["Game", "GameBinding", "add_folder", "get", "installed", "load_path", "resolve", "source_of"]
