//! `gatepath extraction-bench`: tuple precision and recall of the rule extractor on
//! hand-annotated passages (the CGR paper's Table 7, in `paper-examples.json`).
//!
//! A predicted tuple matches a gold tuple when its two arguments match the gold
//! arguments in either order (relations are named differently from one annotation to
//! another, and an inverse relation states the same fact), an argument matching when
//! its SQuAD-normalised token F1 with the gold argument is at least 0.5. The stricter
//! count also asks the conditions to match: every gold condition has a predicted
//! condition with token F1 ≥ 0.5 (and no conditions when the gold has none).

use std::path::PathBuf;

use engine::eval::metrics::f1;
use engine::extract::{Extractor, RuleExtractor};
use engine::graph::{Relation, Tuple};
use engine::text::Document;
use serde::Deserialize;

#[derive(clap::Args)]
pub struct Args {
    /// A JSON file with an `extraction` list of {text, tuples: [[u, r, v, [conditions]]]}.
    #[arg(long)]
    data: PathBuf,
    /// Print every predicted and gold tuple.
    #[arg(long)]
    explain: bool,
}

#[derive(Deserialize)]
struct File {
    extraction: Vec<Passage>,
}

#[derive(Deserialize)]
struct Passage {
    text: String,
    tuples: Vec<(String, String, String, Vec<String>)>,
}

const MATCH: f64 = 0.5;

fn arguments_match(p: &Tuple, g: &(String, String, String, Vec<String>)) -> bool {
    let same = f1(&p.subject, &g.0) >= MATCH && f1(&p.object, &g.2) >= MATCH;
    let swapped = f1(&p.subject, &g.2) >= MATCH && f1(&p.object, &g.0) >= MATCH;
    same || swapped
}

fn conditions_match(p: &Tuple, g: &(String, String, String, Vec<String>)) -> bool {
    if g.3.is_empty() {
        return p.conditions.is_empty();
    }
    g.3.iter()
        .all(|gc| p.conditions.iter().any(|pc| f1(&pc.phrase, gc) >= MATCH))
}

pub fn run(args: &Args) -> Result<(), String> {
    let text = std::fs::read_to_string(&args.data)
        .map_err(|e| format!("{}: cannot read: {e}", args.data.display()))?;
    let file: File =
        serde_json::from_str(&text).map_err(|e| format!("{}: {e}", args.data.display()))?;
    let (mut predicted, mut gold) = (0usize, 0usize);
    let (mut tp_args, mut tp_strict) = (0usize, 0usize);
    let (mut found_args, mut found_strict) = (0usize, 0usize);
    for (i, passage) in file.extraction.iter().enumerate() {
        let x = RuleExtractor.extract(&[Document::new(
            format!("passage {}", i + 1),
            passage.text.clone(),
        )]);
        // Class membership and generic harm tuples are bookkeeping, not statements the
        // annotators wrote.
        let tuples: Vec<&Tuple> = x
            .tuples
            .iter()
            .filter(|t| t.relation != Relation::IsA && t.object != "harm")
            .collect();
        predicted += tuples.len();
        gold += passage.tuples.len();
        tp_args += tuples
            .iter()
            .filter(|p| passage.tuples.iter().any(|g| arguments_match(p, g)))
            .count();
        tp_strict += tuples
            .iter()
            .filter(|p| {
                passage
                    .tuples
                    .iter()
                    .any(|g| arguments_match(p, g) && conditions_match(p, g))
            })
            .count();
        found_args += passage
            .tuples
            .iter()
            .filter(|g| tuples.iter().any(|p| arguments_match(p, g)))
            .count();
        found_strict += passage
            .tuples
            .iter()
            .filter(|g| {
                tuples
                    .iter()
                    .any(|p| arguments_match(p, g) && conditions_match(p, g))
            })
            .count();
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
    let ratio = |a: usize, b: usize| {
        if b == 0 {
            0.0
        } else {
            100.0 * a as f64 / b as f64
        }
    };
    println!(
        "passages {} gold tuples {} predicted tuples {}",
        file.extraction.len(),
        gold,
        predicted
    );
    println!(
        "arguments:             precision {:.1} recall {:.1}",
        ratio(tp_args, predicted),
        ratio(found_args, gold)
    );
    println!(
        "arguments+conditions:  precision {:.1} recall {:.1}",
        ratio(tp_strict, predicted),
        ratio(found_strict, gold)
    );
    Ok(())
}
