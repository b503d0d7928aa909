//! Scoring answers the way the evaluation sets are scored.

pub mod metrics;
