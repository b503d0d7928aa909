//! `gatepath bench-all`: every chosen strategy and embedder (and, with `--llm`, CGR with
//! the language model) over every evaluation file, written as one results bundle that
//! the benchmark viewer reads without running a model.
//!
//! The bundle says what produced it — schema, engine version, date, each model file's
//! and each dataset's sha256 — so a published table can be checked against a run on
//! another machine.

use std::path::{Path, PathBuf};

use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use crate::bench;
use crate::models::SMOLLM2;
use engine::answer::Strategy;

/// The bundle format's name and version; a reader refuses another.
pub const SCHEMA: &str = "gatepath-bench/1";

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
    /// Write the bundle here.
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
    let mut datasets = Vec::new();
    let mut runs = Vec::new();
    let mut summary = Vec::new();
    for data in &args.data {
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
            let one = bench::Args::of_run(
                data.clone(),
                &strategy,
                &embedder,
                args.model_dir.clone(),
                llm,
            );
            let result = bench::evaluate(&one)?;
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
        datasets.push(json!({
            "path": data.display().to_string(),
            "name": file_name(data),
            "format": format,
            "n": n,
            "sha256": sha256_file(data)?,
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
    std::fs::write(&args.out, text)
        .map_err(|e| format!("{}: cannot write: {e}", args.out.display()))?;
    println!("\ngatepath bench-all: {} runs", summary.len());
    for line in &summary {
        println!("{line}");
    }
    println!("bundle: {}", args.out.display());
    Ok(())
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
