"""The extension module's contract, checked without the real parser/engine."""

from __future__ import annotations

import ast
import inspect
import json
import re
from pathlib import Path

import pytest

import obsim
from obsim import _core
from obsim.api import ScenarioSource, load_source


def test_exception_hierarchy() -> None:
    assert issubclass(obsim.ConfigError, ValueError)
    assert issubclass(obsim.SimulationError, RuntimeError)
    assert obsim.ConfigError is _core.ConfigError
    assert obsim.SimulationError is _core.SimulationError


def test_versions() -> None:
    assert obsim.__version__ == _core.__version__ == _core.core_version()


def test_invalid_toml_raises_config_error_with_fields() -> None:
    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse("this is = = not toml\n")
    e = info.value
    assert isinstance(e, ValueError)
    assert isinstance(e.path, str)
    assert isinstance(e.reason, str) and e.reason
    assert e.errors and all(isinstance(p, tuple) and len(p) == 2 for p in e.errors)
    assert (e.path, e.reason) == e.errors[0]
    assert e.reason in str(e)


def test_config_error_pickles_with_fields() -> None:
    import pickle

    with pytest.raises(obsim.ConfigError) as info:
        obsim.parse("this is = = not toml\n")
    e = pickle.loads(pickle.dumps(info.value))
    assert type(e) is obsim.ConfigError
    assert (e.path, e.reason, e.errors) == (info.value.path, info.value.reason, info.value.errors)
    assert str(e) == str(info.value)
    bare = obsim.ConfigError("by hand")
    assert (bare.path, bare.reason, bare.errors) == ("", "", [])


def test_bad_format_is_plain_value_error() -> None:
    with pytest.raises(ValueError, match="format must be") as info:
        _core.run("name = 'x'", "yaml", None)
    assert not isinstance(info.value, obsim.ConfigError)
    with pytest.raises(ValueError, match="format must be"):
        _core.parse_scenario("{}", "xml")


@pytest.mark.parametrize(
    "seed, exc", [(-1, ValueError), (2**64, ValueError), (True, TypeError), (1.5, TypeError)]
)
def test_bad_seed_rejected_before_running(seed: object, exc: type) -> None:
    with pytest.raises(exc):
        obsim.run("name = 'x'\n", seed=seed)  # type: ignore[arg-type]


def test_load_source_kinds(tmp_path: Path) -> None:
    d = {"name": "t", "simulation": {"duration": "1 s"}}
    src = load_source(d)
    assert src.format == "json" and json.loads(src.text) == d

    assert load_source('name = "t"\n') == ScenarioSource('name = "t"\n', "toml")

    toml_file = tmp_path / "s.toml"
    toml_file.write_text('name = "f"\n')
    for arg in (toml_file, str(toml_file)):
        src = load_source(arg)
        assert (src.text, src.format, src.origin) == ('name = "f"\n', "toml", str(toml_file))

    json_file = tmp_path / "s.json"
    json_file.write_text('{"name": "j"}')
    assert load_source(json_file).format == "json"

    with pytest.raises(FileNotFoundError):
        load_source(tmp_path / "missing.toml")
    with pytest.raises(FileNotFoundError):
        load_source("missing.toml")
    with pytest.raises(TypeError):
        load_source(42)  # type: ignore[arg-type]

    odd = tmp_path / "a=1.toml"  # an existing file wins over "looks like TOML"
    odd.write_text('name = "odd"\n')
    assert load_source(str(odd)).origin == str(odd)


def test_rust_panic_becomes_simulation_error() -> None:
    with pytest.raises(obsim.SimulationError, match="internal error.*boom 42"):
        _core._panic_for_tests("boom 42")
    # The interpreter is unharmed and the module still works.
    with pytest.raises(obsim.SimulationError):
        _core._panic_for_tests("again")
    assert _core.core_version()


def _stub() -> ast.Module:
    return ast.parse(Path(_core.__file__ or "").with_name("_core.pyi").read_text(encoding="utf-8"))


def _stub_names() -> "dict[str, object]":
    out: "dict[str, object]" = {}
    for node in _stub().body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            out[node.name] = node
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            out[node.target.id] = node
    return out


def test_stub_declares_exactly_the_module_contents() -> None:
    stub = _stub_names()
    real = {n for n in dir(_core) if not n.startswith("__") or n == "__version__"}
    assert set(stub) == real, "python/obsim/_core.pyi is stale: regenerate it from the module"
    for name, node in stub.items():
        obj = getattr(_core, name)
        if isinstance(node, ast.FunctionDef):
            params = inspect.signature(obj).parameters
            assert [a.arg for a in node.args.args] == list(params), name
            defaults = [ast.literal_eval(d) for d in node.args.defaults]
            real_defaults = [p.default for p in params.values() if p.default is not p.empty]
            assert defaults == real_defaults, name
        elif isinstance(node, ast.ClassDef):
            # A stub class without bases derives from object.
            real_bases = [b.__name__ for b in obj.__bases__ if b is not object]
            assert [ast.unparse(b) for b in node.bases] == real_bases, name
        else:
            assert isinstance(node, ast.AnnAssign)
            annotation = ast.unparse(node.annotation)
            expected = {"str": str, "int": int, "Tuple[str, ...]": tuple}[annotation]
            assert isinstance(obj, expected), name


def test_stub_documents_every_result_table() -> None:
    body = _stub().body
    docs = {}
    for node, after in zip(body, body[1:]):
        if isinstance(node, ast.AnnAssign) and isinstance(after, ast.Expr):
            docs[ast.unparse(node.target)] = after.value.value  # type: ignore[attr-defined]
        if isinstance(node, ast.FunctionDef):
            docs[node.name] = ast.get_docstring(node) or ""
    for name in _core.TABLES:
        assert f"``{name}``" in docs["TABLES"], name
        assert f"- ``{name}``:" in docs["run"], name


def test_result_tables_come_from_the_binding() -> None:
    from obsim.results import OPTIONAL_TABLES, TABLES

    assert TABLES == _core.TABLES
    assert OPTIONAL_TABLES == _core.OPTIONAL_TABLES
    assert set(OPTIONAL_TABLES) == set(TABLES) - {"flows", "links"}
    # obsim.Results has one typed attribute per table, and no other table.
    import pyarrow as pa

    tables = [k for k, v in obsim.Results.__annotations__.items() if v in ("pa.Table", pa.Table)]
    assert tables == list(TABLES)
    # ... and its docstring describes each one.
    for name in TABLES:
        assert f"\n        {name}: " in (obsim.Results.__doc__ or ""), name


def test_readme_output_files_list_exactly_the_result_tables() -> None:
    readme = (Path(__file__).resolve().parent.parent / "README.md").read_text(encoding="utf-8")
    section = readme.split("### Output files", 1)[1].split("\n#", 1)[0]
    rows = re.findall(r"^\| `([a-z_]+)\.parquet` \| (.*) \|$", section, flags=re.M)
    assert [name for name, _ in rows] == list(_core.TABLES)
    for name, text in rows:
        assert ("only " in text) == (name in _core.OPTIONAL_TABLES), name
