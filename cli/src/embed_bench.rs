//! `gatepath embed-bench`: sentences per second of the BERT embedder natively, at batch
//! 1 and 32, for short (≈12-token) and 128-token inputs, and the process's peak memory.
//! Prints numbers; asserts nothing about time. `scripts/embed_bench.sh` runs it next to
//! an independent numpy implementation on the same inputs and prints the ratio.

use std::path::PathBuf;
use std::time::Instant;

use crate::models::{load_minilm, peak_memory_kib};

#[derive(clap::Args)]
pub struct Args {
    /// Directory with config.json, model.safetensors and tokenizer.json.
    #[arg(long, default_value = "models/all-minilm-l6-v2")]
    model_dir: PathBuf,
    /// Texts per measurement (each text distinct, so nothing is reused from the cache).
    #[arg(long, default_value_t = 64)]
    texts: usize,
    /// Print one machine-readable line per measurement: `short|long batch sentences_per_s`.
    #[arg(long)]
    plain: bool,
}

/// Distinct texts of about `words` WordPiece tokens each.
pub fn inputs(n: usize, long: bool) -> Vec<String> {
    const WORDS: &[&str] = &[
        "warfarin",
        "is",
        "preferred",
        "for",
        "patients",
        "with",
        "a",
        "mechanical",
        "valve",
        "and",
        "atrial",
        "fibrillation",
        "while",
        "apixaban",
        "remains",
        "an",
        "option",
        "in",
        "most",
        "others",
        "who",
        "tolerate",
        "oral",
        "therapy",
    ];
    (0..n)
        .map(|i| {
            let count = if long { 98 } else { 6 };
            let mut words: Vec<String> = (0..count)
                .map(|j| WORDS[(i * 7 + j * 3) % WORDS.len()].to_string())
                .collect();
            words.push(format!("case{i}"));
            words.join(" ")
        })
        .collect()
}

pub fn run(args: &Args) -> Result<(), String> {
    // One load; the cache is cleared before each measurement so nothing is reused.
    let mut embedder = load_minilm(&args.model_dir)?;
    for long in [false, true] {
        for batch in [1usize, 32] {
            embedder.set_batch_size(batch);
            embedder.clear_cache();
            let texts = inputs(args.texts, long);
            let tokens = embedder
                .tokenize(&texts[0])
                .map_err(|e| e.to_string())?
                .ids
                .len();
            // Warm-up on other texts, then the measurement.
            let warm = inputs(batch, long)
                .into_iter()
                .map(|t| format!("warm {t}"))
                .collect::<Vec<_>>();
            pollster::block_on(embedder.embed_texts(&warm)).map_err(|e| e.to_string())?;
            let started = Instant::now();
            pollster::block_on(embedder.embed_texts(&texts)).map_err(|e| e.to_string())?;
            let rate = texts.len() as f64 / started.elapsed().as_secs_f64();
            let kind = if long { "long" } else { "short" };
            if args.plain {
                println!("{kind} {batch} {rate:.2}");
            } else {
                println!(
                    "{kind:>5} inputs ({tokens} tokens), batch {batch:>2}: {rate:8.1} sentences/s"
                );
            }
        }
    }
    if let Some(kib) = peak_memory_kib() {
        if args.plain {
            println!("peak_kib {kib}");
        } else {
            println!("peak memory (VmHWM): {:.1} MiB", kib as f64 / 1024.0);
        }
    }
    Ok(())
}
