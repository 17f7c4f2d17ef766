//! `obsim._core.Emulator`: the binding of `obsim-emulate`. Python creates
//! it (which opens the two TUN devices), moves the devices into the
//! namespaces it made, then calls [`Emulator::run`]; the loop runs without
//! the GIL and takes it back only to check for Ctrl-C.

use std::sync::Mutex;

use obsim_core::config::scenario::Buffer;
use obsim_emulate::path::{Dir, EmuPath, Stage};
use obsim_emulate::{LoopConfig, Pipeline, Tun};
use pyo3::exceptions::{PyOSError, PyValueError};
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList};

use crate::{parse, Failure, Format};

/// The emulated path of one scenario flow, with its two TUN devices open.
#[pyclass(module = "obsim._core")]
pub struct Emulator {
    /// The path as the scenario declares it.
    declared: EmuPath,
    /// The path the forwarder runs (the first links' rate and buffer left
    /// to the kernel with `kernel_access`).
    path: EmuPath,
    seed: u64,
    /// `None` once [`Emulator::close`] closed them.
    tuns: Option<[Tun; 2]>,
}

fn stage_dict<'py>(py: Python<'py>, s: &Stage) -> PyResult<Bound<'py, PyDict>> {
    let d = PyDict::new(py);
    match s {
        Stage::Link(l) => {
            d.set_item("kind", "link")?;
            d.set_item("name", &l.name)?;
            d.set_item("delay_s", l.delay.as_secs_f64())?;
            let (packets, bytes) = match l.buffer {
                Buffer::Packets(n) => (Some(u64::from(n)), None),
                Buffer::Bytes(n) => (None, Some(n)),
                Buffer::Unlimited => (None, None),
            };
            d.set_item("buffer_packets", packets)?;
            d.set_item("buffer_bytes", bytes)?;
            d.set_item("rate_bps", (l.rate_bps != u64::MAX).then_some(l.rate_bps))?;
        }
        Stage::Optical(o) => {
            d.set_item("kind", "optical")?;
            d.set_item("name", format!("{}->{}", o.ingress, o.egress))?;
            d.set_item("rate_bps", o.rate_bps())?;
            d.set_item("delay_s", o.propagation().as_secs_f64())?;
            d.set_item("offset_s", o.offset.as_secs_f64())?;
            d.set_item("assembly", o.assembly.as_ref().map(|a| format!("{a:?}")))?;
            let losses: Vec<Option<f64>> = o.hops.iter().map(|h| h.loss.map(|l| l.p)).collect();
            d.set_item("burst_loss_p", losses)?;
        }
    }
    Ok(d)
}

#[pymethods]
impl Emulator {
    /// Reads the path of `flow` (the first flow when `None`) off the
    /// scenario `text` and opens TUN devices `devices = (source side,
    /// destination side)` in the caller's namespace. Raises `ConfigError`
    /// for an invalid scenario, `ValueError` for a scenario the emulator
    /// cannot run (naming the key), `OSError` when the devices cannot be
    /// opened (no `CAP_NET_ADMIN`, no `/dev/net/tun`). With `kernel_access`,
    /// each direction's first link keeps only its delay here
    /// (`EmuPath::with_kernel_access`): the caller shapes the devices.
    #[new]
    #[allow(clippy::needless_pass_by_value)] // pyo3 extracts the tuple by value
    #[pyo3(signature = (text, devices, format = "toml", flow = None, seed = None, kernel_access = false))]
    fn new(
        py: Python<'_>,
        text: &str,
        devices: (String, String),
        format: &str,
        flow: Option<&str>,
        seed: Option<u64>,
        kernel_access: bool,
    ) -> PyResult<Self> {
        let format = Format::from_str(format)?;
        let sc = parse(text, format).map_err(|f: Failure| f.into_pyerr(py))?;
        let mut path =
            EmuPath::from_scenario(&sc, flow).map_err(|e| PyValueError::new_err(e.to_string()))?;
        let declared = path.clone();
        if kernel_access {
            path = path.with_kernel_access();
        }
        let open = |name: &str| {
            Tun::open(name)
                .map_err(|e| PyOSError::new_err(format!("cannot open TUN device {name}: {e}")))
        };
        let tuns = [open(&devices.0)?, open(&devices.1)?];
        Ok(Emulator {
            declared,
            path,
            seed: seed.unwrap_or(sc.seed),
            tuns: Some(tuns),
        })
    }

    /// Closes the two TUN devices (the kernel removes them); the caller
    /// then removes the namespaces. Idempotent.
    fn close(&mut self) {
        self.tuns = None;
    }

    /// The path as plain data: `flow`, `src`, `dst`, `seed`, and the stages
    /// of `forward` and `reverse` (dicts).
    fn path<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyDict>> {
        let d = PyDict::new(py);
        d.set_item("flow", &self.path.flow)?;
        d.set_item("src", &self.path.src)?;
        d.set_item("dst", &self.path.dst)?;
        d.set_item("seed", self.seed)?;
        if let Some(t) = &self.tuns {
            d.set_item("devices", (t[0].name(), t[1].name()))?;
        }
        for dir in [Dir::Forward, Dir::Reverse] {
            let l = PyList::empty(py);
            for s in self.path.stages(dir) {
                l.append(stage_dict(py, s)?)?;
            }
            let (key, access) = match dir {
                Dir::Forward => ("forward", "forward_access"),
                Dir::Reverse => ("reverse", "reverse_access"),
            };
            d.set_item(key, l)?;
            // The first link as declared (what the kernel shapes with
            // `kernel_access`), or None.
            let first = match self.declared.first_link(dir) {
                Some(s) => Some(stage_dict(py, &Stage::Link(s.clone()))?),
                None => None,
            };
            d.set_item(access, first)?;
        }
        Ok(d)
    }

    /// Forwards packets for `duration` seconds (`None`: until Ctrl-C);
    /// returns the report as a dict: `elapsed_s`, per-direction counters,
    /// the loop's lateness (`lateness_s`, one value per packet written, and
    /// its quantiles) and the per-burst log as columns (`bursts`). Ctrl-C
    /// ends the loop and the report is still returned (the caller tears the
    /// namespaces down); an OS error on a device raises `OSError`.
    /// `stop`, if given, is called with no argument every `stop_check_ms`
    /// milliseconds; a true answer ends the loop (for example when the
    /// sending application has exited), an exception ends it and is
    /// re-raised.
    /// `fifo_priority` (default 10) runs the loop under `SCHED_FIFO` at
    /// that priority, 0 under normal scheduling.
    #[pyo3(signature = (duration = None, spin_us = 100, stop_check_ms = 20, stop = None, fifo_priority = 10))]
    #[allow(clippy::needless_pass_by_value, clippy::too_many_lines)] // `stop` crosses `detach`
    fn run<'py>(
        &mut self,
        py: Python<'py>,
        duration: Option<f64>,
        spin_us: u64,
        stop_check_ms: u64,
        stop: Option<Py<PyAny>>,
        fifo_priority: i32,
    ) -> PyResult<Bound<'py, PyDict>> {
        if duration.is_some_and(|d| !(d.is_finite() && d > 0.0)) {
            return Err(PyValueError::new_err(
                "duration: a positive number of seconds",
            ));
        }
        let cfg = LoopConfig {
            duration: duration.map(std::time::Duration::from_secs_f64),
            spin: std::time::Duration::from_micros(spin_us),
            stop_check: std::time::Duration::from_millis(stop_check_ms.max(1)),
            fifo_priority: fifo_priority.clamp(0, 99),
        };
        let mut pipeline = Pipeline::new(&self.path, self.seed);
        let interrupted: Mutex<bool> = Mutex::new(false);
        let raised: Mutex<Option<PyErr>> = Mutex::new(None);
        let Some(open) = &self.tuns else {
            return Err(PyValueError::new_err("the emulator's devices are closed"));
        };
        let tuns = [&open[0], &open[1]];
        let report = py.detach(|| {
            let mut check = || {
                Python::attach(|py| {
                    if py.check_signals().is_err() {
                        if let Ok(mut i) = interrupted.lock() {
                            *i = true;
                        }
                        return true;
                    }
                    match stop
                        .as_ref()
                        .map(|cb| cb.call0(py).and_then(|v| v.is_truthy(py)))
                    {
                        None | Some(Ok(false)) => false,
                        Some(Ok(true)) => true,
                        Some(Err(e)) => {
                            if let Ok(mut r) = raised.lock() {
                                r.get_or_insert(e);
                            }
                            true
                        }
                    }
                })
            };
            obsim_emulate::run(&mut pipeline, tuns, &cfg, &mut check)
        });
        if let Some(e) = raised.into_inner().ok().flatten() {
            return Err(e);
        }
        let report =
            report.map_err(|e| PyOSError::new_err(format!("emulator device error: {e}")))?;
        let d = PyDict::new(py);
        d.set_item("elapsed_s", report.elapsed_s)?;
        d.set_item("interrupted", interrupted.lock().is_ok_and(|i| *i))?;
        for (i, name) in ["forward", "reverse"].iter().enumerate() {
            let s = &report.stats[i];
            let sd = PyDict::new(py);
            sd.set_item("packets_in", s.packets_in)?;
            sd.set_item("packets_out", s.packets_out)?;
            sd.set_item("drops_buffer", s.drops_buffer)?;
            sd.set_item("drops_burst", s.drops_burst)?;
            sd.set_item("bursts_sent", s.bursts_sent)?;
            sd.set_item("bursts_lost", s.bursts_lost)?;
            sd.set_item("write_refused", report.write_refused[i])?;
            d.set_item(*name, sd)?;
        }
        d.set_item("in_flight", report.in_flight)?;
        d.set_item("flows", report.flows)?;
        let t = &report.timing;
        let lat: Vec<f64> = t.lateness_ns.iter().map(|&n| n as f64 * 1e-9).collect();
        d.set_item("lateness_s", lat)?;
        for (k, q) in [
            ("lateness_p50_s", 0.5),
            ("lateness_p99_s", 0.99),
            ("lateness_max_s", 1.0),
        ] {
            d.set_item(k, t.quantile_s(q))?;
        }
        let b = PyDict::new(py);
        let logs = &report.bursts;
        macro_rules! col {
            ($name:literal, $f:expr) => {
                b.set_item($name, logs.iter().map($f).collect::<Vec<_>>())?;
            };
        }
        col!("direction", |l| if l.dir == Dir::Forward {
            "forward"
        } else {
            "reverse"
        });
        col!("ingress", |l| l.ingress.clone());
        col!("egress", |l| l.egress.clone());
        col!("burst", |l| l.burst);
        col!("queue", |l| l.queue);
        col!("opened_s", |l| l.opened_s);
        col!("closed_s", |l| l.closed_s);
        col!("sent_s", |l| l.sent_s);
        col!("arrival_s", |l| l.arrival_s);
        col!("packets", |l| l.packets);
        col!("bytes", |l| l.bytes);
        col!("flows", |l| l.flows);
        col!("lost", |l| l.lost);
        col!("lost_on", |l| l.lost_on.clone());
        d.set_item("bursts", b)?;
        Ok(d)
    }
}
