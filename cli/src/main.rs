//! `gatepath`: the engine on the command line.
//!
//! - `gatepath bench --data <file> [--strategy <name>] [--out <results.json>]`: runs a
//!   strategy over an evaluation set and prints EM/F1; the last line is exactly
//!   `EM <x> F1 <y> N <n>`.
//! - `gatepath bench-all --data <file>... --out <bundle.json>`: every strategy (and
//!   embedder, and CGR with an LLM when given) over every file, as one results bundle
//!   for the benchmark viewer.
//! - `gatepath extraction-bench --data <file>`: tuple precision / recall of extraction
//!   on annotated passages (the CGR paper's Table 7).
//! - `gatepath embed-bench`: sentences/s of the BERT embedder at batch 1 and 32, short
//!   and 128-token inputs, and peak memory.
//! - `gatepath llm-bench`: prompt and decode tokens/s of a GGUF language model, and
//!   peak memory.
//! - `gatepath gate-bench`: times gating and breadth-first walks on a synthetic graph
//!   (default 1M edges) and prints the numbers.

mod bench;
mod bundle;
mod data;
mod embed_bench;
mod extraction_bench;
mod gate_bench;
mod llm_bench;
mod models;

use clap::{Parser, Subcommand};

#[derive(Parser)]
#[command(
    name = "gatepath",
    version,
    about = "gatepath's engine on the command line"
)]
struct Cli {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand)]
enum Command {
    /// Answer every question of an evaluation set and report EM / F1.
    Bench(bench::Args),
    /// Every strategy over every evaluation file, as one results bundle (JSON).
    BenchAll(bundle::Args),
    /// Sentences per second of the BERT embedder natively, and peak memory.
    EmbedBench(embed_bench::Args),
    /// Tuple precision and recall of the rule extractor on annotated passages.
    ExtractionBench(extraction_bench::Args),
    /// Time gating and breadth-first walks over a synthetic condition-aware graph.
    GateBench(gate_bench::Args),
    /// Prompt and decode tokens per second of a GGUF language model natively, and peak memory.
    LlmBench(llm_bench::Args),
}

fn main() {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Bench(args) => bench::run(&args),
        Command::BenchAll(args) => bundle::run(&args),
        Command::EmbedBench(args) => embed_bench::run(&args),
        Command::ExtractionBench(args) => extraction_bench::run(&args),
        Command::GateBench(args) => gate_bench::run(&args),
        Command::LlmBench(args) => llm_bench::run(&args),
    };
    if let Err(message) = result {
        eprintln!("gatepath: {message}");
        std::process::exit(1);
    }
}
