//! # obsim-py
//!
//! The thin Python binding of `obsim-core`: the private extension module
//! `obsim._core`. It parses scenarios and runs them; everything else (tables,
//! files, CLI) lives in the pure-Python package `python/obsim`.
//!
//! Contract with Python (see `python/obsim/_core.pyi`):
//! - invalid scenarios raise [`ConfigError`] (a `ValueError`) carrying `.path`,
//!   `.reason` (the first problem) and `.errors` (every problem);
//! - a run that cannot complete raises [`SimulationError`] (a `RuntimeError`);
//! - Ctrl-C during a run raises [`RunInterrupted`] (a `KeyboardInterrupt`)
//!   carrying the results up to the interruption in `.partial`;
//! - no Rust panic crosses into Python: panics are caught and re-raised as
//!   `SimulationError`;
//! - the GIL is released while parsing and simulating;
//! - `TABLES` and `OPTIONAL_TABLES` name the result tables ([`tables`]), the
//!   one list the Python package derives its table names from.

mod columns;
mod emulate;
mod tables;

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::Mutex;

use obsim_core::config::{self, ConfigErrors, Scenario};
use obsim_core::engine::{self, RunOptions, SimError};
use obsim_core::results::{FlowRecord, RunResults};
use pyo3::create_exception;
use pyo3::exceptions::{PyKeyboardInterrupt, PyRuntimeError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyTuple};

create_exception!(
    obsim,
    ConfigError,
    PyValueError,
    "The scenario is invalid. `.path` and `.reason` describe the first problem, `.errors` lists every problem as (path, reason) pairs."
);
create_exception!(
    obsim,
    SimulationError,
    PyRuntimeError,
    "A valid scenario could not be simulated (unroutable flow, internal error)."
);
create_exception!(
    obsim,
    RunInterrupted,
    PyKeyboardInterrupt,
    "Ctrl-C stopped a run. `.partial` holds the results up to the interruption (the dict `run` returns, with `meta['stop_reason'] == 'interrupted'`)."
);

/// Scenario text formats accepted by [`parse_scenario`] and [`run`].
#[derive(Clone, Copy, Debug)]
enum Format {
    Toml,
    Json,
}

impl Format {
    fn from_str(format: &str) -> PyResult<Self> {
        match format {
            "toml" => Ok(Self::Toml),
            "json" => Ok(Self::Json),
            other => Err(PyValueError::new_err(format!(
                "format must be \"toml\" or \"json\", got {other:?}"
            ))),
        }
    }
}

/// What can go wrong below the binding, before it becomes a Python exception.
enum Failure {
    Config(ConfigErrors),
    Sim(SimError),
    Convert(columns::CellError),
    Panic(String),
}

impl Failure {
    fn into_pyerr(self, py: Python<'_>) -> PyErr {
        match self {
            Self::Config(errs) => config_error(py, &errs),
            Self::Sim(e) => SimulationError::new_err(e.to_string()),
            Self::Convert(e) => {
                SimulationError::new_err(format!("cannot convert the results: {e}"))
            }
            Self::Panic(msg) => SimulationError::new_err(format!(
                "internal error (panic in obsim-core): {msg}. Please report this with the scenario."
            )),
        }
    }
}

/// Builds a `ConfigError` whose message lists every problem, with the
/// structured fields set on the instance.
fn config_error(py: Python<'_>, errs: &ConfigErrors) -> PyErr {
    let message = errs.to_string().trim_end().to_owned();
    let err = ConfigError::new_err(message);
    let value = err.value(py);
    let (path, reason) = errs
        .errors
        .first()
        .map_or((String::new(), String::new()), |e| {
            (e.path.clone(), e.reason.clone())
        });
    let pairs: Vec<(String, String)> = errs
        .errors
        .iter()
        .map(|e| (e.path.clone(), e.reason.clone()))
        .collect();
    // Setting attributes on a fresh exception instance cannot fail in
    // practice; if it did, the message still carries everything.
    let _ = value.setattr("path", path);
    let _ = value.setattr("reason", reason);
    let _ = value.setattr("errors", pairs);
    err
}

/// Text of a panic payload.
fn panic_message(payload: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = payload.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = payload.downcast_ref::<String>() {
        s.clone()
    } else {
        "unknown panic payload".to_owned()
    }
}

/// Runs `f` without the GIL, turning a panic into [`Failure::Panic`].
fn guarded<T, F>(py: Python<'_>, f: F) -> Result<T, Failure>
where
    F: FnOnce() -> Result<T, Failure> + Send,
    T: Send,
{
    py.detach(|| {
        catch_unwind(AssertUnwindSafe(f))
            .unwrap_or_else(|p| Err(Failure::Panic(panic_message(&*p))))
    })
}

fn parse(text: &str, format: Format) -> Result<Scenario, Failure> {
    match format {
        Format::Toml => config::parse_toml(text),
        Format::Json => config::parse_json(text),
    }
    .map_err(Failure::Config)
}

fn resolved_json(scenario: &Scenario) -> Result<String, Failure> {
    serde_json::to_string(scenario)
        .map_err(|e| Failure::Panic(format!("cannot serialize the resolved scenario: {e}")))
}

/// Parses and validates a scenario; returns the resolved scenario as JSON.
///
/// `format` is `"toml"` or `"json"`. Raises `ConfigError` listing every
/// problem found.
#[pyfunction]
#[pyo3(signature = (text, format = "toml"))]
fn parse_scenario(py: Python<'_>, text: &str, format: &str) -> PyResult<String> {
    let format = Format::from_str(format)?;
    guarded(py, || parse(text, format).and_then(|s| resolved_json(&s)))
        .map_err(|f| f.into_pyerr(py))
}

/// Parses, validates and runs a scenario; returns the results as plain
/// Python objects.
///
/// The result is a dict with keys `meta` (dict), one key per result table
/// of [`tables::TABLES`] (each a dict mapping column name to a `NumPy` array
/// or a list, ready for `pyarrow.table`), and `scenario` (the resolved
/// scenario as JSON text).
/// `seed` overrides `simulation.seed`. The GIL is released while parsing,
/// simulating and converting the results to columns.
///
/// `progress`, if given, is called as `progress(now_s, end_s, events)` about
/// every 20 ms of wall time and once at the end; it only observes, so the
/// results are the same with or without it. Ctrl-C (a `KeyboardInterrupt`,
/// whether from the signal check or raised by `progress`) stops the run and
/// raises [`RunInterrupted`] carrying the partial results in `.partial`; any
/// other exception raised by `progress` stops the run and is re-raised here.
///
/// `records`, if given, receives the per-flow records of the generated flows
/// as the run produces them instead of the `flow_records` table (which is
/// then empty): it is called as `records(columns)` with a dict of columns
/// as for a table, of `record_chunk` rows (default `RECORD_CHUNK`, 8 192;
/// only the last chunk shorter), in the
/// order of `flow_records` (`obsim_core::engine::RecordSink`), so the run
/// holds at most one chunk of records. Each chunk is converted to columns
/// without the GIL. An exception raised by `records` stops the run and is
/// re-raised here (a `KeyboardInterrupt` as [`RunInterrupted`], as for
/// `progress`).
#[pyfunction]
#[pyo3(signature = (text, format = "toml", seed = None, progress = None, records = None, record_chunk = None))]
// `progress` and `records` are owned handles because they must be `Send` to
// cross `detach`.
#[allow(clippy::needless_pass_by_value)]
fn run<'py>(
    py: Python<'py>,
    text: &str,
    format: &str,
    seed: Option<u64>,
    progress: Option<Py<PyAny>>,
    records: Option<Py<PyAny>>,
    record_chunk: Option<usize>,
) -> PyResult<Bound<'py, PyDict>> {
    let format = Format::from_str(format)?;
    let record_chunk = record_chunk.unwrap_or(engine::RECORD_CHUNK);
    if record_chunk == 0 {
        return Err(PyValueError::new_err("record_chunk must be at least 1"));
    }
    // Set by whichever callback raised first (a `Mutex` only to be `Sync`
    // across `detach`: both callbacks run on this thread).
    let raised: Mutex<Option<PyErr>> = Mutex::new(None);
    let outcome = guarded(py, || {
        let scenario = parse(text, format)?;
        let resolved = resolved_json(&scenario)?;
        let stop = |e: PyErr| {
            if let Ok(mut r) = raised.lock() {
                r.get_or_insert(e);
            }
            engine::Control::Abort
        };
        let mut observer = |p: engine::Progress| -> engine::Control {
            Python::attach(|py| {
                let step = py.check_signals().and_then(|()| match &progress {
                    Some(cb) => cb
                        .call1(py, (p.now.as_secs_f64(), p.end.as_secs_f64(), p.events))
                        .map(drop),
                    None => Ok(()),
                });
                step.map_or_else(stop, |()| engine::Control::Continue)
            })
        };
        let opts = RunOptions { seed };
        let run = match &records {
            None => engine::run_observed(&scenario, &opts, &mut observer),
            Some(cb) => {
                let mut write = |chunk: &[FlowRecord]| -> engine::Control {
                    // Converted without the GIL, handed over with it.
                    let cols = columns::rows_to_columns(chunk);
                    Python::attach(|py| {
                        let step = cols
                            .map_err(|e| {
                                SimulationError::new_err(format!(
                                    "cannot convert the flow records: {e}"
                                ))
                            })
                            .and_then(|c| columns::columns_to_py(py, c))
                            .and_then(|d| cb.call1(py, (d,)).map(drop));
                        step.map_or_else(stop, |()| engine::Control::Continue)
                    })
                };
                let sink = engine::RecordSink {
                    chunk: record_chunk,
                    write: &mut write,
                };
                engine::run_streamed(&scenario, &opts, &mut observer, sink)
            }
        };
        let results = match run {
            Ok(r) => r,
            Err(SimError::Interrupted { partial, .. }) => *partial,
            Err(e) => return Err(Failure::Sim(e)),
        };
        Converted::new(&results, resolved).map_err(Failure::Convert)
    });
    match raised
        .into_inner()
        .unwrap_or_else(std::sync::PoisonError::into_inner)
    {
        // Ctrl-C: hand the results so far to Python with the interruption.
        // Should they fail to convert, the plain KeyboardInterrupt still stops.
        Some(e) if e.is_instance_of::<PyKeyboardInterrupt>(py) => match outcome {
            Ok(converted) => Err(interrupted(py, e, converted)),
            Err(_) => Err(e),
        },
        Some(e) => Err(e),
        None => outcome.map_err(|f| f.into_pyerr(py))?.into_py(py),
    }
}

/// The [`RunInterrupted`] raised for `cause` (a `KeyboardInterrupt`), with
/// the partial results as `.partial` and `cause` as its `__cause__`.
fn interrupted(py: Python<'_>, cause: PyErr, partial: Converted) -> PyErr {
    let end_s = partial.end_time_s;
    let Ok(dict) = partial.into_py(py) else {
        return cause;
    };
    let err = RunInterrupted::new_err(format!("run interrupted at simulated time {end_s} s"));
    if err.value(py).setattr("partial", dict).is_err() {
        return cause;
    }
    err.set_cause(py, Some(cause));
    err
}

/// Run results turned into columns (done without the GIL).
struct Converted {
    /// Simulated time reached (`meta.end_time_s`).
    end_time_s: f64,
    meta: columns::Cell,
    tables: Vec<(&'static str, columns::Columns)>,
    resolved: String,
}

impl Converted {
    fn new(results: &RunResults, resolved: String) -> Result<Self, columns::CellError> {
        Ok(Self {
            end_time_s: results.meta.end_time_s,
            meta: columns::to_cell(&results.meta)?,
            tables: tables::to_columns(results)?,
            resolved,
        })
    }

    /// The dict described in [`run`].
    fn into_py(self, py: Python<'_>) -> PyResult<Bound<'_, PyDict>> {
        let out = PyDict::new(py);
        out.set_item("meta", columns::cell_to_py(py, &self.meta)?)?;
        for (name, cols) in self.tables {
            out.set_item(name, columns::columns_to_py(py, cols)?)?;
        }
        out.set_item("scenario", self.resolved)?;
        Ok(out)
    }
}

/// Panics inside the same guard as [`run`], so tests can check that a panic
/// surfaces as `SimulationError` and never crosses into Python. Not public API.
#[pyfunction]
fn _panic_for_tests(py: Python<'_>, message: &str) -> PyResult<()> {
    let message = message.to_owned();
    guarded(py, move || -> Result<(), Failure> { panic!("{message}") })
        .map_err(|f| f.into_pyerr(py))
}

/// Version of the obsim-core crate this module was built from.
#[pyfunction]
fn core_version() -> &'static str {
    obsim_core::VERSION
}

/// The `obsim._core` extension module.
#[pymodule]
fn _core(m: &Bound<'_, PyModule>) -> PyResult<()> {
    let py = m.py();
    m.add("__version__", obsim_core::VERSION)?;
    m.add("ConfigError", py.get_type::<ConfigError>())?;
    m.add("SimulationError", py.get_type::<SimulationError>())?;
    m.add("RunInterrupted", py.get_type::<RunInterrupted>())?;
    m.add("TABLES", PyTuple::new(py, tables::names())?)?;
    m.add(
        "OPTIONAL_TABLES",
        PyTuple::new(py, tables::optional_names())?,
    )?;
    m.add("RECORD_CHUNK", engine::RECORD_CHUNK)?;
    m.add_function(wrap_pyfunction!(parse_scenario, m)?)?;
    m.add_function(wrap_pyfunction!(run, m)?)?;
    m.add_function(wrap_pyfunction!(core_version, m)?)?;
    m.add_function(wrap_pyfunction!(_panic_for_tests, m)?)?;
    m.add_class::<emulate::Emulator>()?;
    Ok(())
}
