//! A results bundle (`gatepath bench-all --out`) as the benchmark viewer reads it: the
//! runs (one strategy and embedder, with or without the language model, over one
//! dataset), their scores overall and per category, and per question the prediction,
//! its score and the stored [`AnswerView`](crate::AnswerView) that replays it.
//!
//! Also what the viewer does with one: the strategy × dataset table and its sorting,
//! and the question list with its filters. Each question's view stays raw JSON until it
//! is opened, so a bundle of thousands of questions loads quickly and holds little.

use std::cmp::Ordering;
use std::collections::BTreeMap;
use std::io::Read;

use serde::{Deserialize, Serialize};
use serde_json::value::RawValue;

use crate::AnswerView;

/// The bundle format's name and version; a reader refuses another.
pub const SCHEMA: &str = "gatepath-bench/1";

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Bundle {
    pub schema: String,
    pub engine_version: String,
    /// When it was made (UTC, RFC 3339).
    pub created: String,
    #[serde(default)]
    pub models: Vec<ModelRecord>,
    pub datasets: Vec<DatasetRecord>,
    pub runs: Vec<Run>,
}

/// A model the runs used, with each file's sha256.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ModelRecord {
    /// `embedder` or `llm`.
    pub role: String,
    pub name: String,
    pub files: Vec<FileHash>,
}

#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct FileHash {
    pub name: String,
    pub sha256: String,
}

/// An evaluation file the runs read.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct DatasetRecord {
    /// As given on the command line; runs name their dataset by it.
    pub path: String,
    pub name: String,
    /// `condqa`, `bioasq` or `pubmedqa`.
    pub format: String,
    pub n: usize,
    pub sha256: String,
    /// The questions with their documents ("doc 1", "doc 2", … in order).
    #[serde(default)]
    pub questions: Vec<Question>,
}

/// A question of a dataset as the runs were given it.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Question {
    pub id: String,
    #[serde(default)]
    pub category: String,
    pub question: String,
    pub gold: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    pub documents: Vec<String>,
}

impl DatasetRecord {
    /// How the viewer names it: the file name, after its format when the name does not
    /// say it ("pubmedqa · dev.json" beside "condqa · dev.jsonl").
    pub fn label(&self) -> String {
        match self.name.to_lowercase().contains(&self.format) {
            true => self.name.clone(),
            false => format!("{} · {}", self.format, self.name),
        }
    }
}

/// One strategy (with one embedder, with or without the language model) over one dataset.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct Run {
    /// The dataset's path ([`DatasetRecord::path`]).
    pub data: String,
    pub format: String,
    pub strategy: String,
    pub embedder: String,
    #[serde(default)]
    pub llm: Option<String>,
    pub em: f64,
    pub f1: f64,
    pub n: usize,
    #[serde(default)]
    pub categories: BTreeMap<String, Score>,
    #[serde(default)]
    pub seconds: f64,
    pub items: Vec<ItemResult>,
}

/// EM and F1 (percent) over `n` questions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
pub struct Score {
    pub n: usize,
    pub em: f64,
    pub f1: f64,
}

/// One question of a run.
#[derive(Debug, Clone, Serialize, Deserialize)]
pub struct ItemResult {
    pub id: String,
    #[serde(default)]
    pub category: String,
    pub question: String,
    pub gold: String,
    #[serde(default)]
    pub aliases: Vec<String>,
    /// `None`: insufficient evidence.
    pub prediction: Option<String>,
    pub em: f64,
    pub f1: f64,
    /// What the page showed for it, kept as JSON until it is opened.
    #[serde(default)]
    pub view: Option<Box<RawValue>>,
    /// Why the question could not be answered at all, when it could not.
    #[serde(default)]
    pub error: Option<String>,
}

impl Bundle {
    /// Reads a bundle from a file's bytes, gzip-compressed (as `bench-all --out
    /// x.json.gz` writes it) or not.
    pub fn from_bytes(bytes: &[u8]) -> Result<Bundle, String> {
        let text = if bytes.starts_with(&[0x1f, 0x8b]) {
            let mut text = String::new();
            flate2::read::GzDecoder::new(bytes)
                .read_to_string(&mut text)
                .map_err(|e| format!("the results bundle could not be decompressed: {e}"))?;
            text
        } else {
            String::from_utf8(bytes.to_vec()).map_err(|_| {
                "this is not a results bundle (neither JSON text nor gzip)".to_string()
            })?
        };
        Bundle::parse(&text)
    }

    /// Reads a bundle, refusing anything that is not one of this version.
    pub fn parse(text: &str) -> Result<Bundle, String> {
        #[derive(Deserialize)]
        struct Head {
            schema: Option<String>,
        }
        let head: Head = serde_json::from_str(text).map_err(|e| {
            format!("this is not a results bundle (not JSON of the expected shape: {e})")
        })?;
        match head.schema.as_deref() {
            Some(SCHEMA) => {}
            Some(other) => {
                return Err(format!(
                    "this bundle is {other}; this viewer reads {SCHEMA} (made by `gatepath bench-all` of the same release)"
                ))
            }
            None => {
                return Err(format!(
                    "this is not a results bundle: it names no schema (expected {SCHEMA}, made by `gatepath bench-all`)"
                ))
            }
        }
        serde_json::from_str(text).map_err(|e| format!("the results bundle is damaged: {e}"))
    }

    /// The table: one row per configuration (strategy, embedder, LLM), in the order the
    /// bundle first has them; one cell per dataset, the run's index when there is one.
    pub fn table(&self) -> Vec<TableRow> {
        let mut rows: Vec<TableRow> = Vec::new();
        for (index, run) in self.runs.iter().enumerate() {
            let label = run.label();
            let column = self.datasets.iter().position(|d| d.path == run.data);
            let row = match rows.iter_mut().position(|r| r.label == label) {
                Some(i) => &mut rows[i],
                None => {
                    rows.push(TableRow {
                        label,
                        strategy: run.strategy.clone(),
                        cells: vec![None; self.datasets.len()],
                    });
                    let last = rows.len() - 1;
                    &mut rows[last]
                }
            };
            if let Some(slot) = column.and_then(|c| row.cells.get_mut(c)) {
                *slot = Some(index);
            }
        }
        rows
    }

    /// Orders `rows` by `key`; a row without a run on the sorted dataset goes last.
    pub fn sort(&self, rows: &mut [TableRow], key: SortKey) {
        let value = |row: &TableRow| -> Option<f64> {
            let SortKey::Dataset { column, metric, .. } = key else {
                return None;
            };
            let run = &self.runs[(*row.cells.get(column)?)?];
            Some(match metric {
                Metric::Em => run.em,
                Metric::F1 => run.f1,
            })
        };
        match key {
            SortKey::Label { descending } => rows.sort_by(|a, b| {
                let o = a.label.cmp(&b.label);
                if descending {
                    o.reverse()
                } else {
                    o
                }
            }),
            SortKey::Dataset { descending, .. } => rows.sort_by(|a, b| {
                match (value(a), value(b)) {
                    (Some(x), Some(y)) => {
                        let o = x.partial_cmp(&y).unwrap_or(Ordering::Equal);
                        if descending {
                            o.reverse()
                        } else {
                            o
                        }
                    }
                    (Some(_), None) => Ordering::Less,
                    (None, Some(_)) => Ordering::Greater,
                    (None, None) => Ordering::Equal,
                }
                // Ties keep the bundle's order (the sort is stable).
            }),
        }
    }

    /// The categories of a dataset's questions, in order.
    pub fn categories(&self, dataset: &str) -> Vec<String> {
        let mut all: Vec<String> = self
            .runs
            .iter()
            .filter(|r| r.data == dataset)
            .flat_map(|r| r.categories.keys().cloned())
            .collect();
        all.sort();
        all.dedup();
        all
    }

    /// Question `id` of the dataset at `path`, with its documents.
    pub fn question(&self, path: &str, id: &str) -> Option<&Question> {
        self.datasets
            .iter()
            .find(|d| d.path == path)?
            .questions
            .iter()
            .find(|q| q.id == id)
    }

    /// The runs over `dataset`, by index.
    pub fn runs_on(&self, dataset: &str) -> Vec<usize> {
        (0..self.runs.len())
            .filter(|&i| self.runs[i].data == dataset)
            .collect()
    }

    /// The questions of `dataset` as run `run` answered them, with how the other runs on
    /// the same dataset did, kept by `filter`.
    pub fn questions(&self, dataset: &str, run: usize, filter: &Filter) -> Vec<QuestionRow> {
        let Some(chosen) = self.runs.get(run) else {
            return Vec::new();
        };
        let others: Vec<&Run> = self
            .runs_on(dataset)
            .into_iter()
            .map(|i| &self.runs[i])
            .collect();
        let needle = filter.text.trim().to_lowercase();
        chosen
            .items
            .iter()
            .enumerate()
            .filter_map(|(index, item)| {
                let answers: Vec<(&Run, &ItemResult)> = others
                    .iter()
                    .filter_map(|r| r.items.iter().find(|i| i.id == item.id).map(|i| (*r, i)))
                    .collect();
                let correct_runs = answers.iter().filter(|(_, i)| i.em >= 1.0).count();
                let mut predictions: Vec<String> = answers
                    .iter()
                    .map(|(_, i)| normalised(i.prediction.as_deref()))
                    .collect();
                predictions.sort();
                predictions.dedup();
                let row = QuestionRow {
                    index,
                    id: item.id.clone(),
                    category: item.category.clone(),
                    question: item.question.clone(),
                    gold: item.gold.clone(),
                    prediction: item.prediction.clone(),
                    em: item.em,
                    f1: item.f1,
                    correct_runs,
                    runs: answers.len(),
                    disagree: predictions.len() > 1,
                };
                let keep = (!filter.wrong_only || row.em < 1.0)
                    && filter.category.as_ref().is_none_or(|c| *c == row.category)
                    && (!filter.disagreement || row.disagree)
                    && (needle.is_empty()
                        || row.question.to_lowercase().contains(&needle)
                        || row.id.to_lowercase().contains(&needle));
                keep.then_some(row)
            })
            .collect()
    }

    /// The stored view of run `run`'s question `index`, read now.
    pub fn view(&self, run: usize, index: usize) -> Result<AnswerView, String> {
        let item = self
            .runs
            .get(run)
            .and_then(|r| r.items.get(index))
            .ok_or("there is no such question in this bundle")?;
        if let Some(error) = &item.error {
            return Err(format!("this question could not be answered: {error}"));
        }
        let raw = item
            .view
            .as_ref()
            .ok_or("this bundle keeps no view of this question (made without views)")?;
        serde_json::from_str(raw.get()).map_err(|e| format!("the stored view is damaged: {e}"))
    }
}

impl Bundle {
    /// The run of `strategy` over the dataset at `data` that the browser's embedder
    /// matches: the lexical one for the lexical embedder, else a neural one (the
    /// lexical one when the bundle has no other).
    pub fn run_of(&self, data: &str, strategy: &str, neural: bool) -> Option<usize> {
        let runs: Vec<usize> = (0..self.runs.len())
            .filter(|&i| {
                let r = &self.runs[i];
                r.data == data && r.strategy == strategy && r.llm.is_none()
            })
            .collect();
        let lexical = |i: &usize| self.runs[*i].embedder == "lexical";
        runs.iter()
            .copied()
            .find(|i| lexical(i) != neural)
            .or_else(|| runs.first().copied())
    }

    /// Questions answered again (in the browser) beside run `run`'s answers to the same
    /// questions.
    pub fn compare(&self, run: usize, reruns: &[Rerun]) -> Comparison {
        let mut c = Comparison::default();
        let Some(native) = self.runs.get(run) else {
            return c;
        };
        for rerun in reruns {
            let Some(theirs) = native.items.iter().find(|i| i.id == rerun.id) else {
                continue;
            };
            c.n += 1;
            c.em += rerun.em;
            c.f1 += rerun.f1;
            c.native_em += theirs.em;
            c.native_f1 += theirs.f1;
            if normalised(rerun.prediction.as_deref()) == normalised(theirs.prediction.as_deref()) {
                c.same += 1;
            } else {
                c.differing.push(Difference {
                    id: rerun.id.clone(),
                    here: rerun.prediction.clone(),
                    native: theirs.prediction.clone(),
                    error: rerun.error.clone(),
                });
            }
        }
        if c.n > 0 {
            let n = c.n as f64;
            for x in [&mut c.em, &mut c.f1, &mut c.native_em, &mut c.native_f1] {
                *x *= 100.0 / n;
            }
        }
        c
    }
}

/// A question answered again, scored as `gatepath bench` scores it (SQuAD-normalised
/// exact match and token F1 against the gold answer and its aliases).
#[derive(Debug, Clone, PartialEq)]
pub struct Rerun {
    pub id: String,
    /// `None`: insufficient evidence.
    pub prediction: Option<String>,
    /// 0 or 1, and 0 ..= 1.
    pub em: f64,
    pub f1: f64,
    /// Why it could not be answered, when it could not.
    pub error: Option<String>,
}

impl Rerun {
    pub fn scored(question: &Question, prediction: Option<String>) -> Rerun {
        let accepted = std::iter::once(question.gold.as_str())
            .chain(question.aliases.iter().map(String::as_str));
        let s = engine::eval::metrics::score(prediction.as_deref().unwrap_or(""), accepted);
        Rerun {
            id: question.id.clone(),
            prediction,
            em: s.exact_match,
            f1: s.f1,
            error: None,
        }
    }

    pub fn failed(question: &Question, error: String) -> Rerun {
        Rerun {
            id: question.id.clone(),
            prediction: None,
            em: 0.0,
            f1: 0.0,
            error: Some(error),
        }
    }
}

/// How the questions answered again compare with the bundle's run: EM and F1 (percent)
/// of each over the same questions, and the questions whose answers differ.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Comparison {
    pub n: usize,
    pub em: f64,
    pub f1: f64,
    pub native_em: f64,
    pub native_f1: f64,
    /// Questions given the same answer (as the scores compare answers).
    pub same: usize,
    pub differing: Vec<Difference>,
}

#[derive(Debug, Clone, PartialEq)]
pub struct Difference {
    pub id: String,
    pub here: Option<String>,
    pub native: Option<String>,
    pub error: Option<String>,
}

impl Run {
    /// "cgr", "cgr · minilm", "cgr · SmolLM2-135M-Instruct": the strategy, then what
    /// differs from the defaults (lexical embedder, no language model).
    pub fn label(&self) -> String {
        let mut label = self.strategy.clone();
        if self.embedder != "lexical" {
            label.push_str(&format!(" · {}", self.embedder));
        }
        if let Some(llm) = &self.llm {
            label.push_str(&format!(" · {llm}"));
        }
        label
    }

    /// What the score is called: PubMedQA scores yes / no / maybe, so EM is accuracy.
    pub fn is_accuracy(&self) -> bool {
        self.format == "pubmedqa"
    }
}

/// A row of the table: one configuration; `cells[c]` is its run on dataset `c`.
#[derive(Debug, Clone, PartialEq)]
pub struct TableRow {
    pub label: String,
    pub strategy: String,
    pub cells: Vec<Option<usize>>,
}

/// What the table is sorted by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SortKey {
    Label {
        descending: bool,
    },
    Dataset {
        column: usize,
        metric: Metric,
        descending: bool,
    },
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Em,
    F1,
}

/// Which questions the list shows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Filter {
    /// Only those the chosen run did not get exactly right.
    pub wrong_only: bool,
    pub category: Option<String>,
    /// Only those the runs on the dataset answer differently.
    pub disagreement: bool,
    /// Words in the question or its id.
    pub text: String,
}

/// A question in the list.
#[derive(Debug, Clone, PartialEq)]
pub struct QuestionRow {
    /// Its index among the chosen run's items.
    pub index: usize,
    pub id: String,
    pub category: String,
    pub question: String,
    pub gold: String,
    pub prediction: Option<String>,
    pub em: f64,
    pub f1: f64,
    /// How many runs on the dataset got it exactly right, of `runs`.
    pub correct_runs: usize,
    pub runs: usize,
    pub disagree: bool,
}

/// An answer as the scores compare it (SQuAD's normalisation: case, punctuation,
/// articles and spacing do not count), so "The amoxicillin" and "amoxicillin" agree.
fn normalised(prediction: Option<&str>) -> String {
    prediction
        .map(engine::eval::metrics::normalize)
        .unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Two datasets; cgr runs on both, cgr-nogate only on the first.
    /// On `a.jsonl`: q1 cgr right / nogate right, q2 cgr wrong ("x") / nogate right.
    fn bundle() -> Bundle {
        let item = |id: &str, category: &str, prediction: Option<&str>, em: f64| {
            serde_json::json!({
                "id": id, "category": category, "question": format!("question {id}?"),
                "gold": "amoxicillin", "aliases": [], "prediction": prediction, "em": em, "f1": em,
                "view": { "question": format!("question {id}?"), "answer": prediction,
                          "source": "paths", "citations": [], "paths": [], "table": [],
                          "nodes": [], "edges": [], "layers": 0, "embedded": 0,
                          "embedder": "", "embedder_note": null, "millis": 0.0,
                          "documents": 2, "tuples": 3, "graph_edges": 4 }
            })
        };
        let run = |data: &str, strategy: &str, em: f64, items: Vec<serde_json::Value>| {
            serde_json::json!({
                "data": data, "format": if data == "b.json" { "pubmedqa" } else { "condqa" },
                "strategy": strategy, "embedder": "lexical", "llm": null,
                "em": em, "f1": em, "n": items.len(),
                "categories": { "comorbidity": { "n": 1, "em": em, "f1": em } },
                "seconds": 0.1, "items": items
            })
        };
        let text = serde_json::json!({
            "schema": SCHEMA, "engine_version": "0.1.0", "created": "2026-11-23T00:00:00Z",
            "models": [],
            "datasets": [
                { "path": "a.jsonl", "name": "a.jsonl", "format": "condqa", "n": 2, "sha256": "00",
                  "questions": [{ "id": "q1", "question": "question q1?", "gold": "amoxicillin",
                                  "documents": ["Amoxicillin treats Lyme disease.", "Doc two."] }] },
                { "path": "b.json", "name": "b.json", "format": "pubmedqa", "n": 1, "sha256": "11" }
            ],
            "runs": [
                run("a.jsonl", "cgr", 50.0, vec![
                    item("q1", "comorbidity", Some("Amoxicillin"), 1.0),
                    item("q2", "interaction", Some("x"), 0.0),
                ]),
                run("a.jsonl", "cgr-nogate", 100.0, vec![
                    item("q1", "comorbidity", Some("amoxicillin"), 1.0),
                    item("q2", "interaction", Some("amoxicillin"), 1.0),
                ]),
                run("b.json", "cgr", 0.0, vec![item("p1", "", None, 0.0)]),
            ]
        })
        .to_string();
        Bundle::parse(&text).expect("a bundle")
    }

    #[test]
    fn the_table_has_a_row_per_configuration_and_a_column_per_dataset() {
        let b = bundle();
        let rows = b.table();
        assert_eq!(rows.len(), 2);
        assert_eq!(
            (rows[0].label.as_str(), rows[0].cells.clone()),
            ("cgr", vec![Some(0), Some(2)])
        );
        assert_eq!(
            (rows[1].label.as_str(), rows[1].cells.clone()),
            ("cgr-nogate", vec![Some(1), None])
        );
        assert!(b.runs[2].is_accuracy() && !b.runs[0].is_accuracy());
        assert_eq!(b.datasets[1].label(), "pubmedqa · b.json");
        let mut named = b.datasets[1].clone();
        named.name = "pubmedqa-mini.json".into();
        assert_eq!(named.label(), "pubmedqa-mini.json");
    }

    #[test]
    fn sorting_by_a_dataset_puts_rows_without_a_run_last() {
        let b = bundle();
        let mut rows = b.table();
        let by = |column, descending| SortKey::Dataset {
            column,
            metric: Metric::Em,
            descending,
        };
        b.sort(&mut rows, by(0, true));
        assert_eq!(rows[0].label, "cgr-nogate");
        b.sort(&mut rows, by(0, false));
        assert_eq!(rows[0].label, "cgr");
        // On b.json only cgr ran (0.0): it comes first either way.
        b.sort(&mut rows, by(1, false));
        assert_eq!(rows[0].label, "cgr");
        b.sort(&mut rows, by(1, true));
        assert_eq!(rows[0].label, "cgr");
        b.sort(&mut rows, SortKey::Label { descending: true });
        assert_eq!(rows[0].label, "cgr-nogate");
    }

    #[test]
    fn the_question_list_filters_wrong_category_disagreement_and_text() {
        let b = bundle();
        let all = b.questions("a.jsonl", 0, &Filter::default());
        assert_eq!(all.len(), 2);
        // q1: both runs right, the same answer but for case; q2: one right, answers differ.
        assert_eq!(
            (all[0].correct_runs, all[0].runs, all[0].disagree),
            (2, 2, false)
        );
        assert_eq!(
            (all[1].correct_runs, all[1].runs, all[1].disagree),
            (1, 2, true)
        );
        let ids = |f: Filter, run: usize| -> Vec<String> {
            b.questions("a.jsonl", run, &f)
                .into_iter()
                .map(|r| r.id)
                .collect()
        };
        assert_eq!(
            ids(
                Filter {
                    wrong_only: true,
                    ..Filter::default()
                },
                0
            ),
            ["q2"]
        );
        assert!(ids(
            Filter {
                wrong_only: true,
                ..Filter::default()
            },
            1
        )
        .is_empty());
        assert_eq!(
            ids(
                Filter {
                    category: Some("comorbidity".into()),
                    ..Filter::default()
                },
                0
            ),
            ["q1"]
        );
        assert_eq!(
            ids(
                Filter {
                    disagreement: true,
                    ..Filter::default()
                },
                1
            ),
            ["q2"]
        );
        assert_eq!(
            ids(
                Filter {
                    text: "Q2".into(),
                    ..Filter::default()
                },
                0
            ),
            ["q2"]
        );
        assert_eq!(b.categories("a.jsonl"), ["comorbidity"]);
        assert_eq!(b.runs_on("a.jsonl"), [0, 1]);
        let q1 = b
            .question("a.jsonl", "q1")
            .expect("q1 is kept with its documents");
        assert_eq!(q1.documents.len(), 2);
        assert!(b.question("a.jsonl", "q2").is_none() && b.question("b.json", "q1").is_none());
    }

    #[test]
    fn a_stored_view_is_read_when_opened() {
        let b = bundle();
        let view = b.view(0, 1).expect("a view");
        assert_eq!(
            (view.question.as_str(), view.answer.as_deref()),
            ("question q2?", Some("x"))
        );
        assert_eq!(view.strategy, crate::StrategyView::default());
        assert!(b.view(0, 5).is_err());
        assert!(b.view(9, 0).is_err());
    }

    #[test]
    fn answers_given_again_are_scored_and_compared_with_the_run() {
        let b = bundle();
        let question = |id: &str| Question {
            id: id.into(),
            category: String::new(),
            question: format!("question {id}?"),
            gold: "amoxicillin".into(),
            aliases: vec!["amoxicillin 500 mg".into()],
            documents: Vec::new(),
        };
        // Scored as bench scores: articles and case do not count; an alias counts.
        let q1 = Rerun::scored(&question("q1"), Some("The Amoxicillin".into()));
        assert_eq!((q1.em, q1.f1), (1.0, 1.0));
        let q2 = Rerun::scored(&question("q2"), Some("amoxicillin 500 mg".into()));
        assert_eq!(q2.em, 1.0);
        let none = Rerun::scored(&question("q2"), None);
        assert_eq!((none.em, none.f1), (0.0, 0.0));
        // Against cgr (q1 "Amoxicillin" right, q2 "x" wrong): the same on q1, not on q2.
        let c = b.compare(
            0,
            &[
                q1.clone(),
                q2.clone(),
                Rerun::failed(&question("q9"), "gone".into()),
            ],
        );
        assert_eq!((c.n, c.same), (2, 1), "q9 is not in the run");
        assert_eq!((c.em, c.native_em), (100.0, 50.0));
        assert_eq!(c.differing.len(), 1);
        assert_eq!(
            (c.differing[0].id.as_str(), c.differing[0].native.as_deref()),
            ("q2", Some("x"))
        );
        assert_eq!(b.compare(7, &[q1]), Comparison::default());
        // Which run a browser run is compared with.
        assert_eq!(b.run_of("a.jsonl", "cgr-nogate", false), Some(1));
        assert_eq!(
            b.run_of("a.jsonl", "cgr-nogate", true),
            Some(1),
            "no neural run: the lexical one"
        );
        assert_eq!(b.run_of("a.jsonl", "claims", false), None);
    }

    #[test]
    fn a_compressed_bundle_reads_as_the_plain_one() {
        use std::io::Write;
        let text = serde_json::to_string(&bundle()).expect("JSON");
        let mut gz = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        gz.write_all(text.as_bytes()).expect("compressed");
        let bytes = gz.finish().expect("compressed");
        assert!(bytes.len() < text.len());
        let (a, b) = (
            Bundle::from_bytes(&bytes).expect("gzip"),
            Bundle::from_bytes(text.as_bytes()).expect("plain"),
        );
        assert_eq!(a.runs.len(), b.runs.len());
        assert_eq!(a.view(0, 1).expect("view"), b.view(0, 1).expect("view"));
        let cut = Bundle::from_bytes(&bytes[..bytes.len() / 2]).expect_err("refused");
        assert!(cut.contains("decompressed"), "{cut}");
        let binary = Bundle::from_bytes(&[0xff, 0xfe, 0x00]).expect_err("refused");
        assert!(binary.contains("neither JSON text nor gzip"), "{binary}");
    }

    #[test]
    fn anything_else_is_refused_with_a_reason() {
        let not_json = Bundle::parse("<html>").expect_err("refused");
        assert!(not_json.contains("not a results bundle"), "{not_json}");
        let other = Bundle::parse(r#"{"schema": "gatepath-bench/9"}"#).expect_err("refused");
        assert!(
            other.contains("gatepath-bench/9") && other.contains(SCHEMA),
            "{other}"
        );
        let none = Bundle::parse(r#"{"runs": []}"#).expect_err("refused");
        assert!(none.contains("names no schema"), "{none}");
        let damaged =
            Bundle::parse(&format!(r#"{{"schema": "{SCHEMA}", "runs": 3}}"#)).expect_err("refused");
        assert!(damaged.contains("damaged"), "{damaged}");
    }
}
