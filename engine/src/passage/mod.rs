//! The conditional passage reader: answers a question about one patient from the
//! statements of real documents, preferring what the documents say for a patient like
//! this one over what they say in general, and ruling out what they warn against for
//! this patient.
//!
//! It reads the documents as their writers laid them out ([`structure`]): a statement
//! is scoped by its headings and by the lead-in of its list. Candidates are the spans
//! of the asked kind ([`asked`]). Each statement that names a candidate (or refers back
//! to the one its section is about: "this vaccine", "it") counts for it by how much of
//! the question's topic it shares, weighted by how rare those words are in the
//! documents. With the patient known (gating on):
//! - a statement whose population the patient belongs to ("people who have a weakened
//!   immune system" for an immunocompromised patient) counts several times over, and
//!   the more so the more of the patient's rarer words it shares;
//! - a statement about a population the patient is not in ("adults aged 14 years and
//!   older" for a 10-year-old) counts for little;
//! - a warning whose population the patient belongs to ("not suitable for: • people
//!   who have a weakened immune system") blocks the candidate, with that statement as
//!   the reason.
//!
//! Without the patient (gating off) only the topic counts, and warnings count for
//! nothing: the general answer.

pub mod asked;
pub mod structure;

use std::collections::{BTreeMap, BTreeSet};

use crate::gate::Truth;
use crate::language::Language;
use crate::patient::Patient;
use crate::query::ParsedQuery;
use crate::text::{normalize_term, words, Document, Span};

pub use asked::{Asked, Typed};
pub use structure::{statements, Kind, Statement};

/// A candidate answer with what the statements say of it.
#[derive(Debug, Clone, PartialEq)]
pub struct Candidate {
    /// The answer as the documents first write it.
    pub text: String,
    pub score: f32,
    /// The statements that count for it, best first.
    pub support: Vec<Span>,
    /// The warning that rules it out for this patient, when one does.
    pub blocked_by: Option<Span>,
    /// Where the documents first name it (ties go to the first named).
    pub first: usize,
}

/// What the reader found.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub asked: Asked,
    /// Every candidate, best first; blocked ones last.
    pub candidates: Vec<Candidate>,
}

impl Reading {
    /// The best candidate that no warning rules out.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates
            .iter()
            .find(|c| c.blocked_by.is_none() && c.score > 0.0)
    }
}

/// How much more a statement about the patient's own population counts.
const APPLIES_WEIGHT: f32 = 4.0;

/// How much a statement about another population still counts.
const OTHER_POPULATION_WEIGHT: f32 = 0.1;

/// How much a recommending statement counts over a plain one.
const RECOMMENDS_WEIGHT: f32 = 1.5;

/// Longest candidate, in words.
const MAX_CANDIDATE_WORDS: usize = 6;

/// Reads the answer to `question` from `docs`; `patient` is the patient to gate on
/// (`None`: read the general answer); `ruled_out` are candidates (normalised, see
/// [`normalize_term`]) already blocked for this patient, each with the statement that
/// blocks it.
pub fn read(
    docs: &[Document],
    language: &Language,
    question: &str,
    query: &ParsedQuery,
    patient: Option<&Patient>,
    ruled_out: &[(String, Span)],
) -> Option<Reading> {
    let asked = Asked::of(question)?;
    let all: Vec<Statement> = docs
        .iter()
        .enumerate()
        .flat_map(|(d, doc)| statements(d, &doc.text))
        .collect();
    if all.is_empty() {
        return None;
    }
    let question_key = format!(" {} ", normalize_term(question));
    let question_words = stems(question);
    let type_words: BTreeSet<String> = asked::type_words(question)
        .iter()
        .flat_map(|w| stems(w))
        .collect();
    // The patient's words (what the question says of the patient) and the topic (the
    // rest of what it asks about).
    let described: BTreeSet<String> = match &query.patient_clause {
        Some(clause) => stems(clause),
        None => query.patient.words.iter().map(|w| asked::stem(w)).collect(),
    };
    let topic: BTreeSet<String> = asked::asking(question)
        .map(stems)
        .unwrap_or_default()
        .into_iter()
        .filter(|w| !described.contains(w) && !type_words.contains(w))
        .collect();
    let patient_words: BTreeSet<String> = match patient {
        Some(_) => question_words
            .iter()
            .filter(|w| !topic.contains(*w) && !type_words.contains(*w))
            .cloned()
            .collect(),
        None => BTreeSet::new(),
    };
    let scope_words: Vec<BTreeSet<String>> = all.iter().map(|s| stems(&s.in_scope())).collect();
    let idf = inverse_frequency(&scope_words);
    let weight = |words: &BTreeSet<String>, of: &BTreeSet<String>| -> f32 {
        words
            .intersection(of)
            .map(|w| idf.get(w).copied().unwrap_or(0.0))
            .sum()
    };

    // Candidates of each statement, by key, with where the statement names them.
    let mut texts: BTreeMap<String, (String, usize, Typed)> = BTreeMap::new();
    let mut mentions: Vec<Vec<Mention>> = Vec::with_capacity(all.len());
    for statement in &all {
        let analysis = language.analyse(&statement.text);
        let mut found: Vec<Mention> = Vec::new();
        for (range, typed) in asked::spans(&asked, language, &statement.text, &analysis) {
            if range.len() > MAX_CANDIDATE_WORDS {
                continue;
            }
            let (Some(first), Some(last)) = (
                analysis.words.get(range.start),
                analysis.words.get(range.end.saturating_sub(1)),
            ) else {
                continue;
            };
            let bytes = first.span.start..last.span.end;
            let text = analysis.text(&statement.text, range).trim().to_string();
            let key = match language.drugs.lookup(&text) {
                Some(drug) => drug.canonical.to_lowercase(),
                None => name_key(&asked, &text),
            };
            let content = stems(&text);
            let restates = content.is_empty()
                || content
                    .iter()
                    .all(|w| question_words.contains(w) || type_words.contains(w));
            if key.is_empty() || restates || question_key.contains(&format!(" {key} ")) {
                continue;
            }
            let order = texts.len();
            let slot = texts.entry(key.clone()).or_insert((text, order, typed));
            slot.2 = slot.2.min(typed);
            if !found.iter().any(|m| m.key == key) {
                found.push(Mention { key, bytes });
            }
        }
        mentions.push(found);
    }
    // Drug names answer only a kind the documents never name by its noun.
    if texts.values().any(|t| t.2 == Typed::Named) {
        texts.retain(|_, t| t.2 == Typed::Named);
        for found in &mut mentions {
            found.retain(|m| texts.contains_key(&m.key));
        }
    }

    // What each statement is about: its own candidates, its lead-in's, or (when it
    // refers back) the subject before it or its section's.
    let mut scores: BTreeMap<String, (f32, Vec<(f32, Span)>)> = BTreeMap::new();
    let mut blocked: BTreeMap<String, Span> = BTreeMap::new();
    for (key, (text, _, _)) in &texts {
        let normal = normalize_term(text);
        if let Some((_, span)) = ruled_out.iter().find(|(r, _)| *r == *key || *r == normal) {
            blocked.insert(key.clone(), span.clone());
        }
    }
    let mut section_topic: Option<String> = None;
    let mut last_subject: Option<String> = None;
    let mut lead_topics: Vec<String> = Vec::new();
    for (i, statement) in all.iter().enumerate() {
        let own = &mentions[i];
        if statement.kind == Kind::Heading {
            section_topic = own.first().map(|m| m.key.clone());
            last_subject = section_topic.clone();
            continue;
        }
        if statement.lead.is_none() {
            lead_topics.clear();
        }
        let referred: Vec<String> = last_subject
            .iter()
            .chain(section_topic.iter())
            .take(1)
            .cloned()
            .collect();
        let about: Vec<String> = if !own.is_empty() {
            own.iter().map(|m| m.key.clone()).collect()
        } else if statement.lead.is_some() && !lead_topics.is_empty() {
            lead_topics.clone()
        } else if refers_back(&statement.text) {
            referred.clone()
        } else {
            Vec::new()
        };
        // What the statement warns against: the candidates in a clause with a warning,
        // a lead-in's when the lead-in warns, or what a warning clause refers back to.
        let clauses = warning_clauses(&statement.text);
        let mut warned: Vec<String> = own
            .iter()
            .filter(|m| {
                clauses
                    .iter()
                    .any(|c| c.start <= m.bytes.start && m.bytes.end <= c.end)
            })
            .map(|m| m.key.clone())
            .collect();
        if warned.is_empty() {
            let lead_warns = statement
                .lead
                .as_deref()
                .is_some_and(|l| !warning_clauses(l).is_empty());
            if lead_warns || (!clauses.is_empty() && own.is_empty()) {
                warned = about.clone();
            } else if clauses
                .iter()
                .any(|c| refers_back(&statement.text[c.clone()]))
            {
                warned = referred.clone();
            }
        }
        // A lead-in's candidates scope the items below it.
        if statement.text.trim_end().ends_with(':') {
            lead_topics = about.clone();
        }
        if let Some(subject) = own
            .iter()
            .find(|m| statement.text[..m.bytes.start].split_whitespace().count() <= 1)
        {
            last_subject = Some(subject.key.clone());
        }
        let recommends = recommends(statement);
        let words = &scope_words[i];
        let relevance = 1.0 + weight(words, &topic);
        let strength = if recommends { RECOMMENDS_WEIGHT } else { 1.0 };
        let applies = patient.map(|p| applies(p, statement));
        let matched = weight(words, &patient_words);
        for key in about
            .iter()
            .chain(warned.iter().filter(|w| !about.contains(w)))
        {
            let is_warned = warned.contains(key);
            let contribution = match (applies, is_warned) {
                (None, true) | (Some(Truth::Unknown), true) => 0.0,
                (None, false) => strength * relevance,
                (Some(Truth::True), true) => {
                    blocked
                        .entry(key.clone())
                        .or_insert_with(|| statement.span.clone());
                    continue;
                }
                (Some(Truth::True), false) => {
                    strength * (relevance + APPLIES_WEIGHT * (1.0 + matched))
                }
                (Some(Truth::False), _) => OTHER_POPULATION_WEIGHT * relevance,
                (Some(Truth::Unknown), false) => strength * (relevance + matched),
            };
            let slot = scores.entry(key.clone()).or_default();
            slot.0 += contribution;
            slot.1.push((contribution, statement.span.clone()));
        }
    }

    let mut candidates: Vec<Candidate> = texts
        .into_iter()
        .map(|(key, (text, first, _))| {
            let (score, mut support) = scores.remove(&key).unwrap_or_default();
            support.sort_by(|a, b| b.0.total_cmp(&a.0));
            Candidate {
                text,
                score,
                support: support.into_iter().map(|(_, s)| s).collect(),
                blocked_by: blocked.get(&key).cloned(),
                first,
            }
        })
        .collect();
    candidates.sort_by(|a, b| {
        a.blocked_by
            .is_some()
            .cmp(&b.blocked_by.is_some())
            .then(b.score.total_cmp(&a.score))
            .then(a.first.cmp(&b.first))
    });
    Some(Reading { asked, candidates })
}

/// A candidate named in a statement, with its bytes in the statement's text.
#[derive(Debug, Clone)]
struct Mention {
    key: String,
    bytes: std::ops::Range<usize>,
}

/// Phrases that warn against what a statement names (matched on whole words of the
/// lower-cased statement and its lead-in).
const WARNS: &[&str] = &[
    "not suitable",
    "not recommended",
    "not be used",
    "not be given",
    "not be administered",
    "not use",
    "not receive",
    "not be offered",
    "should not",
    "must not",
    "do not",
    "does not apply",
    "cannot receive",
    "cannot be",
    "contraindicated",
    "contra indicated",
    "contraindication",
    "avoid",
    "avoided",
    "not advised",
    "not approved",
    "not licensed",
    "not indicated",
    "excluded",
    "unsuitable",
];

/// Words that recommend or allow.
const RECOMMENDS: &[&str] = &[
    "recommended",
    "recommend",
    "recommends",
    "should",
    "preferred",
    "prefer",
    "can",
    "may",
    "suitable",
    "only",
    "indicated",
    "consider",
    "considered",
    "consideration",
    "use",
    "used",
    "given",
    "offered",
    "instead",
    "choice",
    "safe",
    "safely",
];

/// Whether a statement (with its lead-in) recommends or allows what it names.
fn recommends(statement: &Statement) -> bool {
    let mut text = String::new();
    if let Some(lead) = &statement.lead {
        text.push_str(lead);
        text.push(' ');
    }
    text.push_str(&statement.text);
    let padded = format!(" {} ", normalize_term(&text));
    RECOMMENDS
        .iter()
        .any(|w| padded.contains(&format!(" {w} ")))
}

/// Words and marks that end a clause.
const CLAUSE_WORDS: &[&str] = &["but", "however", "although", "whereas", "while", "though"];

/// The byte ranges of the clauses of `text` that contain a warning ("…, but it should
/// not be used in …" → the clause after "but").
fn warning_clauses(text: &str) -> Vec<std::ops::Range<usize>> {
    let mut bounds = vec![0];
    for w in words(text) {
        let t = w.text(text);
        let mark = !w.is_word
            && t.chars()
                .all(|c| matches!(c, ',' | ';' | ':' | '(' | ')' | '–' | '—'));
        if mark || (w.is_word && CLAUSE_WORDS.contains(&t.to_lowercase().as_str())) {
            bounds.push(w.span.start);
        }
    }
    bounds.push(text.len());
    bounds
        .windows(2)
        .map(|b| b[0]..b[1])
        .filter(|r| {
            let padded = format!(" {} ", normalize_term(&text[r.clone()]));
            WARNS.iter().any(|w| padded.contains(&format!(" {w} ")))
        })
        .collect()
}

/// Whether the patient belongs to the population a statement is about: the statement,
/// its lead-in or its section heading naming a condition the patient has (true), or
/// only conditions the patient does not have (false).
fn applies(patient: &Patient, statement: &Statement) -> Truth {
    let mut parts: Vec<&str> = vec![statement.text.as_str()];
    if let Some(lead) = &statement.lead {
        parts.push(lead);
    }
    parts.extend(statement.headings.iter().skip(1).map(String::as_str));
    let mut any_false = false;
    for part in parts {
        match patient.evaluate(part) {
            Truth::True => return Truth::True,
            Truth::False => any_false = true,
            Truth::Unknown => {}
        }
    }
    if any_false {
        Truth::False
    } else {
        Truth::Unknown
    }
}

/// A candidate's key: its normalised text without the asked head after a name
/// ("Imojev vaccine" and "Imojev" are one candidate).
fn name_key(asked: &Asked, text: &str) -> String {
    let key = normalize_term(text);
    if let Asked::Thing { head, .. } = asked {
        if let Some((name, last)) = key.rsplit_once(' ') {
            if asked::stem(last) == *head && !name.is_empty() {
                return name.to_string();
            }
        }
    }
    key
}

/// Words that refer back to what the text was about ("it", "this vaccine").
const REFERS_BACK: &[&str] = &["it", "this", "these", "they", "its", "such"];

fn refers_back(text: &str) -> bool {
    words(text)
        .iter()
        .filter(|w| w.is_word)
        .take(12)
        .any(|w| REFERS_BACK.contains(&w.text(text).to_lowercase().as_str()))
}

/// Stems of the content words of a text.
fn stems(text: &str) -> BTreeSet<String> {
    words(text)
        .iter()
        .filter(|w| w.is_word)
        .flat_map(|w| {
            w.text(text)
                .split(['-', '/'])
                .map(asked::stem)
                .collect::<Vec<_>>()
        })
        .filter(|w| {
            (w.chars().count() > 1 || w.chars().all(|c| c.is_ascii_digit()))
                && !FUNCTION_WORDS.contains(&w.as_str())
        })
        .collect()
}

/// Inverse document frequency of each word over the statements: ln(1 + N / df).
fn inverse_frequency(statements: &[BTreeSet<String>]) -> BTreeMap<String, f32> {
    let mut df: BTreeMap<&str, usize> = BTreeMap::new();
    for words in statements {
        for w in words {
            *df.entry(w.as_str()).or_default() += 1;
        }
    }
    let n = statements.len().max(1) as f32;
    df.into_iter()
        .map(|(w, d)| (w.to_string(), (1.0 + n / d as f32).ln()))
        .collect()
}

/// English function words: they carry no topic or condition.
const FUNCTION_WORDS: &[&str] = &[
    "a", "an", "the", "of", "in", "on", "at", "to", "for", "with", "by", "from", "and", "or",
    "but", "is", "are", "was", "were", "be", "been", "being", "ha", "have", "had", "do", "doe",
    "did", "it", "its", "this", "that", "these", "those", "which", "what", "who", "whom", "whose",
    "when", "where", "why", "how", "should", "can", "could", "may", "might", "will", "would",
    "shall", "must", "he", "she", "his", "her", "him", "they", "their", "them", "we", "our", "you",
    "your", "as", "than", "then", "there", "not", "no", "so", "if", "into", "about", "also", "any",
    "all", "each", "other", "such", "only", "own", "same", "some", "very", "now", "who", "year",
    "old", "ask", "asks", "give", "given",
];

#[cfg(test)]
mod tests;
