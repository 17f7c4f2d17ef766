//! Traffic sources: when flows start and how much they send.

pub mod bulk;
