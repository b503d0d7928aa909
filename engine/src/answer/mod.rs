//! Answering a question over a document set (CGR §4.3 and Eq. 1–4): extract tuples and
//! build the graph once ([`Prepared`]); per question, parse it, evaluate every condition
//! of the graph for the patient (table L), gate the edges, pick entry nodes by
//! similarity to the keywords, walk the open graph to d_max, rank paths by Eq. 2 plus a
//! condition-match signal, keep the top paths as the evidence package and choose the
//! answer among the candidates those paths support.
//!
//! Without an LLM the answer is chosen deterministically: a candidate is an entity a
//! kept path recommends or lists (or, for "which should be avoided" questions, one it
//! warns against under a condition the patient has); its score is the strength of the
//! supporting relation, a bonus for each of the edge's conditions the patient
//! satisfies, and the path's Eq. 2 similarity. Entities the question itself names, or
//! excludes, are not answers. When nothing survives the result says "insufficient
//! evidence" instead of guessing.

mod around;
mod explain;
mod llm_steps;
mod reader;
mod regate;
mod regional;
pub mod regram_prompts;
mod view;
mod yes_no;

pub use crate::passage::Layout;
pub use around::{around, Around, AroundEdge, AroundNode, EdgeState, NodeRole};
pub use explain::{explanation_messages, explanation_opening};
pub use llm_steps::{condition_messages, query_messages, query_shape, LlmSteps, Verdict};
pub use regate::{described, explore, Exploration, Regated};
pub use view::{BlockedEdge, Citation, ConditionView, EdgeView, EvidencePath};
pub use yes_no::{cue, yes_no, ScoredYesNo, YesNo, YesNoScorer};

use std::collections::{BTreeMap, BTreeSet};
use std::future::Future;
use std::sync::Arc;

use crate::amg;
use crate::claims::{
    claims_of_interest, summarize_layers, Claim, ClaimGraph, ClaimsConfig, Extractive, Interest,
    LayeredSummary,
};
use crate::embed::{cosine, EmbedError, Embedder};
use crate::extract::{Extraction, Extractor};
use crate::gate::{walk, ConditionTable, Gate, GateConfig, Truth, WalkConfig};
use crate::graph::{Diagnostic, EdgeId, KnowledgeGraph, NodeId, Relation, Stance};
use crate::ikr;
use crate::language::{Language, Tag};
use crate::query::{parse, ParsedQuery};
use crate::regram::{Region, RegionConfig, Triple};
use crate::text::{normalize_term, Document};

/// Why a question could not be answered at all (as opposed to "insufficient evidence",
/// which is an answer).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum AnswerError {
    #[error("the question is empty")]
    EmptyQuestion,
    #[error("the question is too long ({0} bytes; at most {MAX_QUESTION_BYTES})")]
    QuestionTooLong(usize),
    #[error(transparent)]
    Embed(#[from] EmbedError),
    /// A model-backed step failed (the device was lost, the output could not be read).
    #[error("{step} failed: {message}")]
    Step { step: &'static str, message: String },
}

/// Questions longer than this are refused: a question is a sentence or two.
pub const MAX_QUESTION_BYTES: usize = 4_000;

/// The knobs of one strategy.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct PipelineConfig {
    /// Evaluate the graph's conditions for the patient and close the edges they rule
    /// out (Eq. 1). Off: every edge is open and no condition is known.
    pub gating: bool,
    /// Add the condition-match signal to path ranking (edges whose conditions the
    /// patient satisfies rank higher). Off: Eq. 2 alone.
    pub condition_match: bool,
    /// k_nodes: entry nodes at most.
    pub k_nodes: usize,
    /// τ: least cosine similarity of an entry node to the keywords.
    pub tau: f32,
    pub walk: WalkConfig,
    /// N: paths kept as evidence.
    pub k_paths: usize,
    /// ReGraM: restrict the evidence to a region of the walked edges chosen by weighted
    /// MMR (with gating on, the region is built from open edges only).
    pub region: Option<RegionConfig>,
    /// AMG: keep only paths whose confidence (the product of their relations' scores,
    /// each a tenth of its 1–10 confidence) is at least this τ, and trace what each
    /// entry node reaches above it.
    pub confidence_tau: Option<f32>,
    /// IKR: restrict the evidence to the subgraph grown from the entry nodes one at a
    /// time (m neighbours kept per hop) until a walked path inside it supports a
    /// candidate answer, and read it out as a multi-level list.
    pub subgraph_m: Option<usize>,
    /// CLAIMS: restrict the evidence to the claims the layered summaries of the claims
    /// of interest are made of (with gating on, from open edges only). The document set
    /// should have had its entities deduplicated first
    /// ([`Prepared::cluster_entities`] at [`ClaimsConfig::dedup`]).
    pub claims: Option<ClaimsConfig>,
    /// How the passage reader takes the documents' lines: as laid out (headings, list
    /// lead-ins and table rows scope what is under them) or flat (the ablation).
    pub layout: Layout,
    /// Whether the passage reader orders its candidates, untyped noun phrases among
    /// them, by the learned ranker ([`crate::passage::rank`]); off, by its own rules
    /// over the typed candidates alone (the ablation).
    pub ranking: bool,
}

impl Default for PipelineConfig {
    fn default() -> Self {
        PipelineConfig {
            gating: true,
            condition_match: true,
            k_nodes: 5,
            tau: 0.1,
            walk: WalkConfig::default(),
            k_paths: 3,
            region: None,
            confidence_tau: None,
            subgraph_m: None,
            claims: None,
            layout: Layout::Structured,
            ranking: true,
        }
    }
}

/// The named strategies of this module.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Strategy {
    /// Gating and the condition-match signal.
    Cgr,
    /// The "w/o gating" ablation: conditions are neither evaluated nor used.
    CgrNoGate,
    /// Gating with the paper's Eq. 2 ranking alone (no condition-match signal).
    CgrNoMatch,
    /// ReGraM's region (weighted MMR over the gated graph's walked edges, K = 15,
    /// λ = 0.7) restricting CGR's evidence and answer.
    Regram,
    /// ReGraM's region over the whole graph, as the paper builds it (no gating).
    RegramNoGate,
    /// AMG's confidence: paths whose relations' confidence product falls below τ = 0.5
    /// are dropped, and each entry node's exploration is traced.
    Amg,
    /// IKR's evidence subgraph (k = m = 5) restricting CGR's evidence, with its
    /// topological readout.
    Ikr,
    /// CLAIMS: claims of interest and their layered (extractive) summaries, the
    /// evidence restricted to the claims the summaries keep.
    Claims,
}

impl Strategy {
    pub const ALL: [Strategy; 8] = [
        Strategy::Cgr,
        Strategy::CgrNoGate,
        Strategy::CgrNoMatch,
        Strategy::Regram,
        Strategy::RegramNoGate,
        Strategy::Amg,
        Strategy::Ikr,
        Strategy::Claims,
    ];

    pub fn name(self) -> &'static str {
        match self {
            Strategy::Cgr => "cgr",
            Strategy::CgrNoGate => "cgr-nogate",
            Strategy::CgrNoMatch => "cgr-nomatch",
            Strategy::Regram => "regram",
            Strategy::RegramNoGate => "regram-nogate",
            Strategy::Amg => "amg",
            Strategy::Ikr => "ikr",
            Strategy::Claims => "claims",
        }
    }

    pub fn from_name(name: &str) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.name() == name)
    }

    /// The named strategy whose knobs these are, if any.
    pub fn of(config: &PipelineConfig) -> Option<Strategy> {
        Strategy::ALL.into_iter().find(|s| s.config() == *config)
    }

    pub fn config(self) -> PipelineConfig {
        let base = PipelineConfig::default();
        match self {
            Strategy::Cgr => base,
            Strategy::CgrNoGate => PipelineConfig {
                gating: false,
                condition_match: false,
                ..base
            },
            Strategy::CgrNoMatch => PipelineConfig {
                condition_match: false,
                ..base
            },
            Strategy::Regram => PipelineConfig {
                region: Some(RegionConfig::default()),
                ..base
            },
            Strategy::RegramNoGate => PipelineConfig {
                gating: false,
                condition_match: false,
                region: Some(RegionConfig::default()),
                ..base
            },
            Strategy::Amg => PipelineConfig {
                confidence_tau: Some(amg::DEFAULT_TAU),
                ..base
            },
            Strategy::Ikr => PipelineConfig {
                subgraph_m: Some(ikr::M),
                ..base
            },
            Strategy::Claims => PipelineConfig {
                claims: Some(ClaimsConfig::default()),
                ..base
            },
        }
    }
}

/// A document set read once: the graph is immutable and shared by every question.
#[derive(Debug, Clone)]
pub struct Prepared {
    pub docs: Vec<Document>,
    pub extraction: Extraction,
    pub graph: KnowledgeGraph,
    pub diagnostics: Vec<Diagnostic>,
    /// The linguistic base (tags, noun phrases, drug names) when the host loaded it;
    /// without it readers fall back to splitting at punctuation and function words.
    pub language: Option<Arc<Language>>,
}

impl Prepared {
    pub fn new(docs: Vec<Document>, extractor: &impl Extractor) -> Prepared {
        let extraction = extractor.extract(&docs);
        Self::assemble(docs, extraction)
    }

    /// The document set from an extraction made earlier of the same documents (a cache
    /// keeps them so a document set is read once). `None` when the extraction does not
    /// fit the documents: a span past a document's end or off a character boundary.
    pub fn from_extraction(docs: Vec<Document>, extraction: Extraction) -> Option<Prepared> {
        let fits = |span: &crate::text::Span| {
            docs.get(span.doc)
                .is_some_and(|d| d.text.get(span.range.clone()).is_some())
        };
        let spans_fit = extraction.tuples.iter().all(|t| fits(&t.evidence))
            && extraction
                .diagnostics
                .iter()
                .all(|d| d.evidence.as_ref().is_none_or(fits));
        spans_fit.then(|| Self::assemble(docs, extraction))
    }

    /// The same document set read with the linguistic base.
    pub fn with_language(mut self, language: Arc<Language>) -> Prepared {
        self.language = Some(language);
        self
    }

    /// The citation of a span of these documents (`None` when it does not fit them).
    pub fn cite(&self, span: &crate::text::Span) -> Option<Citation> {
        view::citation(self, span)
    }

    fn assemble(docs: Vec<Document>, extraction: Extraction) -> Prepared {
        let (graph, diagnostics) = extraction.graph();
        Prepared {
            docs,
            extraction,
            graph,
            diagnostics,
            language: None,
        }
    }
}

impl Prepared {
    /// Merges entities whose names embed within `threshold` cosine similarity of each
    /// other (UPGMA, average linkage; CLAIMS uses 0.8) and rebuilds the graph. Numeric
    /// names (mostly digits, [`crate::claims::is_numeric`]) are never merged: "CD4 200" and
    /// "CD4 350" embed alike but are different facts. Returns how many names joined
    /// another entity.
    pub async fn cluster_entities(
        &mut self,
        embedder: &mut impl Embedder,
        threshold: f32,
    ) -> Result<usize, EmbedError> {
        let labels: Vec<String> = self
            .graph
            .nodes()
            .filter_map(|n| self.graph.entity(n).map(|e| e.label.clone()))
            .filter(|l| !crate::claims::is_numeric(l))
            .collect();
        if labels.len() < 2 {
            return Ok(0);
        }
        let vectors = embedder.embed(&labels).await?;
        let mut merged = 0;
        for cluster in crate::embed::upgma(&vectors, threshold) {
            if let Some((&first, rest)) = cluster.split_first() {
                for &other in rest {
                    self.extraction
                        .aliases
                        .push((labels[first].clone(), labels[other].clone()));
                    merged += 1;
                }
            }
        }
        if merged > 0 {
            let (graph, diagnostics) = self.extraction.graph();
            self.graph = graph;
            self.diagnostics = diagnostics;
        }
        Ok(merged)
    }
}

/// What the answer is.
#[derive(Debug, Clone, PartialEq)]
pub enum Outcome {
    Answered(String),
    /// No kept path supports any candidate.
    InsufficientEvidence,
}

/// Where an answer came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AnswerSource {
    /// A candidate on the kept paths of the gated graph.
    Paths,
    /// No candidate on the paths: the phrase the most similar sentences share.
    Sentences,
    /// Nothing to answer from.
    None,
}

/// A scored candidate answer.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    pub node: NodeId,
    pub label: String,
    pub score: f32,
}

/// An answer with everything needed to show and check it.
#[derive(Debug, Clone)]
pub struct Answer {
    pub outcome: Outcome,
    /// Where the answer came from.
    pub source: AnswerSource,
    /// For an answer read from sentences: those sentences.
    pub read_from: Vec<Citation>,
    pub query: ParsedQuery,
    /// The condition table L: every condition phrase of the graph with its truth.
    pub conditions: Vec<(String, Truth)>,
    pub entries: Vec<String>,
    /// The top-N paths (Eq. 3), best first.
    pub evidence: Vec<EvidencePath>,
    /// Every edge the gate closed, with the condition that closed it.
    pub blocked: Vec<BlockedEdge>,
    /// Candidates best first.
    pub candidates: Vec<Candidate>,
    /// How many paths the walk found, and whether it stopped early.
    pub paths_found: usize,
    pub walk_truncated: bool,
    /// ReGraM's region and mode, when the strategy builds one.
    pub region: Option<Region>,
    /// AMG's per-term exploration traces (entry nodes), when the strategy traces them.
    pub traces: Vec<amg::TraceView>,
    /// IKR's topological readout of the evidence subgraph ("2.1. amoxicillin"), and how
    /// many retrieved entities it took to be sufficient.
    pub readout: Vec<String>,
    pub entities_used: usize,
    /// CLAIMS' claims, claims of interest and layered summaries, when the strategy
    /// makes them.
    pub claims: Option<ClaimsOutcome>,
}

/// What CLAIMS made for one question.
#[derive(Debug, Clone, PartialEq)]
pub struct ClaimsOutcome {
    /// Every claim of the (gated) graph, relevance set.
    pub claims: Vec<Claim>,
    /// Claims of interest, best first.
    pub interests: Vec<Interest>,
    /// One layered summary per claim of interest, in the same order.
    pub summaries: Vec<LayeredSummary>,
    /// Who wrote the summaries ("extractive").
    pub summarizer: String,
}

impl Answer {
    pub fn text(&self) -> Option<&str> {
        match &self.outcome {
            Outcome::Answered(t) => Some(t),
            Outcome::InsufficientEvidence => None,
        }
    }
}

fn claims_error(e: crate::claims::ClaimsError) -> AnswerError {
    match e {
        crate::claims::ClaimsError::Embed(e) => AnswerError::Embed(e),
        other => AnswerError::Step {
            step: "summarising claims",
            message: other.to_string(),
        },
    }
}

/// Weight of one satisfied condition against relation strength (1–3).
const MATCH_WEIGHT: f32 = 4.0;

/// A best candidate scoring below this (a mere listing: no preference, no condition of
/// the patient) lets the sentence reader answer instead when it finds the kind of thing
/// the question asks for.
const WEAK_CANDIDATE: f32 = 2.0;

/// Weight of each further statement supporting a candidate (at most two count).
const CORROBORATION_WEIGHT: f32 = 0.5;

/// Answers `question` over a prepared document set.
pub async fn answer(
    prepared: &Prepared,
    question: &str,
    config: &PipelineConfig,
    embedder: &mut impl Embedder,
) -> Result<Answer, AnswerError> {
    answer_with(prepared, question, config, embedder, &mut RuleSteps).await
}

/// The question-side steps a language model can take over: query parsing (CGR
/// §4.2.1) and the single-pass evaluation of every graph condition for the patient
/// (§4.2.2). [`RuleSteps`] does both without a model.
pub trait QuestionSteps {
    fn parse(&mut self, question: &str) -> impl Future<Output = Result<ParsedQuery, AnswerError>>;

    /// The table L for `phrases`; a phrase left out is unknown.
    fn evaluate(
        &mut self,
        query: &ParsedQuery,
        phrases: &[String],
    ) -> impl Future<Output = Result<ConditionTable, AnswerError>>;

    /// ReGraM's HYBRID mode (its Prompt 3): triples that may complete a hop whose
    /// region holds `facts`, over the region's `entities` and the schema's `relations`
    /// only. The Reviewer checks each before it counts. None without a model.
    fn hypothesize(
        &mut self,
        hop: &str,
        facts: &[String],
        entities: &[String],
        relations: &[String],
    ) -> impl Future<Output = Result<Vec<Triple>, AnswerError>> {
        let _ = (hop, facts, entities, relations);
        async { Ok(Vec::new()) }
    }

    /// The Reviewer loop's revision of a rejected triple (ReGraM's Prompt 4), after the
    /// graph had none to offer. None without a model.
    fn revise(
        &mut self,
        triple: &Triple,
        question: &str,
        relations: &[String],
    ) -> impl Future<Output = Result<Option<Triple>, AnswerError>> {
        let _ = (triple, question, relations);
        async { Ok(None) }
    }

    /// ReGraM's LLM-GUESS mode (its Prompt 7): an answer to a hop no document speaks
    /// to, from general knowledge, beginning with "Based on general knowledge". None
    /// without a model.
    fn guess(&mut self, hop: &str) -> impl Future<Output = Result<Option<String>, AnswerError>> {
        let _ = hop;
        async { Ok(None) }
    }
}

/// Query parsing by rules and condition evaluation by the lexicon ([`crate::patient`]).
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleSteps;

impl QuestionSteps for RuleSteps {
    async fn parse(&mut self, question: &str) -> Result<ParsedQuery, AnswerError> {
        Ok(parse(question))
    }

    async fn evaluate(
        &mut self,
        query: &ParsedQuery,
        phrases: &[String],
    ) -> Result<ConditionTable, AnswerError> {
        Ok(query.patient.table(phrases.iter().map(String::as_str)))
    }
}

/// [`answer`] with the question-side steps given.
pub async fn answer_with(
    prepared: &Prepared,
    question: &str,
    config: &PipelineConfig,
    embedder: &mut impl Embedder,
    steps: &mut impl QuestionSteps,
) -> Result<Answer, AnswerError> {
    let question = question.trim();
    if question.is_empty() {
        return Err(AnswerError::EmptyQuestion);
    }
    if question.len() > MAX_QUESTION_BYTES {
        return Err(AnswerError::QuestionTooLong(question.len()));
    }
    let graph = &prepared.graph;
    let mut query = steps.parse(question).await?;
    if let Some(language) = &prepared.language {
        query.patient.learn_kinds(&language.drugs, question);
    }
    let table = if config.gating {
        steps.evaluate(&query, graph.condition_phrases()).await?
    } else {
        ConditionTable::new()
    };
    let gate = Gate::new(
        graph,
        &table,
        GateConfig {
            enabled: config.gating,
        },
    );
    let conditions: Vec<(String, Truth)> = graph
        .condition_phrases()
        .iter()
        .enumerate()
        .map(|(i, p)| (p.clone(), gate.truth(crate::graph::ConditionId(i as u32))))
        .collect();
    let blocked = gate
        .blocked()
        .into_iter()
        .filter_map(|e| view::blocked_edge(prepared, &gate, e))
        .collect();

    // Entry nodes: labels most similar to the keywords (above τ).
    let keywords: Vec<String> = if query.keywords.is_empty() {
        vec![question.to_string()]
    } else {
        query.keywords.clone()
    };
    let nodes: Vec<NodeId> = graph.nodes().collect();
    let mut texts: Vec<String> = nodes
        .iter()
        .map(|&n| graph.entity(n).map(|e| e.label.clone()).unwrap_or_default())
        .collect();
    texts.push(keywords.join(" "));
    texts.extend(keywords.iter().cloned());
    let vectors = embedder.embed(&texts).await?;
    let (node_vecs, rest) = vectors.split_at(nodes.len().min(vectors.len()));
    let (query_vec, keyword_vecs) = rest
        .split_first()
        .map_or((&[][..], &[][..]), |(q, k)| (q.as_slice(), k));
    let mut by_similarity: Vec<(NodeId, f32)> = nodes
        .iter()
        .zip(node_vecs)
        .map(|(&n, v)| (n, cosine(v, query_vec)))
        .filter(|(_, s)| *s >= config.tau)
        .collect();
    by_similarity.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
    by_similarity.truncate(config.k_nodes);
    let mut entries: Vec<NodeId> = by_similarity.iter().map(|(n, _)| *n).collect();
    // Fewer than k_nodes labels close enough to the keywords: fill up with the
    // indications the documents recommend for (the hubs of the graph), most similar
    // first, so that the options are reached even when the text names the indication
    // differently from the question.
    if entries.len() < config.k_nodes {
        let mut indications: Vec<(NodeId, f32)> = nodes
            .iter()
            .zip(node_vecs)
            .filter(|(&n, _)| is_indication(graph, n))
            .map(|(&n, v)| (n, cosine(v, query_vec)))
            .collect();
        indications.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.0.cmp(&b.0)));
        for (n, _) in indications {
            if entries.len() >= config.k_nodes {
                break;
            }
            if !entries.contains(&n) {
                entries.push(n);
            }
        }
    }

    // A question about what to avoid starts also from the conditions the patient has
    // that something is contraindicated in: the warning is one hop from them.
    if query.asks_to_avoid {
        for edge in graph.edges() {
            let Some(e) = graph.edge(edge) else { continue };
            let holds = e
                .conditions
                .iter()
                .any(|&(id, neg)| !neg && gate.truth(id) == Truth::True);
            if e.relation == Relation::ContraindicatedIn && holds && gate.is_open(edge) {
                if let Some((_, condition)) = graph.endpoints(edge) {
                    if !entries.contains(&condition) {
                        entries.push(condition);
                    }
                }
            }
        }
    }
    let mut outcome = walk(graph, &gate, &entries, config.walk);

    // IKR: grow the evidence subgraph from the entry nodes in rank order until a walked
    // path inside it supports a candidate answer (the sufficiency check, without the
    // paper's trained classifier); only paths inside it remain.
    let mut readout = Vec::new();
    let mut entities_used = 0;
    if let Some(m) = config.subgraph_m {
        // A neighbour's relevance: the question against the triple that reaches it.
        let mut near: BTreeSet<EdgeId> = BTreeSet::new();
        for &e in entries.iter().take(ikr::K) {
            for (edge, n, _) in graph.incident(e) {
                near.insert(edge);
                near.extend(graph.incident(n).map(|(x, _, _)| x));
            }
        }
        let near: Vec<EdgeId> = near.into_iter().collect();
        let texts: Vec<String> = near
            .iter()
            .map(|&e| graph.describe(e).unwrap_or_default())
            .collect();
        let vecs = embedder.embed(&texts).await?;
        let mut relevance: BTreeMap<(NodeId, NodeId), f32> = BTreeMap::new();
        for (edge, v) in near.iter().zip(&vecs) {
            if let Some((u, w)) = graph.endpoints(*edge) {
                let s = cosine(query_vec, v);
                for key in [(u, w), (w, u)] {
                    let slot = relevance.entry(key).or_insert(f32::NEG_INFINITY);
                    *slot = slot.max(s);
                }
            }
        }
        let score = |a: NodeId, b: NodeId| relevance.get(&(a, b)).copied().unwrap_or(-1.0);
        let inside = |kept: &BTreeSet<NodeId>, p: &crate::gate::Path| {
            kept.contains(&p.start) && p.steps.iter().all(|s| kept.contains(&s.to))
        };
        let mut kept: BTreeSet<NodeId> = BTreeSet::new();
        for &top in entries.iter().take(ikr::K) {
            kept.extend(ikr::expand(graph, &gate, top, score, m).nodes());
            entities_used += 1;
            // Sufficient: a path inside the subgraph supports a candidate answer.
            let sufficient = outcome.paths.iter().any(|p| {
                inside(&kept, p)
                    && p.steps
                        .iter()
                        .any(|s| support(graph, &gate, s.edge, &query, config).is_some())
            });
            if sufficient {
                break;
            }
        }
        outcome.paths.retain(|p| inside(&kept, p));
        if let Some(&root) = entries.first() {
            let neighbours = |n: NodeId| -> Vec<NodeId> {
                let mut v: Vec<NodeId> = graph
                    .incident(n)
                    .filter(|&(edge, to, _)| gate.is_open(edge) && kept.contains(&to))
                    .map(|(_, to, _)| to)
                    .collect();
                v.sort_by(|a, b| score(n, *b).total_cmp(&score(n, *a)).then(a.cmp(b)));
                v.dedup();
                v
            };
            readout = ikr::readout(root, neighbours)
                .into_iter()
                .map(|(n, index)| {
                    let label = graph.entity(n).map(|e| e.label.clone()).unwrap_or_default();
                    match index.is_empty() {
                        true => label,
                        false => format!("{index} {label}"),
                    }
                })
                .collect();
        }
    }

    // AMG: each edge's score is the confidence of its best-stated sentence; paths whose
    // product falls below τ go, and each entry node's exploration is traced.
    let mut traces = Vec::new();
    if let Some(tau) = config.confidence_tau {
        let score = |edge: EdgeId| amg::edge_score(graph, &prepared.docs, edge);
        outcome
            .paths
            .retain(|p| p.steps.iter().map(|s| score(s.edge)).product::<f32>() >= tau);
        traces = entries
            .iter()
            .map(|&n| amg::explore(graph, &gate, n, score, tau, config.walk.max_depth).view(graph))
            .collect();
    }

    // CLAIMS: the claims of the open graph, the claims of interest and their layered
    // summaries; only paths made of claims the summaries keep remain.
    let mut claims_outcome = None;
    if let Some(claims_config) = config.claims {
        let mut claim_graph = ClaimGraph::new(graph, |e| gate.is_open(e));
        let question_vec = claim_graph
            .score(question, embedder)
            .await
            .map_err(AnswerError::Embed)?;
        let mut summarizer = Extractive::new(question_vec.clone(), claims_config.summary_claims);
        let interests = claims_of_interest(
            &claim_graph,
            question,
            &question_vec,
            &claims_config,
            &mut summarizer,
            embedder,
        )
        .await
        .map_err(claims_error)?;
        let mut summaries = Vec::with_capacity(interests.len());
        for interest in &interests {
            summaries.push(
                summarize_layers(&claim_graph, question, interest.claim, &mut summarizer)
                    .await
                    .map_err(claims_error)?,
            );
        }
        let kept: BTreeSet<EdgeId> = summaries
            .iter()
            .filter_map(LayeredSummary::summary)
            .flat_map(|s| s.claims.iter())
            .filter_map(|&c| claim_graph.claims.get(c).map(|c| c.edge))
            .collect();
        outcome
            .paths
            .retain(|p| p.steps.iter().all(|s| kept.contains(&s.edge)));
        claims_outcome = Some(ClaimsOutcome {
            claims: claim_graph.claims,
            interests,
            summaries,
            summarizer: "extractive".into(),
        });
    }

    // ReGraM: the walked edges are the candidate triples; each hop's region keeps the
    // top K around what the previous hop reached, by weighted MMR against the hop's
    // sub-question, and only paths inside their union remain.
    let region = match config.region {
        None => None,
        Some(region_config) => {
            let mut walked: Vec<EdgeId> = outcome
                .paths
                .iter()
                .flat_map(|p| p.steps.iter().map(|s| s.edge))
                .collect();
            walked.sort();
            walked.dedup();
            let region = regional::build(
                prepared,
                &gate,
                &query,
                question,
                &walked,
                &entries,
                &region_config,
                embedder,
                steps,
            )
            .await?;
            let kept: BTreeSet<EdgeId> = region.edges.iter().copied().collect();
            outcome
                .paths
                .retain(|p| p.steps.iter().all(|s| kept.contains(&s.edge)));
            Some(region)
        }
    };

    // Rank paths: Eq. 2 (mean cosine of the linearised path to each keyword) plus the
    // condition-match signal.
    let path_texts: Vec<String> = outcome
        .paths
        .iter()
        .map(|p| view::linearise(graph, p))
        .collect();
    let path_vecs = embedder.embed(&path_texts).await?;
    let mut ranked: Vec<(usize, f32, f32)> = outcome
        .paths
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let sim = path_vecs
                .get(i)
                .map(|v| {
                    keyword_vecs.iter().map(|k| cosine(v, k)).sum::<f32>()
                        / keyword_vecs.len().max(1) as f32
                })
                .unwrap_or(0.0);
            let matched = if config.condition_match {
                p.steps
                    .iter()
                    .map(|s| matched_conditions(graph, &gate, s.edge))
                    .sum::<f32>()
            } else {
                0.0
            };
            (i, sim, sim + MATCH_WEIGHT * matched)
        })
        .collect();
    ranked.sort_by(|a, b| b.2.total_cmp(&a.2).then(a.0.cmp(&b.0)));

    // Candidates over every kept path, then the evidence package: the best path of each
    // of the top candidates first, then the next best paths, up to N.
    let question_key = format!(" {} ", normalize_term(question));
    let negated: Vec<String> = query.negated.iter().map(|n| normalize_term(n)).collect();
    let question_words = content_words(question);
    let mut scores: BTreeMap<NodeId, (f32, usize, crate::graph::EdgeId)> = BTreeMap::new();
    let mut supports: BTreeMap<NodeId, BTreeSet<crate::graph::EdgeId>> = BTreeMap::new();
    for &(i, sim, _) in &ranked {
        let path = &outcome.paths[i];
        for step in &path.steps {
            let Some((node, value)) = support(graph, &gate, step.edge, &query, config) else {
                continue;
            };
            let Some(entity) = graph.entity(node) else {
                continue;
            };
            if question_key.contains(&format!(" {} ", entity.key))
                || negated.contains(&entity.key)
                || restates(&entity.key, &question_words)
            {
                continue;
            }
            supports.entry(node).or_default().insert(step.edge);
            let score = value + sim;
            let slot = scores.entry(node).or_insert((f32::MIN, i, step.edge));
            if score > slot.0 {
                *slot = (score, i, step.edge);
            }
        }
    }
    // Corroboration: an entity several statements support ranks above one that only one
    // statement of equal strength supports.
    for (node, slot) in scores.iter_mut() {
        let extra = supports
            .get(node)
            .map_or(0, |s| s.len().saturating_sub(1))
            .min(2);
        slot.0 += CORROBORATION_WEIGHT * extra as f32;
    }
    // A candidate warned against under a condition the patient has is not recommended,
    // whatever else recommends it (the gate's verdict applies to the entity).
    if config.gating && !query.asks_to_avoid {
        scores.retain(|&node, _| !warned_for_patient(graph, &gate, node));
    }
    let mut candidates: Vec<Candidate> = scores
        .iter()
        .map(|(&node, &(score, _, edge))| Candidate {
            node,
            label: answer_surface(prepared, node, question, Some(edge)),
            score,
        })
        .filter(|c| names_something(&c.label))
        .collect();
    candidates.sort_by(|a, b| b.score.total_cmp(&a.score).then(a.node.cmp(&b.node)));
    if query.asks_to_avoid {
        prefer_members(prepared, &mut candidates, question);
    }
    prefer_named_option(prepared, &gate, &mut candidates, question);

    let mut chosen: Vec<usize> = Vec::new();
    for c in candidates.iter().take(config.k_paths) {
        if let Some(&(_, i, _)) = scores.get(&c.node) {
            if !chosen.contains(&i) {
                chosen.push(i);
            }
        }
    }
    for &(i, _, _) in &ranked {
        if chosen.len() >= config.k_paths {
            break;
        }
        if !chosen.contains(&i) {
            chosen.push(i);
        }
    }
    let rank_score: BTreeMap<usize, f32> = ranked.iter().map(|&(i, _, s)| (i, s)).collect();
    let evidence = chosen
        .iter()
        .filter_map(|&i| {
            view::evidence_path(
                prepared,
                &gate,
                &outcome.paths[i],
                rank_score.get(&i).copied().unwrap_or(0.0),
            )
        })
        .collect();
    let mut source = AnswerSource::Paths;
    let mut read_from = Vec::new();
    // A weak best candidate (only listed, no preference, no condition of the patient)
    // or none: read the sentences too, never those that support a blocked edge or
    // state a warning, and take the reading when it names the kind of thing asked for.
    let weak = match candidates.first() {
        None => true,
        // A warned-against candidate answers an avoid-question however weakly.
        Some(c) => c.score < WEAK_CANDIDATE && !query.asks_to_avoid,
    };
    let reading = if weak {
        let excluded: Vec<crate::text::Span> = graph
            .edges()
            .filter(|&e| {
                !gate.is_open(e)
                    || graph
                        .edge(e)
                        .is_some_and(|d| d.relation.stance() == Stance::WarnsAgainst)
            })
            .filter_map(|e| graph.edge(e))
            .flat_map(|d| d.evidence.iter().cloned())
            .collect();
        reader::read(prepared, &query, question, &excluded, embedder)
            .await?
            .filter(|r| candidates.is_empty() || r.typed)
    } else {
        None
    };
    // Real documents: the passage reader, which reads their structure and the patient's
    // population, answers when the graph's answer is weak, is not of the asked shape, or
    // is not what the documents say for a patient like this one.
    // "Bile acid sequestrants … colesevelam is the preferred agent": where the graph
    // answers with a class, the member of it the reader finds for the patient.
    let mut member_of_class: Option<String> = None;
    let passage = match &prepared.language {
        Some(language) => {
            // What the gate blocked stays blocked: its options are ruled out for the
            // reader too.
            // An option is ruled out for the patient by an edge that a condition
            // excluding people like them closes ("adolescents and adults who are not
            // pregnant", "not in pregnancy"); an edge for a population the patient is
            // not in ("men who have sex with men") says nothing against its option.
            let excludes = |e: EdgeId| {
                gate.blocked_by(graph, e).is_some_and(|(id, negated)| {
                    negated
                        || graph
                            .condition_phrases()
                            .get(id.0 as usize)
                            .is_some_and(|p| crate::patient::negates(p))
                })
            };
            let ruled_out: Vec<(String, crate::text::Span)> = gate
                .blocked()
                .into_iter()
                .filter(|&e| excludes(e))
                .filter_map(|e| {
                    let (_, option) = graph.endpoints(e)?;
                    let span = graph.edge(e)?.evidence.first()?.clone();
                    Some((graph.entity(option)?.key.clone(), span))
                })
                .collect();
            crate::passage::read(
                &prepared.docs,
                config.layout,
                language,
                question,
                &query,
                // The patient as the table has it: a condition the user flipped (or
                // a language model evaluated) counts for the reader as for the gate.
                config
                    .gating
                    .then(|| query.patient.revised(&table))
                    .as_ref(),
                &ruled_out,
            )
            .map(|mut r| {
                if config.ranking {
                    crate::passage::rank::Ranker::shipped().rank(language, &mut r);
                }
                r
            })
            .and_then(|r| {
                if let Some(c) = candidates.first() {
                    member_of_class = member_for_patient(language, &r, &c.label);
                }
                let graph_answer = match (weak, candidates.first()) {
                    (false, Some(c)) => Some(crate::passage::Other {
                        text: &c.label,
                        // A condition of the patient's supports it.
                        for_patient: supports.get(&c.node).is_some_and(|edges| {
                            edges
                                .iter()
                                .any(|&e| matched_conditions(graph, &gate, e) > 0.0)
                        }),
                    }),
                    _ => None,
                };
                let asked = r.asked.clone();
                r.instead_of(language, graph_answer, query.asks_to_avoid)
                    // A phrase nothing types as the asked kind is the weakest answer
                    // there is: it answers only where the graph has no candidate at all.
                    // … or where it names the graph's answer more fully, as its head.
                    .filter(|c| {
                        c.typed != crate::passage::Typed::Phrase
                            || candidates.first().is_none_or(|g| {
                                let label = normalize_term(&g.label);
                                let text = normalize_term(&c.text);
                                !label.is_empty() && text.ends_with(&format!(" {label}"))
                            })
                    })
                    .cloned()
                    .map(|c| (c, asked))
            })
        }
        None => None,
    };
    let result = match (passage, reading, candidates.first()) {
        (Some((p, asked)), _, _) => {
            source = AnswerSource::Sentences;
            read_from = p
                .support
                .iter()
                .take(3)
                .filter_map(|span| view::citation(prepared, span))
                .collect();
            // A thing's span may open with an adverb or determiner; an amount's, a
            // time's or a schedule's opens with what it says ("once weekly").
            Outcome::Answered(match asked {
                crate::passage::Asked::Thing { head, plural } => {
                    let text = clean_start(prepared, &p.text);
                    let text = without_result(&text, &head);
                    if plural {
                        text
                    } else {
                        one_of_acronym(&text)
                    }
                }
                // "How should saturation be assessed?" → "with CO-oximetry": the means
                // of examining is the test itself ("with food" says how a drug is
                // taken, and keeps its preposition).
                crate::passage::Asked::Manner { verb, .. }
                    if crate::passage::asked::examines(&verb) =>
                {
                    without_means(&p.text)
                }
                _ => p.text.clone(),
            })
        }
        (None, reading, first) => match (reading, first) {
            (Some(r), _) => {
                source = AnswerSource::Sentences;
                read_from = r
                    .sentences
                    .iter()
                    .filter_map(|span| view::citation(prepared, span))
                    .collect();
                let text = strip_type(
                    &clean_start(prepared, &strip_given(&r.phrase, question)),
                    query.answer_type.as_deref(),
                );
                Outcome::Answered(number_agreement(&text, query.answer_type.as_deref()))
            }
            (None, Some(c)) => Outcome::Answered(match member_of_class {
                Some(member) => member,
                None => {
                    let name = whole_name(prepared, &c.label);
                    // (Its case as the label has it: the documents' first mention may
                    // open a sentence.)
                    let written = as_written(prepared, &name)
                        .filter(|w| w.to_lowercase() != name.to_lowercase())
                        .unwrap_or(name);
                    number_agreement(&written, query.answer_type.as_deref())
                }
            }),
            (None, None) => {
                source = AnswerSource::None;
                Outcome::InsufficientEvidence
            }
        },
    };
    let result = match result {
        Outcome::Answered(text) => Outcome::Answered(without_footnote(&text)),
        other => other,
    };
    Ok(Answer {
        outcome: result,
        source,
        read_from,
        query,
        conditions,
        entries: entries
            .iter()
            .filter_map(|&n| graph.entity(n).map(|e| e.label.clone()))
            .collect(),
        evidence,
        blocked,
        candidates,
        paths_found: outcome.paths.len(),
        walk_truncated: outcome.truncated,
        region,
        traces,
        readout,
        entities_used,
        claims: claims_outcome,
    })
}

/// The one member of the class `label` names (a plural, or a class by the lexicon) that
/// the reading finds for the patient and no warning rules out: the answer is the most
/// specific name the documents give.
fn member_for_patient(
    language: &crate::language::Language,
    reading: &crate::passage::Reading,
    label: &str,
) -> Option<String> {
    let words = crate::text::lower_words(label);
    let last = words.last()?;
    let class = crate::text::singular(last) != *last
        || language.drugs.lookup(label).is_some_and(|d| d.is_class());
    if !class {
        return None;
    }
    let head = crate::passage::asked::stem(last);
    let members: Vec<&crate::passage::Candidate> = reading
        .typed()
        .filter(|c| c.for_patient && c.blocked_by.is_none() && c.score > 0.0)
        .filter(|c| crate::passage::asked::in_class(language, &c.text, &head) == Some(true))
        .collect();
    match members.as_slice() {
        [one] => Some(one.text.clone()),
        _ => None,
    }
}

/// How many of an edge's conditions the patient satisfies (a condition that must hold
/// and does, or one that must not hold and does not).
///
/// Each satisfied condition counts more the more specific it is: "patients with type 2
/// diabetes and heart failure" says more about this patient than "patients with type 2
/// diabetes" (1 plus a tenth per content word, at most 2).
fn matched_conditions(graph: &KnowledgeGraph, gate: &Gate, edge: crate::graph::EdgeId) -> f32 {
    graph.edge(edge).map_or(0.0, |e| {
        e.conditions
            .iter()
            .filter(|&&(id, negated)| !negated && gate.truth(id) == Truth::True)
            .map(|&(id, _)| {
                let words = graph.condition_phrases().get(id.0 as usize).map_or(0, |p| {
                    content_words(p)
                        .iter()
                        .filter(|w| !CONDITION_FILLER.contains(&w.as_str()))
                        .count()
                });
                // A condition of no content of its own ("women", "adults") holds of
                // half the patients there are and says little about this one.
                match words {
                    0 => 0.5,
                    n => 1.0 + (0.1 * n as f32).min(1.0),
                }
            })
            .sum()
    })
}

/// Words of a condition phrase that do not make it more specific.
const CONDITION_FILLER: &[&str] = &[
    "patients", "patient", "people", "women", "woman", "men", "adults", "those", "with", "who",
    "the", "and", "most", "for", "taking", "in", "during", "are", "have", "has",
];

/// The candidate an edge supports and how strongly, for this question.
fn support(
    graph: &KnowledgeGraph,
    gate: &Gate,
    edge: crate::graph::EdgeId,
    query: &ParsedQuery,
    config: &PipelineConfig,
) -> Option<(NodeId, f32)> {
    let e = graph.edge(edge)?;
    let (u, v) = graph.endpoints(edge)?;
    let matched = if config.condition_match {
        matched_conditions(graph, gate, edge)
    } else {
        0.0
    };
    let strength = match e.relation {
        Relation::PreferredTreatment | Relation::PreferredTest => 3.0,
        Relation::TreatedBy | Relation::DiagnosedBy | Relation::Replaces => 2.0,
        Relation::AlternativeTreatment | Relation::SafeIn => 1.0,
        _ => 0.0,
    };
    if query.asks_to_avoid {
        if e.relation == Relation::ContraindicatedIn {
            // The warning must be about this patient when conditions are known.
            let holds = e
                .conditions
                .iter()
                .any(|&(id, neg)| !neg && gate.truth(id) == Truth::True);
            // The more specific the patient's condition it warns of, the more it is
            // this patient's warning.
            let value = if holds {
                3.0 + MATCH_WEIGHT * matched
            } else {
                1.0
            };
            return Some((u, value));
        }
        return None;
    }
    match e.relation.stance() {
        Stance::Recommends | Stance::Lists if strength > 0.0 => {
            Some((v, strength + MATCH_WEIGHT * matched))
        }
        _ => None,
    }
}

/// Whether the node has an open warning whose condition the patient has.
fn warned_for_patient(graph: &KnowledgeGraph, gate: &Gate, node: NodeId) -> bool {
    graph.incident(node).any(|(edge, _, outgoing)| {
        outgoing
            && gate.is_open(edge)
            && graph.edge(edge).is_some_and(|e| {
                e.relation == Relation::ContraindicatedIn
                    && e.conditions
                        .iter()
                        .any(|&(id, neg)| !neg && gate.truth(id) == Truth::True)
            })
    })
}

/// For "which X should be avoided": a class warned against answers with its member that
/// the documents list as an option ("SERMs" → "raloxifene").
fn prefer_members(prepared: &Prepared, candidates: &mut [Candidate], question: &str) {
    let graph = &prepared.graph;
    for c in candidates.iter_mut() {
        let member = graph.incident(c.node).find_map(|(edge, other, outgoing)| {
            let e = graph.edge(edge)?;
            (!outgoing && e.relation == Relation::IsA && is_option(graph, other)).then_some(other)
        });
        if let Some(m) = member {
            c.node = m;
            c.label = answer_surface(prepared, m, question, None);
        }
    }
}

/// "dobutamine … is used as the stressor" answers with the option the documents list
/// under that name, "dobutamine stress echocardiography": a candidate whose name is
/// the first words of a listed option's name, or of another candidate's ("Trimethoprim
/// is itself …" for "trimethoprim-sulfamethoxazole"), stands for that one.
fn prefer_named_option(
    prepared: &Prepared,
    gate: &Gate,
    candidates: &mut [Candidate],
    question: &str,
) {
    let graph = &prepared.graph;
    let nodes: Vec<NodeId> = candidates.iter().map(|c| c.node).collect();
    for c in candidates.iter_mut().take(1) {
        let Some(key) = graph.entity(c.node).map(|e| format!("{} ", e.key)) else {
            continue;
        };
        let option = graph.nodes().find(|&n| {
            n != c.node
                && graph.entity(n).is_some_and(|e| e.key.starts_with(&key))
                && (nodes.contains(&n)
                    || graph.incident(n).any(|(edge, _, outgoing)| {
                        !outgoing
                            && gate.is_open(edge)
                            && graph.edge(edge).is_some_and(|e| {
                                matches!(e.relation.stance(), Stance::Recommends | Stance::Lists)
                            })
                    }))
        });
        if let Some(n) = option {
            c.node = n;
            c.label = answer_surface(prepared, n, question, None);
        }
    }
}

fn is_option(graph: &KnowledgeGraph, node: NodeId) -> bool {
    graph.incident(node).any(|(edge, _, outgoing)| {
        !outgoing
            && graph
                .edge(edge)
                .is_some_and(|e| matches!(e.relation.stance(), Stance::Recommends | Stance::Lists))
    })
}

/// The entity's name as an answer: the way the supporting statement wrote it (or its
/// label), without leading words the question already gives ("Which topical
/// antibiotic …" → "fluoroquinolone", not "topical fluoroquinolone").
fn answer_surface(
    prepared: &Prepared,
    node: NodeId,
    question: &str,
    edge: Option<crate::graph::EdgeId>,
) -> String {
    let graph = &prepared.graph;
    let Some(entity) = graph.entity(node) else {
        return String::new();
    };
    let sentence = edge
        .and_then(|e| graph.edge(e))
        .and_then(|e| e.evidence.first())
        .and_then(|span| prepared.docs.get(span.doc)?.text.get(span.range.clone()));
    let written = sentence.and_then(|text| {
        entity
            .surfaces
            .iter()
            .filter(|s| text.contains(s.as_str()))
            .min_by_key(|s| s.len())
    });
    let label = written.unwrap_or(&entity.label);
    clean_start(prepared, &strip_given(without_label(label), question))
}

/// A phrase without the label that enumerates it in a list of options ("B) Losartan",
/// "(ii) rifampicin", "3) MRI"): one to three letters or digits closed by a bracket
/// name no thing.
fn without_label(phrase: &str) -> &str {
    let Some((label, rest)) = phrase.split_once(' ') else {
        return phrase;
    };
    let inner = label.strip_prefix('(').unwrap_or(label);
    let enumerates = inner.strip_suffix(')').is_some_and(|l| {
        (1..=3).contains(&l.chars().count()) && l.chars().all(|c| c.is_ascii_alphanumeric())
    });
    if enumerates && !rest.trim().is_empty() {
        rest.trim_start()
    } else {
        phrase
    }
}

/// A phrase without leading adverbs, gerunds and determiners, which are not part of a
/// name ("notably amoxicillin", "measuring serum ferritin", "the RSV vaccine"), when a
/// noun phrase follows them. Prepositions stay ("within 2 weeks" answers "when").
/// Unchanged without the linguistic base.
fn clean_start(prepared: &Prepared, phrase: &str) -> String {
    let Some(language) = &prepared.language else {
        return phrase.to_string();
    };
    let analysis = language.analyse(phrase);
    // A gerund only at the very start: after a determiner it is a modifier ("the
    // loading dose").
    let gerund = usize::from(analysis.tags.first() == Some(&Tag::Vbg));
    let leading = gerund
        + analysis.tags[gerund..]
            .iter()
            .take_while(|t| t.is_adverb() || t.is_determiner() || **t == Tag::Pdt)
            .count();
    let noun_follows = analysis.phrases.iter().any(|p| p.core.start >= leading);
    if leading == 0 || !noun_follows {
        return without_route(language, phrase);
    }
    without_route(
        language,
        analysis.text(phrase, leading..analysis.words.len()),
    )
}

/// An entity's name as one name: from a determiner written with a capital inside it,
/// where a heading ran into the sentence under it ("Intrauterine Devices The copper
/// IUD" → "The copper IUD"), and without a bare number after a drug's name, its
/// strength ("Ticagrelor 90", "trimethoprim-sulfamethoxazole 160/800"), a word that
/// says it is used alone ("memantine monotherapy"), an adverb of the clause it was
/// read from ("use azithromycin instead"), or an adjective of how often it is done
/// ("annual breast MRI").
fn whole_name(prepared: &Prepared, label: &str) -> String {
    let words: Vec<&str> = label.split_whitespace().collect();
    let from = words
        .iter()
        .enumerate()
        .skip(1)
        .rfind(|(_, w)| SENTENCE_OPENERS.contains(w))
        .map_or(0, |(i, _)| i);
    let mut words = &words[from..];
    // … nor how often it is done ("annual breast MRI" is breast MRI).
    if let Some((first, rest)) = words.split_first() {
        let how_often =
            crate::passage::asked::HOW_OFTEN_ADJECTIVES.contains(&first.to_lowercase().as_str());
        if how_often && !rest.is_empty() {
            words = rest;
        }
    }
    let strength = |w: &str| {
        w.chars().next().is_some_and(|c| c.is_ascii_digit())
            && w.chars()
                .all(|c| c.is_ascii_digit() || matches!(c, '/' | '.'))
    };
    // … nor is its use alone ("memantine monotherapy", "metformin alone").
    let alone = |w: &str| w.eq_ignore_ascii_case("monotherapy") || w.eq_ignore_ascii_case("alone");
    if let (Some(language), Some((last, name))) = (&prepared.language, words.split_last()) {
        let adverb = |w: &str| {
            let tags = language.analyse(w).tags;
            tags.len() == 1 && tags[0].is_adverb()
        };
        if (strength(last) || alone(last) || adverb(last))
            && !name.is_empty()
            && language.drugs.lookup(&name.join(" ")).is_some()
        {
            words = name;
        }
    }
    let name = words.join(" ");
    if from == 0 {
        name
    } else {
        clean_start(prepared, &name)
    }
}

/// An answer without the footnote marker its last word carries: a reference in
/// square brackets ("4000 mg[6,7]"), a dagger, double dagger, section or pilcrow sign,
/// an asterisk, or superscript digits and letters ("Fluzone High-Dose†", "30 mg¹").
/// Inside a name they stay ("HLA-B*1502").
fn without_footnote(answer: &str) -> String {
    let mut text = answer.trim_end();
    loop {
        let before = text;
        if let Some(open) = text.strip_suffix(']').and_then(|t| t.rfind('[')) {
            let inside = &text[open + 1..text.len() - 1];
            if !inside.is_empty()
                && inside
                    .chars()
                    .all(|c| c.is_ascii_digit() || matches!(c, ',' | '-' | '–' | ' '))
            {
                text = text[..open].trim_end();
            }
        }
        text = text.trim_end_matches(|c: char| {
            matches!(c, '†' | '‡' | '§' | '¶' | '*') || "⁰¹²³⁴⁵⁶⁷⁸⁹ᵃᵇᶜᵈᵉ".contains(c)
        });
        if text == before {
            break;
        }
    }
    // A marker is all there was: the answer stands as it came.
    if text.chars().any(char::is_alphanumeric) {
        text.to_string()
    } else {
        answer.to_string()
    }
}

/// A graph answer as the documents write it: an entity's label is its words joined by
/// single spaces with its last noun in the singular ("Q & A" for "Q&A", "every 5
/// year" for "every 5 years"), so the first place a document has the label with white
/// space aside, else word for word with number aside, gives the surface. `None` where
/// no document has it.
fn as_written(prepared: &Prepared, label: &str) -> Option<String> {
    prepared
        .docs
        .iter()
        .find_map(|doc| spaced_as(&doc.text, label))
        .or_else(|| {
            prepared
                .docs
                .iter()
                .find_map(|doc| numbered_as(&doc.text, label))
        })
}

/// The first run of `text` that is `label` with white space aside (case aside), whole
/// words at both ends, on one line.
fn spaced_as(text: &str, label: &str) -> Option<String> {
    let wanted: Vec<char> = label
        .chars()
        .filter(|c| !c.is_whitespace())
        .flat_map(char::to_lowercase)
        .collect();
    let first = *wanted.first()?;
    let boundary = |c: Option<char>| c.is_none_or(|c| !c.is_alphanumeric());
    text.char_indices().find_map(|(start, c)| {
        if c.to_lowercase().next() != Some(first) || !boundary(text[..start].chars().next_back()) {
            return None;
        }
        let mut want = wanted.iter();
        let mut next = want.next();
        let mut end = start;
        for (at, c) in text[start..].char_indices() {
            let Some(w) = next else { break };
            if c == '\n' {
                return None;
            }
            if c.is_whitespace() {
                continue;
            }
            if c.to_lowercase().next() != Some(*w) {
                return None;
            }
            end = start + at + c.len_utf8();
            next = want.next();
        }
        (next.is_none() && boundary(text[end..].chars().next()))
            .then(|| text[start..end].to_string())
    })
}

/// The first run of `text`'s words that are `label`'s word for word, each in either
/// number ("every 5 years" for "every 5 year"), on one line.
fn numbered_as(text: &str, label: &str) -> Option<String> {
    let form = |w: &str| crate::text::singular(&w.to_lowercase());
    let wanted: Vec<String> = crate::text::words(label)
        .iter()
        .map(|w| form(w.text(label)))
        .collect();
    if wanted.is_empty() {
        return None;
    }
    let tokens = crate::text::words(text);
    tokens.windows(wanted.len()).find_map(|run| {
        let same = run
            .iter()
            .zip(&wanted)
            .all(|(t, w)| form(t.text(text)) == *w);
        let (start, end) = (run[0].span.start, run[run.len() - 1].span.end);
        (same && !text[start..end].contains('\n')).then(|| text[start..end].to_string())
    })
}

/// A phrase without the preposition of means it opens with ("with CO-oximetry",
/// "by pulse oximetry", "using a glucometer").
fn without_means(phrase: &str) -> String {
    // "with" gives the means after a verb of examining as "by" does anywhere.
    let means = |w: &str| w == "with" || crate::passage::asked::MEANS.contains(&w);
    match phrase.split_once(' ') {
        Some((first, rest)) if means(&first.to_lowercase()) && !rest.trim().is_empty() => {
            rest.to_string()
        }
        _ => phrase.to_string(),
    }
}

/// Whether a label has a word that is not a word of grammar: "How", read from "How is
/// the test used?", names nothing an answer could be.
fn names_something(label: &str) -> bool {
    crate::text::lower_words(label)
        .iter()
        .any(|w| !crate::lexicon::any(&crate::lexicon::FUNCTION, w))
}

/// Determiners that open a sentence, as written there (see [`whole_name`]).
const SENTENCE_OPENERS: &[&str] = &["The", "A", "An", "This", "These"];

/// A test's name without the result it gave ("negative RT-qPCR" → "RT-qPCR"), where
/// a test is asked: a result says what a test showed, not which test it is.
fn without_result(phrase: &str, head: &str) -> String {
    let test = head == "test" || crate::lexicon::Class::Test.has(head);
    match phrase.split_once(' ') {
        Some((first, rest))
            if test && crate::lexicon::TEST_RESULTS.contains(&first.to_lowercase().as_str()) =>
        {
            rest.to_string()
        }
        _ => phrase.to_string(),
    }
}

/// One of what an acronym in the plural names, where one thing is asked ("IGRAs" →
/// "IGRA", "NSAIDs" → "NSAID"): the plural of an acronym is its letters and a small s.
fn one_of_acronym(phrase: &str) -> String {
    let (rest, last) = match phrase.rsplit_once(' ') {
        Some((rest, last)) => (Some(rest), last),
        None => (None, phrase),
    };
    let Some(letters) = last.strip_suffix('s') else {
        return phrase.to_string();
    };
    let capitals = letters.chars().filter(char::is_ascii_uppercase).count();
    if capitals < 2 || letters.chars().any(|c| c.is_lowercase()) {
        return phrase.to_string();
    }
    match rest {
        Some(rest) => format!("{rest} {letters}"),
        None => letters.to_string(),
    }
}

/// A drug's name without the route before it ("oral prednisone" → "prednisone"), when
/// what follows is a drug the lexicon knows by that whole name; a vaccine keeps its
/// route, which names which vaccine it is ("oral typhoid vaccine").
fn without_route(language: &crate::language::Language, phrase: &str) -> String {
    let Some((first, rest)) = phrase.split_once(' ') else {
        return phrase.to_string();
    };
    let vaccine = rest
        .split_whitespace()
        .any(|w| w.to_lowercase().starts_with("vaccin"));
    let drug = language.drugs.lookup(rest);
    let named = !vaccine && drug.is_some_and(|d| !d.is_vaccine());
    if crate::lexicon::Class::Route.has(&first.to_lowercase()) && named {
        rest.to_string()
    } else {
        phrase.to_string()
    }
}

/// A phrase without the leading words the question already gives, or function words.
fn strip_given(label: &str, question: &str) -> String {
    let question_words = crate::text::lower_words(question);
    let parts: Vec<&str> = label.split(' ').collect();
    let mut start = 0;
    const FUNCTION: &[&str] = &[
        "of", "the", "a", "an", "in", "for", "with", "during", "only", "and", "or",
    ];
    while start + 1 < parts.len()
        && (question_words.contains(&parts[start].to_lowercase())
            || FUNCTION.contains(&parts[start].to_lowercase().as_str()))
    {
        start += 1;
    }
    parts[start..].join(" ")
}

/// The answer in the number the question asks for: "Which test …" is answered with
/// "interferon-gamma release assay", not "… assays"; "Which drug class …" keeps the
/// plural the documents use.
fn number_agreement(answer: &str, answer_type: Option<&str>) -> String {
    let Some(kind) = answer_type else {
        return answer.to_string();
    };
    let Some(head) = kind.split(' ').next_back() else {
        return answer.to_string();
    };
    let class = kind
        .split(' ')
        .any(|w| matches!(w, "class" | "classes" | "family"));
    if class || crate::text::singular(head) != head {
        return answer.to_string();
    }
    match answer.rsplit_once(' ') {
        Some((rest, last)) => format!("{rest} {}", crate::text::singular(last)),
        None => crate::text::singular(answer),
    }
}

/// A read phrase without the words of the answer type at its ends: "Which factor …" →
/// "XIa", not "factor XIa"; "Which signaling pathway …" → "PI3K/Akt".
fn strip_type(phrase: &str, answer_type: Option<&str>) -> String {
    let Some(kind) = answer_type else {
        return phrase.to_string();
    };
    let type_words: Vec<String> = kind
        .split(' ')
        .map(|w| crate::text::singular(&w.to_lowercase()))
        .collect();
    let is_type = |w: &str| type_words.contains(&crate::text::singular(&w.to_lowercase()));
    let mut parts: Vec<&str> = phrase.split(' ').collect();
    while parts.len() > 1 && parts.last().is_some_and(|w| is_type(w)) {
        parts.pop();
    }
    while parts.len() > 1 && parts.first().is_some_and(|w| is_type(w)) {
        parts.remove(0);
    }
    parts.join(" ")
}

/// Whether a node is the subject of a recommendation or listing (an indication).
fn is_indication(graph: &KnowledgeGraph, node: NodeId) -> bool {
    graph.incident(node).any(|(edge, _, outgoing)| {
        outgoing
            && graph
                .edge(edge)
                .is_some_and(|e| matches!(e.relation.stance(), Stance::Recommends | Stance::Lists))
    })
}

/// Lower-case content words of a text.
fn content_words(text: &str) -> Vec<String> {
    crate::text::words(text)
        .iter()
        .filter(|w| w.is_word)
        .flat_map(|w| {
            w.text(text)
                .to_lowercase()
                .split(['-', '/'])
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .filter(|w| w.len() > 2)
        .collect()
}

/// Whether a candidate only restates what the question asks for ("anticoagulation" for
/// "which anticoagulant"): each of its words shares a long stem with a question word.
fn restates(key: &str, question_words: &[String]) -> bool {
    let stem = |a: &str, b: &str| {
        let common = a.chars().zip(b.chars()).take_while(|(x, y)| x == y).count();
        a == b || common >= 7
    };
    const FUNCTION: &[&str] = &["against", "for", "with", "the", "and", "from", "into"];
    let words: Vec<&str> = key
        .split(' ')
        .filter(|w| w.len() > 2 && !FUNCTION.contains(w))
        .collect();
    let matched = words
        .iter()
        .filter(|w| question_words.iter().any(|q| stem(w, q)))
        .count();
    !words.is_empty()
        && (matched == words.len() || (matched >= 3 && 4 * matched >= 3 * words.len()))
}

#[cfg(test)]
mod tests;
