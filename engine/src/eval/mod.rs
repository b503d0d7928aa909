//! Scoring answers the way the evaluation sets are scored, and extraction against
//! hand-annotated tuples.

pub mod extraction;
pub mod metrics;
