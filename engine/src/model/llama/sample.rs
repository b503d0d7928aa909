//! Choosing the next token: greedy (the argmax; ties to the lowest id, as llama.cpp
//! does), or temperature and nucleus (top-p) sampling from a seeded generator so a run
//! can be repeated.

use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

#[derive(Debug, Clone, PartialEq)]
pub enum Sampling {
    Greedy,
    /// Softmax at `temperature`, restricted to the smallest set of tokens whose
    /// probability reaches `top_p`, drawn with a generator seeded by `seed`.
    TopP {
        temperature: f32,
        top_p: f32,
        seed: u64,
    },
}

pub(crate) struct Sampler {
    sampling: Sampling,
    rng: SmallRng,
}

impl Sampler {
    pub(crate) fn new(sampling: &Sampling) -> Self {
        let seed = match sampling {
            Sampling::TopP { seed, .. } => *seed,
            Sampling::Greedy => 0,
        };
        Sampler {
            sampling: sampling.clone(),
            rng: SmallRng::seed_from_u64(seed),
        }
    }

    pub(crate) fn choose(&mut self, logits: &[f32]) -> u32 {
        match self.sampling {
            Sampling::TopP {
                temperature, top_p, ..
            } if temperature > 0.0 && top_p > 0.0 => {
                let draw: f64 = self.rng.random();
                top_p_choice(logits, temperature, top_p, draw)
            }
            _ => argmax(logits),
        }
    }
}

/// Index of the largest logit, the lowest index among equals; NaN never wins.
pub fn argmax(logits: &[f32]) -> u32 {
    let mut best = 0;
    let mut value = f32::NEG_INFINITY;
    for (i, &l) in logits.iter().enumerate() {
        if l > value {
            best = i;
            value = l;
        }
    }
    best as u32
}

/// The token a uniform `draw` in [0, 1) picks from the nucleus of the tempered softmax.
pub fn top_p_choice(logits: &[f32], temperature: f32, top_p: f32, draw: f64) -> u32 {
    let max = logits
        .iter()
        .copied()
        .filter(|l| l.is_finite())
        .fold(f32::NEG_INFINITY, f32::max);
    if !max.is_finite() {
        return argmax(logits);
    }
    let mut probs: Vec<(u32, f64)> = logits
        .iter()
        .enumerate()
        .filter(|(_, l)| l.is_finite())
        .map(|(i, &l)| (i as u32, (((l - max) / temperature) as f64).exp()))
        .collect();
    let total: f64 = probs.iter().map(|(_, p)| p).sum();
    probs.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    let mut kept = 0.0;
    let mut n = 0;
    for (_, p) in &probs {
        kept += p / total;
        n += 1;
        if kept >= top_p as f64 {
            break;
        }
    }
    let nucleus = &probs[..n];
    let mass: f64 = nucleus.iter().map(|(_, p)| p).sum();
    let mut target = draw.clamp(0.0, 1.0) * mass;
    for (id, p) in nucleus {
        if target < *p {
            return *id;
        }
        target -= p;
    }
    nucleus.last().map_or(0, |(id, _)| *id)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn greedy_takes_the_first_maximum_and_ignores_nan() {
        assert_eq!(argmax(&[1.0, 3.0, 3.0, 2.0]), 1);
        assert_eq!(argmax(&[f32::NAN, 0.5, 0.2]), 1);
    }

    #[test]
    fn top_p_keeps_the_smallest_nucleus() {
        // Probabilities at temperature 1: softmax(ln 0.5, ln 0.3, ln 0.2) = 0.5, 0.3, 0.2.
        let logits = [0.5f32.ln(), 0.3f32.ln(), 0.2f32.ln()];
        // top_p 0.7 keeps {0, 1} (0.5 + 0.3 ≥ 0.7), renormalised to 0.625 / 0.375.
        assert_eq!(top_p_choice(&logits, 1.0, 0.7, 0.0), 0);
        assert_eq!(top_p_choice(&logits, 1.0, 0.7, 0.62), 0);
        assert_eq!(top_p_choice(&logits, 1.0, 0.7, 0.63), 1);
        assert_eq!(top_p_choice(&logits, 1.0, 0.7, 0.999), 1);
        // top_p 1 lets the last token in.
        assert_eq!(top_p_choice(&logits, 1.0, 1.0, 0.95), 2);
        // A tiny top_p is greedy.
        assert_eq!(top_p_choice(&logits, 1.0, 0.01, 0.99), 0);
    }

    #[test]
    fn a_seed_repeats_its_choices() {
        let logits: Vec<f32> = (0..50).map(|i| (i as f32 * 0.37).sin()).collect();
        let sampling = Sampling::TopP {
            temperature: 0.8,
            top_p: 0.9,
            seed: 7,
        };
        let run = || {
            let mut s = Sampler::new(&sampling);
            (0..20).map(|_| s.choose(&logits)).collect::<Vec<_>>()
        };
        assert_eq!(run(), run());
    }
}
