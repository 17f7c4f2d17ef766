"""Experiments as files: a base scenario, sweep axes, replications, metrics
and plots (see README, "Experiments").

>>> exp = load_experiment("experiments/loss_sweep.toml")
>>> [run.seed for run in exp.runs()][:2]

An experiment file is TOML::

    name = "loss_sweep"
    scenario = "../scenarios/single_flow.toml"    # a path (relative to this file) or a [scenario] table

    [replications]
    count = 5
    base_seed = 1

    [sweep.grid]                                  # every combination
    "links[1].loss.p" = [0.001, 0.01]
    "tcp.variant" = ["reno", "sack"]

    [[sweep.zip]]                                 # these keys move together
    "tcp.max_window" = [32, 64]
    "tcp.rwnd" = [32, 64]

    [metrics.goodput]
    table = "flows"
    column = "goodput_bps"
    agg = "sum"
    scale = 1e-6
    unit = "Mbit/s"

    [[plots]]
    x = "links[1].loss.p"
    y = "goodput"
    series = "tcp.variant"

Every problem is reported as an :class:`ExperimentError` (a
:class:`obsim.ConfigError`) with ``.path`` (the key path in the experiment
file, e.g. ``sweep.grid."links[9].rate"``) and ``.reason``.

One module per job: :mod:`.errors` (the error), :mod:`.keypaths` (key paths
into a scenario), :mod:`.seeds` (replication seeds), :mod:`.metrics` (metrics
and their expressions), :mod:`.plot` (plots), :mod:`.model` (the experiment,
its points and runs), :mod:`.schema` (the file's structure, declared with
pydantic), :mod:`.load` (reading and validating a file),
:mod:`.stored` (``experiment.json`` of a result directory). Every public name
is importable from here.
"""

from .errors import ExperimentError
from .keypaths import parse_key_path, set_key_path
from .load import from_dict, load_experiment
from .metrics import AGGREGATIONS, TABLE_NAMES, Metric, eval_expr
from .model import Experiment, Point, RunSpec
from .plot import Plot
from .seeds import replication_seed
from .stored import EXPERIMENT_SCHEMA, experiment_from_stored

__all__ = [
    "AGGREGATIONS",
    "EXPERIMENT_SCHEMA",
    "Experiment",
    "ExperimentError",
    "Metric",
    "Plot",
    "Point",
    "RunSpec",
    "TABLE_NAMES",
    "eval_expr",
    "experiment_from_stored",
    "from_dict",
    "load_experiment",
    "parse_key_path",
    "replication_seed",
    "set_key_path",
]
