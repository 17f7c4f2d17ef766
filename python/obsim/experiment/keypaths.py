"""Key paths into a scenario: ``links[1].loss.p``, ``tcp.variant`` (what a
sweep axis names)."""

from __future__ import annotations

import re
from typing import Any, Dict, List, Sequence, Union

_SEGMENT = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)((?:\[\d+\])*)")


def parse_key_path(path: str) -> List[Union[str, int]]:
    """Split ``links[1].loss.p`` into ``["links", 1, "loss", "p"]``.

    Raises:
        ValueError: the path is not of that form.
    """
    parts: List[Union[str, int]] = []
    if not path:
        raise ValueError("an empty key path")
    for seg in path.split("."):
        m = _SEGMENT.fullmatch(seg)
        if not m:
            raise ValueError(
                f"expected a key path like links[1].loss.p (names, [index], dots), found {path!r}"
            )
        parts.append(m.group(1))
        parts.extend(int(i) for i in re.findall(r"\[(\d+)\]", m.group(2)))
    return parts


def render_key_path(parts: Sequence[Union[str, int]]) -> str:
    """The inverse of :func:`parse_key_path`: ``["links", 1]`` -> ``links[1]``."""
    out = ""
    for p in parts:
        out += f"[{p}]" if isinstance(p, int) else (f".{p}" if out else p)
    return out


def set_key_path(doc: Dict[str, Any], path: str, value: Any) -> None:
    """Set ``path`` in a scenario dict, creating missing tables (not list
    entries). Raises ``ValueError`` with a reason naming the failing part."""
    parts = parse_key_path(path)
    node: Any = doc
    for i, part in enumerate(parts):
        last = i == len(parts) - 1
        where = render_key_path(parts[:i]) or "the scenario"
        if isinstance(part, int):
            if not isinstance(node, list):
                raise ValueError(f"{where} is not an array, cannot index it with [{part}]")
            if part >= len(node):
                raise ValueError(f"{where} has {len(node)} entries, no index {part}")
            if last:
                node[part] = value
            else:
                node = node[part]
            continue
        if not isinstance(node, dict):
            raise ValueError(f"{where} is not a table, cannot set key {part!r} in it")
        if last:
            node[part] = value
            return
        nxt = parts[i + 1]
        if part not in node:
            if isinstance(nxt, int):
                raise ValueError(
                    f"{render_key_path(parts[: i + 1])} is not in the base scenario, cannot index it"
                )
            node[part] = {}
        node = node[part]


__all__ = ["parse_key_path", "render_key_path", "set_key_path"]
