//! The region: candidate triples re-ranked by weighted Maximal Marginal Relevance (ReGraM
//! Eq. 1) and the top K kept.
//!
//! MMR(t) = λ · Sim(q, t) · w_r − (1 − λ) · max_{t' ∈ S} Sim(t, t'), picked greedily: each
//! round adds the candidate with the highest MMR to S, so a triple close to one already
//! chosen loses to a slightly less relevant one that says something new. The redundancy
//! term is 0 while S is empty.

use crate::embed::cosine;

/// The region's size and the relevance/diversity balance.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct RegionConfig {
    /// K: triples in a region.
    pub k: usize,
    /// λ: weight of relevance against redundancy.
    pub lambda: f32,
}

impl Default for RegionConfig {
    /// The paper's K = 15 and λ = 0.7.
    fn default() -> Self {
        RegionConfig { k: 15, lambda: 0.7 }
    }
}

/// Indices of the region's triples, in the order MMR picked them. `query` is the
/// sub-question's embedding; `triples` each triple's text embedding; `weights` the
/// relation weight w_r of each. Ties go to the earlier candidate, so the result is
/// deterministic.
pub fn select(
    query: &[f32],
    triples: &[Vec<f32>],
    weights: &[f32],
    config: &RegionConfig,
) -> Vec<usize> {
    let n = triples.len().min(weights.len());
    let relevance: Vec<f32> = (0..n)
        .map(|i| config.lambda * cosine(query, &triples[i]) * weights[i])
        .collect();
    // The largest similarity of each candidate to the chosen ones so far.
    let mut redundancy = vec![f32::NEG_INFINITY; n];
    let mut chosen = Vec::with_capacity(config.k.min(n));
    let mut open: Vec<bool> = vec![true; n];
    while chosen.len() < config.k.min(n) {
        let mut best: Option<(usize, f32)> = None;
        for i in (0..n).filter(|&i| open[i]) {
            let penalty = match chosen.is_empty() {
                true => 0.0,
                false => (1.0 - config.lambda) * redundancy[i],
            };
            let score = relevance[i] - penalty;
            if best.is_none_or(|(_, b)| score > b) {
                best = Some((i, score));
            }
        }
        let Some((pick, _)) = best else { break };
        open[pick] = false;
        chosen.push(pick);
        for i in (0..n).filter(|&i| open[i]) {
            redundancy[i] = redundancy[i].max(cosine(&triples[i], &triples[pick]));
        }
    }
    chosen
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Hand-checked on unit vectors in the plane (cosine = dot product).
    ///
    /// q = (1, 0); a = (1, 0), b = (0.96, 0.28), c = (0.6, 0.8); weights 1.
    /// Round 1: relevance 0.7·(1, 0.96, 0.6) = (0.7, 0.672, 0.42) → a.
    /// Round 2: sim to a = (0.96, 0.6); b: 0.672 − 0.3·0.96 = 0.384; c: 0.42 − 0.3·0.6
    /// = 0.24 → b. Round 3: c alone.
    #[test]
    fn mmr_picks_by_relevance_then_penalises_what_is_already_said() {
        let q = vec![1.0, 0.0];
        let t = vec![vec![1.0, 0.0], vec![0.96, 0.28], vec![0.6, 0.8]];
        let cfg = RegionConfig { k: 3, lambda: 0.7 };
        assert_eq!(select(&q, &t, &[1.0; 3], &cfg), vec![0, 1, 2]);
        // λ = 0.3: round 2 gives b: 0.288 − 0.7·0.96 = −0.384, c: 0.18 − 0.7·0.6 = −0.24
        // → c, the triple that says something new.
        assert_eq!(
            select(&q, &t, &[1.0; 3], &RegionConfig { k: 3, lambda: 0.3 }),
            vec![0, 2, 1]
        );
    }

    /// The relation weight multiplies relevance: with w = (0.5, 1.5, 1) the first pick
    /// is b (0.7·0.96·1.5 = 1.008 > 0.7·1·0.5 = 0.35), and K caps the region.
    #[test]
    fn relation_weights_reorder_and_k_caps_the_region() {
        let q = vec![1.0, 0.0];
        let t = vec![vec![1.0, 0.0], vec![0.96, 0.28], vec![0.6, 0.8]];
        let cfg = RegionConfig { k: 2, lambda: 0.7 };
        let region = select(&q, &t, &[0.5, 1.5, 1.0], &cfg);
        // Round 2: a: 0.35 − 0.3·0.96 = 0.062; c: 0.42 − 0.3·(0.576 + 0.224 = 0.8) = 0.18 → c.
        assert_eq!(region, vec![1, 2]);
        assert!(select(&q, &[], &[], &cfg).is_empty());
        assert_eq!(RegionConfig::default(), RegionConfig { k: 15, lambda: 0.7 });
    }
}
