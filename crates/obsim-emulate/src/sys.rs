//! The Linux system calls the emulator needs, each behind a safe function:
//! opening a TUN device (`Documentation/networking/tuntap.rst`: `open
//! /dev/net/tun`, `ioctl(TUNSETIFF)` with `IFF_TUN | IFF_NO_PI`, so each
//! read and write is one bare IP packet), non-blocking reads and writes,
//! `ppoll(2)` with a nanosecond timeout, and the thread's timer slack
//! (`prctl(PR_SET_TIMERSLACK)`, 50 µs by default, which would add to every
//! wake-up).
#![allow(unsafe_code)] // system calls; each block states what it relies on.

use std::io;
use std::os::fd::{AsRawFd, FromRawFd, OwnedFd};
use std::time::Duration;

/// `TUNSETIFF` (`_IOW('T', 202, int)`, include/uapi/linux/if_tun.h).
const TUNSETIFF: libc::c_ulong = 0x4004_54ca;
/// `IFF_TUN` (if_tun.h): layer-3 packets.
const IFF_TUN: libc::c_short = 0x0001;
/// `IFF_NO_PI` (if_tun.h): no 4-byte packet-information prefix.
const IFF_NO_PI: libc::c_short = 0x1000;

/// `struct ifreq` as `TUNSETIFF` reads it: the name, then the flags (the
/// kernel's union is 24 bytes; the struct 40).
#[repr(C)]
struct IfReq {
    name: [u8; 16],
    flags: libc::c_short,
    _pad: [u8; 22],
}

/// An open TUN device: the emulator's end of one namespace's interface.
#[derive(Debug)]
pub struct Tun {
    fd: OwnedFd,
    name: String,
}

impl Tun {
    /// Creates (or attaches to) TUN device `name` in the caller's network
    /// namespace, non-blocking. Needs `CAP_NET_ADMIN`.
    pub fn open(name: &str) -> io::Result<Self> {
        if name.is_empty() || name.len() > 15 || !name.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("interface name {name:?}: 1-15 printable characters"),
            ));
        }
        // SAFETY: a NUL-terminated literal path; the returned descriptor is
        // checked before use and owned from here on.
        let raw = unsafe {
            libc::open(
                c"/dev/net/tun".as_ptr(),
                libc::O_RDWR | libc::O_NONBLOCK | libc::O_CLOEXEC,
            )
        };
        if raw < 0 {
            return Err(io::Error::last_os_error());
        }
        // SAFETY: `raw` is a fresh descriptor nobody else owns.
        let fd = unsafe { OwnedFd::from_raw_fd(raw) };
        let mut req = IfReq {
            name: [0; 16],
            flags: IFF_TUN | IFF_NO_PI,
            _pad: [0; 22],
        };
        req.name[..name.len()].copy_from_slice(name.as_bytes());
        // SAFETY: TUNSETIFF reads and writes one `struct ifreq`, which
        // `IfReq` lays out (40 bytes, name then flags).
        let rc = unsafe { libc::ioctl(fd.as_raw_fd(), TUNSETIFF, &raw mut req) };
        if rc < 0 {
            return Err(io::Error::last_os_error());
        }
        Ok(Tun {
            fd,
            name: name.to_string(),
        })
    }

    /// The interface's name.
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Reads one packet into `buf`; `Ok(None)` when none is waiting.
    pub fn read(&self, buf: &mut [u8]) -> io::Result<Option<usize>> {
        // SAFETY: writes at most `buf.len()` bytes into `buf`.
        let n = unsafe { libc::read(self.fd.as_raw_fd(), buf.as_mut_ptr().cast(), buf.len()) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return match e.kind() {
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(None),
                _ => Err(e),
            };
        }
        Ok(Some(n as usize))
    }

    /// Writes one packet; `Ok(false)` when the kernel refused it for now
    /// (the packet is then lost, as on a full interface queue).
    pub fn write(&self, pkt: &[u8]) -> io::Result<bool> {
        // SAFETY: reads `pkt.len()` bytes from `pkt`.
        let n = unsafe { libc::write(self.fd.as_raw_fd(), pkt.as_ptr().cast(), pkt.len()) };
        if n < 0 {
            let e = io::Error::last_os_error();
            return match e.kind() {
                io::ErrorKind::WouldBlock | io::ErrorKind::Interrupted => Ok(false),
                // The interface is down or gone (namespace removed).
                _ => Err(e),
            };
        }
        Ok(true)
    }

    fn raw(&self) -> libc::c_int {
        self.fd.as_raw_fd()
    }
}

/// Waits until one of `tuns` is readable or `timeout` passes (`None`:
/// forever); true when one is readable.
pub fn wait_readable(tuns: [&Tun; 2], timeout: Option<Duration>) -> io::Result<bool> {
    let mut fds = [
        libc::pollfd {
            fd: tuns[0].raw(),
            events: libc::POLLIN,
            revents: 0,
        },
        libc::pollfd {
            fd: tuns[1].raw(),
            events: libc::POLLIN,
            revents: 0,
        },
    ];
    let ts = timeout.map(|d| libc::timespec {
        tv_sec: libc::time_t::try_from(d.as_secs()).unwrap_or(libc::time_t::MAX),
        tv_nsec: libc::c_long::from(d.subsec_nanos()),
    });
    let tsp = ts.as_ref().map_or(std::ptr::null(), std::ptr::from_ref);
    // SAFETY: `fds` is a valid array of 2 pollfd; `tsp` is null or points
    // to a live timespec; no signal mask is changed.
    let rc = unsafe { libc::ppoll(fds.as_mut_ptr(), 2, tsp, std::ptr::null()) };
    if rc < 0 {
        let e = io::Error::last_os_error();
        return if e.kind() == io::ErrorKind::Interrupted {
            Ok(false)
        } else {
            Err(e)
        };
    }
    Ok(rc > 0)
}

/// Sets this thread's timer slack to 1 ns, so a timed wait wakes when asked
/// (the default 50 µs slack would be added to every release).
pub fn tight_timer_slack() {
    // SAFETY: PR_SET_TIMERSLACK takes one integer argument and affects only
    // the calling thread.
    unsafe {
        libc::prctl(libc::PR_SET_TIMERSLACK, 1 as libc::c_ulong);
    }
}

/// Runs the calling thread under `SCHED_FIFO` at `priority` (1-99), so the
/// loop is not queued behind other work on a loaded machine; `priority`
/// 0 sets normal scheduling (`SCHED_OTHER`) back. Needs `CAP_SYS_NICE`.
pub fn set_fifo(priority: i32) -> io::Result<()> {
    let (policy, p) = if priority > 0 {
        (libc::SCHED_FIFO, priority.min(99))
    } else {
        (libc::SCHED_OTHER, 0)
    };
    let param = libc::sched_param { sched_priority: p };
    // SAFETY: pid 0 is the calling thread; `param` is a live sched_param.
    let rc = unsafe { libc::sched_setscheduler(0, policy, &raw const param) };
    if rc < 0 {
        return Err(io::Error::last_os_error());
    }
    Ok(())
}
