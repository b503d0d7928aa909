//! Summarisers of claims and the context guard around them.
//!
//! [`Extractive`] needs no model: a summary is a few of the claims it was given, the
//! focus claim first, then by maximal marginal relevance to the question (λ = 0.7, as
//! ReGraM selects triples), so two claims saying nearly the same thing do not both take
//! a place. [`LlmSummarizer`] writes the summary with a language model and the paper's
//! layerwise prompt (its Prompt 6); it falls back to the extractive summary when the
//! model writes nothing.
//!
//! [`fitted`] is the context guard of the paper's Appendix D: when the inputs of one
//! summary are longer than the summariser can take, they are grouped by k-means over
//! their embeddings and each group is summarised first, until they fit.

use std::future::Future;
use std::ops::ControlFlow;

use super::{ClaimGraph, ClaimsError};
use crate::embed::cosine;
use crate::llm::{Generate, LanguageModel, Message};

/// A summary and the claims it was made from (for an extractive summary, the claims it
/// consists of, in order).
#[derive(Debug, Clone, PartialEq)]
pub struct Summary {
    pub text: String,
    pub claims: Vec<usize>,
}

impl Summary {
    /// A claim as its own summary.
    pub fn of_claim(graph: &ClaimGraph, claim: usize) -> Summary {
        Summary {
            text: graph
                .claims
                .get(claim)
                .map(|c| c.text.clone())
                .unwrap_or_default(),
            claims: vec![claim],
        }
    }

    /// Words in the text: what the context guard counts.
    pub fn words(&self) -> usize {
        self.text.split_whitespace().count()
    }
}

/// Writes one summary from a focus claim and the summaries around it.
pub trait Summarizer {
    /// A short name for reports ("extractive", "SmolLM2-135M-Instruct").
    fn name(&self) -> &str;

    /// The most words one call may be given (focus and inputs together).
    fn max_input_words(&self) -> usize;

    /// A summary of `inputs` centred on the claim `focus` when there is one (a group of
    /// inputs merged by the context guard has none).
    fn summarize(
        &mut self,
        graph: &ClaimGraph,
        question: &str,
        focus: Option<usize>,
        inputs: &[Summary],
    ) -> impl Future<Output = Result<Summary, ClaimsError>>;
}

/// λ of the extractive summary's maximal marginal relevance.
pub const LAMBDA: f32 = 0.7;

/// Extractive summaries from the claims' vectors (no model).
#[derive(Debug, Clone)]
pub struct Extractive {
    question: Vec<f32>,
    /// At most this many claims per summary.
    pub budget: usize,
}

impl Extractive {
    pub fn new(question_vec: Vec<f32>, budget: usize) -> Extractive {
        Extractive {
            question: question_vec,
            budget: budget.max(1),
        }
    }

    /// The claims of a summary of `inputs` around `focus`, in order.
    pub fn select(
        &self,
        graph: &ClaimGraph,
        focus: Option<usize>,
        inputs: &[Summary],
    ) -> Vec<usize> {
        let mut pool: Vec<usize> = Vec::new();
        for c in inputs.iter().flat_map(|s| s.claims.iter().copied()) {
            if Some(c) != focus && !pool.contains(&c) {
                pool.push(c);
            }
        }
        let vector = |c: usize| graph.vectors.get(c).map_or(&[][..], Vec::as_slice);
        let mut chosen: Vec<usize> = focus.into_iter().collect();
        while chosen.len() < self.budget && !pool.is_empty() {
            let mut best: Option<(usize, f32)> = None;
            for (at, &c) in pool.iter().enumerate() {
                let relevance = cosine(vector(c), &self.question);
                let redundancy = chosen
                    .iter()
                    .map(|&s| cosine(vector(c), vector(s)))
                    .fold(f32::NEG_INFINITY, f32::max);
                let redundancy = if chosen.is_empty() { 0.0 } else { redundancy };
                let score = LAMBDA * relevance - (1.0 - LAMBDA) * redundancy;
                // Ties keep the earlier claim: inputs arrive best first.
                if best.is_none_or(|(_, b)| score > b) {
                    best = Some((at, score));
                }
            }
            let Some((at, _)) = best else { break };
            chosen.push(pool.remove(at));
        }
        chosen
    }
}

impl Summarizer for Extractive {
    fn name(&self) -> &str {
        "extractive"
    }

    /// An extractive summary reads its inputs whatever their length.
    fn max_input_words(&self) -> usize {
        usize::MAX
    }

    async fn summarize(
        &mut self,
        graph: &ClaimGraph,
        _question: &str,
        focus: Option<usize>,
        inputs: &[Summary],
    ) -> Result<Summary, ClaimsError> {
        let claims = self.select(graph, focus, inputs);
        let text = claims
            .iter()
            .filter_map(|&c| graph.claims.get(c).map(|c| c.text.as_str()))
            .collect::<Vec<_>>()
            .join(" ");
        Ok(Summary { text, claims })
    }
}

/// Summaries written by a language model with the paper's layerwise prompt.
pub struct LlmSummarizer<'m, L: LanguageModel> {
    model: &'m L,
    fallback: Extractive,
    /// Tokens per summary at most.
    pub max_tokens: usize,
    /// The context guard's limit: about 2,000 tokens in the paper.
    pub max_words: usize,
    /// Summaries the model left empty, replaced by the extractive one.
    pub fell_back: usize,
}

impl<'m, L: LanguageModel> LlmSummarizer<'m, L> {
    pub fn new(model: &'m L, fallback: Extractive) -> Self {
        LlmSummarizer {
            model,
            fallback,
            max_tokens: 96,
            max_words: 1_500,
            fell_back: 0,
        }
    }
}

/// The paper's Prompt 6 (layerwise summarisation), for one claim and its context.
pub fn layerwise_prompt(claims: &[&str], context: &[&str]) -> String {
    let list = |items: &[&str]| {
        if items.is_empty() {
            "(none)".to_string()
        } else {
            items
                .iter()
                .map(|t| format!("- {t}"))
                .collect::<Vec<_>>()
                .join("\n")
        }
    };
    format!(
        "You are tasked with enriching and contextualizing claims using related information. \
Your goal is to create a comprehensive summary that:\n\n\
1. Preserves ALL important information from the original claims\n\
2. Integrates relevant context from related claims\n\
3. Makes implicit relationships explicit\n\
4. Filters out redundant or irrelevant information\n\n\
The following summaries provide relevant context. Each represents a claim that leads to or \
supports the above claims:\n{}\n\nThe claims to contextualize are:\n{}\n\n\
Produce a summary that:\n\n\
- MUST preserve the complete meaning and all key details of the original claims\n\
- Incorporate relevant context that helps understand or validate the claims\n\
- Make implicit connections explicit (e.g., if context suggests a cause-effect relationship not directly stated)\n\
- Filter out redundant or tangential information from the context\n\
- Use clear, precise language\n\
- Maintain factual accuracy without speculation\n\n\
Focus on enriching the claims while ensuring NO important information is lost. When in \
doubt, include information rather than exclude it.\n\nSummary:",
        list(context),
        list(claims),
    )
}

impl<L: LanguageModel> Summarizer for LlmSummarizer<'_, L> {
    fn name(&self) -> &str {
        self.model.name()
    }

    fn max_input_words(&self) -> usize {
        self.max_words
    }

    async fn summarize(
        &mut self,
        graph: &ClaimGraph,
        question: &str,
        focus: Option<usize>,
        inputs: &[Summary],
    ) -> Result<Summary, ClaimsError> {
        let text_of = |c: usize| graph.claims.get(c).map_or("", |c| c.text.as_str());
        // A merged group has no focus: its inputs are the claims to contextualise.
        let (claims, context): (Vec<&str>, Vec<&str>) = match focus {
            Some(f) => (
                vec![text_of(f)],
                inputs.iter().map(|s| s.text.as_str()).collect(),
            ),
            None => (inputs.iter().map(|s| s.text.as_str()).collect(), Vec::new()),
        };
        let mut sources: Vec<usize> = focus.into_iter().collect();
        for c in inputs.iter().flat_map(|s| s.claims.iter().copied()) {
            if !sources.contains(&c) {
                sources.push(c);
            }
        }
        // A claim with nothing around it is its own summary: no call.
        if focus.is_some() && inputs.is_empty() {
            return Ok(Summary {
                text: claims.concat(),
                claims: sources,
            });
        }
        let prompt = self
            .model
            .chat_prompt(&[Message::new("user", &layerwise_prompt(&claims, &context))])
            .map_err(|e| ClaimsError::Summarizer(e.to_string()))?;
        let settings = Generate {
            max_tokens: self.max_tokens,
            ..Generate::default()
        };
        let written = self
            .model
            .generate(&prompt, &settings, |_| ControlFlow::Continue(()))
            .await
            .map_err(|e| ClaimsError::Summarizer(e.to_string()))?;
        let text = written.text.trim().to_string();
        if text.is_empty() {
            self.fell_back += 1;
            return self
                .fallback
                .summarize(graph, question, focus, inputs)
                .await;
        }
        Ok(Summary {
            text,
            claims: sources,
        })
    }
}

/// At most this many rounds of grouping before the guard cuts inputs instead.
const GUARD_ROUNDS: usize = 4;

/// The summary of `focus` from `inputs`, kept within the summariser's context: while the
/// focus and inputs together are longer than it takes, the inputs are grouped by k-means
/// over their embeddings (a summary's embedding: the mean of its claims'; about twice as
/// many groups as the limit divides the words into) and each group of several inputs is
/// summarised on its own. If grouping stops shrinking them, the inputs are cut to fit,
/// most relevant first.
pub async fn fitted(
    graph: &ClaimGraph,
    question: &str,
    focus: usize,
    mut inputs: Vec<Summary>,
    summarizer: &mut impl Summarizer,
) -> Result<Summary, ClaimsError> {
    let limit = summarizer.max_input_words();
    let focus_words = graph
        .claims
        .get(focus)
        .map_or(0, |c| c.text.split_whitespace().count());
    let total = |inputs: &[Summary]| focus_words + inputs.iter().map(Summary::words).sum::<usize>();
    for _ in 0..GUARD_ROUNDS {
        let words = total(&inputs);
        if words <= limit || inputs.len() < 2 {
            break;
        }
        let k = (2 * words)
            .div_ceil(limit.max(1))
            .clamp(1, inputs.len() - 1);
        let vectors: Vec<Vec<f32>> = inputs
            .iter()
            .map(|s| graph.mean_vector(&s.claims))
            .collect();
        let mut next = Vec::new();
        for group in kmeans(&vectors, k) {
            let members: Vec<Summary> = group.iter().map(|&i| inputs[i].clone()).collect();
            if members.len() == 1 {
                next.extend(members);
            } else {
                for chunk in within(members, limit) {
                    next.push(summarizer.summarize(graph, question, None, &chunk).await?);
                }
            }
        }
        let shrank = total(&next) < words;
        inputs = next;
        if !shrank {
            break;
        }
    }
    if total(&inputs) > limit {
        inputs.sort_by(|a, b| {
            graph
                .mean_relevance(&b.claims)
                .total_cmp(&graph.mean_relevance(&a.claims))
        });
        let mut used = focus_words;
        inputs.retain(|s| {
            used += s.words();
            used <= limit
        });
    }
    summarizer
        .summarize(graph, question, Some(focus), &inputs)
        .await
}

/// Consecutive runs of `members` whose words fit `limit` (a member alone over it stays
/// alone).
fn within(members: Vec<Summary>, limit: usize) -> Vec<Vec<Summary>> {
    let mut chunks: Vec<Vec<Summary>> = Vec::new();
    let mut words = 0;
    for m in members {
        let w = m.words();
        match chunks.last_mut() {
            Some(last) if words + w <= limit => {
                words += w;
                last.push(m);
            }
            _ => {
                words = w;
                chunks.push(vec![m]);
            }
        }
    }
    chunks
}

/// k-means over unit vectors by cosine similarity: deterministic (farthest-point
/// seeding from the first vector, then at most 20 rounds of assignment). Returns the
/// non-empty groups as sorted index lists, ordered by their first index.
pub fn kmeans(vectors: &[Vec<f32>], k: usize) -> Vec<Vec<usize>> {
    let n = vectors.len();
    if n == 0 {
        return Vec::new();
    }
    let k = k.clamp(1, n);
    let mut centres: Vec<Vec<f32>> = vec![vectors[0].clone()];
    while centres.len() < k {
        let far = (0..n)
            .map(|i| {
                let near = centres
                    .iter()
                    .map(|c| cosine(&vectors[i], c))
                    .fold(f32::NEG_INFINITY, f32::max);
                (i, near)
            })
            .min_by(|a, b| a.1.total_cmp(&b.1).then(a.0.cmp(&b.0)));
        match far {
            Some((i, _)) => centres.push(vectors[i].clone()),
            None => break,
        }
    }
    let mut assignment = vec![usize::MAX; n];
    for _ in 0..20 {
        let mut changed = false;
        for (i, v) in vectors.iter().enumerate() {
            let best = (0..centres.len())
                .max_by(|&a, &b| {
                    cosine(v, &centres[a])
                        .total_cmp(&cosine(v, &centres[b]))
                        .then(b.cmp(&a))
                })
                .unwrap_or(0);
            if assignment[i] != best {
                assignment[i] = best;
                changed = true;
            }
        }
        if !changed {
            break;
        }
        for (c, centre) in centres.iter_mut().enumerate() {
            let members: Vec<&Vec<f32>> = vectors
                .iter()
                .zip(&assignment)
                .filter(|(_, &a)| a == c)
                .map(|(v, _)| v)
                .collect();
            if let Some(mean) = mean(&members) {
                *centre = mean;
            }
        }
    }
    let mut groups: Vec<Vec<usize>> = vec![Vec::new(); centres.len()];
    for (i, &a) in assignment.iter().enumerate() {
        if let Some(g) = groups.get_mut(a) {
            g.push(i);
        }
    }
    groups.retain(|g| !g.is_empty());
    groups.sort_by_key(|g| g[0]);
    groups
}

/// The normalised mean of vectors (None when there are none).
pub(crate) fn mean(vectors: &[&Vec<f32>]) -> Option<Vec<f32>> {
    let first = vectors.first()?;
    let mut sum = vec![0f32; first.len()];
    for v in vectors {
        for (s, x) in sum.iter_mut().zip(v.iter()) {
            *s += x;
        }
    }
    let norm = sum.iter().map(|x| x * x).sum::<f32>().sqrt();
    if norm > 0.0 {
        sum.iter_mut().for_each(|x| *x /= norm);
    }
    Some(sum)
}
