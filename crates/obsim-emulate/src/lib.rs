//! `obsim emulate`: obsim's OBS edge model as a real-time forwarder, so that
//! unmodified kernel TCP and any application run across a burst-switched
//! path (issue 17, item 3).
//!
//! Layout, one job per module:
//! - `path`: the emulated path, read off an ordinary scenario;
//! - `pipeline`: the path as an I/O-free model (packets in with the time they
//!   were read, out with the time they are due), built from obsim's own
//!   channel, assembler and burst loss models;
//! - `sys`: the few Linux system calls (TUN devices, `ppoll`, timer slack);
//! - `realtime`: the loop that reads the two TUN devices, runs the pipeline
//!   and writes each packet when it is due, measuring its own lateness.
//!
//! Namespaces are created and removed by the Python front end
//! (`obsim.emulate`), which moves the two TUN devices this crate opens into
//! them.

pub mod path;
pub mod pipeline;
pub mod realtime;
pub mod sys;

pub use path::{Dir, EmuPath, PathError, Stage};
pub use pipeline::{BurstLog, Delivery, DirStats, Output, Pipeline};
pub use realtime::{run, LoopConfig, Report, Timing};
pub use sys::Tun;
