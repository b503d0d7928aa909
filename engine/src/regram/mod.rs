//! ReGraM, region-first reasoning (paper 003): the question's domain sets how much each
//! relation counts; candidate triples around the question's entities are re-ranked by
//! weighted Maximal Marginal Relevance (Eq. 1) and the top K = 15 form the region every
//! later step is restricted to; the number of region facts picks the reasoning mode.
//!
//! - [`domain`]: the five query domains, a deterministic classifier (the paper asks an
//!   LLM; ours reads cue words, so it runs without one) and the relation weight matrix of
//!   the paper's Table 7, mapped onto this engine's relations.
//! - [`decompose`]: the question as at most three sub-questions (hops), read from the
//!   parsed question.
//! - [`region`]: weighted MMR selection of each hop's region.
//! - [`Mode`]: KG-STRICT (≥ 10 facts), HYBRID (1–9), LLM-GUESS (0), per hop.
//! - [`review`]: HYBRID's hypotheses and the Reviewer's verify → revise loop.

pub mod decompose;
pub mod domain;
pub mod region;
pub mod review;

pub use decompose::{decompose, HopKind, SubQuestion, MAX_HOPS};
pub use domain::{classify, relation_weight, Domain, PaperRelation};
pub use region::{select, RegionConfig};
pub use review::{verify_and_revise, EvidenceReviewer, Review, Reviewed, Triple};

use crate::graph::EdgeId;

/// The region an answer was restricted to.
#[derive(Debug, Clone, PartialEq)]
pub struct Region {
    /// The question's domain, which weighted the relations.
    pub domain: Domain,
    /// The mode the whole region's size puts the answer in.
    pub mode: Mode,
    /// The region's triples (the union of the hops'), in the order MMR chose them.
    pub edges: Vec<EdgeId>,
    /// The Evidence Map: each hop's sub-question, facts, mode and sub-answer.
    pub hops: Vec<Hop>,
}

/// One hop of the Evidence Map (§3.5).
#[derive(Debug, Clone, PartialEq)]
pub struct Hop {
    pub question: SubQuestion,
    /// The mode this hop's facts put it in.
    pub mode: Mode,
    /// The hop's region: triples around the entities the previous hop reached, in MMR
    /// order.
    pub edges: Vec<EdgeId>,
    /// The hop's answer: what its triples recommend or list (with none, what they
    /// relate to), in MMR order, less what the sub-question names.
    pub answers: Vec<String>,
    /// HYBRID: the hypotheses proposed and what the Reviewer made of them (empty
    /// without a language model).
    pub hypotheses: Vec<Reviewed>,
    /// LLM-GUESS: a language model's answer from general knowledge, which says so and
    /// is never taken as the answer.
    pub guess: Option<String>,
}

/// How ReGraM reasons for a sub-question, from the number of region facts it has (§3.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Mode {
    /// At least [`STRICT_FACTS`] facts: the answer rests on region evidence alone.
    KgStrict,
    /// Some facts, fewer than [`STRICT_FACTS`]: region evidence, with hypotheses allowed
    /// only over the region's entities and relations.
    Hybrid,
    /// No region facts: a guess, and the answer says so.
    LlmGuess,
}

/// Facts from which a sub-question is answered in KG-STRICT mode.
pub const STRICT_FACTS: usize = 10;

impl Mode {
    /// The mode for `facts` region triples.
    pub fn for_facts(facts: usize) -> Mode {
        match facts {
            0 => Mode::LlmGuess,
            n if n < STRICT_FACTS => Mode::Hybrid,
            _ => Mode::KgStrict,
        }
    }

    /// The paper's name for the mode, shown with every answer it produced.
    pub fn name(self) -> &'static str {
        match self {
            Mode::KgStrict => "KG-STRICT",
            Mode::Hybrid => "HYBRID",
            Mode::LlmGuess => "LLM-GUESS",
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mode_follows_the_papers_fact_thresholds() {
        assert_eq!(Mode::for_facts(0), Mode::LlmGuess);
        assert_eq!(Mode::for_facts(1), Mode::Hybrid);
        assert_eq!(Mode::for_facts(9), Mode::Hybrid);
        assert_eq!(Mode::for_facts(10), Mode::KgStrict);
        assert_eq!(Mode::for_facts(15), Mode::KgStrict);
        assert_eq!(Mode::KgStrict.name(), "KG-STRICT");
    }
}
