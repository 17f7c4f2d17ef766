"""House rules of the Python package, checked on its source: no module
imports another module's private names, and no module keeps state in
globals that it rebinds at run time."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Iterator, Tuple

PACKAGE = Path(__file__).resolve().parent.parent / "python" / "obsim"


def _modules() -> Iterator[Tuple[str, ast.Module]]:
    for path in sorted(PACKAGE.rglob("*.py")):
        yield path.relative_to(PACKAGE).as_posix(), ast.parse(path.read_text(encoding="utf-8"))


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def test_no_private_cross_module_imports() -> None:
    bad = []
    for rel, tree in _modules():
        for node in ast.walk(tree):
            if not isinstance(node, ast.ImportFrom):
                continue
            inside = node.level > 0 or (node.module or "").split(".")[0] == "obsim"
            if not inside:
                continue
            # The extension module obsim._core is the package's private binding.
            parts = [p for p in (node.module or "").split(".") if p and p != "obsim"]
            bad.extend(f"{rel}: module {node.module}" for p in parts if _private(p) and p != "_core")
            bad.extend(
                f"{rel}: {alias.name} from {node.module or '.'}"
                for alias in node.names
                if _private(alias.name) and alias.name != "_core"
            )
    assert not bad, "private names imported across modules (make them public or pass them):\n" + "\n".join(
        bad
    )


def test_no_global_statements() -> None:
    bad = [
        f"{rel}: line {node.lineno}: global {', '.join(node.names)}"
        for rel, tree in _modules()
        for node in ast.walk(tree)
        if isinstance(node, ast.Global)
    ]
    assert not bad, "module state rebound at run time (pass it explicitly):\n" + "\n".join(bad)


def test_experiment_package_keeps_its_public_names() -> None:
    import obsim
    import obsim.experiment as experiment

    # Every name the single-module obsim.experiment exported, still there.
    before = {
        "AGGREGATIONS", "EXPERIMENT_SCHEMA", "Experiment", "ExperimentError", "Metric", "Plot", "Point",
        "RunSpec", "TABLE_NAMES", "eval_expr", "experiment_from_stored", "from_dict", "load_experiment",
        "parse_key_path", "replication_seed", "set_key_path",
    }  # fmt: skip
    assert before <= set(experiment.__all__)
    assert all(hasattr(experiment, name) for name in experiment.__all__)
    assert obsim.ExperimentError is experiment.ExperimentError
    assert obsim.load_experiment is experiment.load_experiment
