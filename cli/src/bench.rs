//! `gatepath bench`: runs a strategy over an evaluation set and reports EM/F1 per
//! category; the last line is always `EM <x> F1 <y> N <n>` (percentages, one decimal)
//! so that other tools can read it. `--out` writes every question's result as JSON.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Instant;

use engine::answer::{
    answer_with, yes_no, Answer, AnswerSource, EdgeView, Layout, LlmSteps, PipelineConfig,
    Prepared, QuestionSteps, RuleSteps, Strategy, YesNoScorer,
};
use engine::embed::{Embedder, LexicalEmbedder};
use engine::eval::metrics::score;
use engine::extract::RuleExtractor;
use engine::gate::Truth;
use engine::language::Language;
use engine::text::Document;
use serde_json::{json, Value};

use crate::data::{load, Half, Item, Loaded};
use engine::llm::LanguageModel;
use engine::model::llama::LlamaModel;

use crate::models::{load_language, load_llm, load_minilm, SMOLLM2};

#[derive(clap::Args, Clone)]
pub struct Args {
    /// Evaluation file: condqa JSONL, a BioASQ golden JSON or PubMedQA JSON.
    #[arg(long)]
    pub(crate) data: PathBuf,
    /// Strategy: cgr (default), cgr-nogate, cgr-nomatch, regram, regram-nogate, amg, ikr,
    /// claims.
    #[arg(long, default_value = "cgr")]
    pub(crate) strategy: String,
    /// Write per-question results (JSON) here.
    #[arg(long)]
    pub(crate) out: Option<PathBuf>,
    /// Only the items with these ids (repeatable).
    #[arg(long)]
    pub(crate) id: Vec<String>,
    /// Only the first N items (after --id).
    #[arg(long)]
    pub(crate) limit: Option<usize>,
    /// Only one half of the set, split by the SHA-256 of each id: `work` (tuned on) or
    /// `check` (only ever scored).
    #[arg(long, value_enum)]
    pub(crate) half: Option<Half>,
    /// Embedder: lexical (no model) or minilm (all-MiniLM-L6-v2 from --model-dir).
    #[arg(long, default_value = "lexical")]
    pub(crate) embedder: String,
    /// Directory with config.json, model.safetensors and tokenizer.json.
    #[arg(long, default_value = "models/all-minilm-l6-v2")]
    pub(crate) model_dir: PathBuf,
    /// The language resources (tagger.txt, drugs.tsv, as scripts/build_lexicons.py
    /// writes them): readers take noun phrases from part-of-speech tags and know drug
    /// names, as the browser's worker does.
    #[arg(long, default_value = "models/lexicons")]
    pub(crate) lexicons: PathBuf,
    /// Read without the language resources (the ablation): readers split sentences at
    /// punctuation and function words.
    #[arg(long)]
    pub(crate) no_lexicons: bool,
    /// Read every document as one run of sentences (the ablation): headings, list
    /// lead-ins and table rows scope nothing.
    #[arg(long)]
    pub(crate) no_structure: bool,
    /// Order the passage reader's candidates by its own rules, not the learned ranker
    /// (the ablation).
    #[arg(long)]
    pub(crate) no_ranker: bool,
    /// Merge entities whose names embed at least this similar (UPGMA), e.g. 0.8.
    #[arg(long)]
    pub(crate) cluster: Option<f32>,
    /// Print each item's tuples, condition table, candidates and blocked edges.
    #[arg(long)]
    pub(crate) explain: bool,
    /// Write, one JSON line per question, the passage reader's candidates with their
    /// ranking features and whether each is a gold answer: what
    /// `scripts/train_ranker.py` learns the ranker's weights from.
    #[arg(long)]
    pub(crate) candidates: Option<PathBuf>,
    /// A GGUF language model for the steps it is used for (conditions the lexicon leaves
    /// unknown, PubMedQA's yes / no / maybe, ReGraM's hypotheses, revisions and
    /// guesses); `smollm2` is the shipped SmolLM2-135M-Instruct. Default: no LLM.
    #[arg(long)]
    pub(crate) llm: Option<PathBuf>,
    /// Also write, per question, what the page would show (its `AnswerView`: the
    /// gated-path view and the strategy's own view), as the benchmark viewer replays it.
    #[arg(long)]
    pub(crate) views: bool,
}

pub fn run(args: &Args) -> Result<(), String> {
    let results = evaluate(args)?;
    if let Some(out) = &args.out {
        let text = serde_json::to_string_pretty(&results).map_err(|e| e.to_string())?;
        std::fs::write(out, text).map_err(|e| format!("{}: cannot write: {e}", out.display()))?;
    }
    Ok(())
}

impl Args {
    /// The arguments of one run over `data` (no item filter, no output file).
    pub(crate) fn of_run(
        data: PathBuf,
        strategy: &str,
        embedder: &str,
        model_dir: PathBuf,
        llm: Option<PathBuf>,
    ) -> Args {
        Args {
            data,
            strategy: strategy.to_string(),
            out: None,
            id: Vec::new(),
            limit: None,
            embedder: embedder.to_string(),
            model_dir,
            lexicons: PathBuf::from("models/lexicons"),
            no_lexicons: false,
            no_structure: false,
            no_ranker: false,
            cluster: None,
            explain: false,
            candidates: None,
            llm,
            views: true,
            half: None,
        }
    }
}

/// Runs the evaluation `args` describe, prints its table and last line, and returns
/// the per-question results (what `--out` writes).
pub(crate) fn evaluate(args: &Args) -> Result<Value, String> {
    match args.embedder.as_str() {
        "lexical" => evaluate_with(args, &mut LexicalEmbedder::default()),
        "minilm" => evaluate_with(args, &mut load_minilm(&args.model_dir)?),
        other => Err(format!(
            "unknown embedder `{other}`; choose lexical or minilm"
        )),
    }
}

/// [`evaluate`] with an embedder the caller holds: `bench-all` keeps one memo per
/// embedder across its runs, so a text is embedded once however many strategies read it.
pub(crate) fn evaluate_with(args: &Args, embedder: &mut impl Embedder) -> Result<Value, String> {
    let loaded = load(&args.data)?;
    for problem in &loaded.skipped {
        eprintln!("skipped {problem}");
    }
    evaluate_on(
        args,
        &loaded,
        embedder,
        language(&args.lexicons, args.no_lexicons)?,
    )
}

/// The language resources in `dir`, or none for the ablation without them.
pub(crate) fn language(dir: &Path, without: bool) -> Result<Option<Arc<Language>>, String> {
    match without {
        false => Ok(Some(Arc::new(load_language(dir)?))),
        true => Ok(None),
    }
}

/// [`evaluate_with`] on the file `args.data` already read, with the language resources
/// already loaded (`bench-all` reads each once for all its runs).
pub(crate) fn evaluate_on(
    args: &Args,
    loaded: &Loaded,
    embedder: &mut impl Embedder,
    language: Option<Arc<Language>>,
) -> Result<Value, String> {
    let strategy = Strategy::from_name(&args.strategy).ok_or_else(|| {
        let names: Vec<&str> = Strategy::ALL.iter().map(|s| s.name()).collect();
        format!(
            "unknown strategy `{}`; choose one of: {}",
            args.strategy,
            names.join(", ")
        )
    })?;
    let items: Vec<&Item> = loaded
        .items
        .iter()
        .filter(|i| args.id.is_empty() || args.id.contains(&i.id))
        .filter(|i| args.half.is_none_or(|h| Half::of(&i.id) == h))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    if items.is_empty() {
        return Err(format!("{}: no items to run", args.data.display()));
    }
    let llm = match &args.llm {
        Some(path) if path.as_os_str() == "smollm2" => Some(load_llm(SMOLLM2.as_ref())?),
        Some(path) => Some(load_llm(path)?),
        None => None,
    };
    run_with(
        args,
        strategy,
        loaded,
        &items,
        embedder,
        llm.as_ref(),
        language,
    )
}

fn run_with(
    args: &Args,
    strategy: Strategy,
    loaded: &Loaded,
    items: &[&Item],
    mut embedder: impl Embedder,
    llm: Option<&LlamaModel>,
    language: Option<Arc<Language>>,
) -> Result<Value, String> {
    let config = PipelineConfig {
        layout: if args.no_structure {
            Layout::Flat
        } else {
            Layout::Structured
        },
        ranking: !args.no_ranker,
        ..strategy.config()
    };
    println!(
        "gatepath bench: {} ({}, {} items), strategy {}, embedder {}, {}",
        args.data.display(),
        loaded.format,
        items.len(),
        strategy.name(),
        embedder.name(),
        llm.map_or_else(|| "no LLM".to_string(), |m| format!("LLM {}", m.name()))
    );
    let mut per_category: BTreeMap<String, (f64, f64, usize)> = BTreeMap::new();
    let mut results: Vec<Value> = Vec::new();
    let (mut em_sum, mut f1_sum) = (0.0, 0.0);
    let mut candidate_out = match &args.candidates {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("{}: {e}", path.display()))?,
        )),
        None => None,
    };
    let mut scorer = match loaded.format {
        "pubmedqa" => llm.map(YesNoScorer::new),
        _ => None,
    };
    let mut plain_hits = 0.0;
    let run_started = Instant::now();
    for (done, item) in items.iter().enumerate() {
        // Long runs (an LLM over 500 abstracts) say how far they are, on stderr so the
        // report on stdout keeps its shape.
        if done > 0 && done % PROGRESS_EVERY == 0 {
            eprintln!(
                "  {done}/{} items, {:.0} s",
                items.len(),
                run_started.elapsed().as_secs_f64()
            );
        }
        let started = Instant::now();
        let docs: Vec<Document> = item
            .docs
            .iter()
            .enumerate()
            .map(|(i, d)| Document::new(format!("doc {}", i + 1), d.clone()))
            .collect();
        let mut prepared = Prepared::new(docs, &RuleExtractor);
        if let Some(language) = &language {
            prepared = prepared.with_language(Arc::clone(language));
        }
        // CLAIMS deduplicates entities as part of the method.
        if let Some(threshold) = args.cluster.or(config.claims.map(|c| c.dedup)) {
            pollster::block_on(prepared.cluster_entities(&mut embedder, threshold))
                .map_err(|e| e.to_string())?;
        }
        let prepare_ms = started.elapsed().as_secs_f64() * 1e3;
        let started = Instant::now();
        let (result, asked) = match llm {
            Some(model) => {
                let mut steps = LlmSteps::new(model);
                let result = ask(&prepared, item, &config, &mut embedder, &mut steps);
                (result, steps.last)
            }
            None => (
                ask(&prepared, item, &config, &mut embedder, &mut RuleSteps),
                Vec::new(),
            ),
        };
        let answer_ms = started.elapsed().as_secs_f64() * 1e3;
        let (prediction, mut value) = match &result {
            Ok(a) => {
                let mut value = answer_json(a);
                if args.views {
                    value["view"] = view_json(&prepared, item, &config, a)?;
                }
                (a.text().unwrap_or("").to_string(), value)
            }
            Err(e) => (String::new(), json!({ "error": e.to_string() })),
        };
        // PubMedQA asks yes, no or maybe: the finding closest to the question decides,
        // or, with an LLM, its calibrated likelihood of each word.
        let prediction = match (&result, loaded.format) {
            (Ok(a), "pubmedqa") => {
                let (verdict, judged) =
                    pollster::block_on(yes_no(&prepared, &item.question, a, &mut embedder))
                        .map_err(|e| e.to_string())?;
                value["judged"] = json!(judged);
                value["rule_verdict"] = json!(verdict.name());
                match scorer.as_mut() {
                    Some(scorer) => {
                        let context = item.docs.join("\n");
                        let scored = pollster::block_on(scorer.judge(&item.question, &context))
                            .map_err(|e| e.to_string())?;
                        value["llm_yes_no"] = json!({
                            "plain": scored.plain.name(),
                            "calibrated": scored.calibrated.name(),
                            "scores": scored.scores,
                        });
                        plain_hits += f64::from(u8::from(scored.plain.name() == item.gold));
                        scored.calibrated.name().to_string()
                    }
                    None => verdict.name().to_string(),
                }
            }
            _ => prediction,
        };
        let accepted =
            std::iter::once(item.gold.as_str()).chain(item.aliases.iter().map(String::as_str));
        let s = score(&prediction, accepted);
        em_sum += s.exact_match;
        f1_sum += s.f1;
        let slot = per_category
            .entry(item.category.clone())
            .or_insert((0.0, 0.0, 0));
        slot.0 += s.exact_match;
        slot.1 += s.f1;
        slot.2 += 1;
        if let Some(out) = candidate_out.as_mut() {
            let line = ranking_line(item, &prepared, &config);
            writeln!(out, "{line}").map_err(|e| format!("--candidates: {e}"))?;
        }
        if args.explain {
            explain(item, &prepared, &result, &prediction, s.exact_match);
            explain_passage(&prepared, &item.question, &config);
            for v in &asked {
                println!(
                    "   LLM L[{}] = {:?} (p {:.2}, lift {:.2}){}",
                    v.phrase,
                    v.proposed,
                    v.probability,
                    v.lift,
                    if v.accepted { " accepted" } else { "" }
                );
            }
        }
        let mut record = json!({
            "id": item.id,
            "category": item.category,
            "question": item.question,
            "gold": item.gold,
            "aliases": item.aliases,
            "prediction": if prediction.is_empty() { Value::Null } else { Value::String(prediction.clone()) },
            "em": s.exact_match,
            "f1": s.f1,
            "timings_ms": { "prepare": prepare_ms, "answer": answer_ms },
        });
        if llm.is_some() {
            record["llm_conditions"] = asked
                .iter()
                .map(|v| {
                    json!({
                        "phrase": v.phrase,
                        "proposed": truth_json(v.proposed),
                        "probability": v.probability,
                        "lift": v.lift,
                        "accepted": v.accepted,
                    })
                })
                .collect();
        }
        if let (Value::Object(r), Value::Object(a)) = (&mut record, value) {
            r.extend(a);
        }
        results.push(record);
    }
    let n = items.len();
    println!("{:<20} {:>4} {:>6} {:>6}", "category", "N", "EM", "F1");
    for (category, (em, f1, count)) in &per_category {
        println!(
            "{:<20} {:>4} {:>6.1} {:>6.1}",
            category,
            count,
            100.0 * em / *count as f64,
            100.0 * f1 / *count as f64
        );
    }
    let results = {
        json!({
            "schema": 1,
            "engine_version": env!("CARGO_PKG_VERSION"),
            "data": args.data.display().to_string(),
            "format": loaded.format,
            "strategy": strategy.name(),
            "embedder": embedder.name(),
            "llm": llm.map(|m| m.name().to_string()),
            "config": config_json(&config),
            "lexicons": !args.no_lexicons,
            "structure": !args.no_structure,
            "ranker": !args.no_ranker,
            "cluster_threshold": args.cluster,
            "skipped": loaded.skipped,
            "em": 100.0 * em_sum / n as f64,
            "f1": 100.0 * f1_sum / n as f64,
            "n": n,
            "categories": per_category.iter().map(|(category, (em, f1, count))| {
                (category.clone(), json!({
                    "n": count,
                    "em": 100.0 * em / *count as f64,
                    "f1": 100.0 * f1 / *count as f64,
                }))
            }).collect::<serde_json::Map<String, Value>>(),
            "seconds": run_started.elapsed().as_secs_f64(),
            "items": results,
        })
    };
    if scorer.is_some() {
        println!(
            "the LLM's yes / no / maybe read plainly (uncalibrated): accuracy {:.1}",
            100.0 * plain_hits / n as f64
        );
    }
    println!(
        "EM {:.1} F1 {:.1} N {}",
        100.0 * em_sum / n as f64,
        100.0 * f1_sum / n as f64,
        n
    );
    Ok(results)
}

/// Items between two progress lines.
const PROGRESS_EVERY: usize = 50;

/// One question through the pipeline with the given question-side steps.
fn ask(
    prepared: &Prepared,
    item: &Item,
    config: &PipelineConfig,
    embedder: &mut impl Embedder,
    steps: &mut impl QuestionSteps,
) -> Result<Answer, engine::answer::AnswerError> {
    pollster::block_on(answer_with(
        prepared,
        &item.question,
        config,
        embedder,
        steps,
    ))
}

/// What the page would show for this answer (the gated-path view and the strategy's
/// own view), for the benchmark viewer to replay. No patient description or chips were
/// applied, so the values the question gave the conditions are the answer's own.
fn view_json(
    prepared: &Prepared,
    item: &Item,
    config: &PipelineConfig,
    answer: &Answer,
) -> Result<Value, String> {
    let names: Vec<String> = prepared.docs.iter().map(|d| d.id.clone()).collect();
    let evaluated = |phrase: &str| {
        answer
            .conditions
            .iter()
            .find(|(p, _)| p == phrase)
            .map_or(Truth::Unknown, |(_, t)| *t)
    };
    let view =
        answer_view::answer_view(prepared, &names, &item.question, config, &evaluated, answer);
    serde_json::to_value(view).map_err(|e| e.to_string())
}

fn config_json(c: &PipelineConfig) -> Value {
    json!({
        "gating": c.gating,
        "condition_match": c.condition_match,
        "k_nodes": c.k_nodes,
        "tau": c.tau,
        "d_max": c.walk.max_depth,
        "k_paths": c.k_paths,
    })
}

fn truth_json(t: Truth) -> Value {
    match t {
        Truth::True => Value::Bool(true),
        Truth::False => Value::Bool(false),
        Truth::Unknown => Value::Null,
    }
}

fn edge_json(e: &EdgeView) -> Value {
    json!({
        "subject": e.subject,
        "relation": e.relation,
        "object": e.object,
        "conditions": e.conditions.iter().map(|c| json!({
            "phrase": c.phrase, "negated": c.negated, "truth": truth_json(c.truth),
        })).collect::<Vec<_>>(),
        "snippets": e.citations.iter().map(|c| json!({
            "doc": c.doc_id, "start": c.start, "end": c.end, "text": c.text,
        })).collect::<Vec<_>>(),
    })
}

fn answer_json(a: &Answer) -> Value {
    json!({
        "outcome": if a.text().is_some() { "answered" } else { "insufficient evidence" },
        "source": match a.source {
            AnswerSource::Paths => "paths",
            AnswerSource::Sentences => "sentences",
            AnswerSource::None => "none",
        },
        "read_from": a.read_from.iter().map(|c| json!({
            "doc": c.doc_id, "start": c.start, "end": c.end, "text": c.text,
        })).collect::<Vec<_>>(),
        "entries": a.entries,
        "conditions": a.conditions.iter().map(|(p, t)| json!({ "phrase": p, "truth": truth_json(*t) })).collect::<Vec<_>>(),
        "paths": a.evidence.iter().map(|p| json!({
            "nodes": p.nodes,
            "score": p.score,
            "edges": p.edges.iter().map(edge_json).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "blocked": a.blocked.iter().map(|b| json!({
            "edge": edge_json(&b.edge),
            "blocked_by": if b.negated { format!("not {}", b.condition) } else { b.condition.clone() },
        })).collect::<Vec<_>>(),
        "candidates": a.candidates.iter().take(5).map(|c| json!({ "answer": c.label, "score": c.score })).collect::<Vec<_>>(),
        "paths_found": a.paths_found,
        "traces": a.traces.iter().map(|t| json!({
            "term": t.term,
            "reached": t.reached.iter().map(|(node, confidence, hops)| json!({
                "node": node, "confidence": confidence, "hops": hops,
            })).collect::<Vec<_>>(),
        })).collect::<Vec<_>>(),
        "readout": a.readout,
        "entities_used": a.entities_used,
        "region": a.region.as_ref().map(|r| json!({
            "domain": r.domain.name(),
            "mode": r.mode.name(),
            "facts": r.edges.len(),
            "hops": r.hops.iter().map(|h| json!({
                "kind": h.question.kind.name(),
                "question": h.question.text,
                "mode": h.mode.name(),
                "facts": h.edges.len(),
                "answers": h.answers,
                "hypotheses": h.hypotheses.iter().map(|x| json!({
                    "proposed": x.proposed.to_string(),
                    "triple": x.triple.to_string(),
                    "revisions": x.revisions,
                    "score": x.review.score,
                    "accepted": x.review.accepted,
                    "reason": x.review.reason,
                })).collect::<Vec<_>>(),
                "guess": h.guess,
            })).collect::<Vec<_>>(),
        })),
        "claims": a.claims.as_ref().map(|c| json!({
            "claims": c.claims.len(),
            "summarizer": c.summarizer,
            "interests": c.interests.iter().zip(&c.summaries).map(|(i, layered)| json!({
                "claim": c.claims.get(i.claim).map(|x| x.text.as_str()),
                "test_relevance": i.test_relevance,
                "layers": layered.nodes.iter().map(|n| n.layer).max().unwrap_or(0),
                "summary": layered.summary().map(|s| s.text.as_str()),
            })).collect::<Vec<_>>(),
        })),
    })
}

/// One question's line for `--candidates`: the reader's candidates in its own order,
/// each with its ranking features and whether it is a gold answer.
fn ranking_line(item: &Item, prepared: &Prepared, config: &PipelineConfig) -> Value {
    let Some((language, reading)) = passage_reading(prepared, &item.question, config) else {
        return json!({ "id": item.id, "candidates": [] });
    };
    let features = engine::passage::rank::features(language, &reading);
    let accepted =
        || std::iter::once(item.gold.as_str()).chain(item.aliases.iter().map(String::as_str));
    let candidates: Vec<Value> = reading
        .candidates
        .iter()
        .zip(features)
        .map(|(c, f)| {
            json!({
                "text": c.text,
                "blocked": c.blocked_by.is_some(),
                "gold": score(&c.text, accepted()).exact_match > 0.0,
                "features": f,
            })
        })
        .collect();
    json!({ "id": item.id, "asked": format!("{:?}", reading.asked), "features": engine::passage::rank::FEATURES, "candidates": candidates })
}

/// The passage reader's reading of `question` in its own order, gated on the
/// question's patient when `config` gates, without the graph's blocked options
/// (`None`: no language resources, nothing asked or no statements).
fn passage_reading<'a>(
    prepared: &'a Prepared,
    question: &str,
    config: &PipelineConfig,
) -> Option<(&'a Language, engine::passage::Reading)> {
    let language = prepared.language.as_deref()?;
    let mut query = engine::query::parse(question);
    query.patient.learn_kinds(&language.drugs, question);
    let patient = config.gating.then_some(&query.patient);
    let reading = engine::passage::read(
        &prepared.docs,
        config.layout,
        language,
        question,
        &query,
        patient,
        &[],
    )?;
    Some((language, reading))
}

/// The passage reader's view of one question for `--explain`: what it takes the
/// question to ask for and its best candidates with their scores, so a wrong answer
/// shows whether the right one was found and ranked lower or never found. Read without
/// the graph's blocked options, so a candidate only the gate rules out shows unblocked.
fn explain_passage(prepared: &Prepared, question: &str, config: &PipelineConfig) {
    if prepared.language.is_none() {
        return;
    }
    let Some((language, mut reading)) = passage_reading(prepared, question, config) else {
        println!("   reader: nothing asked or no statements");
        return;
    };
    if config.ranking {
        engine::passage::rank::Ranker::shipped().rank(language, &mut reading);
    }
    let mut query = engine::query::parse(question);
    query.patient.learn_kinds(&language.drugs, question);
    let p = &query.patient;
    println!(
        "   patient concepts {:?} measures {:?} words {:?} kinds {:?}",
        p.concepts,
        p.measures
            .iter()
            .map(|m| format!("{:?} {:?}", m.quantity, m.interval))
            .collect::<Vec<_>>(),
        p.words,
        p.kinds
    );
    println!("   reader asks {:?}", reading.asked);
    for c in reading.candidates.iter().take(10) {
        println!(
            "   reader {:.2} {}{}{}{}",
            c.score,
            c.text,
            if c.typed == engine::passage::Typed::Phrase {
                " [phrase]"
            } else {
                ""
            },
            if c.for_patient { " [patient]" } else { "" },
            if c.blocked_by.is_some() {
                " [blocked]"
            } else {
                ""
            }
        );
    }
}

fn explain(
    item: &Item,
    prepared: &Prepared,
    result: &Result<Answer, engine::answer::AnswerError>,
    prediction: &str,
    em: f64,
) {
    println!(
        "\n## {} [{}] {}",
        item.id,
        if em > 0.0 { "ok" } else { "WRONG" },
        item.question
    );
    println!(
        "   gold: {} {:?} | predicted: {prediction}",
        item.gold, item.aliases
    );
    for t in &prepared.extraction.tuples {
        println!("   tuple {t}");
    }
    for (a, b) in &prepared.extraction.aliases {
        println!("   alias {a} = {b}");
    }
    if let Ok(a) = result {
        for (p, t) in &a.conditions {
            println!("   L[{p}] = {t:?}");
        }
        println!("   entries {:?}", a.entries);
        for b in &a.blocked {
            println!(
                "   blocked {} {} {} by {}{}",
                b.edge.subject,
                b.edge.relation,
                b.edge.object,
                if b.negated { "¬" } else { "" },
                b.condition
            );
        }
        for c in a.candidates.iter().take(5) {
            println!("   candidate {:.2} {}", c.score, c.label);
        }
    }
}
