//! What an answer looks like to a reader: the gated-path view's nodes and edges, the
//! evidence paths, the condition table, the citations and each strategy's own results.
//! The page draws these; the worker builds them from the engine's answers
//! ([`build::answer_view`]), and so does the command line, whose results bundles store
//! one per question so the benchmark viewer can replay it without running a model.
//!
//! Plain serialisable data: no engine handles, no web types.

use serde::{Deserialize, Serialize};

pub mod build;
pub mod bundle;

pub use build::answer_view;

/// A condition's value for the patient.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Truth {
    True,
    False,
    Unknown,
}

impl Truth {
    pub fn id(self) -> &'static str {
        match self {
            Truth::True => "true",
            Truth::False => "false",
            Truth::Unknown => "unknown",
        }
    }

    /// The next value when a chip is clicked: true → false → unknown → true.
    pub fn next(self) -> Truth {
        match self {
            Truth::True => Truth::False,
            Truth::False => Truth::Unknown,
            Truth::Unknown => Truth::True,
        }
    }
}

/// Where an answer's inputs came from.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct CacheReport {
    /// Model files read from the cache, and fetched from the site.
    pub files_cached: usize,
    pub files_fetched: usize,
    /// Cached files that failed their sha256 check and were fetched again.
    pub files_repaired: usize,
    /// Whether the documents' extraction came from the cache.
    pub extraction_cached: bool,
    /// Sentence embeddings read from the cache.
    pub embeddings_cached: usize,
    /// The language resources' files (tagger data, drug lexicon) read from the cache,
    /// and fetched from the site; both 0 when the worker had them already.
    #[serde(default)]
    pub language_files_cached: usize,
    #[serde(default)]
    pub language_files_fetched: usize,
    /// Why the readers ran without the language resources, when they did.
    #[serde(default)]
    pub language_note: Option<String>,
    /// Why the cache is off or not written, when it is.
    pub note: Option<String>,
}

/// A span of a document the answer rests on.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Citation {
    /// Index into the documents of the request.
    pub doc: usize,
    pub doc_name: String,
    /// Byte range of the sentence in the document's text.
    pub start: usize,
    pub end: usize,
    pub text: String,
}

/// A condition an edge carries and its value for the patient.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct EdgeCondition {
    pub phrase: String,
    /// The edge holds only when the condition does not.
    pub negated: bool,
    pub truth: Truth,
}

/// An edge of the graph ⟨subject, relation, object, conditions⟩ with its evidence.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Edge {
    pub id: u32,
    pub subject: String,
    pub relation: String,
    pub object: String,
    pub conditions: Vec<EdgeCondition>,
    pub citations: Vec<Citation>,
}

/// A node of the graph around the question.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Node {
    pub label: String,
    /// `"entry"`, `"answer"` or `"other"`.
    pub role: String,
    pub layer: usize,
    pub order: usize,
}

/// An edge of the graph around the question: `blocked` names the condition that
/// closed it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct GraphEdge {
    pub from: usize,
    pub to: usize,
    pub edge: Edge,
    pub blocked: Option<Blocked>,
    /// AMG's relation score in (0, 1], when the strategy is AMG.
    #[serde(default)]
    pub confidence: Option<f32>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Blocked {
    pub condition: String,
    pub negated: bool,
}

/// One condition of the table L: its value now and the value the question gave it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct TableRow {
    pub phrase: String,
    pub truth: Truth,
    pub evaluated: Truth,
}

/// An evidence path, best first.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Path {
    pub nodes: Vec<String>,
    pub edges: Vec<Edge>,
    pub score: f32,
}

/// An answer and everything the page shows of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AnswerView {
    pub question: String,
    /// The answer, or `None` for "insufficient evidence".
    pub answer: Option<String>,
    /// `"paths"`, `"sentences"` or `"none"`.
    pub source: String,
    /// The sentences the answer rests on, first the answer's own.
    pub citations: Vec<Citation>,
    pub paths: Vec<Path>,
    pub table: Vec<TableRow>,
    pub nodes: Vec<Node>,
    pub edges: Vec<GraphEdge>,
    pub layers: usize,
    /// Texts a model had to embed for this answer (0 for a re-gating).
    pub embedded: usize,
    /// The embedder that ranked the paths.
    pub embedder: String,
    /// Why the neural embedder is not in use, when it is not.
    pub embedder_note: Option<String>,
    /// What came from the cache.
    #[serde(default)]
    pub cache: CacheReport,
    pub millis: f64,
    /// Documents, tuples and edges of the graph.
    pub documents: usize,
    pub tuples: usize,
    pub graph_edges: usize,
    /// What the strategy made beside the answer.
    #[serde(default)]
    pub strategy: StrategyView,
    /// The answer read as yes / no / maybe, when that was asked for.
    #[serde(default)]
    pub verdict: Option<String>,
}

/// A strategy's own results, for its view.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
pub struct StrategyView {
    /// `cgr`, `claims`, `amg`, `ikr`, `regram`, …
    pub name: String,
    /// ReGraM's region and the mode it put the answer in.
    pub region: Option<RegionView>,
    /// AMG's exploration from each entry term.
    pub traces: Vec<Trace>,
    /// IKR's topological readout ("2.1. amoxicillin") and how many retrieved entities
    /// it took to be sufficient.
    pub readout: Vec<String>,
    pub entities_used: usize,
    /// CLAIMS' claims of interest and their layered summaries.
    pub claims: Option<ClaimsView>,
    /// The language model that took part in answering, when one did.
    #[serde(default)]
    pub llm: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct RegionView {
    /// One of the five query domains.
    pub domain: String,
    /// `KG-STRICT`, `HYBRID` or `LLM-GUESS`.
    pub mode: String,
    /// The region's triples, as read.
    pub facts: Vec<String>,
    /// The Evidence Map: one entry per hop (sub-question), in order.
    #[serde(default)]
    pub hops: Vec<HopView>,
}

/// One hop of ReGraM's Evidence Map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HopView {
    /// `topic`, `patient` or `kind`.
    pub kind: String,
    pub question: String,
    /// The mode this hop's facts put it in.
    pub mode: String,
    pub facts: Vec<String>,
    /// The entities the hop's facts reach.
    pub answers: Vec<String>,
    /// HYBRID's hypotheses as the Reviewer left them.
    pub hypotheses: Vec<HypothesisView>,
    /// LLM-GUESS: a language model's guess, never the answer.
    pub guess: Option<String>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct HypothesisView {
    pub proposed: String,
    /// The triple as last reviewed (after revisions).
    pub triple: String,
    pub revisions: usize,
    pub score: f32,
    pub accepted: bool,
    pub reason: String,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Trace {
    pub term: String,
    /// The nodes reached at or above τ, the term first, most confident first.
    pub reached: Vec<Reached>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Reached {
    pub node: String,
    pub confidence: f32,
    pub hops: usize,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ClaimsView {
    /// Who wrote the summaries (`extractive`).
    pub summarizer: String,
    /// Claims in the (gated) graph.
    pub claims: usize,
    /// Claims of interest, best first.
    pub interests: Vec<InterestView>,
}

/// A claim of interest and the layered summary around it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct InterestView {
    pub claim: String,
    /// Relevance of its test summary to the question (what orders the claims of interest).
    pub test_relevance: f32,
    pub summary: String,
    /// Every claim of its component in the order summarised: the outermost layer first,
    /// the claim of interest last.
    pub nodes: Vec<SummaryNodeView>,
}

#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct SummaryNodeView {
    pub claim: String,
    /// Hops from the claim of interest.
    pub layer: usize,
    pub summary: String,
    /// The nodes (indices into the same list) one layer out whose summaries made this one.
    pub children: Vec<usize>,
    pub citations: Vec<Citation>,
}
