//! PLACEHOLDER: per-burst loss models (Bernoulli with random, evenly spaced
//! and batch patterns, applied to all bursts or to one flow's bursts).
