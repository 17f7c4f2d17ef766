"""The seed of each replication."""

from __future__ import annotations

import hashlib


def replication_seed(base_seed: int, replication: int) -> int:
    """The seed of replication ``replication``: the first 8 bytes (big
    endian) of sha256 of ``"obsim-seed:{base_seed}:{replication}"``.

    Stable across Python versions, machines and executors (never Python's
    ``hash()``). Every point of a sweep uses the same seeds (common random
    numbers), so differences between points are not seed noise.
    """
    digest = hashlib.sha256(f"obsim-seed:{int(base_seed)}:{int(replication)}".encode()).digest()
    return int.from_bytes(digest[:8], "big")


__all__ = ["replication_seed"]
