//! PLACEHOLDER: burst assembly (queue selection x closing trigger).
