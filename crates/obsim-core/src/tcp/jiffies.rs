//! Linux's jiffies clock (`CONFIG_HZ`, `tcp.hz`), as the Linux models read
//! it: `jiffies` counts ticks of 1/HZ s and `usecs_to_jiffies` rounds up.
//! Read by the receiver's delayed-ACK timeout (`tcp/delack.rs`) and CUBIC's
//! integer arithmetic (`tcp/cc/linux_cubic.rs`). obsim's clock ticks at
//! time 0 (the kernel's at boot).

use crate::time::SimTime;

/// A jiffies clock of `hz` ticks a second.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Jiffies {
    hz: u64,
}

impl Jiffies {
    /// The clock of `CONFIG_HZ` = `hz` (at least 1).
    #[must_use]
    pub fn new(hz: u32) -> Self {
        Jiffies {
            hz: u64::from(hz.max(1)),
        }
    }

    /// `HZ`: ticks a second.
    #[must_use]
    pub fn hz(self) -> u64 {
        self.hz
    }

    /// `jiffies` at `now`.
    #[must_use]
    pub fn at(self, now: SimTime) -> u64 {
        let j = u128::from(now.as_nanos()) * u128::from(self.hz) / 1_000_000_000;
        u64::try_from(j).unwrap_or(u64::MAX)
    }

    /// The time jiffy `j` starts.
    #[must_use]
    pub fn start(self, j: u64) -> SimTime {
        let ns = (u128::from(j) * 1_000_000_000).div_ceil(u128::from(self.hz));
        SimTime(u64::try_from(ns).unwrap_or(u64::MAX))
    }

    /// `usecs_to_jiffies` (rounds up).
    #[must_use]
    pub fn from_us(self, us: u64) -> u64 {
        (u128::from(us) * u128::from(self.hz))
            .div_ceil(1_000_000)
            .try_into()
            .unwrap_or(u64::MAX)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::time::SimDuration;

    #[test]
    fn ticks_round_down_and_conversions_round_up() {
        let c = Jiffies::new(250);
        let ms = |t: u64| SimTime::ZERO + SimDuration::from_millis(t);
        assert_eq!(
            (c.at(ms(0)), c.at(ms(3)), c.at(ms(4)), c.at(ms(41))),
            (0, 0, 1, 10)
        );
        assert_eq!(c.start(10), ms(40));
        assert_eq!((c.from_us(1), c.from_us(4000), c.from_us(4001)), (1, 1, 2));
        assert_eq!(Jiffies::new(0).hz(), 1);
    }
}
