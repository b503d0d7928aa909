//! Yes / no / maybe for a research question over an abstract (PubMedQA), without an LLM.
//!
//! The judged sentences are the ones the strategy's evidence cites, and the abstract's
//! sentences closest to the question (by the embedder) — the findings that answer it.
//! A finding that reports no effect ("no significant difference", "did not reduce",
//! "was not associated") says **no**; one that only suggests or calls for more study
//! ("may", "a trend", "further studies are needed") says **maybe**; a plain positive
//! finding says **yes**. The sentence closest to the question decides; only when none
//! is close are the cues of all judged sentences counted, negative before tentative
//! before positive.

use super::{Answer, AnswerError, Prepared};
use crate::embed::{cosine, Embedder};
use crate::llm::{LanguageModel, LlmError, Message};
use crate::text::split_sentences;

/// The three answers of a yes/no/maybe question.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum YesNo {
    Yes,
    No,
    Maybe,
}

impl YesNo {
    pub fn name(self) -> &'static str {
        match self {
            YesNo::Yes => "yes",
            YesNo::No => "no",
            YesNo::Maybe => "maybe",
        }
    }
}

/// Sentences closest to the question that are judged besides the evidence's.
const CLOSEST: usize = 3;

/// Phrases of a finding that reports no effect or no association.
const NEGATIVE: [&str; 22] = [
    "no significant",
    "not significant",
    "not significantly",
    "no statistically significant",
    "did not",
    "does not",
    "do not",
    "was not",
    "were not",
    "is not",
    "are not",
    "no difference",
    "no differences",
    "no association",
    "not associated",
    "no effect",
    "no evidence",
    "failed to",
    "no benefit",
    "not improve",
    "similar between",
    "no correlation",
];

/// Phrases of a tentative finding.
const TENTATIVE: [&str; 17] = [
    "may",
    "might",
    "could",
    "possibly",
    "a trend",
    "tended to",
    "further studies",
    "further study",
    "further research",
    "warrant",
    "warranted",
    "unclear",
    "inconclusive",
    "conflicting",
    "remains to be",
    "marginal",
    "marginally",
];

/// The cue of one sentence, if it has one: negative findings first (a "not" outweighs a
/// hedge in the same sentence), then tentative ones. Phrases match whole words.
pub fn cue(sentence: &str) -> Option<YesNo> {
    let words: Vec<String> = sentence
        .to_lowercase()
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|w| !w.is_empty())
        .map(str::to_string)
        .collect();
    let s = format!(" {} ", words.join(" "));
    let has = |c: &&str| s.contains(&format!(" {c} "));
    if NEGATIVE.iter().any(has) {
        Some(YesNo::No)
    } else if TENTATIVE.iter().any(has) {
        Some(YesNo::Maybe)
    } else {
        None
    }
}

/// The verdict on `question` from the prepared abstract and the strategy's `answer`
/// (whose evidence sentences are judged first), with the sentences judged.
pub async fn yes_no(
    prepared: &Prepared,
    question: &str,
    answer: &Answer,
    embedder: &mut impl Embedder,
) -> Result<(YesNo, Vec<String>), AnswerError> {
    let mut sentences: Vec<String> = Vec::new();
    for d in &prepared.docs {
        for range in split_sentences(&d.text) {
            if let Some(s) = d.text.get(range) {
                let s = s.trim();
                if !s.is_empty() {
                    sentences.push(s.to_string());
                }
            }
        }
    }
    let mut judged: Vec<String> = answer
        .evidence
        .iter()
        .flat_map(|p| {
            p.edges
                .iter()
                .flat_map(|e| e.citations.iter().map(|c| c.text.clone()))
        })
        .collect();
    let mut closest_similarity = f32::NEG_INFINITY;
    if !sentences.is_empty() {
        let mut texts = sentences.clone();
        texts.push(question.to_string());
        let vectors = embedder.embed(&texts).await?;
        if let Some((q, rest)) = vectors.split_last() {
            let mut ranked: Vec<(usize, f32)> = rest
                .iter()
                .enumerate()
                .map(|(i, v)| (i, cosine(q, v)))
                .collect();
            ranked.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
            closest_similarity = ranked.first().map_or(f32::NEG_INFINITY, |r| r.1);
            let closest: Vec<String> = ranked
                .iter()
                .take(CLOSEST)
                .map(|&(i, _)| sentences[i].clone())
                .collect();
            // The closest sentence first: it decides when its cue is clear.
            judged.splice(0..0, closest);
        }
    }
    judged.dedup();
    // The closest finding decides; the rest are counted only when no sentence is closer
    // to the question than chance (the lexical embedder's 0).
    let verdict = match (closest_similarity > 0.0, judged.first()) {
        (true, Some(first)) => cue(first).unwrap_or(YesNo::Yes),
        _ => {
            let cues: Vec<YesNo> = judged.iter().filter_map(|s| cue(s)).collect();
            let count = |v: YesNo| cues.iter().filter(|&&c| c == v).count();
            match (count(YesNo::No), count(YesNo::Maybe)) {
                (n, m) if n > 0 && n >= m => YesNo::No,
                (_, m) if m > 0 => YesNo::Maybe,
                _ => YesNo::Yes,
            }
        }
    };
    Ok((verdict, judged))
}

/// The answers as the model is asked to write them, in [`YesNo`] order.
const WORDS: [(&str, YesNo); 3] = [
    ("yes", YesNo::Yes),
    ("no", YesNo::No),
    ("maybe", YesNo::Maybe),
];

/// Stand-in text for the content-free query the model's prior is read from.
const CONTENT_FREE: &str = "N/A";

/// Abstracts longer than this many words are cut (a 135M model's useful context, and
/// the time one prompt pass takes on a CPU).
pub const MAX_CONTEXT_WORDS: usize = 600;

/// A language model's verdict with its scores.
#[derive(Debug, Clone, PartialEq)]
pub struct ScoredYesNo {
    /// The likeliest word as read.
    pub plain: YesNo,
    /// The likeliest after the content-free prior is taken off ("Calibrate before use",
    /// Zhao et al. 2021): what the model says because of this abstract and question.
    pub calibrated: YesNo,
    /// Log-likelihoods of yes, no, maybe for this question.
    pub scores: [f64; 3],
}

/// Reads yes / no / maybe from a language model's likelihood of each word as the
/// answer's first token, with the abstract and question in the prompt. The prior (the
/// same prompt with "N/A" for both) is read once and kept.
pub struct YesNoScorer<'m, L: LanguageModel> {
    model: &'m L,
    prior: Option<[f64; 3]>,
}

impl<'m, L: LanguageModel> YesNoScorer<'m, L> {
    pub fn new(model: &'m L) -> Self {
        YesNoScorer { model, prior: None }
    }

    /// The verdict on `question` from `context` (the abstract).
    pub async fn judge(&mut self, question: &str, context: &str) -> Result<ScoredYesNo, LlmError> {
        let prior = match self.prior {
            Some(p) => p,
            None => {
                let p = self.scores(CONTENT_FREE, CONTENT_FREE).await?;
                self.prior = Some(p);
                p
            }
        };
        let scores = self.scores(question, context).await?;
        let best = |values: [f64; 3]| {
            let mut at = 0;
            for i in 1..3 {
                if values[i] > values[at] {
                    at = i;
                }
            }
            WORDS[at].1
        };
        let lifted = [0, 1, 2].map(|i| scores[i] - prior[i]);
        Ok(ScoredYesNo {
            plain: best(scores),
            calibrated: best(lifted),
            scores,
        })
    }

    async fn scores(&self, question: &str, context: &str) -> Result<[f64; 3], LlmError> {
        let words: Vec<&str> = context.split_whitespace().collect();
        let context = if words.len() > MAX_CONTEXT_WORDS {
            words[..MAX_CONTEXT_WORDS].join(" ")
        } else {
            context.to_string()
        };
        let prompt = self
            .model
            .chat_prompt(&prompt_messages(question, &context))?;
        // Each word as written or capitalised: the class's likelihood is their sum.
        let candidates: Vec<String> = WORDS
            .iter()
            .flat_map(|(w, _)| [w.to_string(), capitalised(w)])
            .collect();
        let got = self.model.score(&prompt, &candidates).await?;
        let at = |i: usize| got.get(i).copied().unwrap_or(f64::NEG_INFINITY);
        Ok([0, 1, 2].map(|k| log_sum_exp(at(2 * k), at(2 * k + 1))))
    }
}

fn capitalised(word: &str) -> String {
    let mut chars = word.chars();
    chars
        .next()
        .map(|c| c.to_uppercase().chain(chars).collect())
        .unwrap_or_default()
}

/// ln(eᵃ + eᵇ), exact when either is −∞.
fn log_sum_exp(a: f64, b: f64) -> f64 {
    let high = a.max(b);
    if high == f64::NEG_INFINITY {
        return high;
    }
    high + ((a - high).exp() + (b - high).exp()).ln()
}

/// The question put to the model: the abstract, the question, one word.
pub fn prompt_messages(question: &str, context: &str) -> Vec<Message> {
    vec![
        Message::new(
            "system",
            "You answer research questions from the abstract given. Reply with one word: yes, no or maybe.",
        ),
        Message::new(
            "user",
            &format!("Abstract: {context}\n\nQuestion: {question}\n\nAnswer with yes, no or maybe."),
        ),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::embed::LexicalEmbedder;
    use crate::extract::RuleExtractor;
    use crate::text::Document;

    #[test]
    fn class_likelihoods_add_up_their_spellings() {
        assert!((log_sum_exp(0.5f64.ln(), 0.25f64.ln()) - 0.75f64.ln()).abs() < 1e-12);
        assert_eq!(log_sum_exp(f64::NEG_INFINITY, -1.0), -1.0);
        assert_eq!(
            log_sum_exp(f64::NEG_INFINITY, f64::NEG_INFINITY),
            f64::NEG_INFINITY
        );
        assert_eq!(capitalised("maybe"), "Maybe");
    }

    #[test]
    fn findings_read_as_no_maybe_or_no_cue() {
        assert_eq!(
            cue("There was no significant difference in mortality."),
            Some(YesNo::No)
        );
        assert_eq!(
            cue("Statins did not reduce the rate of stroke."),
            Some(YesNo::No)
        );
        // A negation outweighs a hedge in the same sentence.
        assert_eq!(
            cue("It may not be associated; results were not significant."),
            Some(YesNo::No)
        );
        assert_eq!(
            cue("These results suggest that counseling may help."),
            Some(YesNo::Maybe)
        );
        assert_eq!(cue("Further studies are needed."), Some(YesNo::Maybe));
        assert_eq!(cue("Counseling increased screening rates by 12%."), None);
        // Whole words only: "is notable" is not "is not", "mayor" is not "may".
        assert_eq!(cue("The effect is notable, said the mayor."), None);
    }

    fn judge(abstract_text: &str, question: &str) -> YesNo {
        let prepared = Prepared::new(
            vec![Document::new("abstract", abstract_text)],
            &RuleExtractor,
        );
        let mut embedder = LexicalEmbedder::default();
        let answer = pollster::block_on(super::super::answer(
            &prepared,
            question,
            &super::super::PipelineConfig::default(),
            &mut embedder,
        ))
        .expect("answers");
        pollster::block_on(yes_no(&prepared, question, &answer, &mut embedder))
            .expect("a verdict")
            .0
    }

    /// The sentence closest to the question decides: a positive finding about the
    /// question's subject says yes even beside a negative finding about something else.
    #[test]
    fn the_finding_closest_to_the_question_decides() {
        let text = "Telephone counseling increased mammography use among women. \
                    The cost of the intervention did not differ between sites.";
        assert_eq!(
            judge(text, "Does telephone counseling increase mammography use?"),
            YesNo::Yes
        );
        let text = "Telephone counseling did not increase mammography use among women. \
                    Participants were satisfied.";
        assert_eq!(
            judge(text, "Does telephone counseling increase mammography use?"),
            YesNo::No
        );
        let text = "Telephone counseling may increase mammography use among women, \
                    but further studies are needed.";
        assert_eq!(
            judge(text, "Does telephone counseling increase mammography use?"),
            YesNo::Maybe
        );
    }
}
