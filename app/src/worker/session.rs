//! The worker's answering session: the documents' graph (built once per document
//! set, its extraction kept in the cache), the sentence embedder (the one chosen under
//! Models on the worker's backend from cached or fetched files, the lexical embedder
//! when it cannot load) behind a memo and the embedding cache, and the last question kept so
//! its conditions can be flipped without running a model.

use std::cell::RefCell;
use std::collections::HashSet;
use std::ops::ControlFlow;
use std::rc::Rc;
use std::sync::Arc;

use engine::answer::{
    described, explanation_messages, explanation_opening, explore, Answer, Exploration, Prepared,
    RuleSteps, Strategy,
};
use engine::embed::{EmbedError, Embedder, LexicalEmbedder, Memo};
use engine::extract::{Extraction, RuleExtractor};
use engine::gate;
use engine::language::Language;
use engine::llm::{Generate, LanguageModel, Sampling, Stop};
use engine::model::bert::BertEmbedder;
use engine::model::Precision;
use engine::text::Document;
use gatepath_app::protocol::{
    AnswerView, Ask, CacheReport, ConditionValue, DocumentIn, Explain, Explanation, Progress,
    Regate, Truth,
};
use js_sys::Float32Array;
use wasm_bindgen::JsCast;

use crate::compute;
use crate::files::{Event, Fetch, Origin};
use crate::hooks::now_ms;
use crate::store::{self, EMBEDDINGS, EXTRACTIONS};
use crate::{embedder, language, llm, manager};
use gatepath_app::models::Role;

/// Largest document set the worker takes in one request (bytes of text).
pub const MAX_DOCUMENT_BYTES: usize = 8 * 1024 * 1024;

/// Either embedder, so the memo outlives a failed model load.
pub enum Model {
    Neural(Box<BertEmbedder>),
    Lexical(LexicalEmbedder),
}

/// The session's embedder: the model, behind the cache of embeddings by text hash (the
/// neural model's only; the lexical embedder costs less than a lookup).
pub struct SessionEmbedder {
    model: Model,
    /// Texts whose embedding came from the cache, over the session.
    from_cache: usize,
}

impl Embedder for SessionEmbedder {
    fn name(&self) -> &str {
        match &self.model {
            Model::Neural(e) => e.name(),
            Model::Lexical(e) => e.name(),
        }
    }

    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        let model = match &mut self.model {
            Model::Lexical(e) => return e.embed(texts).await,
            Model::Neural(e) => e,
        };
        let keys: Vec<String> = texts
            .iter()
            .map(|t| format!("{}:{}", model.name(), store::text_hash(t)))
            .collect();
        let mut vectors: Vec<Option<Vec<f32>>> = store::get_many(EMBEDDINGS, &keys)
            .await
            .into_iter()
            .map(|v| v.and_then(|v| v.dyn_into::<Float32Array>().ok()))
            .map(|v| v.map(|a| a.to_vec()).filter(|v| !v.is_empty()))
            .collect();
        let missing: Vec<usize> = (0..texts.len()).filter(|&i| vectors[i].is_none()).collect();
        self.from_cache += texts.len() - missing.len();
        if !missing.is_empty() {
            let batch: Vec<String> = missing.iter().map(|&i| texts[i].clone()).collect();
            let computed = model.embed(&batch).await?;
            let entries = missing
                .iter()
                .zip(&computed)
                .map(|(&i, v)| (keys[i].clone(), Float32Array::from(v.as_slice()).into()))
                .collect();
            store::put_many(EMBEDDINGS, entries).await;
            for (i, v) in missing.into_iter().zip(computed) {
                vectors[i] = Some(v);
            }
        }
        Ok(vectors.into_iter().map(Option::unwrap_or_default).collect())
    }
}

struct Session {
    documents_key: String,
    names: Vec<String>,
    prepared: Rc<Prepared>,
    /// The graph the last question was answered with (CLAIMS answers over the graph
    /// with its entities deduplicated), for re-gating it.
    asked: Option<Rc<Prepared>>,
    exploration: Option<Exploration>,
    /// The answer shown last (asked or re-gated), for explaining it.
    answer: Option<Answer>,
}

thread_local! {
    static SESSION: RefCell<Option<Session>> = const { RefCell::new(None) };
    /// `None` inside while a request is using it.
    static EMBEDDER: RefCell<Option<Memo<SessionEmbedder>>> = const { RefCell::new(None) };
    static EMBEDDER_NOTE: RefCell<Option<String>> = const { RefCell::new(None) };
    static CANCELLED: RefCell<HashSet<u32>> = RefCell::new(HashSet::new());
    /// Where the current request's inputs came from.
    static REPORT: RefCell<CacheReport> = RefCell::new(CacheReport::default());
    static BUSY: RefCell<bool> = const { RefCell::new(false) };
}

/// Marks request `id` to stop at its next step.
pub fn cancel(id: u32) {
    CANCELLED.with(|c| c.borrow_mut().insert(id));
}

/// Lets the worker's event loop run (a `cancel` message, progress going out) before
/// going on: the CPU backend never suspends on its own.
pub async fn yield_now() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        let scope: web_sys::WorkerGlobalScope = js_sys::global().unchecked_into();
        if scope
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 0)
            .is_err()
        {
            let _ = resolve.call0(&wasm_bindgen::JsValue::NULL);
        }
    });
    let _ = wasm_bindgen_futures::JsFuture::from(promise).await;
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
    let strategy = match request.strategy.trim() {
        "" => Strategy::Cgr,
        name => Strategy::from_name(name)
            .ok_or_else(|| format!("there is no strategy named {name:?}"))?,
    };
    let config = strategy.config();
    REPORT.with(|r| *r.borrow_mut() = CacheReport::default());
    let step = |stage: &str, done: u64, total: u64| {
        progress(Progress {
            stage: stage.into(),
            done,
            total,
            bytes_done: 0,
            bytes_total: 0,
        })
    };
    const LOADING: &str = "loading the sentence embedder";
    step(LOADING, 0, 3);
    let mut memo = take_embedder(&|event, bytes_total| {
        if let Event::Bytes(bytes_done) = event {
            progress(Progress {
                stage: LOADING.into(),
                done: 0,
                total: 3,
                bytes_done,
                bytes_total,
            })
        }
    })
    .await;
    let cached_before = memo.inner().from_cache;
    let result = async {
        yield_now().await;
        cancelled(id)?;
        const LANGUAGE: &str = "loading the language resources";
        step(LANGUAGE, 1, 3);
        let language = take_language(&|event, bytes_total| {
            if let Event::Bytes(bytes_done) = event {
                progress(Progress {
                    stage: LANGUAGE.into(),
                    done: 1,
                    total: 3,
                    bytes_done,
                    bytes_total,
                })
            }
        })
        .await;
        yield_now().await;
        cancelled(id)?;
        step("reading the documents", 1, 3);
        let mut prepared = prepared(&request.documents, language).await;
        yield_now().await;
        cancelled(id)?;
        step("answering", 2, 3);
        let before = memo.computed();
        // CLAIMS merges entities that name the same thing (UPGMA over their names'
        // embeddings) before it builds claims: on a copy, the session's graph stays.
        if let Some(claims) = config.claims {
            let mut merged = (*prepared.prepared).clone();
            merged
                .cluster_entities(&mut memo, claims.dedup)
                .await
                .map_err(|e| e.to_string())?;
            prepared.prepared = Rc::new(merged);
        }
        // With the language model: loaded (or taken from this worker) first, then
        // asked for the steps it is trusted with.
        let mut llm_name = None;
        let (answer, exploration) = match request.with_llm {
            false => explore(
                &prepared.prepared,
                &request.question,
                &config,
                &mut memo,
                &mut RuleSteps,
            )
            .await
            .map_err(|e| e.to_string())?,
            true => {
                step("loading the language model", 2, 3);
                let model = active_llm(&|stage: &str, bytes_done, bytes_total| {
                    progress(Progress {
                        stage: stage.into(),
                        done: 2,
                        total: 3,
                        bytes_done,
                        bytes_total,
                    })
                })
                .await?
                .model;
                cancelled(id)?;
                step("answering with the language model", 2, 3);
                llm_name = Some(model.name.clone());
                explore(
                    &prepared.prepared,
                    &request.question,
                    &config,
                    &mut memo,
                    &mut engine::answer::LlmSteps::new(&*model),
                )
                .await
                .map_err(|e| e.to_string())?
            }
        };
        // PubMedQA's verdict, read from the answer as `bench` reads it.
        let verdict = match request.yes_no {
            true => Some(
                engine::answer::yes_no(&prepared.prepared, &request.question, &answer, &mut memo)
                    .await
                    .map_err(|e| e.to_string())?
                    .0
                    .name()
                    .to_string(),
            ),
            false => None,
        };
        let mut overrides = match request.patient.trim() {
            "" => Vec::new(),
            description => described(&answer, description),
        };
        overrides.extend(chosen_values(&request.conditions));
        // Re-gating is model-free: an answer re-gated under the patient's description
        // has no model step in it.
        if !overrides.is_empty() {
            llm_name = None;
        }
        let answer = if overrides.is_empty() {
            answer
        } else {
            exploration
                .regate(&prepared.prepared, &overrides, &mut memo)
                .await
                .map_err(|e| e.to_string())?
                .answer
        };
        let from_cache = memo.inner().from_cache - cached_before;
        let embedded = memo.computed() - before - from_cache;
        let mut report = REPORT.with(|r| r.borrow().clone());
        report.embeddings_cached = from_cache;
        report.note = store::note();
        let mut view = answer_view(
            &prepared,
            &exploration,
            &answer,
            embedded,
            memo.name(),
            report,
            now_ms() - started,
        );
        view.strategy.llm = llm_name;
        view.verdict = verdict;
        SESSION.with(|s| {
            if let Some(session) = s.borrow_mut().as_mut() {
                session.asked = Some(prepared.prepared.clone());
                session.exploration = Some(exploration);
                session.answer = Some(answer);
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
            s.borrow().as_ref().and_then(|s| {
                let view = PreparedView {
                    prepared: s.asked.clone()?,
                    names: s.names.clone(),
                };
                s.exploration.clone().map(|e| (view, e))
            })
        })
        .ok_or("ask a question first")?;
    let mut memo = take_embedder(&|_, _| {}).await;
    let result = exploration
        .regate(
            &prepared.prepared,
            &chosen_values(&request.conditions),
            &mut memo,
        )
        .await
        .map_err(|e| e.to_string());
    let name = memo.name().to_string();
    EMBEDDER.with(|e| *e.borrow_mut() = Some(memo));
    let regated = result?;
    let report = CacheReport {
        note: store::note(),
        ..CacheReport::default()
    };
    let view = answer_view(
        &prepared,
        &exploration,
        &regated.answer,
        regated.embedded,
        &name,
        report,
        now_ms() - started,
    );
    SESSION.with(|s| {
        if let Some(session) = s.borrow_mut().as_mut() {
            session.answer = Some(regated.answer);
        }
    });
    Ok(view)
}

/// Explains the answer shown last with the shipped LLM, streaming its text through
/// `on_text` as it is written; cancelled between tokens.
pub async fn explain(
    id: u32,
    request: Explain,
    progress: impl Fn(Progress),
    on_text: impl Fn(&str),
) -> Result<Explanation, String> {
    let _busy = Busy::take()?;
    let started = now_ms();
    let (question, answer) = SESSION
        .with(|s| {
            s.borrow().as_ref().and_then(|s| {
                let question = s.exploration.as_ref()?.question().to_string();
                Some((question, s.answer.clone()?))
            })
        })
        .ok_or("ask a question first")?;
    let report = |stage: &str, done, bytes_done, bytes_total| {
        progress(Progress {
            stage: stage.into(),
            done,
            total: 2,
            bytes_done,
            bytes_total,
        })
    };
    let loaded =
        active_llm(&|stage: &str, done_bytes, total| report(stage, 0, done_bytes, total)).await?;
    let model = loaded.model;
    // Stopped before the first token (while the model loaded): an empty explanation
    // that says so, as a stop between tokens would.
    if cancelled(id).is_err() {
        return Ok(Explanation {
            text: String::new(),
            tokens: 0,
            stop: "cancelled".into(),
            model: model.name.clone(),
            precision: model.precision().id().to_string(),
            model_from_cache: loaded.origin == Some(Origin::Cache),
            millis: now_ms() - started,
        });
    }
    report("writing the explanation", 1, 0, 0);
    // The assistant's turn opened with the explanation's first words, which the page
    // shows as written.
    let opening = explanation_opening(&answer);
    let prompt = model
        .chat_prompt(&explanation_messages(&question, &answer))
        .map_err(|e| e.to_string())?
        + &opening;
    let ids = model.tokenize(&prompt).map_err(|e| e.to_string())?;
    let settings = Generate {
        max_tokens: request.max_tokens.clamp(1, MAX_EXPLANATION_TOKENS),
        sampling: Sampling::Greedy,
    };
    on_text(&opening);
    let written = model
        .generate_paused(
            &ids,
            &settings,
            |piece| {
                on_text(piece);
                match CANCELLED.with(|c| c.borrow().contains(&id)) {
                    true => ControlFlow::Break(()),
                    false => ControlFlow::Continue(()),
                }
            },
            async || yield_now().await,
        )
        .await
        .map_err(|e| e.to_string());
    CANCELLED.with(|c| c.borrow_mut().remove(&id));
    let written = written?;
    Ok(Explanation {
        text: format!("{opening}{}", written.text).trim().to_string(),
        tokens: written.tokens.len(),
        stop: match written.stop {
            Stop::EndToken => "end",
            Stop::Length => "length",
            Stop::Cancelled => "cancelled",
            Stop::Context => "context",
        }
        .into(),
        model: model.name.clone(),
        precision: model.precision().id().to_string(),
        model_from_cache: loaded.origin == Some(Origin::Cache),
        millis: now_ms() - started,
    })
}

/// The language model the user chose (the shipped one unless they chose another),
/// loaded on first use from this site or the cache; `report` hears the stage and the
/// bytes read of the bytes in all.
async fn active_llm(report: &dyn Fn(&str, u64, u64)) -> Result<llm::Loaded, String> {
    const LOADING: &str = "loading the language model";
    let compute = compute::active().ok_or("the compute backend did not start")?;
    report(LOADING, 0, 0);
    let source = manager::active(Role::Llm).await?;
    llm::load(
        &source,
        Precision::for_backend(compute.backend()),
        Fetch::ThisSite,
        &|event, total| {
            if let Event::Bytes(done) = event {
                report(LOADING, done, total)
            }
        },
    )
    .await
}

/// The longest explanation the page asks for.
pub const MAX_EXPLANATION_TOKENS: usize = 256;

/// One request at a time: the models and the session are not shared between two.
pub struct Busy;

impl Busy {
    /// The worker's one request slot (questions, explanations, switching models).
    pub fn take() -> Result<Busy, String> {
        BUSY.with(|b| {
            let mut b = b.borrow_mut();
            if *b {
                return Err("the worker is busy with another request (a question, an explanation or a model \
                     switch); wait for it or cancel it".into());
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

/// Names the extractor and its version in the document-set key, so a cached extraction
/// from another extractor or release is never read back.
const EXTRACTOR: &str = concat!("rules@", env!("CARGO_PKG_VERSION"));

/// The graph of `documents`, read with `language` when it loaded: the session's when it
/// holds this set read the same way, else built from the cached extraction, else
/// extracted (and the extraction cached).
async fn prepared(documents: &[DocumentIn], language: Option<Arc<Language>>) -> PreparedView {
    let key = store::text_hash(&serde_json::to_string(&(EXTRACTOR, documents)).unwrap_or_default());
    if let Some(view) = SESSION.with(|s| {
        s.borrow()
            .as_ref()
            .filter(|s| {
                s.documents_key == key && s.prepared.language.is_some() == language.is_some()
            })
            .map(Session::view)
    }) {
        REPORT.with(|r| r.borrow_mut().extraction_cached = true);
        return view;
    }
    let docs: Vec<Document> = documents
        .iter()
        .map(|d| Document::new(d.name.clone(), d.text.clone()))
        .collect();
    let cached = store::get(EXTRACTIONS, &key)
        .await
        .and_then(|v| v.as_string())
        .and_then(|json| serde_json::from_str::<Extraction>(&json).ok())
        .and_then(|e| Prepared::from_extraction(docs.clone(), e));
    let prepared = match cached {
        Some(p) => {
            REPORT.with(|r| r.borrow_mut().extraction_cached = true);
            p
        }
        None => {
            let p = Prepared::new(docs, &RuleExtractor);
            if let Ok(json) = serde_json::to_string(&p.extraction) {
                store::put_many(EXTRACTIONS, vec![(key.clone(), json.into())]).await;
            }
            p
        }
    };
    let prepared = Rc::new(match language {
        Some(language) => prepared.with_language(language),
        None => prepared,
    });
    let names = documents.iter().map(|d| d.name.clone()).collect();
    let session = Session {
        documents_key: key,
        names,
        prepared,
        asked: None,
        exploration: None,
        answer: None,
    };
    let view = session.view();
    SESSION.with(|s| *s.borrow_mut() = Some(session));
    view
}

/// Makes `embedder` the session's (the model manager switched models): texts are
/// embedded by it from the next question on.
pub fn install_embedder(embedder: BertEmbedder) {
    let memo = Memo::new(SessionEmbedder {
        model: Model::Neural(Box::new(embedder)),
        from_cache: 0,
    });
    EMBEDDER.with(|e| *e.borrow_mut() = Some(memo));
    EMBEDDER_NOTE.with(|n| *n.borrow_mut() = None);
}

/// The session's embedder, loading the one chosen under Models on first use (the
/// lexical embedder when it cannot be loaded, with the reason kept for the page).
/// `report` hears what loading does, with the bytes of its files in all.
async fn take_embedder(report: &dyn Fn(Event, u64)) -> Memo<SessionEmbedder> {
    if let Some(memo) = EMBEDDER.with(|e| e.borrow_mut().take()) {
        return memo;
    }
    let precision =
        compute::active().map_or(Precision::F32, |c| Precision::for_backend(c.backend()));
    let loaded = match manager::active(Role::Embedder).await {
        Ok(source) => embedder::load(&source, precision, Fetch::ThisSite, report).await,
        Err(e) => Err(e),
    };
    let model = match loaded {
        Ok((e, origins)) => {
            count_origins(&origins, Files::Model);
            Model::Neural(Box::new(e))
        }
        Err(reason) => {
            EMBEDDER_NOTE.with(|n| *n.borrow_mut() = Some(reason));
            Model::Lexical(LexicalEmbedder::default())
        }
    };
    Memo::new(SessionEmbedder {
        model,
        from_cache: 0,
    })
}

/// Which files a load counts toward in the report.
#[derive(Clone, Copy)]
enum Files {
    Model,
    Language,
}

/// Counts where each loaded file came from into the answer's report.
fn count_origins(origins: &[Origin], files: Files) {
    REPORT.with(|r| {
        let mut r = r.borrow_mut();
        let r = &mut *r;
        let (cached, fetched) = match files {
            Files::Model => (&mut r.files_cached, &mut r.files_fetched),
            Files::Language => (&mut r.language_files_cached, &mut r.language_files_fetched),
        };
        for origin in origins {
            match origin {
                Origin::Cache => *cached += 1,
                Origin::Network => *fetched += 1,
                Origin::Repaired => {
                    *fetched += 1;
                    r.files_repaired += 1;
                }
            }
        }
    });
}

/// The language resources, loaded (or taken from this worker) with where their files
/// came from in the report; `None` with the reason in the report when they cannot load,
/// and the question is read without them.
async fn take_language(report: &dyn Fn(Event, u64)) -> Option<Arc<Language>> {
    match language::load(report).await {
        Ok((language, origins)) => {
            count_origins(&origins, Files::Language);
            Some(language)
        }
        Err(reason) => {
            REPORT.with(|r| r.borrow_mut().language_note = Some(reason));
            None
        }
    }
}

/// Why the neural embedder is not in use, if it is not.
pub fn embedder_note() -> Option<String> {
    EMBEDDER_NOTE.with(|n| n.borrow().clone())
}

fn chosen_values(values: &[ConditionValue]) -> Vec<(String, gate::Truth)> {
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

/// The page's view of `answer`, with this run's embedder, cache report and time.
fn answer_view(
    prepared: &PreparedView,
    exploration: &Exploration,
    answer: &Answer,
    embedded: usize,
    embedder: &str,
    cache: CacheReport,
    millis: f64,
) -> AnswerView {
    let mut view = answer_view::answer_view(
        &prepared.prepared,
        &prepared.names,
        exploration.question(),
        exploration.config(),
        &|phrase| exploration.evaluated(phrase),
        answer,
    );
    view.embedded = embedded;
    view.embedder = embedder.to_string();
    view.embedder_note = embedder_note();
    view.cache = cache;
    view.millis = millis;
    view
}
