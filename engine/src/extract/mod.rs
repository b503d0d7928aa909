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

mod cues;
mod phrase;
mod tokens;

use std::collections::{BTreeMap, BTreeSet};

use crate::graph::{
    Aliases, Condition, Diagnostic, GraphBuilder, KnowledgeGraph, Relation, Stance, Tuple,
};
use crate::patient::Patient;
use crate::text::{normalize_term, split_sentences, Document, Span};

use cues::*;
use phrase::{entity, list_items};
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

/// One clause's arguments after resolving the subject.
struct Clause {
    toks: Vec<Tok>,
    /// Index of the first token of the predicate (the verb group).
    verb: Option<usize>,
    /// Start of the subject (after introductory phrases).
    subject_start: usize,
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
            let has_population =
                stated.iter().any(|(_, population)| *population) || sentence_population.is_some();
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

    /// Drops "( … )" from the tokens, recording the alias it states.
    fn strip_parentheticals(&mut self, toks: &[Tok]) -> Vec<Tok> {
        let mut out: Vec<Tok> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            if toks[i].lower == "(" {
                if let Some(close) = (i + 1..toks.len()).find(|&j| toks[j].lower == ")") {
                    let inner = &toks[i + 1..close];
                    self.parenthetical_alias(&out, inner, toks.get(close + 1..).unwrap_or(&[]));
                    i = close + 1;
                    continue;
                }
            }
            out.push(toks[i].clone());
            i += 1;
        }
        out
    }

    /// "major depressive disorder (MDD)", "valproate (divalproex)", "dipeptidyl
    /// peptidase-4 (DPP-4) inhibitors": the words before the parenthesis that the short
    /// form abbreviates (or the last word, for a synonym) name the same thing.
    fn parenthetical_alias(&mut self, before: &[Tok], inner: &[Tok], after: &[Tok]) {
        if inner.is_empty()
            || inner.len() > 4
            || inner.iter().any(|t| is(t, &["see", "e.g", "i.e"]))
        {
            return;
        }
        let short = surface(self.text, inner);
        if short.chars().any(|c| c.is_ascii_digit()) && !short.chars().any(char::is_alphabetic) {
            return;
        }
        // The long form: the words back to a boundary, at most 6, fitted to the
        // abbreviation's letters when it is one.
        let mut start = before.len();
        while start > 0
            && before.len() - start < 6
            && before[start - 1].word
            && !is(&before[start - 1], SUBORDINATE)
            && !is(&before[start - 1], VERB_START)
            && !is(&before[start - 1], ENTITY_LEAD_DET)
        {
            start -= 1;
        }
        let candidates = &before[start..];
        if candidates.is_empty() {
            return;
        }
        let letters: Vec<char> = short
            .chars()
            .filter(|c| c.is_ascii_uppercase())
            .map(|c| c.to_ascii_lowercase())
            .collect();
        let long_toks: &[Tok] = if letters.len() >= 2 {
            // The shortest run of the words before the parenthesis that starts with the
            // abbreviation's first letter and contains its letters in order.
            let fit = (0..candidates.len()).rev().find(|&k| {
                let letters_of: String = candidates[k..].iter().map(|t| t.lower.clone()).collect();
                letters_of.starts_with(letters[0]) && covers(&letters_of, &letters)
            });
            match fit {
                Some(k) => &candidates[k..],
                None => return,
            }
        } else {
            &candidates[candidates.len() - 1..]
        };
        let long = surface(self.text, long_toks);
        // A head noun after the parenthesis belongs to both: "(DPP-4) inhibitors".
        let tail: Vec<&Tok> = after
            .iter()
            .take_while(|t| t.word && !is(t, SUBORDINATE) && !is(t, VERB_START))
            .take(2)
            .collect();
        if let Some(head) = tail
            .first()
            .filter(|t| t.lower.ends_with('s') || t.lower.ends_with("or"))
        {
            let head = self.text.get(head.start..head.end).unwrap_or("");
            self.aliases
                .push((format!("{long} {head}"), format!("{short} {head}")));
        }
        if normalize_term(&long) != normalize_term(&short) {
            self.aliases.push((long, short));
        }
    }

    /// The population a sentence is about, when its subject names people.
    fn population_subject(&self, toks: &[Tok]) -> Option<String> {
        let mut verb = toks
            .iter()
            .position(|t| is(t, FINITE) || is(t, &["show", "have"]))?;
        // "Patients who have had X, such as Y, must never …": the main verb follows the
        // relative clause.
        if let Some(rel) = toks[..verb]
            .iter()
            .position(|t| is(t, &["who", "whose", "that"]))
        {
            let first = verb;
            verb = (rel + 1..toks.len())
                .find(|&j| {
                    j > first
                        && is(
                            &toks[j],
                            &[
                                "should", "must", "can", "cannot", "may", "will", "are", "is",
                            ],
                        )
                })
                .or_else(|| {
                    let comma = (rel..toks.len()).find(|&j| toks[j].lower == ",")?;
                    (comma..toks.len()).find(|&j| is(&toks[j], FINITE))
                })?;
        }
        let mut head: &[Tok] = &toks[..verb];
        while head.last().is_some_and(|t| !t.word) {
            head = &head[..head.len() - 1];
        }
        let relative = head.iter().any(|t| is(t, &["who", "whose"]));
        if head.iter().any(|t| is(t, &[";", ":"]))
            || head
                .first()
                .is_some_and(|t| is(t, VERB_START) || is(t, &["avoid", "use", "do"]))
        {
            return None;
        }
        if head.is_empty() || (head.iter().any(|t| t.lower == ",") && !relative) {
            return None;
        }
        if head.first().is_some_and(|t| is(t, SUBORDINATE)) {
            return None;
        }
        let person = head.iter().position(|t| is(t, PERSON))?;
        if person > 3 {
            return None;
        }
        Some(surface(self.text, head))
    }

    /// The condition phrases a clause states, with anaphors resolved; each says
    /// whether it names a population (which carries to later sentences) or is a
    /// circumstance ("if the isolate is susceptible"), which does not.
    fn conditions(&mut self, clause: &Clause) -> Vec<(String, bool)> {
        let toks = &clause.toks;
        let mut out: Vec<(String, bool)> = Vec::new();
        let mut i = 0;
        while i < toks.len() {
            let t = &toks[i];
            // "in these patients" and friends.
            let anaphor_at = if is(t, &["in", "for", "among"]) {
                i + 1
            } else {
                i
            };
            if let Some(a) = POPULATION_ANAPHORS
                .iter()
                .find(|a| starts_with(toks, anaphor_at, a))
            {
                if let Some(p) = &self.population {
                    push_condition(&mut out, p.clone(), true);
                }
                i = anaphor_at + a.len();
                continue;
            }
            let safe_before = || find_any(&toks[..i], SAFE).is_some();
            let opener = is(
                t,
                &[
                    "in", "for", "among", "during", "when", "if", "unless", "where",
                ],
            ) || (t.lower == "including" && safe_before())
                || (t.lower == "after"
                    && i > 0
                    && is(&toks[i - 1], &["avoided", "avoid", "contraindicated"]))
                || (t.lower == "by" && toks[i + 1..].iter().take(2).any(|n| is(n, PERSON)));
            if !opener {
                i += 1;
                continue;
            }
            let conditional = conditional_opener(t);
            // The phrase ends at punctuation, a clause connective, or a verb that is not
            // inside a relative clause ("people who have received …" keeps its verb).
            let mut relative = false;
            let end = (i + 1..toks.len())
                .find(|&j| {
                    if is(&toks[j], &["who", "whose", "that", "which"]) {
                        relative = true;
                    }
                    is(&toks[j], &[",", ";", ":", "."])
                        || (j > i + 1 && is(&toks[j], &["because", "whereas", "so"]))
                        || (j > i + 1
                            && !conditional
                            && is(&toks[j], &["when", "if", "unless", "until"]))
                        || (j > i + 1 && !conditional && !relative && is(&toks[j], &["for", "due"]))
                        || (j > i + 1
                            && !relative
                            && is(&toks[j], VERB_START)
                            && !is(&toks[j], &["is", "are"]))
                        || (j > i + 1
                            && !relative
                            && !conditional
                            && is(&toks[j], &["is", "are", "should", "can", "may"]))
                })
                .unwrap_or(toks.len());
            // "in patients with A, B, C or D": a list that runs to the end of the clause
            // with no verb of its own belongs to the phrase.
            let mut end = end;
            if !conditional && toks.get(end).is_some_and(|t| t.lower == ",") {
                let rest = &toks[end + 1..];
                let clause_like = rest.iter().any(|r| {
                    is(r, VERB_START) || is(r, &["which", "who", "whose", "that", "so", "because"])
                });
                if !clause_like && rest.iter().any(|r| is(r, &["or", "and"])) {
                    end = toks.len();
                }
            }
            let mut body = &toks[i + 1..end];
            while body
                .last()
                .is_some_and(|b| is(b, &["and", "or", "but", "to"]))
            {
                body = &body[..body.len() - 1];
            }
            if body.is_empty() {
                i += 1;
                continue;
            }
            let intro = i < clause.subject_start;
            let person = body
                .iter()
                .take(if t.lower == "for" { 3 } else { 4 })
                .any(|b| is(b, PERSON));
            let after_harm = i > 0
                && is(t, &["in", "during"])
                && (is(
                    &toks[i - 1],
                    &[
                        "contraindicated",
                        "avoided",
                        "avoid",
                        "unsafe",
                        "accumulate",
                        "accumulates",
                        "dangerous",
                        "teratogenic",
                    ],
                ) || (is(&toks[i - 1], &["recommended"])
                    && i > 1
                    && is(&toks[i - 2], &["not", "longer"])));
            let phrase = surface(self.text, body);
            let speaks = is(t, &["in", "during"]) && speaks_of_patient(&phrase);
            if !(intro
                || conditional
                || person
                || after_harm
                || speaks
                || is(t, &["including", "after"]))
            {
                i += 1;
                continue;
            }
            // A population phrase starts at its person noun when one leads it:
            // "for testing people who …" → "people who …".
            let start = body
                .iter()
                .position(|b| is(b, PERSON))
                .filter(|&p| {
                    p <= 2
                        && !conditional
                        && body[..p]
                            .iter()
                            .all(|b| b.lower.ends_with("ing") || is(b, ENTITY_LEAD))
                })
                .unwrap_or(0);
            let body = &body[start..];
            if body.iter().all(|b| {
                is(
                    b,
                    &[
                        "patients",
                        "patient",
                        "people",
                        "persons",
                        "individuals",
                        "those",
                    ],
                ) || is(b, ENTITY_LEAD)
            }) {
                i = end;
                continue;
            }
            let phrase = surface(self.text, body);
            let phrase = if t.lower == "during" || (t.lower == "in" && !person) {
                format!("{} {}", t.lower, phrase)
            } else {
                phrase
            };
            if !is_anaphor_only(&phrase) {
                push_condition(&mut out, phrase, !conditional);
            }
            i = end;
        }
        // "contraindicated with X", "should not be combined with X" (a co-medication) →
        // "taking X"; "with it" refers to the drug of the previous sentence when this one
        // is about several.
        if find_any(toks, HARM).is_some() {
            let with_at = (1..toks.len()).find(|&w| {
                toks[w].lower == "with"
                    && is(
                        &toks[w - 1],
                        &[
                            "contraindicated",
                            "combined",
                            "co-administered",
                            "coadministered",
                            "given",
                            "taken",
                            "used",
                        ],
                    )
                    && find_any(&toks[w.saturating_sub(5)..w], HARM).is_some()
            });
            if let Some(w) = with_at {
                let body: Vec<Tok> = toks[w + 1..]
                    .iter()
                    .take_while(|t| !is(t, &[",", ";", ".", "because", "and", "when", "if", "in"]))
                    .cloned()
                    .collect();
                let partner = if body.len() == 1 && is(&body[0], &["it", "them"]) {
                    if self.antecedents.len() == 1 && body[0].lower == "it" {
                        self.antecedents.first().cloned()
                    } else {
                        self.last_subjects.first().cloned()
                    }
                } else if body.is_empty() {
                    None
                } else {
                    Some(surface(self.text, &body))
                };
                if let Some(p) = partner {
                    push_condition(&mut out, format!("taking {p}"), true);
                }
            }
        }
        if let Some((last, _)) = out.iter().rev().find(|(_, population)| *population) {
            self.population = Some(last.clone());
        }
        out
    }

    /// The entities a clause is about: its subject, with pronouns resolved.
    fn subjects(&mut self, clause: &Clause, sentence_subjects: &[String]) -> Vec<String> {
        let Some(verb) = clause.verb else {
            return Vec::new();
        };
        let region = remove_inserts(&clause.toks[clause.subject_start..verb]);
        // Appositives: "Naltrexone, an opioid receptor antagonist …, is" → class.
        let (region, appositive) = region;
        if region.is_empty() || region.iter().all(|t| is(t, &["and", "but", "so", "then"])) {
            return sentence_subjects.to_vec();
        }
        let mut region: Vec<Tok> = region;
        while region
            .first()
            .is_some_and(|t| is(t, &["and", "but", "so", "then", "therefore", "also"]))
        {
            region.remove(0);
        }
        // "the combination is contraindicated": the previous subject with the drug it
        // was said to interact with.
        if region.len() <= 2
            && region
                .iter()
                .any(|t| is(t, &["combination", "co-administration", "coadministration"]))
        {
            let resolved = if sentence_subjects.is_empty() {
                self.last_subjects.clone()
            } else {
                sentence_subjects.to_vec()
            };
            self.clause_partner = resolved
                .iter()
                .find_map(|r| self.partners.get(&normalize_term(r)).cloned());
            return resolved;
        }
        // "these direct oral anticoagulants": the noun phrase names the entity.
        if region.first().is_some_and(|t| is(t, &["this", "these"])) && region.len() >= 2 {
            if let Some(e) = entity(&region[1..]) {
                if !region.iter().any(|t| t.lower == "combination") {
                    return vec![surface(self.text, &e)];
                }
            }
        }
        if region.len() <= 3 && region.first().is_some_and(|t| is(t, PRONOUNS)) {
            let resolved = if sentence_subjects.is_empty() {
                self.last_subjects.clone()
            } else {
                sentence_subjects.to_vec()
            };
            // "this sulfonamide combination": the combination that contains it.
            if region.iter().any(|t| t.lower == "combination") {
                if let Some(combo) = self.combination_containing(&resolved) {
                    return vec![combo];
                }
            }
            return resolved;
        }
        // A population subject is a condition, not an entity.
        if region.iter().take(4).any(|t| is(t, PERSON)) {
            return Vec::new();
        }
        let mut names = Vec::new();
        for item in list_items(&region) {
            if let Some(name) = self.item_name(&item, clause) {
                names.push(name);
            }
        }
        if let (Some(class), [name]) = (appositive, names.as_slice()) {
            let class = surface(self.text, &class);
            let name = name.clone();
            self.push_isa(&name, &class, clause);
        }
        names
    }

    fn push_isa(&mut self, member: &str, class: &str, clause: &Clause) {
        let evidence = self.clause_span(clause);
        self.tuples.push(Tuple::new(
            member,
            Relation::IsA,
            class,
            Vec::new(),
            evidence,
        ));
    }

    fn clause_span(&self, clause: &Clause) -> Span {
        let start = clause.toks.first().map_or(0, |t| t.start);
        let end = clause.toks.last().map_or(start, |t| t.end);
        self.span(&(start..end))
    }

    /// "low-dose quetiapine" names quetiapine: dose words do not make a new entity
    /// (routes do: oral and intravenous iron differ).
    fn dose_alias(&mut self, e: &[Tok]) {
        if e.len() >= 2
            && is(
                &e[0],
                &[
                    "low-dose",
                    "high-dose",
                    "single-dose",
                    "standard-dose",
                    "full-dose",
                    "reduced-dose",
                ],
            )
        {
            self.aliases
                .push((surface(self.text, &e[1..]), surface(self.text, e)));
        }
    }

    /// The entity a list item names, recording its class ("anticoagulants such as X",
    /// "the ergot alkaloid methylergonovine") and dose aliases on the way.
    fn item_name(&mut self, item: &phrase::Item, clause: &Clause) -> Option<String> {
        let e = entity(&item.toks)?;
        let name = match self.apposition(&e, clause) {
            Some(member) => member,
            None => surface(self.text, &e),
        };
        if let Some(class) = item.class.as_ref().and_then(|c| entity(c)) {
            let class = surface(self.text, &class);
            self.push_isa(&name, &class, clause);
        }
        self.dose_alias(&e);
        Some(strip_possessive(&name))
    }

    /// "the ergot alkaloid methylergonovine": a class noun phrase followed by a name;
    /// returns the name.
    fn apposition(&mut self, e: &[Tok], clause: &Clause) -> Option<String> {
        if e.len() < 2 || !is_class_head(&e[e.len() - 2].lower) {
            return None;
        }
        let class = surface(self.text, &e[..e.len() - 1]);
        let name = surface(self.text, &e[e.len() - 1..]);
        self.push_isa(&name, &class, clause);
        Some(name)
    }

    /// A recorded combination ("trimethoprim-sulfamethoxazole") containing one of `names`.
    fn combination_containing(&self, names: &[String]) -> Option<String> {
        let keys: Vec<String> = names.iter().map(|n| normalize_term(n)).collect();
        self.tuples
            .iter()
            .flat_map(|t| [&t.subject, &t.object])
            .chain(self.known.iter())
            .find(|s| {
                let k = normalize_term(s);
                let parts: Vec<&str> = k.split(' ').collect();
                parts.len() > 1 && keys.iter().any(|key| parts.contains(&key.as_str()))
            })
            .cloned()
    }

    /// "X raises Y concentrations", "X inhibits the metabolism of Y"… : X interacts
    /// with Y (recorded for a later "the combination is contraindicated").
    fn interactions(&mut self, toks: &[Tok], subjects: &[String], evidence: &Span) {
        const VERBS: &[&str] = &[
            "inhibits",
            "induces",
            "raises",
            "increases",
            "reduces",
            "lowers",
            "decreases",
            "displaces",
            "inhibit",
            "induce",
            "raise",
            "increase",
            "reduce",
            "lower",
        ];
        const HEADS: &[&str] = &[
            "concentrations",
            "concentration",
            "levels",
            "level",
            "exposure",
            "clearance",
        ];
        for i in 0..toks.len() {
            if !is(&toks[i], VERBS) {
                continue;
            }
            let span: Vec<&Tok> = toks[i + 1..]
                .iter()
                .take_while(|t| !is(t, &[",", ";", ".", "and", "or", "by", "in", "up"]))
                .collect();
            let Some(k) = span.iter().position(|t| is(t, HEADS)) else {
                continue;
            };
            let partner: Vec<Tok> = span[..k]
                .iter()
                .filter(|t| !is(t, &["the", "a", "an", "plasma", "serum", "blood"]))
                .map(|t| (*t).clone())
                .collect();
            if partner.is_empty() {
                continue;
            }
            let partner = surface(self.text, &partner);
            for s in subjects {
                self.partners.insert(normalize_term(s), partner.clone());
                self.tuples.push(Tuple::new(
                    s.clone(),
                    Relation::InteractsWith,
                    partner.clone(),
                    Vec::new(),
                    evidence.clone(),
                ));
            }
        }
    }

    /// Emits the tuples a clause states.
    fn relations(
        &mut self,
        clause: &Clause,
        subjects: &[String],
        conditions: &[String],
        evidence: &Span,
    ) {
        let toks = &clause.toks;
        self.interactions(toks, subjects, evidence);
        let test = toks.iter().any(|t| is(t, TEST_WORDS));
        let conds: Vec<Condition> = conditions.iter().map(Condition::holds).collect();
        // The indication belongs to the main predicate: not to a trailing ", with CT
        // reserved for inconclusive cases".
        let main_end = clause
            .verb
            .and_then(|v| (v..toks.len()).find(|&j| toks[j].lower == ","))
            .unwrap_or(toks.len());
        let indication = self.indication(&toks[..main_end]);
        // Statements that name no indication are about the one named last.
        let topic = indication
            .clone()
            .or_else(|| self.topic.clone())
            .unwrap_or_default();
        // 0. "three first-line options for X: A, B and C".
        let mut objects_done = false;
        if let Some(colon) = toks.iter().position(|t| t.lower == ":") {
            let before = &toks[..colon];
            if before.iter().any(|t| {
                is(
                    t,
                    &[
                        "options",
                        "agents",
                        "choices",
                        "drugs",
                        "treatments",
                        "regimen",
                        "regimens",
                        "include",
                        "includes",
                        "tests",
                    ],
                )
            }) {
                let strength = if before
                    .iter()
                    .any(|t| is(t, &["first-line", "preferred", "recommended"]))
                {
                    2
                } else {
                    1
                };
                let relation = recommendation(strength, test);
                if self.recommend_objects(
                    &toks[colon + 1..],
                    clause,
                    &relation,
                    &topic,
                    &conds,
                    evidence,
                ) {
                    return;
                }
            }
        }
        // 0b. Imperatives: "use X as first-line therapy", "consider X".
        if let Some(first) = toks.first() {
            let strength = match first.lower.as_str() {
                "use" | "prefer" | "choose" | "give" | "start" | "prescribe" => Some(3),
                "consider" => Some(2),
                _ => None,
            };
            if let Some(strength) = strength {
                let relation = recommendation(strength, test);
                if self.recommend_objects(&toks[1..], clause, &relation, &topic, &conds, evidence) {
                    return;
                }
            }
        }
        // 1. Object cues: "recommend X", "should receive X", "avoid X", "include X".
        for i in 0..toks.len() {
            if let Some((cue, strength)) = RECOMMEND_OBJECT
                .iter()
                .find(|(c, _)| starts_with(toks, i, c))
            {
                // "recommend avoiding X" is a warning.
                if toks
                    .get(i + cue.len())
                    .is_some_and(|t| is(t, &["avoiding", "against"]))
                {
                    continue;
                }
                let relation = recommendation(*strength, test);
                if self.recommend_objects(
                    &toks[i + cue.len()..],
                    clause,
                    &relation,
                    &topic,
                    &conds,
                    evidence,
                ) {
                    objects_done = true;
                    break;
                }
            }
            // "preferred … to avoid ionizing radiation": a purpose, not a warning.
            let purpose = i > 0
                && toks[i - 1].lower == "to"
                && RECOMMEND
                    .iter()
                    .any(|(c, _)| find_any(&toks[..i], &[c]).is_some());
            if let Some(cue) = HARM_OBJECT
                .iter()
                .find(|c| !purpose && starts_with(toks, i, c))
            {
                let mut names = self.object_names(&toks[i + cue.len()..], clause);
                // "list X as a medication to avoid in Y": X comes before "as".
                if names.is_empty() && i > 0 && toks[i - 1].lower == "to" {
                    if let Some(as_at) = toks[..i].iter().rposition(|t| t.lower == "as") {
                        let start = toks[..as_at]
                            .iter()
                            .rposition(|t| is(t, VERB_START) || !t.word)
                            .map_or(0, |p| p + 1);
                        names = self.object_names(&toks[start..as_at], clause);
                    }
                }
                if names.iter().all(|n| is_pronoun(n)) {
                    names = self.antecedents.clone();
                }
                // "X hypersensitivity precludes aspirin use": the subject is the condition.
                let (conds, conditions) = if cue[0] == "precludes" && i > clause.subject_start {
                    let mut head: Vec<Tok> = toks[clause.subject_start..i].to_vec();
                    while head.last().is_some_and(|t| !t.word) {
                        head.pop();
                    }
                    let phrase = surface(self.text, &head);
                    (vec![Condition::holds(phrase.clone())], vec![phrase])
                } else {
                    (conds.clone(), conditions.to_vec())
                };
                for name in names {
                    self.warn(&name, &conds, &conditions, evidence);
                    objects_done = true;
                }
                if objects_done {
                    break;
                }
            }
        }
        // "Options include …" with the subject naming the indication: the topic.
        if objects_done {
            return;
        }
        if subjects.is_empty() {
            return;
        }
        let predicate = &toks[clause.verb.unwrap_or(0)..];
        // ", which may cause X" about the subject's effect: the subject causes X; the
        // relative clause is not the main predicate.
        let (predicate, relative) = match predicate
            .windows(2)
            .position(|w| w[0].lower == "," && is(&w[1], &["which", "who"]))
        {
            Some(p) => (&predicate[..p], &predicate[p..]),
            None => (predicate, &predicate[predicate.len()..]),
        };
        if let Some(effect) = effect(self.text, relative) {
            for s in subjects {
                self.tuples.push(Tuple::new(
                    s.clone(),
                    Relation::Causes,
                    effect.clone(),
                    conds.clone(),
                    evidence.clone(),
                ));
            }
        }
        // 1b. "X causes false-negative Y", "X interferes with Y", "X makes Y
        // uninterpretable": Y is unreliable when X holds.
        if let Some((at, len)) = find_any(predicate, INVALIDATES) {
            let names = if predicate[at..at + len]
                .iter()
                .any(|t| is(t, &["uninterpretable", "unreliable"]))
            {
                // "makes Y uninterpretable": Y sits between the verb and the cue.
                let from = predicate
                    .iter()
                    .position(|t| is(t, &["makes", "make", "renders", "render"]))
                    .map_or(at, |p| p + 1);
                self.object_names(&predicate[from.min(at)..at], clause)
            } else {
                self.object_names(&predicate[at + len..], clause)
            };
            if !names.is_empty() {
                let cond_phrases: Vec<String> =
                    subjects.iter().map(|s| format!("taking {s}")).collect();
                let cond_values: Vec<Condition> =
                    cond_phrases.iter().map(Condition::holds).collect();
                for name in names {
                    self.warn(&name, &cond_values, &cond_phrases, evidence);
                }
                return;
            }
        }
        // 2. Warnings about the subject, unless negated ("do not constrict").
        let safe = find_any(predicate, SAFE).is_some();
        let harm = find_any(predicate, HARM).filter(|&(at, _)| {
            // "preferred … to avoid radiation": a purpose, not a warning.
            !(at > 0
                && predicate[at - 1].lower == "to"
                && RECOMMEND
                    .iter()
                    .any(|(c, _)| find_any(&predicate[..at], &[c]).is_some()))
        });
        if let Some((at, _)) = harm {
            let negated = predicate[..at]
                .iter()
                .rev()
                .take(3)
                .any(|t| is(t, &["not", "no", "without", "never"]))
                && !starts_with(predicate, at.saturating_sub(1), &["should", "not"])
                && !starts_with(predicate, at.saturating_sub(1), &["must", "not"])
                && !starts_with(predicate, at.saturating_sub(1), &["must", "never"]);
            if !negated && !safe {
                for s in subjects {
                    let object = if conditions.is_empty() {
                        effect(self.text, &predicate[at..])
                    } else {
                        None
                    };
                    match object {
                        Some(effect) => self.tuples.push(Tuple::new(
                            s.clone(),
                            Relation::Causes,
                            effect,
                            Vec::new(),
                            evidence.clone(),
                        )),
                        None => self.warn(s, &conds, conditions, evidence),
                    }
                }
                return;
            }
        }
        // 3. Recommendations and safety of the subject.
        let found = RECOMMEND
            .iter()
            .filter_map(|(cue, s)| find_any(predicate, &[cue]).map(|(at, _)| (at, *s)))
            .min_by_key(|(at, s)| (*at, std::cmp::Reverse(*s)));
        // "is not used before 6 months": a negated recommendation is a warning.
        if let Some((at, _)) = found {
            if predicate[at.saturating_sub(2)..at]
                .iter()
                .any(|t| is(t, &["not", "never"]))
            {
                for s in subjects {
                    self.warn(s, &conds, conditions, evidence);
                }
                return;
            }
        }
        let strength = found.map(|(_, s)| s);
        if strength.is_none() && !safe {
            self.generic(clause, subjects, &conds, evidence);
            return;
        }
        for s in subjects {
            if let Some(strength) = strength {
                let relation = recommendation(strength, test);
                self.tuples.push(Tuple::new(
                    topic.clone(),
                    relation,
                    s.clone(),
                    conds.clone(),
                    evidence.clone(),
                ));
            } else if safe {
                self.tuples.push(Tuple::new(
                    topic.clone(),
                    Relation::SafeIn,
                    s.clone(),
                    conds.clone(),
                    evidence.clone(),
                ));
            }
        }
    }

    /// Any other statement "S verb O" ("ART reduces transmission", "channels are
    /// blocked by Compound 99", "A was superior to B"): a relation named by the verb,
    /// with the clause's conditions and a trailing "in X" as context.
    fn generic(
        &mut self,
        clause: &Clause,
        subjects: &[String],
        conds: &[Condition],
        evidence: &Span,
    ) {
        let Some(verb) = clause.verb else { return };
        let toks = &clause.toks;
        const AUX: &[&str] = &[
            "is",
            "are",
            "was",
            "were",
            "has",
            "have",
            "had",
            "been",
            "be",
            "may",
            "can",
            "will",
            "both",
            "does",
            "do",
            "did",
            "also",
            "often",
            "frequently",
            "generally",
            "usually",
            "might",
            "could",
        ];
        let mut j = verb;
        while j < toks.len() && is(&toks[j], AUX) {
            j += 1;
        }
        if toks[verb..j.min(toks.len())]
            .iter()
            .any(|t| is(t, &["not", "never", "no"]))
        {
            return;
        }
        let Some(head) = toks
            .get(j)
            .filter(|t| t.word && !is(t, SUBORDINATE) && !is(t, AUX))
        else {
            return;
        };
        let next = toks.get(j + 1);
        let (name, object_start) =
            if head.lower.ends_with("ed") && next.is_some_and(|n| n.lower == "by") {
                (format!("{}_by", head.lower), j + 2)
            } else if next.is_some_and(|n| is(n, &["to", "with"])) && j > verb {
                (
                    format!("{}_{}", head.lower, next.map_or("", |n| n.lower.as_str())),
                    j + 2,
                )
            } else if j > verb {
                // A copula with a noun or adjective ("is a glutamate modulator"): no relation.
                return;
            } else {
                (head.lower.clone(), j + 1)
            };
        let names = self.object_names(toks.get(object_start..).unwrap_or(&[]), clause);
        // A trailing "in cardiomyocytes" situates the statement.
        let mut conds = conds.to_vec();
        if let Some(at) = (object_start..toks.len()).find(|&k| toks[k].lower == "in") {
            let body: Vec<Tok> = toks[at + 1..]
                .iter()
                .take_while(|t| t.word && !is(t, SUBORDINATE) && !is(t, VERB_START))
                .cloned()
                .collect();
            if !body.is_empty() {
                let c = Condition::holds(format!("in {}", surface(self.text, &body)));
                if !conds
                    .iter()
                    .any(|x| normalize_term(&x.phrase) == normalize_term(&c.phrase))
                {
                    conds.push(c);
                }
            }
        }
        let relation = Relation::Other(name.replace(['-', ' '], "_"));
        for s in subjects {
            for n in &names {
                self.tuples.push(Tuple::new(
                    s.clone(),
                    relation.clone(),
                    n.clone(),
                    conds.clone(),
                    evidence.clone(),
                ));
            }
        }
    }

    /// ⟨topic, relation, name, conditions⟩ for each name after an object cue; whether
    /// there was one.
    fn recommend_objects(
        &mut self,
        rest: &[Tok],
        clause: &Clause,
        relation: &Relation,
        topic: &str,
        conds: &[Condition],
        evidence: &Span,
    ) -> bool {
        let names = self.object_names(rest, clause);
        for name in &names {
            self.tuples.push(Tuple::new(
                topic,
                relation.clone(),
                name.clone(),
                conds.to_vec(),
                evidence.clone(),
            ));
        }
        !names.is_empty()
    }

    /// The names after an object cue, up to the end of the list.
    fn object_names(&mut self, rest: &[Tok], clause: &Clause) -> Vec<String> {
        let end = (0..rest.len())
            .find(|&j| {
                is(
                    &rest[j],
                    &[
                        ";", ":", ".", "because", "as", "if", "when", "so", "whereas", "while",
                        "unless",
                    ],
                ) && !(rest[j].lower == "as" && j > 0 && rest[j - 1].lower == "such")
            })
            .unwrap_or(rest.len());
        // "lowers uric acid and is a reasonable choice": a second verb phrase ends the list.
        let end = (0..end)
            .find(|&j| {
                is(&rest[j], &["and", "or"]) && rest.get(j + 1).is_some_and(|n| is(n, FINITE))
            })
            .unwrap_or(end);
        let region = &rest[..end];
        // "avoid in adults …": no object here.
        if region
            .first()
            .is_some_and(|t| is(t, &["in", "during", "for", "with", "among", "after", "to"]))
        {
            return Vec::new();
        }
        // Stop at ", which …" inserts.
        let region: Vec<Tok> = match region.windows(2).position(|w| {
            w[0].lower == "," && is(&w[1], &["which", "who", "that", "with", "although"])
        }) {
            Some(p) => region[..p].to_vec(),
            None => region.to_vec(),
        };
        let mut names = Vec::new();
        for item in list_items(&region) {
            if item.toks.first().is_some_and(|t| is(t, PERSON)) {
                continue;
            }
            if let Some(name) = self.item_name(&item, clause) {
                names.push(name);
            }
        }
        names
    }

    /// A warning: ⟨name, contraindicated_in, condition, [condition]⟩ for each condition.
    fn warn(&mut self, name: &str, conds: &[Condition], conditions: &[String], evidence: &Span) {
        if conditions.is_empty() {
            self.tuples.push(Tuple::new(
                name,
                Relation::Causes,
                "harm",
                Vec::new(),
                evidence.clone(),
            ));
            return;
        }
        for (c, phrase) in conds.iter().zip(conditions) {
            self.tuples.push(Tuple::new(
                name,
                Relation::ContraindicatedIn,
                phrase.clone(),
                vec![c.clone()],
                evidence.clone(),
            ));
        }
    }

    /// The indication a clause names: "for chronic hypertension", "for alcohol use
    /// disorder", "in delirium" — the first such phrase that is not a population.
    fn indication(&mut self, toks: &[Tok]) -> Option<String> {
        for i in 0..toks.len() {
            if !is(&toks[i], &["for", "to", "of"]) {
                continue;
            }
            let mut j = i + 1;
            // "to evaluate X", "to treat X", "to monitor X"
            if toks[i].lower == "to" {
                if !toks.get(j).is_some_and(|t| {
                    is(
                        t,
                        &[
                            "evaluate", "treat", "prevent", "screen", "monitor", "diagnose",
                            "manage",
                        ],
                    )
                }) {
                    continue;
                }
                j += 1;
            }
            if i > 0
                && is(
                    &toks[i - 1],
                    &[
                        "positive",
                        "negative",
                        "eligible",
                        "suitable",
                        "allergic",
                        "resistant",
                        "susceptible",
                        "risk",
                    ],
                )
            {
                continue;
            }
            if toks[i].lower == "of"
                && !(i > 0
                    && is(
                        &toks[i - 1],
                        &[
                            "treatment",
                            "management",
                            "therapy",
                            "prophylaxis",
                            "diagnosis",
                        ],
                    ))
            {
                continue;
            }
            // "for treating X": the gerund is not part of the indication.
            if toks
                .get(j)
                .is_some_and(|t| t.lower.ends_with("ing") && t.lower.len() > 5)
            {
                j += 1;
            }
            let body: Vec<Tok> = toks[j..]
                .iter()
                .take_while(|t| {
                    t.word
                        && !is(t, ENTITY_END)
                        && !is(t, VERB_START)
                        && !is(t, &["and", "or", "usually", "generally", "often"])
                })
                .cloned()
                .collect();
            let body: Vec<Tok> = body
                .into_iter()
                .skip_while(|t| is(t, ENTITY_LEAD))
                .collect();
            if body.is_empty()
                || body.iter().take(3).any(|t| is(t, PERSON))
                || phrase::is_number(&body[0])
                || body.iter().any(|t| {
                    is(
                        t,
                        &[
                            "days",
                            "weeks",
                            "months",
                            "years",
                            "hours",
                            "dose",
                            "doses",
                            "cases",
                            "situations",
                        ],
                    )
                })
                || body
                    .iter()
                    .all(|t| is(t, GENERIC_HEAD) || is(t, TEST_WORDS))
            {
                continue;
            }
            let phrase = surface(self.text, &body);
            if speaks_of_patient(&phrase) || body.len() > 6 {
                continue;
            }
            let phrase = phrase.trim_start_matches("the ").to_string();
            if self.first_topic.is_none() {
                self.first_topic = Some(phrase.clone());
            }
            self.topic = Some(phrase.clone());
            return Some(phrase);
        }
        None
    }
}

/// Splits a sentence into clauses at ";" and at ", and/but/whereas/so/while" when what
/// follows has its own finite verb (a list's ", and C" does not).
fn clauses(toks: &[Tok]) -> Vec<Vec<Tok>> {
    let mut out = Vec::new();
    let mut current: Vec<Tok> = Vec::new();
    let mut i = 0;
    while i < toks.len() {
        let t = &toks[i];
        if t.lower == ";" {
            out.push(std::mem::take(&mut current));
            i += 1;
            continue;
        }
        if t.lower == ","
            && toks.get(i + 1).is_some_and(|n| {
                is(
                    n,
                    &["and", "but", "whereas", "so", "while", "yet", "making"],
                )
            })
        {
            let next_stop = (i + 2..toks.len())
                .find(|&j| is(&toks[j], &[",", ";", "."]))
                .unwrap_or(toks.len());
            let has_verb = toks[i + 2..next_stop].iter().any(|x| is(x, FINITE));
            if has_verb || toks[i + 1].lower != "and" {
                out.push(std::mem::take(&mut current));
                i += 2;
                continue;
            }
        }
        if t.lower == "whereas" {
            out.push(std::mem::take(&mut current));
            i += 1;
            continue;
        }
        // "because it increases …": a clause of its own.
        if t.lower == "because"
            && toks
                .get(i + 1)
                .is_some_and(|n| is(n, &["it", "they", "its", "their", "this", "these"]))
        {
            out.push(std::mem::take(&mut current));
            i += 1;
            continue;
        }
        // "A study found that X was superior to Y": the finding is the clause.
        if t.lower == "that"
            && i > 0
            && is(
                &toks[i - 1],
                &[
                    "found",
                    "showed",
                    "shows",
                    "suggests",
                    "suggested",
                    "demonstrated",
                    "reported",
                    "concluded",
                ],
            )
        {
            out.push(std::mem::take(&mut current));
            i += 1;
            continue;
        }
        current.push(t.clone());
        i += 1;
    }
    out.push(current);
    out.into_iter()
        .map(|mut c| {
            while c.last().is_some_and(|t| !t.word) {
                c.pop();
            }
            c
        })
        .filter(|c| !c.is_empty())
        .collect()
}

/// Finds the subject start (after introductory phrases) and the verb of a clause.
fn analyse(toks: Vec<Tok>) -> Clause {
    let mut subject_start = 0;
    // "because its use … has been associated with …": the connective is not part of the
    // subject.
    if toks
        .first()
        .is_some_and(|t| is(t, &["because", "since", "although", "and", "but", "so"]))
        && !toks.iter().any(|t| t.lower == ",")
    {
        subject_start = 1;
    }
    // "In these patients a 10-day course of X is recommended": the anaphor is an
    // introductory phrase even without a comma.
    if toks.first().is_some_and(|t| is(t, &["in", "for", "among"])) {
        if let Some(a) = POPULATION_ANAPHORS
            .iter()
            .find(|a| starts_with(&toks, 1, a))
        {
            subject_start = 1 + a.len();
            if toks.get(subject_start).is_some_and(|t| t.lower == ",") {
                subject_start += 1;
            }
        }
    }
    // Introductory phrases: "In patients with X, …", "If …, …", "For …, particularly …, …".
    loop {
        let starts_intro = toks.get(subject_start).is_some_and(|t| {
            is(t, SUBORDINATE) && !is(t, &["and", "or", "which", "who", "that", "both"])
        });
        if !starts_intro {
            break;
        }
        match (subject_start..toks.len()).find(|&j| toks[j].lower == ",") {
            Some(comma) => subject_start = comma + 1,
            None => break,
        }
    }
    // The verb: the first predicate word outside a comma insert.
    let mut depth_insert = false;
    let mut verb = None;
    for j in subject_start..toks.len() {
        let t = &toks[j];
        if t.lower == "," {
            let next = toks.get(j + 1);
            depth_insert = next.is_some_and(|n| is(n, INSERT_START)) && !depth_insert;
            continue;
        }
        if depth_insert {
            continue;
        }
        // A clause that starts with its verb has an elided subject (", and can cause …").
        if is(t, VERB_START) && (j > subject_start || subject_start == 0) {
            verb = Some(j);
            break;
        }
    }
    Clause {
        toks,
        verb,
        subject_start,
    }
}

/// Removes ", which … ," and ", an X ," inserts from a subject region, returning the
/// appositive class when there was one.
fn remove_inserts(region: &[Tok]) -> (Vec<Tok>, Option<Vec<Tok>>) {
    let mut out = Vec::new();
    let mut appositive = None;
    let mut i = 0;
    while i < region.len() {
        if region[i].lower == "," && region.get(i + 1).is_some_and(|t| is(t, INSERT_START)) {
            let end = (i + 1..region.len())
                .find(|&j| region[j].lower == ",")
                .unwrap_or(region.len());
            let inner = &region[i + 1..end];
            if inner.first().is_some_and(|t| is(t, &["a", "an"])) && appositive.is_none() {
                appositive = entity(inner);
            }
            i = end;
            continue;
        }
        out.push(region[i].clone());
        i += 1;
    }
    while out.last().is_some_and(|t| !t.word) {
        out.pop();
    }
    (out, appositive)
}

/// What a harm cue says the subject causes, when the clause names no condition:
/// "can cause neuropsychiatric adverse reactions" → "neuropsychiatric adverse reactions".
fn effect(text: &str, predicate: &[Tok]) -> Option<String> {
    let at = predicate
        .iter()
        .position(|t| is(t, &["cause", "causes", "causing"]))?;
    let body: Vec<Tok> = predicate[at + 1..]
        .iter()
        .take_while(|t| t.word && !is(t, &["and", "or", "which", "in", "through", "because"]))
        .take(5)
        .cloned()
        .collect();
    (!body.is_empty()).then(|| surface(text, &body))
}

fn recommendation(strength: u8, test: bool) -> Relation {
    match (strength, test) {
        (3, true) => Relation::PreferredTest,
        (3, false) => Relation::PreferredTreatment,
        (2, true) => Relation::DiagnosedBy,
        (2, false) => Relation::TreatedBy,
        (_, true) => Relation::DiagnosedBy,
        (_, false) => Relation::AlternativeTreatment,
    }
}

/// Whether a phrase describes a patient (a lexicon concept, an allergy, a number the
/// patient reader understands).
fn speaks_of_patient(phrase: &str) -> bool {
    let p = Patient::read(phrase);
    !p.concepts.is_empty()
        || !p.allergies.is_empty()
        || p.age_years.is_some()
        || p.renal_clearance.is_some()
}

fn conditional_opener(t: &Tok) -> bool {
    is(t, &["when", "if", "unless", "where"])
}

fn is_anaphor_only(phrase: &str) -> bool {
    let lower = phrase.to_lowercase();
    POPULATION_ANAPHORS.iter().any(|a| lower == a.join(" "))
}

fn is_pronoun(name: &str) -> bool {
    PRONOUNS.contains(&name.to_lowercase().as_str())
}

fn strip_possessive(name: &str) -> String {
    name.strip_suffix("'s")
        .or_else(|| name.strip_suffix("’s"))
        .unwrap_or(name)
        .to_string()
}

/// Whether all `letters` appear in order in `text`.
fn covers(text: &str, letters: &[char]) -> bool {
    let mut it = text.chars();
    letters.iter().all(|l| it.any(|c| c == *l))
}

/// Nouns that head a drug or test class: "the selective estrogen receptor modulator
/// raloxifene".
fn is_class_head(word: &str) -> bool {
    const HEADS: &[&str] = &[
        "modulator",
        "inhibitor",
        "antagonist",
        "agonist",
        "alkaloid",
        "blocker",
        "antibiotic",
        "analogue",
        "analog",
        "cephalosporin",
        "macrolide",
        "sulfonamide",
        "antidepressant",
        "antipsychotic",
        "benzodiazepine",
        "statin",
        "diuretic",
        "anticoagulant",
        "triptan",
        "opioid",
        "corticosteroid",
        "bisphosphonate",
        "fluoroquinolone",
        "aminoglycoside",
        "antihistamine",
        "anticonvulsant",
        "glucocorticoid",
    ];
    HEADS.contains(&word)
}

const ENTITY_LEAD_DET: &[&str] = &["a", "an", "the", "of", "and", "or", ","];

fn push_condition(v: &mut Vec<(String, bool)>, s: String, population: bool) {
    if !v
        .iter()
        .any(|(x, _)| normalize_term(x) == normalize_term(&s))
    {
        v.push((s, population));
    }
}

fn push_unique(v: &mut Vec<String>, s: String) {
    if !v.iter().any(|x| normalize_term(x) == normalize_term(&s)) {
        v.push(s);
    }
}

/// Figure 2: a warning about X under condition c puts ¬c on every recommendation of X,
/// of the members of X (class membership, transitively; "first-generation
/// cephalosporins" are cephalosporins), and of combinations that contain X. Members
/// also get the warning as their own edge, so that a walk finds it one hop from them.
fn propagate_warnings(tuples: &mut Vec<Tuple>, aliases: &[(String, String)]) {
    let mut canon = Aliases::new();
    for (a, b) in aliases {
        canon.join(a, b);
    }
    let mut members: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    let mut surfaces: BTreeMap<String, String> = BTreeMap::new();
    for t in tuples.iter().filter(|t| t.relation == Relation::IsA) {
        let (m, c) = (canon.key(&t.subject), canon.key(&t.object));
        surfaces
            .entry(m.clone())
            .or_insert_with(|| t.subject.clone());
        members.entry(c).or_default().insert(m);
    }
    // The names each warned name reaches (itself, its members, subclasses by head),
    // computed once per name.
    let closure = |subject: &str| -> BTreeSet<String> {
        let mut frontier = vec![subject.to_string()];
        let mut seen = BTreeSet::new();
        while let Some(x) = frontier.pop() {
            if !seen.insert(x.clone()) {
                continue;
            }
            if let Some(ms) = members.get(&x) {
                frontier.extend(ms.iter().cloned());
            }
            for class in members.keys() {
                if class.ends_with(&format!(" {x}")) {
                    frontier.push(class.clone());
                }
            }
        }
        seen
    };
    let mut closures: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    // Distinct (name, condition phrase) warnings: a long document repeats them.
    let mut warnings: BTreeSet<(String, String)> = BTreeSet::new();
    let mut inherited: Vec<Tuple> = Vec::new();
    let mut inherited_seen: BTreeSet<(String, String, String)> = BTreeSet::new();
    for t in tuples
        .iter()
        .filter(|t| t.relation == Relation::ContraindicatedIn)
    {
        let subject = canon.key(&t.subject);
        let seen = closures
            .entry(subject.clone())
            .or_insert_with(|| closure(&subject));
        for c in &t.conditions {
            for x in seen.iter() {
                warnings.insert((x.clone(), c.phrase.clone()));
                if *x == subject {
                    continue;
                }
                if let Some(surface) = surfaces.get(x) {
                    let key = (x.clone(), normalize_term(&t.object), c.phrase.clone());
                    if inherited_seen.insert(key) {
                        inherited.push(Tuple::new(
                            surface.clone(),
                            Relation::ContraindicatedIn,
                            t.object.clone(),
                            t.conditions.clone(),
                            t.evidence.clone(),
                        ));
                    }
                }
            }
        }
    }
    for t in tuples.iter_mut() {
        if !matches!(t.relation.stance(), Stance::Recommends | Stance::Lists) {
            continue;
        }
        let key = canon.key(&t.object);
        let parts: Vec<&str> = key.split(' ').collect();
        for (x, phrase) in &warnings {
            let combination = key.contains(' ')
                && !x.contains(' ')
                && parts.contains(&x.as_str())
                && t.object.contains(['-', '/']);
            // "breath tests" reaches "urea breath test": a warned name of two or more
            // words that ends an option's name.
            let head = x.contains(' ') && key.ends_with(&format!(" {x}"));
            let c = Condition::excludes(phrase.clone());
            if (*x == key || combination || head) && !t.conditions.contains(&c) {
                t.conditions.push(c);
            }
        }
    }
    tuples.extend(inherited);
}

#[cfg(test)]
mod tests;
