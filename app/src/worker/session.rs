//! The worker's answering session: the documents' graph (built once per document
//! set), the sentence embedder (all-MiniLM-L6-v2 on the worker's backend, the lexical
//! embedder when it cannot load) behind a memo, and the last question kept so its
//! conditions can be flipped without running a model.

use std::cell::RefCell;
use std::collections::hash_map::DefaultHasher;
use std::collections::HashSet;
use std::hash::{Hash, Hasher};
use std::rc::Rc;

use engine::answer::{
    around, explore, Answer, AnswerSource, EdgeState, EdgeView, Exploration, NodeRole, Prepared,
    RuleSteps, Strategy,
};
use engine::embed::{EmbedError, Embedder, LexicalEmbedder, Memo};
use engine::extract::RuleExtractor;
use engine::gate;
use engine::model::bert::{BertEmbedder, ModelFiles, Pooling};
use engine::model::Precision;
use engine::text::Document;
use gatepath_app::protocol::{
    AnswerView, Ask, Blocked, Citation, ConditionValue, DocumentIn, Edge, EdgeCondition, GraphEdge,
    Node, Path, Progress, Regate, TableRow, Truth,
};

use crate::compute;
use crate::hooks::{fetch, now_ms};

const MINILM: &str = "models/all-minilm-l6-v2";

/// Largest document set the worker takes in one request (bytes of text).
pub const MAX_DOCUMENT_BYTES: usize = 8 * 1024 * 1024;

/// Either embedder, so the memo outlives a failed model load.
pub enum SessionEmbedder {
    Neural(BertEmbedder),
    Lexical(LexicalEmbedder),
}

impl Embedder for SessionEmbedder {
    fn name(&self) -> &str {
        match self {
            SessionEmbedder::Neural(e) => e.name(),
            SessionEmbedder::Lexical(e) => e.name(),
        }
    }

    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        match self {
            SessionEmbedder::Neural(e) => e.embed(texts).await,
            SessionEmbedder::Lexical(e) => e.embed(texts).await,
        }
    }
}

struct Session {
    documents_key: u64,
    names: Vec<String>,
    prepared: Rc<Prepared>,
    exploration: Option<Exploration>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// `None` inside while a request is using it.
    static EMBEDDER: RefCell<Option<Memo<SessionEmbedder>>> = const { RefCell::new(None) };
    static EMBEDDER_NOTE: RefCell<Option<String>> = const { RefCell::new(None) };
    static CANCELLED: RefCell<HashSet<u32>> = RefCell::new(HashSet::new());
    static BUSY: RefCell<bool> = const { RefCell::new(false) };
}

/// Marks request `id` to stop at its next step.
pub fn cancel(id: u32) {
    CANCELLED.with(|c| c.borrow_mut().insert(id));
}

fn cancelled(id: u32) -> Result<(), String> {
    match CANCELLED.with(|c| c.borrow_mut().remove(&id)) {
        true => Err("cancelled".into()),
        false => Ok(()),
    }
}

/// Answers an [`Ask`], reporting progress through `progress`.
pub async fn ask(id: u32, request: Ask, progress: impl Fn(Progress)) -> Result<AnswerView, String> {
    let _busy = Busy::take()?;
    let started = now_ms();
    let bytes: usize = request.documents.iter().map(|d| d.text.len()).sum();
    if bytes > MAX_DOCUMENT_BYTES {
        return Err(format!(
            "the documents hold {} MB of text; at most {} MB can be read at once",
            bytes / (1024 * 1024),
            MAX_DOCUMENT_BYTES / (1024 * 1024)
        ));
    }
    if request.documents.iter().all(|d| d.text.trim().is_empty()) {
        return Err("there are no documents to answer from: paste text or add files".into());
    }
    let step = |stage: &str, done: u64, total: u64| {
        progress(Progress {
            stage: stage.into(),
            done,
            total,
        })
    };
    step("loading the sentence embedder", 0, 3);
    let mut memo = take_embedder().await;
    let result = async {
        cancelled(id)?;
        step("reading the documents", 1, 3);
        let prepared = prepared(&request.documents);
        cancelled(id)?;
        step("answering", 2, 3);
        let before = memo.computed();
        let (answer, exploration) = explore(
            &prepared.prepared,
            &request.question,
            &Strategy::Cgr.config(),
            &mut memo,
            &mut RuleSteps,
        )
        .await
        .map_err(|e| e.to_string())?;
        let overrides = overrides(&request.conditions);
        let answer = if overrides.is_empty() {
            answer
        } else {
            exploration
                .regate(&prepared.prepared, &overrides, &mut memo)
                .await
                .map_err(|e| e.to_string())?
                .answer
        };
        let embedded = memo.computed() - before;
        let view = answer_view(
            &prepared,
            &exploration,
            &answer,
            embedded,
            memo.name(),
            now_ms() - started,
        );
        SESSION.with(|s| {
            if let Some(session) = s.borrow_mut().as_mut() {
                session.exploration = Some(exploration);
            }
        });
        step("answered", 3, 3);
        Ok(view)
    }
    .await;
    EMBEDDER.with(|e| *e.borrow_mut() = Some(memo));
    result
}

/// Answers the last question again under the condition values of a [`Regate`].
pub async fn regate(request: Regate) -> Result<AnswerView, String> {
    let _busy = Busy::take()?;
    let started = now_ms();
    let (prepared, exploration) = SESSION
        .with(|s| {
            s.borrow()
                .as_ref()
                .and_then(|s| s.exploration.clone().map(|e| (s.view(), e)))
        })
        .ok_or("ask a question first")?;
    let mut memo = take_embedder().await;
    let result = exploration
        .regate(
            &prepared.prepared,
            &overrides(&request.conditions),
            &mut memo,
        )
        .await
        .map_err(|e| e.to_string());
    let name = memo.name().to_string();
    EMBEDDER.with(|e| *e.borrow_mut() = Some(memo));
    let regated = result?;
    Ok(answer_view(
        &prepared,
        &exploration,
        &regated.answer,
        regated.embedded,
        &name,
        now_ms() - started,
    ))
}

/// One request at a time: the models and the session are not shared between two.
struct Busy;

impl Busy {
    fn take() -> Result<Busy, String> {
        BUSY.with(|b| {
            let mut b = b.borrow_mut();
            if *b {
                return Err("another question is being answered; wait or cancel it".into());
            }
            *b = true;
            Ok(Busy)
        })
    }
}

impl Drop for Busy {
    fn drop(&mut self) {
        BUSY.with(|b| *b.borrow_mut() = false);
    }
}

/// The documents' graph and their names, for building views.
struct PreparedView {
    prepared: Rc<Prepared>,
    names: Vec<String>,
}

impl Session {
    fn view(&self) -> PreparedView {
        PreparedView {
            prepared: self.prepared.clone(),
            names: self.names.clone(),
        }
    }
}

/// The graph of `documents`, built unless the session already holds it.
fn prepared(documents: &[DocumentIn]) -> PreparedView {
    let mut hasher = DefaultHasher::new();
    documents.hash(&mut hasher);
    let key = hasher.finish();
    if let Some(view) = SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .filter(|s| s.documents_key == key)
            .map(Session::view)
    }) {
        return view;
    }
    let docs = documents
        .iter()
        .map(|d| Document::new(d.name.clone(), d.text.clone()))
        .collect();
    let prepared = Rc::new(Prepared::new(docs, &RuleExtractor));
    let names = documents.iter().map(|d| d.name.clone()).collect();
    let session = Session {
        documents_key: key,
        names,
        prepared,
        exploration: None,
    };
    let view = session.view();
    SESSION.with(|s| *s.borrow_mut() = Some(session));
    view
}

/// The session's embedder, loading all-MiniLM-L6-v2 on first use (the lexical embedder
/// when it cannot be loaded, with the reason kept for the page).
async fn take_embedder() -> Memo<SessionEmbedder> {
    if let Some(memo) = EMBEDDER.with(|e| e.borrow_mut().take()) {
        return memo;
    }
    let inner = match load_minilm().await {
        Ok(e) => SessionEmbedder::Neural(e),
        Err(reason) => {
            EMBEDDER_NOTE.with(|n| *n.borrow_mut() = Some(reason));
            SessionEmbedder::Lexical(LexicalEmbedder::default())
        }
    };
    Memo::new(inner)
}

/// Why the neural embedder is not in use, if it is not.
pub fn embedder_note() -> Option<String> {
    EMBEDDER_NOTE.with(|n| n.borrow().clone())
}

async fn load_minilm() -> Result<BertEmbedder, String> {
    let compute = compute::active().ok_or("the compute backend did not start")?;
    let config = fetch(&format!("{MINILM}/config.json")).await?;
    let weights = fetch(&format!("{MINILM}/model.safetensors")).await?;
    let tokenizer = fetch(&format!("{MINILM}/tokenizer.json")).await?;
    let files = ModelFiles {
        config: &config,
        weights: &weights,
        tokenizer: &tokenizer,
    };
    BertEmbedder::load_with(
        "all-MiniLM-L6-v2",
        files,
        Pooling::Mean,
        Precision::for_backend(compute.backend()),
        &compute,
    )
    .map_err(|e| format!("{MINILM}: {e}"))
}

fn overrides(values: &[ConditionValue]) -> Vec<(String, gate::Truth)> {
    values
        .iter()
        .map(|v| (v.phrase.clone(), to_engine(v.truth)))
        .collect()
}

fn to_engine(t: Truth) -> gate::Truth {
    match t {
        Truth::True => gate::Truth::True,
        Truth::False => gate::Truth::False,
        Truth::Unknown => gate::Truth::Unknown,
    }
}

fn from_engine(t: gate::Truth) -> Truth {
    match t {
        gate::Truth::True => Truth::True,
        gate::Truth::False => Truth::False,
        gate::Truth::Unknown => Truth::Unknown,
    }
}

fn answer_view(
    prepared: &PreparedView,
    exploration: &Exploration,
    answer: &Answer,
    embedded: usize,
    embedder: &str,
    millis: f64,
) -> AnswerView {
    let citation = |c: &engine::answer::Citation| Citation {
        doc: c.doc,
        doc_name: prepared.names.get(c.doc).cloned().unwrap_or_default(),
        start: c.start,
        end: c.end,
        text: c.text.clone(),
    };
    let edge = |e: &EdgeView| Edge {
        id: e.id,
        subject: e.subject.clone(),
        relation: e.relation.clone(),
        object: e.object.clone(),
        conditions: e
            .conditions
            .iter()
            .map(|c| EdgeCondition {
                phrase: c.phrase.clone(),
                negated: c.negated,
                truth: from_engine(c.truth),
            })
            .collect(),
        citations: e.citations.iter().map(citation).collect(),
    };
    // The answer's own statements first, then the rest of the evidence.
    let text = answer.text().map(str::to_lowercase);
    let names_answer = |e: &EdgeView| {
        text.as_deref()
            .is_some_and(|t| e.subject.to_lowercase() == t || e.object.to_lowercase() == t)
    };
    let mut citations: Vec<Citation> = answer.read_from.iter().map(citation).collect();
    let evidence_edges = answer.evidence.iter().flat_map(|p| p.edges.iter());
    let (own, rest): (Vec<&EdgeView>, Vec<&EdgeView>) =
        evidence_edges.partition(|e| names_answer(e));
    for e in own.into_iter().chain(rest) {
        for c in &e.citations {
            if !citations
                .iter()
                .any(|k| k.doc == c.doc && k.start == c.start)
            {
                citations.push(citation(c));
            }
        }
    }
    let layout = around(answer);
    AnswerView {
        question: exploration.question().to_string(),
        answer: answer.text().map(str::to_string),
        source: match answer.source {
            AnswerSource::Paths => "paths",
            AnswerSource::Sentences => "sentences",
            AnswerSource::None => "none",
        }
        .into(),
        citations,
        paths: answer
            .evidence
            .iter()
            .map(|p| Path {
                nodes: p.nodes.clone(),
                edges: p.edges.iter().map(edge).collect(),
                score: p.score,
            })
            .collect(),
        table: answer
            .conditions
            .iter()
            .map(|(phrase, truth)| TableRow {
                phrase: phrase.clone(),
                truth: from_engine(*truth),
                evaluated: from_engine(exploration.evaluated(phrase)),
            })
            .collect(),
        nodes: layout
            .nodes
            .iter()
            .map(|n| Node {
                label: n.label.clone(),
                role: match n.role {
                    NodeRole::Entry => "entry",
                    NodeRole::Answer => "answer",
                    NodeRole::Other => "other",
                }
                .into(),
                layer: n.layer,
                order: n.order,
            })
            .collect(),
        edges: layout
            .edges
            .iter()
            .map(|e| GraphEdge {
                from: e.from,
                to: e.to,
                edge: edge(&e.edge),
                blocked: match &e.state {
                    EdgeState::Kept => None,
                    EdgeState::Blocked { condition, negated } => Some(Blocked {
                        condition: condition.clone(),
                        negated: *negated,
                    }),
                },
            })
            .collect(),
        layers: layout.layers,
        embedded,
        embedder: embedder.to_string(),
        embedder_note: embedder_note(),
        millis,
        documents: prepared.prepared.docs.len(),
        tuples: prepared.prepared.extraction.tuples.len(),
        graph_edges: prepared.prepared.graph.edge_count(),
    }
}
