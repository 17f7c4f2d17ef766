"""Typed stub of ``obsim._core``, the Rust extension module (crates/obsim-py).

Private: use :func:`obsim.run` and :func:`obsim.parse` instead.
"""

from typing import Any, Callable, Dict, List, Literal, Optional, Tuple

__version__: str
"""Version of the obsim-core crate the module was built from."""

TABLES: Tuple[str, ...]
"""Names of the result tables, in the order they are written: ``flows``,
``links``, ``trace``, ``packets``, ``bursts``, ``series``, ``nodes``, ``paths``,
``burst_lengths``, ``wavelengths``, ``traffic``, ``flow_records``, ``pair_bins``
(the fields of obsim-core's ``RunResults`` less ``meta``)."""

OPTIONAL_TABLES: Tuple[str, ...]
"""The tables written only when they have rows: every table but ``flows``
and ``links``."""

RECORD_CHUNK: int
"""Rows per chunk handed to the ``records`` callback of :func:`run` when
``record_chunk`` is not given (8 192)."""

class ConfigError(ValueError):
    """The scenario is invalid.

    ``str(err)`` lists every problem, one ``path: reason`` per line.
    """

    path: str
    """Key path of the first problem, e.g. ``links[1].rate``; empty for a
    problem with the document as a whole (such as a TOML syntax error)."""
    reason: str
    """What is wrong with the first problem: what is allowed, what was found."""
    errors: List[Tuple[str, str]]
    """Every problem as ``(path, reason)``, in document order where possible."""

class SimulationError(RuntimeError):
    """A valid scenario could not be simulated (e.g. a flow has no route), or
    the engine failed internally (a Rust panic, caught at the boundary)."""

class RunInterrupted(KeyboardInterrupt):
    """Ctrl-C stopped a run; raised by :func:`run` instead of a bare
    ``KeyboardInterrupt`` (it is one, so ``except KeyboardInterrupt`` still
    catches it; the original is its ``__cause__``).

    ``str(err)`` says the simulated time reached. :func:`obsim.run` adds
    ``.results``, the partial :class:`obsim.Results`.
    """

    partial: Dict[str, Any]
    """The results up to the interruption, as the dict :func:`run` returns:
    ``partial["meta"]["stop_reason"] == "interrupted"`` and
    ``partial["meta"]["end_time_s"]`` is the simulated time reached."""

def parse_scenario(text: str, format: Literal["toml", "json"] = "toml") -> str:
    """Parse and validate a scenario; return the resolved scenario as JSON text.

    The resolved form has every default filled in, units converted (times in
    ns, rates in bit/s) and node references replaced by dense ids.

    Raises:
        ConfigError: the scenario is invalid (every problem is listed).
        ValueError: ``format`` is neither ``"toml"`` nor ``"json"``, or
            ``record_chunk`` is 0.
    """

def run(
    text: str,
    format: Literal["toml", "json"] = "toml",
    seed: Optional[int] = None,
    progress: Optional[Callable[[float, float, int], object]] = None,
    records: Optional[Callable[[Dict[str, Any]], object]] = None,
    record_chunk: Optional[int] = None,
) -> Dict[str, Any]:
    """Parse, validate and run a scenario, releasing the GIL while it runs.

    Returns a dict with:

    - ``meta``: run-level facts (scenario name, seed used, end time, events,
      wall seconds in the event loop, segments delivered, stop reason:
      ``"time"``, ``"flows_done"`` or, in :attr:`RunInterrupted.partial`,
      ``"interrupted"``);
    - one key per name in :data:`TABLES`, each a column dict
      ``{name: column}``, ready for ``pyarrow.table``; numeric and boolean
      columns are read-only NumPy arrays (``float64``, ``int64``, ``bool``),
      others are lists (``str``, or plain Python objects):

      - ``flows``: one row per flow;
      - ``links``: one row per link direction;
      - ``trace``: one row per (sample time, flow), if ``[trace]`` asks;
      - ``packets``: one row per packet event (send, receive, drop), if
        ``[trace] packets = true``;
      - ``bursts``: burst composition histograms (OBS edge nodes);
      - ``series``: aggregate series every ``metrics.sample_interval``
        over declared and generated flows (``metrics.pair`` filters them);
      - ``nodes``: one row per edge and core node (optical links);
      - ``paths``: one row per (ingress, egress, class) with bursts;
      - ``burst_lengths``: bursts sent and lost per burst-length bin;
      - ``wavelengths``: one row per wavelength of each optical link direction;
      - ``traffic``: one row per UDP cross-traffic source (``[[traffic]]``);
      - ``flow_records``: one row per generated flow (``[[flow_generators]]``);
      - ``pair_bins``: one row per bin of ``metrics.pair``'s path, with
        ``metrics.pair_series``;
    - ``scenario``: the resolved scenario as JSON text.

    ``seed`` (0 <= seed < 2**64) overrides ``simulation.seed``.

    ``progress``, if given, is called as ``progress(now_s, end_s, events)``
    about every 20 ms of wall time and once at the end. It only observes: the
    results are identical with or without it. Ctrl-C (or a
    ``KeyboardInterrupt`` raised by ``progress``) stops the run and raises
    :class:`RunInterrupted` carrying the results so far; any other exception
    raised by ``progress`` stops the run and propagates from here as is.

    ``records``, if given, receives the per-flow records of the generated
    flows while the run goes on, instead of the ``flow_records`` table
    (which is then empty): it is called as ``records(columns)`` with a
    column dict as above of ``record_chunk`` rows (default
    :data:`RECORD_CHUNK`; only the last chunk is shorter), in the order of
    ``flow_records`` (finished flows in the order they ended, then the
    unfinished by id), so the run holds at most one chunk of records. An
    exception raised by ``records`` stops the run and propagates from here
    (a ``KeyboardInterrupt`` as :class:`RunInterrupted`, as for
    ``progress``).

    Raises:
        ConfigError: the scenario is invalid.
        SimulationError: the run could not complete.
        RunInterrupted: Ctrl-C stopped the run (partial results attached).
        ValueError: ``format`` is neither ``"toml"`` nor ``"json"``, or
            ``record_chunk`` is 0.
        OverflowError: ``seed`` is negative or does not fit in 64 bits.
    """

def core_version() -> str:
    """Version of the obsim-core crate the module was built from."""

def _panic_for_tests(message: str) -> None:
    """Panic in Rust inside the run guard; always raises ``SimulationError``.

    For the test suite only: proves that panics never cross into Python.
    """

class Emulator:
    """The emulated path of one scenario flow, with its two TUN devices
    open (the Rust crate ``obsim-emulate``; see :mod:`obsim.emulate`)."""

    def __init__(
        self,
        text: str,
        devices: Tuple[str, str],
        format: str = "toml",
        flow: Optional[str] = None,
        seed: Optional[int] = None,
        kernel_access: bool = False,
    ) -> None:
        """Reads the path of ``flow`` (the first flow when None) and opens TUN
        devices ``devices = (source side, destination side)``. With
        ``kernel_access`` each direction's first link keeps only its delay
        in the forwarder (the caller shapes the devices).

        Raises:
            ConfigError: the scenario is invalid.
            ValueError: the emulator cannot run this scenario (the message
                names the key).
            OSError: the devices cannot be opened (no CAP_NET_ADMIN).
        """

    def path(self) -> Dict[str, Any]:
        """The path as plain data: flow, src, dst, seed, devices, forward and
        reverse stages."""

    def close(self) -> None:
        """Closes the devices (idempotent)."""

    def run(
        self,
        duration: Optional[float] = None,
        spin_us: int = 100,
        stop_check_ms: int = 20,
        stop: Optional[Callable[[], bool]] = None,
        fifo_priority: int = 10,
    ) -> Dict[str, Any]:
        """Forwards packets in real time until ``duration`` seconds pass,
        ``stop()`` returns true, or Ctrl-C; returns the report (counters per
        direction, the loop's lateness, the per-burst log as columns)."""
