"""Warnings about scenarios that are valid but almost certainly not what
their author meant: nothing sends, a link drops every packet, a link so slow
that not one packet crosses it during the run.

The core accepts these (each is a legal corner of the model, and a sweep may
reach one on purpose); ``obsim run`` and ``obsim check`` print one
``warning:`` line for each, naming the key path, and run anyway.
"""

from __future__ import annotations

from typing import Any, List, Mapping, Tuple

from .run_progress import format_duration

DEFAULT_PACKET_BYTES = 1500
"""Packet size used for the slow-link check when the scenario has no TCP
flows (an Ethernet MTU)."""


def scenario_warnings(resolved: Mapping[str, Any]) -> List[Tuple[str, str]]:
    """``(key path, message)`` for each degenerate setting of a resolved
    scenario (:func:`obsim.parse`'s output)."""
    out: List[Tuple[str, str]] = []
    flows = resolved.get("flows") or []
    if not flows and not resolved.get("traffic") and not resolved.get("generators"):
        out.append(
            (
                "",
                "nothing sends: no [[flows]], [[traffic]] or [[generators]]; "
                "the run only advances the clock",
            )
        )
    sizes = [int(f["tcp"]["mss"]) + int(f["tcp"]["header"]) for f in flows if f.get("tcp")]
    packet = max(sizes) if sizes else DEFAULT_PACKET_BYTES
    duration_s = float(resolved.get("duration") or 0) / 1e9
    for i, link in enumerate(resolved.get("links") or []):
        for key in ("loss", "reverse_loss"):
            loss = link.get(key) or {}
            if loss.get("model") == "bernoulli" and float(loss.get("p", 0.0)) >= 1.0:
                direction = "" if key == "loss" else " in the reverse direction"
                out.append(
                    (
                        f"links[{i}].{key}.p",
                        f"is 1: the link drops every packet{direction}",
                    )
                )
        rate = link.get("rate_bps")
        if rate and duration_s > 0:
            tx_s = packet * 8 / float(rate)
            if tx_s > duration_s:
                out.append(
                    (
                        f"links[{i}].rate",
                        f"{rate} bit/s: one {packet}-byte packet takes {format_duration(tx_s)} to send, "
                        f"longer than the whole run ({format_duration(duration_s)})",
                    )
                )
    return out


__all__ = ["DEFAULT_PACKET_BYTES", "scenario_warnings"]
