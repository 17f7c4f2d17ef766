//! Scenario errors: every problem names the key path (`links[2].rate`), what
//! is allowed, and what was found. Parsing collects all problems it can before
//! failing, so a user fixes a file in one pass.

use std::fmt;

/// One problem in a scenario.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigError {
    /// Key path of the offending value, e.g. `links[2].rate` or `tcp.mss`;
    /// empty for a problem with the document as a whole (TOML syntax).
    pub path: String,
    /// What is wrong: what is allowed and what was found.
    pub reason: String,
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() {
            write!(f, "{}", self.reason)
        } else {
            write!(f, "{}: {}", self.path, self.reason)
        }
    }
}

/// All problems found in a scenario (never empty).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ConfigErrors {
    /// The problems, in document order where possible.
    pub errors: Vec<ConfigError>,
}

impl fmt::Display for ConfigErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.errors.len();
        writeln!(
            f,
            "invalid scenario ({n} problem{}):",
            if n == 1 { "" } else { "s" }
        )?;
        for e in &self.errors {
            writeln!(f, "  {e}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ConfigErrors {}
