//! The scenario schema: TOML (or JSON, from Python dicts) in, a validated
//! [`Scenario`] out. This module is the one owner of the schema.

pub mod error;
pub mod scenario;

pub use error::{ConfigError, ConfigErrors};
pub use scenario::Scenario;

/// Parses and validates a scenario written in TOML.
pub fn parse_toml(text: &str) -> Result<Scenario, ConfigErrors> {
    let _ = text;
    Err(ConfigErrors { errors: vec![ConfigError { path: String::new(), reason: "not implemented".into() }] })
}

/// Parses and validates a scenario given as JSON (how Python dicts arrive).
pub fn parse_json(text: &str) -> Result<Scenario, ConfigErrors> {
    let _ = text;
    Err(ConfigErrors { errors: vec![ConfigError { path: String::new(), reason: "not implemented".into() }] })
}
