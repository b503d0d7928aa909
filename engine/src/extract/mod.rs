//! Tuple extraction: documents → condition-aware tuples ⟨u, relation, v, C, evidence⟩
//! (CGR §4.1) without an LLM.
//!
//! [`RuleExtractor`] reads each sentence clause by clause with patterns for how
//! guideline and encyclopedia prose states treatment options, preferences, tests,
//! contraindications, interactions and class membership, and attaches the conditions
//! under which each statement holds: introductory and inline populations ("in patients
//! with …", "in pregnancy"), "when/if" clauses, anaphors ("in these patients") resolved
//! to the population named earlier in the document, and the population a paragraph is
//! about, which carries to the sentences after it. Pronoun subjects ("It", "They",
//! "this drug") resolve to the previous subject. Parenthetical abbreviations become
//! aliases.
//!
//! A warning about a drug or class under a condition also gates its treatment edges
//! (the paper's Figure 2: ⟨hypertension, treated_by, lisinopril, [¬pregnancy]⟩): after
//! all sentences are read, every recommendation of the drug, of its class members, or
//! of a combination that contains it carries the negated condition.
//!
//! The [`Extractor`] trait is the seam where an LLM extractor can take over.
//!
//! By concept: `clauses` splits sentences into clauses and finds each one's subject
//! and verb; `scope` reads the conditions a clause holds under and the population a
//! passage is about; `names` reads subjects, list items, appositions and aliases;
//! `relations` reads what the predicate says; `propagation` carries warnings to
//! recommendations; `cues` holds the signal words.

mod clauses;
mod cues;
mod names;
mod phrase;
mod propagation;
mod relations;
mod scope;
mod tokens;

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::{
    Aliases, Condition, Diagnostic, GraphBuilder, KnowledgeGraph, Relation, Stance, Tuple,
};
use crate::lexicon::Class;
use crate::patient::Patient;
use crate::text::{normalize_term, split_sentences, Document, Span};

use clauses::{analyse, clauses, conditional_opener, remove_inserts, Clause};
use cues::CUES;
use names::is_pronoun;
use phrase::{entity, list_items};
use propagation::propagate_warnings;
use scope::speaks_of_patient;
use tokens::{find_any, is, starts_with, surface, tokenize, Tok};

/// What extraction produced from a document set. Serialisable, so an app can keep it
/// for a document set instead of extracting again.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize, serde::Deserialize)]
pub struct Extraction {
    pub tuples: Vec<Tuple>,
    /// Pairs of names for one entity (abbreviations, parentheticals).
    pub aliases: Vec<(String, String)>,
    /// Sentences or documents that were skipped, and why.
    pub diagnostics: Vec<Diagnostic>,
}

impl Extraction {
    /// Builds the knowledge graph from the tuples and aliases.
    pub fn graph(&self) -> (KnowledgeGraph, Vec<Diagnostic>) {
        let mut builder = GraphBuilder::new();
        for (a, b) in &self.aliases {
            builder.alias(a, b);
        }
        for t in &self.tuples {
            builder.add(t.clone());
        }
        let (graph, mut diagnostics) = builder.build();
        let mut all = self.diagnostics.clone();
        all.append(&mut diagnostics);
        (graph, all)
    }
}

/// Turns documents into tuples. Implemented by rules here; an LLM extractor can stand
/// in behind the same trait.
pub trait Extractor {
    fn extract(&self, docs: &[Document]) -> Extraction;
}

/// The rule-based extractor.
#[derive(Debug, Clone, Copy, Default)]
pub struct RuleExtractor;

/// The name the pipeline gives recommendations whose indication the text leaves
/// implicit when no document names one.
pub const DEFAULT_TOPIC: &str = "indication (unnamed)";

/// Documents longer than this many bytes are read only up to it (with a diagnostic):
/// the rules are linear, but the graph and the answer must stay readable.
pub const MAX_DOCUMENT_BYTES: usize = 2_000_000;

impl Extractor for RuleExtractor {
    fn extract(&self, docs: &[Document]) -> Extraction {
        let mut out = Extraction::default();
        let mut topic: Option<String> = None;
        let mut last_topic: Option<String> = None;
        let mut per_doc: Vec<Vec<Tuple>> = Vec::new();
        for (d, doc) in docs.iter().enumerate() {
            let text = clip(&doc.text, MAX_DOCUMENT_BYTES);
            if text.len() < doc.text.len() {
                out.diagnostics.push(Diagnostic {
                    evidence: None,
                    message: format!(
                        "document {} is longer than {} bytes; only its beginning was read",
                        doc.id, MAX_DOCUMENT_BYTES
                    ),
                });
            }
            let mut reader = Reader::new(d, &doc.text);
            // Until this document names an indication, it continues the previous one's.
            reader.topic = last_topic.clone();
            reader.known = per_doc
                .iter()
                .flatten()
                .flat_map(|t: &Tuple| [t.subject.clone(), t.object.clone()])
                .collect();
            for range in split_sentences(text) {
                reader.sentence(range);
            }
            if topic.is_none() {
                topic = reader.first_topic.clone();
            }
            last_topic = reader.topic.clone();
            out.aliases.append(&mut reader.aliases);
            per_doc.push(reader.tuples);
        }
        let topic = topic.unwrap_or_else(|| DEFAULT_TOPIC.to_string());
        for tuples in per_doc {
            for mut t in tuples {
                if t.subject.is_empty() {
                    t.subject = topic.clone();
                }
                out.tuples.push(t);
            }
        }
        propagate_warnings(&mut out.tuples, &out.aliases);
        out
    }
}

/// The longest prefix of `text` of at most `max` bytes that ends on a char boundary.
fn clip(text: &str, max: usize) -> &str {
    if text.len() <= max {
        return text;
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    &text[..end]
}

/// Reads one document sentence by sentence, keeping the discourse state.
struct Reader<'a> {
    doc: usize,
    text: &'a str,
    /// The population the paragraph is about (carried to later sentences).
    population: Option<String>,
    /// The entities the previous sentence was about (for "It", "They").
    last_subjects: Vec<String>,
    /// The indication named last (statements that name none are about it).
    topic: Option<String>,
    /// The first indication this document names.
    first_topic: Option<String>,
    tuples: Vec<Tuple>,
    aliases: Vec<(String, String)>,
    /// Entity names read in earlier documents of the set.
    known: Vec<String>,
    /// What a pronoun in the current clause refers to.
    antecedents: Vec<String>,
    /// Drugs each subject was said to interact with ("X raises Y concentrations").
    partners: BTreeMap<String, String>,
    /// The interaction partner of a "the combination" subject in the current clause.
    clause_partner: Option<String>,
}

impl<'a> Reader<'a> {
    fn new(doc: usize, text: &'a str) -> Self {
        Reader {
            doc,
            text,
            population: None,
            last_subjects: Vec::new(),
            topic: None,
            first_topic: None,
            tuples: Vec::new(),
            aliases: Vec::new(),
            known: Vec::new(),
            antecedents: Vec::new(),
            partners: BTreeMap::new(),
            clause_partner: None,
        }
    }

    fn span(&self, range: &std::ops::Range<usize>) -> Span {
        Span {
            doc: self.doc,
            range: range.clone(),
        }
    }

    fn sentence(&mut self, range: std::ops::Range<usize>) {
        let Some(sentence_text) = self.text.get(range.clone()) else {
            return;
        };
        let raw = tokenize(sentence_text, range.start);
        let toks = self.strip_parentheticals(&raw);
        let evidence = self.span(&range);
        let mut sentence_subjects: Vec<String> = Vec::new();
        // A sentence whose subject is a population ("Patients with X show …") is about
        // that population: it conditions every clause of the sentence and the ones after.
        let sentence_population = self.population_subject(&toks);
        if let Some(p) = &sentence_population {
            self.population = Some(p.clone());
        }
        for clause_toks in clauses(&toks) {
            let clause = analyse(clause_toks);
            self.antecedents = if sentence_subjects.is_empty() {
                self.last_subjects.clone()
            } else {
                sentence_subjects.clone()
            };
            let stated = self.conditions(&clause);
            // "can cause arrhythmia in some people over 60" names a population of its
            // own, part of which it speaks of: not the paragraph's.
            let lowered: Vec<&str> = clause.toks.iter().map(|t| t.lower.as_str()).collect();
            let has_population = stated.iter().any(|(_, population)| *population)
                || sentence_population.is_some()
                || crate::lexicon::names_some_of_people(&lowered);
            let mut conditions: Vec<String> = stated.into_iter().map(|(c, _)| c).collect();
            if let Some(p) = &sentence_population {
                push_unique(&mut conditions, p.clone());
            }
            if !has_population {
                if let Some(p) = &self.population {
                    push_unique(&mut conditions, p.clone());
                }
            }
            self.clause_partner = None;
            let subjects = self.subjects(&clause, &sentence_subjects);
            if let Some(partner) = self.clause_partner.take() {
                push_unique(&mut conditions, format!("taking {partner}"));
            }
            self.relations(&clause, &subjects, &conditions, &evidence);
            if sentence_subjects.is_empty() && !subjects.is_empty() {
                sentence_subjects = subjects.clone();
            }
        }
        if !sentence_subjects.is_empty() {
            self.last_subjects = sentence_subjects;
        }
    }

    fn clause_span(&self, clause: &Clause) -> Span {
        let start = clause.toks.first().map_or(0, |t| t.start);
        let end = clause.toks.last().map_or(start, |t| t.end);
        self.span(&(start..end))
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.iter().any(|x| normalize_term(x) == normalize_term(&s)) {
        v.push(s);
    }
}

#[cfg(test)]
mod tests;
