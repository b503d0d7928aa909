//! Evaluation sets the benchmark reads: condqa JSONL, the BioASQ golden JSON and
//! PubMedQA (yes/no/maybe over an abstract).
//! A malformed item is reported with its file and line (or index) and skipped.

use std::path::Path;

use serde::Deserialize;
use serde_json::Value;

/// One question with its documents and gold answers, whatever file it came from.
#[derive(Debug, Clone)]
pub struct Item {
    pub id: String,
    pub category: String,
    pub question: String,
    pub docs: Vec<String>,
    pub gold: String,
    pub aliases: Vec<String>,
}

/// The two halves every development set is split into by its items' ids: the work half
/// is read and tuned on; the check half is only ever scored, so its number says how the
/// engine does on text it was not tuned on.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum)]
pub enum Half {
    Work,
    Check,
}

impl Half {
    /// The half an item belongs to: the lowest bit of the first byte of the SHA-256 of
    /// its id (0 → work, 1 → check). Fixed once; never change it, or check items leak.
    pub fn of(id: &str) -> Half {
        use sha2::Digest;
        match sha2::Sha256::digest(id.as_bytes())[0] & 1 {
            0 => Half::Work,
            _ => Half::Check,
        }
    }
}

/// Items read and problems met.
#[derive(Debug, Default)]
pub struct Loaded {
    pub format: &'static str,
    pub items: Vec<Item>,
    /// "file:line: reason" for each skipped item.
    pub skipped: Vec<String>,
}

#[derive(Deserialize)]
struct CondQa {
    id: String,
    #[serde(default)]
    category: Option<String>,
    question: String,
    answer: String,
    #[serde(default)]
    answer_aliases: Vec<String>,
    docs: Vec<String>,
}

/// Reads a data file, choosing the format from its content: a JSON object with
/// `questions` is BioASQ, one whose values have a `QUESTION` is PubMedQA; anything else
/// is read as condqa JSONL.
pub fn load(path: &Path) -> Result<Loaded, String> {
    let mut bytes =
        std::fs::read(path).map_err(|e| format!("{}: cannot read: {e}", path.display()))?;
    // A gzip-compressed file (its magic bytes), whatever its name.
    if bytes.starts_with(&[0x1f, 0x8b]) {
        let mut plain = Vec::new();
        std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&bytes[..]), &mut plain)
            .map_err(|e| format!("{}: not valid gzip: {e}", path.display()))?;
        bytes = plain;
    }
    let text = String::from_utf8_lossy(&bytes);
    let name = path.display().to_string();
    let trimmed = text.trim_start();
    if trimmed.starts_with('{') {
        if let Ok(value) = serde_json::from_str::<Value>(trimmed) {
            if value.get("questions").is_some() {
                return bioasq(&name, &value);
            }
            let pubmedqa_like = value
                .as_object()
                .and_then(|o| o.values().next())
                .is_some_and(|v| v.get("QUESTION").is_some());
            if pubmedqa_like {
                return Ok(pubmedqa(&name, &value));
            }
        }
    }
    Ok(condqa(&name, &text))
}

fn condqa(name: &str, text: &str) -> Loaded {
    let mut out = Loaded {
        format: "condqa",
        ..Loaded::default()
    };
    for (i, line) in text.lines().enumerate() {
        let line_no = i + 1;
        if line.trim().is_empty() {
            continue;
        }
        match serde_json::from_str::<CondQa>(line) {
            Ok(q) if q.docs.is_empty() => out
                .skipped
                .push(format!("{name}:{line_no}: item {} has no documents", q.id)),
            Ok(q) => out.items.push(Item {
                id: q.id,
                category: q.category.unwrap_or_else(|| "all".into()),
                question: q.question,
                docs: q.docs,
                gold: q.answer,
                aliases: q.answer_aliases,
            }),
            Err(e) => out.skipped.push(format!("{name}:{line_no}: {e}")),
        }
    }
    out
}

/// BioASQ golden files: factoid questions, gold snippets as the documents, the first
/// exact answer as gold and its synonyms as aliases.
fn bioasq(name: &str, value: &Value) -> Result<Loaded, String> {
    let mut out = Loaded {
        format: "bioasq",
        ..Loaded::default()
    };
    let questions = value
        .get("questions")
        .and_then(Value::as_array)
        .ok_or_else(|| format!("{name}: `questions` is not a list"))?;
    for (i, q) in questions.iter().enumerate() {
        if q.get("type").and_then(Value::as_str) != Some("factoid") {
            continue;
        }
        let id = q
            .get("id")
            .and_then(Value::as_str)
            .unwrap_or("?")
            .to_string();
        let body = q.get("body").and_then(Value::as_str);
        let docs: Vec<String> = q
            .get("snippets")
            .and_then(Value::as_array)
            .map(|s| {
                s.iter()
                    .filter_map(|x| x.get("text").and_then(Value::as_str))
                    .map(str::to_string)
                    .collect()
            })
            .unwrap_or_default();
        let mut answers: Vec<String> = Vec::new();
        flatten_strings(q.get("exact_answer").unwrap_or(&Value::Null), &mut answers);
        match (body, answers.split_first()) {
            (Some(body), Some((gold, aliases))) if !docs.is_empty() => out.items.push(Item {
                id,
                category: "factoid".into(),
                question: body.to_string(),
                docs,
                gold: gold.clone(),
                aliases: aliases.to_vec(),
            }),
            _ => out.skipped.push(format!(
                "{name}: question {i} ({id}): no body, snippets or exact answer"
            )),
        }
    }
    Ok(out)
}

/// PubMedQA: pmid → {QUESTION, CONTEXTS (the abstract's sections but its conclusion),
/// final_decision}. The contexts are the documents; the gold is yes, no or maybe, and
/// the category is the gold, so the report shows each class's accuracy.
fn pubmedqa(name: &str, value: &Value) -> Loaded {
    let mut out = Loaded {
        format: "pubmedqa",
        ..Loaded::default()
    };
    let Some(items) = value.as_object() else {
        return out;
    };
    for (id, q) in items {
        let question = q.get("QUESTION").and_then(Value::as_str);
        let mut docs = Vec::new();
        flatten_strings(q.get("CONTEXTS").unwrap_or(&Value::Null), &mut docs);
        let gold = q.get("final_decision").and_then(Value::as_str);
        match (question, gold) {
            (Some(question), Some(gold @ ("yes" | "no" | "maybe"))) if !docs.is_empty() => {
                out.items.push(Item {
                    id: id.clone(),
                    category: gold.to_string(),
                    question: question.to_string(),
                    docs,
                    gold: gold.to_string(),
                    aliases: Vec::new(),
                })
            }
            _ => out.skipped.push(format!(
                "{name}: item {id}: no QUESTION, CONTEXTS or yes/no/maybe final_decision"
            )),
        }
    }
    out
}

fn flatten_strings(v: &Value, out: &mut Vec<String>) {
    match v {
        Value::String(s) => out.push(s.clone()),
        Value::Array(a) => a.iter().for_each(|x| flatten_strings(x, out)),
        _ => {}
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn halves_follow_the_sha256_of_the_id() {
        // sha256("C002") starts 0xfd (odd), sha256("D001") 0xca (even): hand-checked with
        // `printf C002 | sha256sum`.
        assert_eq!(Half::of("C002"), Half::Check);
        assert_eq!(Half::of("D001"), Half::Work);
    }

    #[test]
    fn malformed_lines_are_reported_with_their_line_and_skipped() {
        let text = "{\"id\":\"a\",\"question\":\"q?\",\"answer\":\"x\",\"docs\":[\"d\"]}\nnot json\n\n{\"id\":\"b\"}\n";
        let loaded = condqa("f.jsonl", text);
        assert_eq!(loaded.items.len(), 1);
        assert_eq!(loaded.skipped.len(), 2);
        assert!(
            loaded.skipped[0].starts_with("f.jsonl:2:"),
            "{:?}",
            loaded.skipped
        );
        assert!(
            loaded.skipped[1].starts_with("f.jsonl:4:"),
            "{:?}",
            loaded.skipped
        );
    }

    #[test]
    fn pubmedqa_items_are_read_with_their_class_as_category() {
        let dir = std::env::temp_dir().join(format!("gatepath-pubmedqa-{}", std::process::id()));
        std::fs::create_dir_all(&dir).expect("temp dir");
        let path = dir.join("dev.json");
        std::fs::write(
            &path,
            r#"{"1": {"QUESTION": "Does X help?", "CONTEXTS": ["X helped.", "Y did not."], "final_decision": "yes"},
                "2": {"QUESTION": "Does Z help?", "CONTEXTS": [], "final_decision": "no"},
                "3": {"QUESTION": "Does W help?", "CONTEXTS": ["W."], "final_decision": "perhaps"}}"#,
        )
        .expect("written");
        let loaded = load(&path).expect("loads");
        assert_eq!(loaded.format, "pubmedqa");
        assert_eq!(loaded.items.len(), 1);
        assert_eq!(
            (
                loaded.items[0].category.as_str(),
                loaded.items[0].docs.len()
            ),
            ("yes", 2)
        );
        assert_eq!(loaded.skipped.len(), 2);
        let _ = std::fs::remove_dir_all(&dir);
    }

    #[test]
    fn bioasq_factoids_use_snippets_and_synonyms() {
        let v: Value = serde_json::from_str(
            r#"{"questions":[
              {"id":"1","type":"factoid","body":"Which?","snippets":[{"text":"s1"},{"text":"s2"}],"exact_answer":[["a","b"],["c"]]},
              {"id":"2","type":"yesno","body":"Is?","snippets":[{"text":"s"}],"exact_answer":"yes"},
              {"id":"3","type":"factoid","body":"Which?","snippets":[],"exact_answer":[["a"]]}
            ]}"#,
        )
        .unwrap();
        let loaded = bioasq("g.json", &v).unwrap();
        assert_eq!(loaded.items.len(), 1);
        assert_eq!(loaded.items[0].docs, ["s1", "s2"]);
        assert_eq!(loaded.items[0].gold, "a");
        assert_eq!(loaded.items[0].aliases, ["b", "c"]);
        assert_eq!(loaded.skipped.len(), 1);
    }
}
