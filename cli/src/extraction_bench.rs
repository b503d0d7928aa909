//! `gatepath extraction-bench`: tuple precision and recall of the rule extractor on
//! hand-annotated passages: the CGR paper's Table 7 (the `extraction` list of
//! `paper-examples.json`) or a fixture collection of `engine/tests/extraction/` (a list
//! of passages). Matching is [`engine::eval::extraction`]'s.

use std::path::PathBuf;

use engine::eval::extraction::{score, statements, Counts, Passage};
use engine::extract::{Extractor, RuleExtractor};
use engine::text::Document;
use serde::Deserialize;

#[derive(clap::Args)]
pub struct Args {
    /// A JSON file: `paper-examples.json` (its `extraction` list) or a list of passages
    /// {text, tuples: [[u, r, v, [conditions]]]}.
    #[arg(long)]
    data: PathBuf,
    /// Print every predicted and gold tuple.
    #[arg(long)]
    explain: bool,
}

#[derive(Deserialize)]
#[serde(untagged)]
enum File {
    Examples { extraction: Vec<Passage> },
    Passages(Vec<Passage>),
}

pub fn run(args: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.data)
        .map_err(|e| format!("{}: cannot read: {e}", args.data.display()))?;
    let file: File = serde_json::from_str(&text).map_err(|e| {
        format!(
            "{}: neither paper examples nor a list of passages: {e}",
            args.data.display()
        )
    })?;
    let passages = match file {
        File::Examples { extraction } => extraction,
        File::Passages(passages) => passages,
    };
    let mut total = Counts::default();
    for (i, passage) in passages.iter().enumerate() {
        let x = RuleExtractor.extract(&[Document::new(
            format!("passage {}", i + 1),
            passage.text.clone(),
        )]);
        let tuples = statements(&x);
        total += score(&tuples, &passage.tuples);
        if args.explain {
            println!("passage {}:", i + 1);
            for t in &tuples {
                println!("  predicted {t}");
            }
            for g in &passage.tuples {
                println!(
                    "  gold      ⟨{}, {}, {}, [{}]⟩",
                    g.0,
                    g.1,
                    g.2,
                    g.3.join(", ")
                );
            }
        }
    }
    println!(
        "passages {} gold tuples {} predicted tuples {}",
        passages.len(),
        total.gold,
        total.predicted
    );
    for (label, strict) in [
        ("arguments:           ", false),
        ("arguments+conditions:", true),
    ] {
        println!(
            "{label}  precision {:.1} recall {:.1}",
            total.precision(strict),
            total.recall(strict)
        );
    }
    Ok(())
}
