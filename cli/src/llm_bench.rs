//! `gatepath llm-bench`: prompt and decode tokens per second of a GGUF language model
//! natively (CPU backend), and the process's peak memory. Prints numbers; asserts
//! nothing about time. `scripts/llm_bench.sh` runs it next to llama.cpp on the same file
//! and prompt and prints the ratios.

use std::path::PathBuf;
use std::time::Instant;

use engine::model::llama::sample::argmax;

use crate::models::{load_llm, peak_memory_kib, SMOLLM2};

#[derive(clap::Args)]
pub struct Args {
    /// The GGUF file.
    #[arg(long, default_value = SMOLLM2)]
    model: PathBuf,
    /// Prompt length in tokens.
    #[arg(long, default_value_t = 128)]
    prompt_tokens: usize,
    /// Tokens decoded one at a time after the prompt (greedy).
    #[arg(long, default_value_t = 64)]
    decode_tokens: usize,
    /// Print machine-readable lines: `prompt <tokens/s>`, `decode <tokens/s>`, `peak_kib <n>`.
    #[arg(long)]
    plain: bool,
    /// Print the prompt's token ids (one line, space-separated) and exit: the peer
    /// benchmark feeds llama.cpp exactly these.
    #[arg(long)]
    print_prompt: bool,
}

/// The benchmark prompt: clinical prose, repeated until it is long enough.
pub const PROMPT: &str = "Warfarin is preferred for patients with a mechanical heart valve and atrial fibrillation, while apixaban remains an option for most others who tolerate oral therapy. Doxycycline is avoided in pregnancy; amoxicillin is the usual choice for early Lyme disease in pregnant patients. ";

pub fn run(args: &Args) -> Result<(), String> {
    let started = Instant::now();
    let model = load_llm(&args.model)?;
    let load = started.elapsed();
    let text = PROMPT.repeat(args.prompt_tokens / 40 + 2);
    let mut prompt = model.tokenize(&text).map_err(|e| e.to_string())?;
    prompt.truncate(args.prompt_tokens.max(1));
    if args.print_prompt {
        let ids: Vec<String> = prompt.iter().map(u32::to_string).collect();
        println!("{}", ids.join(" "));
        return Ok(());
    }

    // Warm-up: one short prompt and a few steps, so allocations and caches settle.
    let mut cache = model.new_cache();
    let logits = pollster::block_on(model.feed(&prompt[..prompt.len().min(8)], &mut cache))
        .map_err(|e| e.to_string())?;
    let mut next = argmax(&logits);
    for _ in 0..4 {
        let logits =
            pollster::block_on(model.feed(&[next], &mut cache)).map_err(|e| e.to_string())?;
        next = argmax(&logits);
    }

    let mut cache = model.new_cache();
    let started = Instant::now();
    let logits = pollster::block_on(model.feed(&prompt, &mut cache)).map_err(|e| e.to_string())?;
    let prompt_rate = prompt.len() as f64 / started.elapsed().as_secs_f64();
    let mut next = argmax(&logits);
    let started = Instant::now();
    for _ in 0..args.decode_tokens {
        let logits =
            pollster::block_on(model.feed(&[next], &mut cache)).map_err(|e| e.to_string())?;
        next = argmax(&logits);
    }
    let decode_rate = args.decode_tokens as f64 / started.elapsed().as_secs_f64();
    let peak = peak_memory_kib();
    if args.plain {
        println!("prompt {prompt_rate:.2}");
        println!("decode {decode_rate:.2}");
        if let Some(kib) = peak {
            println!("peak_kib {kib}");
        }
    } else {
        println!("{} ({} threads)", model.name, rayon_threads());
        println!("load: {:.2} s", load.as_secs_f64());
        println!(
            "prompt ({} tokens): {prompt_rate:.1} tokens/s",
            prompt.len()
        );
        println!(
            "decode ({} tokens): {decode_rate:.1} tokens/s",
            args.decode_tokens
        );
        if let Some(kib) = peak {
            println!("peak memory (VmHWM): {:.1} MiB", kib as f64 / 1024.0);
        }
    }
    Ok(())
}

/// The threads burn's CPU backend may use (rayon's pool: `RAYON_NUM_THREADS` or the cores).
fn rayon_threads() -> usize {
    std::env::var("RAYON_NUM_THREADS")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or_else(|| std::thread::available_parallelism().map_or(1, usize::from))
}
