//! SQuAD-style answer scoring: normalise (lower-case, drop ASCII punctuation, drop the
//! articles *a*, *an*, *the*, collapse white space), then exact match and token F1,
//! taking the best over the gold answer and its aliases.

use std::collections::HashMap;

/// The normalised form both metrics compare.
pub fn normalize(text: &str) -> String {
    let lowered = text.to_lowercase();
    let without_punctuation: String = lowered
        .chars()
        .filter(|c| !c.is_ascii_punctuation())
        .collect();
    without_punctuation
        .split_whitespace()
        .filter(|w| !matches!(*w, "a" | "an" | "the"))
        .collect::<Vec<_>>()
        .join(" ")
}

/// 1.0 when the normalised prediction equals the normalised gold answer, else 0.0.
pub fn exact_match(prediction: &str, gold: &str) -> f64 {
    f64::from(u8::from(normalize(prediction) == normalize(gold)))
}

/// Token-level F1 between the normalised prediction and gold answer. When either side
/// normalises to nothing, 1.0 only if both do.
pub fn f1(prediction: &str, gold: &str) -> f64 {
    let prediction = normalize(prediction);
    let gold = normalize(gold);
    let predicted: Vec<&str> = prediction.split_whitespace().collect();
    let expected: Vec<&str> = gold.split_whitespace().collect();
    if predicted.is_empty() || expected.is_empty() {
        return f64::from(u8::from(predicted == expected));
    }
    let mut counts: HashMap<&str, usize> = HashMap::new();
    for token in &expected {
        *counts.entry(token).or_default() += 1;
    }
    let mut same = 0usize;
    for token in &predicted {
        if let Some(n) = counts.get_mut(token) {
            if *n > 0 {
                *n -= 1;
                same += 1;
            }
        }
    }
    if same == 0 {
        return 0.0;
    }
    let precision = same as f64 / predicted.len() as f64;
    let recall = same as f64 / expected.len() as f64;
    2.0 * precision * recall / (precision + recall)
}

/// EM and F1 of one prediction, each the best over all accepted answers.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Score {
    pub exact_match: f64,
    pub f1: f64,
}

/// Scores `prediction` against every accepted answer (the gold answer and its aliases)
/// and keeps the best EM and the best F1. No accepted answers scores zero.
pub fn score<'a>(prediction: &str, accepted: impl IntoIterator<Item = &'a str>) -> Score {
    accepted.into_iter().fold(
        Score {
            exact_match: 0.0,
            f1: 0.0,
        },
        |best, gold| Score {
            exact_match: best.exact_match.max(exact_match(prediction, gold)),
            f1: best.f1.max(f1(prediction, gold)),
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn check_normalize(input: &str, expect: &str) {
        assert_eq!(normalize(input), expect, "normalize({input:?})");
    }

    #[test]
    fn normalisation_follows_squad() {
        check_normalize("The Amoxicillin.", "amoxicillin");
        check_normalize("  an   ACE-inhibitor ", "aceinhibitor");
        check_normalize("V/Q scan", "vq scan");
        check_normalize("a", "");
        check_normalize("Theophylline", "theophylline");
        // Non-ASCII punctuation is kept, as in SQuAD's string.punctuation.
        check_normalize("β-blocker’s", "βblocker’s");
    }

    #[test]
    fn exact_match_ignores_case_articles_and_punctuation() {
        assert_eq!(exact_match("The amoxicillin", "Amoxicillin."), 1.0);
        assert_eq!(exact_match("amoxicillin", "doxycycline"), 0.0);
    }

    #[test]
    fn f1_counts_shared_tokens() {
        // "low-dose" normalises to one token "lowdose": p = 1/2, r = 1, f1 = 2/3
        assert!((f1("low-dose quetiapine", "quetiapine") - 2.0 / 3.0).abs() < 1e-12);
        // "low dose quetiapine" vs "quetiapine": p = 1/3, r = 1, f1 = 0.5
        assert!((f1("low dose quetiapine", "quetiapine") - 0.5).abs() < 1e-12);
        // repeated tokens count once per occurrence: "x x y" vs "x y y" → same 2, p = r = 2/3
        assert!((f1("x x y", "x y y") - 2.0 / 3.0).abs() < 1e-12);
        assert_eq!(f1("", ""), 1.0);
        assert_eq!(f1("the", "amoxicillin"), 0.0);
        assert_eq!(f1("cefazolin", "penicillin"), 0.0);
    }

    #[test]
    fn score_takes_the_best_alias_for_each_metric() {
        let s = score(
            "IV iron sucrose",
            ["intravenous iron", "iron sucrose", "IV iron"],
        );
        assert_eq!(s.exact_match, 0.0);
        // best F1 is against "iron sucrose" or "IV iron": p = 2/3, r = 1 → 0.8
        assert!((s.f1 - 0.8).abs() < 1e-12);
        let s = score("Bactrim", ["trimethoprim-sulfamethoxazole", "Bactrim"]);
        assert_eq!(
            s,
            Score {
                exact_match: 1.0,
                f1: 1.0
            }
        );
        assert_eq!(
            score("x", []),
            Score {
                exact_match: 0.0,
                f1: 0.0
            }
        );
    }
}
