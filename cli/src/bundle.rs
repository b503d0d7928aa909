//! `gatepath bench-all`: every chosen strategy and embedder (and, with `--llm`, CGR with
//! the language model) over every evaluation file, written as one results bundle that
//! the benchmark viewer reads without running a model.
//!
//! The bundle says what produced it — schema, engine version, date, each model file's
//! and each dataset's sha256 — so a published table can be checked against a run on
//! another machine.

use std::io::Write;
use std::path::{Path, PathBuf};

use flate2::write::GzEncoder;
use flate2::Compression;

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::bench;
use crate::models::{load_minilm, SMOLLM2};
use engine::answer::Strategy;
use engine::embed::{LexicalEmbedder, Memo};
use engine::model::bert::BertEmbedder;

pub use answer_view::bundle::SCHEMA;

#[derive(clap::Args)]
pub struct Args {
    /// Evaluation files (repeatable): condqa JSONL, BioASQ golden JSON, PubMedQA JSON.
    #[arg(long, required = true)]
    data: Vec<PathBuf>,
    /// Strategies (repeatable). Default: all of them.
    #[arg(long)]
    strategy: Vec<String>,
    /// Embedders (repeatable): lexical, minilm. Default: lexical.
    #[arg(long)]
    embedder: Vec<String>,
    /// Directory with the MiniLM files (config.json, model.safetensors, tokenizer.json).
    #[arg(long, default_value = "models/all-minilm-l6-v2")]
    model_dir: PathBuf,
    /// Also run CGR with this GGUF language model (`smollm2`: the shipped one) on the
    /// lexical embedder, as the "with the LLM" ablation.
    #[arg(long)]
    llm: Option<PathBuf>,
    /// The language resources every run reads with (as `bench --lexicons`).
    #[arg(long, default_value = "models/lexicons")]
    lexicons: PathBuf,
    /// Every run without the language resources (as `bench --no-lexicons`).
    #[arg(long)]
    no_lexicons: bool,
    /// Only the first N questions of each file (a quick look, or a small bundle).
    #[arg(long)]
    limit: Option<usize>,
    /// Write the bundle here (gzip-compressed when the name ends in `.gz`).
    #[arg(long)]
    out: PathBuf,
}

pub fn run(args: &Args) -> Result<(), String> {
    let strategies: Vec<String> = match args.strategy.is_empty() {
        true => Strategy::ALL.iter().map(|s| s.name().to_string()).collect(),
        false => args.strategy.clone(),
    };
    let embedders: Vec<String> = match args.embedder.is_empty() {
        true => vec!["lexical".to_string()],
        false => args.embedder.clone(),
    };
    let llm = args.llm.as_ref().map(|p| match p.as_os_str() == "smollm2" {
        true => PathBuf::from(SMOLLM2),
        false => p.clone(),
    });
    // The language resources read once for every run.
    let language = bench::language(&args.lexicons, args.no_lexicons)?;
    // One MiniLM for every run, its memo shared: each text is embedded once.
    let mut minilm: Option<Memo<BertEmbedder>> = None;
    let mut datasets = Vec::new();
    let mut runs = Vec::new();
    let mut summary = Vec::new();
    for data in &args.data {
        // Read once for every run over it and for its questions in the bundle.
        let loaded = crate::data::load(data)?;
        for problem in &loaded.skipped {
            eprintln!("skipped {problem}");
        }
        let mut plan: Vec<(String, String, Option<PathBuf>)> = Vec::new();
        for embedder in &embedders {
            for strategy in &strategies {
                plan.push((strategy.clone(), embedder.clone(), None));
            }
        }
        if let Some(llm) = &llm {
            plan.push(("cgr".into(), "lexical".into(), Some(llm.clone())));
        }
        let mut format = Value::Null;
        let mut n = Value::Null;
        for (strategy, embedder, llm) in plan {
            let mut one = bench::Args::of_run(
                data.clone(),
                &strategy,
                &embedder,
                args.model_dir.clone(),
                llm,
            );
            one.limit = args.limit;
            one.lexicons = args.lexicons.clone();
            one.no_lexicons = args.no_lexicons;
            let mut result = match embedder.as_str() {
                "minilm" => {
                    let memo = match &mut minilm {
                        Some(memo) => memo,
                        None => minilm.insert(Memo::new(load_minilm(&args.model_dir)?)),
                    };
                    bench::evaluate_on(&one, &loaded, memo, language.clone())?
                }
                "lexical" => bench::evaluate_on(
                    &one,
                    &loaded,
                    &mut LexicalEmbedder::default(),
                    language.clone(),
                )?,
                other => {
                    return Err(format!(
                        "unknown embedder `{other}`; choose lexical or minilm"
                    ))
                }
            };
            strip_duplicates(&mut result);
            format = result["format"].clone();
            n = result["n"].clone();
            summary.push(format!(
                "{:<44} {:<14} {:<8} {:<5} EM {:>5.1} F1 {:>5.1} N {}",
                file_name(data),
                strategy,
                embedder,
                if one.llm.is_some() { "llm" } else { "-" },
                result["em"].as_f64().unwrap_or(0.0),
                result["f1"].as_f64().unwrap_or(0.0),
                result["n"],
            ));
            runs.push(result);
        }
        // The questions with their documents, once per dataset: the viewer shows the
        // cited sentences in their documents and can run the questions again in the browser.
        let questions: Vec<Value> = loaded
            .items
            .iter()
            .take(args.limit.unwrap_or(usize::MAX))
            .map(|i| {
                json!({
                    "id": i.id,
                    "category": i.category,
                    "question": i.question,
                    "gold": i.gold,
                    "aliases": i.aliases,
                    "documents": i.docs,
                })
            })
            .collect();
        datasets.push(json!({
            "path": data.display().to_string(),
            "name": file_name(data),
            "format": format,
            "n": n,
            "sha256": sha256_file(data)?,
            "questions": questions,
        }));
    }
    let mut models = Vec::new();
    if embedders.iter().any(|e| e == "minilm") {
        let files = ["config.json", "model.safetensors", "tokenizer.json"]
            .iter()
            .map(|f| {
                let path = args.model_dir.join(f);
                Ok(json!({ "name": f, "sha256": sha256_file(&path)? }))
            })
            .collect::<Result<Vec<Value>, String>>()?;
        models.push(json!({ "role": "embedder", "name": "all-MiniLM-L6-v2", "files": files }));
    }
    if let Some(llm) = &llm {
        models.push(json!({
            "role": "llm",
            "name": file_name(llm),
            "files": [{ "name": file_name(llm), "sha256": sha256_file(llm)? }],
        }));
    }
    let bundle = json!({
        "schema": SCHEMA,
        "engine_version": env!("CARGO_PKG_VERSION"),
        "created": chrono::Utc::now().to_rfc3339_opts(chrono::SecondsFormat::Secs, true),
        "models": models,
        "datasets": datasets,
        "runs": runs,
    });
    let text = serde_json::to_string(&bundle).map_err(|e| e.to_string())?;
    // `.gz`: gzip-compressed, as the site publishes it (about an eighth of the size).
    let bytes = match args.out.extension().is_some_and(|e| e == "gz") {
        true => {
            let mut gz = GzEncoder::new(Vec::new(), Compression::best());
            gz.write_all(text.as_bytes())
                .and_then(|()| gz.finish())
                .map_err(|e| format!("cannot compress the bundle: {e}"))?
        }
        false => text.into_bytes(),
    };
    std::fs::write(&args.out, bytes)
        .map_err(|e| format!("{}: cannot write: {e}", args.out.display()))?;
    println!("\ngatepath bench-all: {} runs", summary.len());
    for line in &summary {
        println!("{line}");
    }
    println!("bundle: {}", args.out.display());
    Ok(())
}

/// Per question, what the stored view already holds (paths, blocked edges, the condition
/// table, citations and the strategy's own results) is dropped from the bench's own
/// record, which keeps the bundle about half the size; `bench --out` still writes it.
fn strip_duplicates(run: &mut Value) {
    const IN_VIEW: [&str; 8] = [
        "paths",
        "blocked",
        "conditions",
        "read_from",
        "traces",
        "region",
        "claims",
        "readout",
    ];
    if let Some(items) = run.get_mut("items").and_then(Value::as_array_mut) {
        for item in items {
            if let Some(record) = item.as_object_mut().filter(|r| r.contains_key("view")) {
                for key in IN_VIEW {
                    record.remove(key);
                }
            }
        }
    }
}

fn file_name(path: &Path) -> String {
    path.file_name().map_or_else(
        || path.display().to_string(),
        |n| n.to_string_lossy().into_owned(),
    )
}

fn sha256_file(path: &Path) -> Result<String, String> {
    let bytes = std::fs::read(path).map_err(|e| format!("{}: {e}", path.display()))?;
    Ok(format!("{:x}", Sha256::digest(&bytes)))
}
