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
mod dose;
pub mod rank;
pub mod structure;
mod warning;

use std::collections::{BTreeMap, BTreeSet};
use std::ops::Range;

use crate::gate::Truth;
use crate::language::{Analysis, Language, Tag};
use crate::lexicon::{self, Class};
use crate::patient::Patient;
use crate::query::ParsedQuery;
use crate::text::{abbreviations, initialisms, normalize_term, words, Document, Span};
use warning::*;

pub use asked::{Asked, Typed};
pub use structure::{statements, statements_in, Kind, Layout, Statement};

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
    /// Whether a statement about the patient's own population counts for it: the
    /// documents say something of it for a patient like this one, not only in general.
    pub for_patient: bool,
    /// How the documents type it as the asked kind.
    pub typed: Typed,
    /// How the statements name it (the ranker's cues).
    pub context: rank::Context,
    /// Whether the lexicons place it in the drug class asked for (`None`: no class is
    /// asked, or they cannot say).
    pub in_class: Option<bool>,
}

/// Another reader's answer, for [`Reading::instead_of`].
#[derive(Debug, Clone, Copy)]
pub struct Other<'a> {
    pub text: &'a str,
    /// Whether what it rests on is said of the patient's population.
    pub for_patient: bool,
}

/// What the reader found.
#[derive(Debug, Clone, PartialEq)]
pub struct Reading {
    pub asked: Asked,
    /// Every candidate, best first; blocked ones last.
    pub candidates: Vec<Candidate>,
    /// The documents' headings, normalised: what names a section is not an answer.
    pub headings: BTreeSet<String>,
    /// Whether the learned ranker ordered the candidates: then an untyped noun phrase
    /// may be the best.
    pub ranked: bool,
}

impl Reading {
    /// The candidates the documents type as the asked kind, best first.
    pub fn typed(&self) -> impl Iterator<Item = &Candidate> {
        self.candidates.iter().filter(|c| c.typed != Typed::Phrase)
    }

    /// The best candidate that no warning rules out.
    pub fn best(&self) -> Option<&Candidate> {
        self.candidates.iter().find(|c| {
            c.blocked_by.is_none() && c.score > 0.0 && (self.ranked || c.typed != Typed::Phrase)
        })
    }

    /// The answer to give instead of another reader's (`None`: it has none, or only a
    /// weak one): the best candidate, unless the other answer stands. It stands when it
    /// has the asked shape (a number where an amount, count or time is asked, a
    /// frequency where a schedule is) and is one of this reading's candidates too (one
    /// said of the patient's population, when the best is), or no statement about the
    /// patient's population supports the best one, or it is itself said of the
    /// patient's population and can be of the asked kind ([`Reading::of_kind`]). An
    /// answer to "which should be avoided" always stands; without one, this reader's is
    /// the candidate warned against for the patient.
    pub fn instead_of(
        &self,
        language: &Language,
        other: Option<Other<'_>>,
        asks_to_avoid: bool,
    ) -> Option<&Candidate> {
        // "Which should be avoided?": another reader's answer stands; without one, what
        // the documents warn against for this patient answers, never what they give.
        // "For how long should she avoid breastfeeding?" asks for a time, which a
        // warning gives or a statement of what to do: another reader's answer stands
        // only when it is one.
        if asks_to_avoid {
            let thing = matches!(self.asked, Asked::Thing { .. });
            match other {
                Some(_) if thing => return None,
                Some(_) => {}
                None => {
                    let warned = self.typed().find(|c| c.blocked_by.is_some());
                    return if thing {
                        warned
                    } else {
                        warned.or(self.best())
                    };
                }
            }
        }
        let best = self.best()?;
        let Some(other) = other else {
            return Some(best);
        };
        let answer = other.text;
        // An answer is a phrase, not a piece of a clause: one that opens with a
        // conjunction ("If MOH", "and the dose") is a fragment.
        let lower = crate::text::lower_words(answer);
        // … or one that names a property of a thing, not a thing ("disadvantages of
        // laboratory assay"), or, where a thing is asked, counts the members of a set
        // or gives a role rather than naming one ("Two FDA-approved influenza antiviral
        // medications", "standard therapy").
        let thing = matches!(self.asked, Asked::Thing { .. });
        // … and so is one that ends where its phrase is still open ("phenylephrine
        // boluses of"), that opens with a preposition ("Of patients' ability"), or that
        // holds a clause's verb ("Nontreponemal test antibody titers might correlate").
        let open_end = lower.last().is_some_and(|w| {
            [Class::Preposition, Class::Conjunction, Class::Determiner]
                .iter()
                .any(|c| c.has(w))
        });
        let opens_with_preposition = lower.len() > 1
            && lower.first().is_some_and(|w| Class::Preposition.has(w))
            && matches!(self.asked, Asked::Thing { .. });
        let holds_verb = lower.iter().any(|w| Class::Auxiliary.has(w));
        // … and so is one that points back with a pronoun ("presumably they"), or that
        // is only a sentence adverb ("Additionally").
        let pronoun = lower
            .iter()
            .any(|w| POINTING_PRONOUNS.contains(&w.as_str()));
        let only_adverbs = {
            let tags = language.analyse(answer).tags;
            !tags.is_empty() && tags.iter().all(|t| t.is_adverb())
        };
        let fragment = open_end
            || pronoun
            || only_adverbs
            || opens_with_preposition
            || holds_verb
            || lower.first().is_some_and(|w| {
                CLAUSE_OPENERS.contains(&w.as_str())
                    || (PROPERTY_NOUNS.contains(&crate::text::singular(w).as_str())
                        && lower.get(1).is_some_and(|o| o == "of"))
                    || (thing
                        && (QUANTIFIERS.contains(&w.as_str()) || ROLE_WORDS.contains(&w.as_str())))
            });
        if fragment {
            return Some(best);
        }
        let key = format!(" {} ", normalize_term(answer));
        let shaped = match self.asked {
            // A thing is named, not only how often something is done ("repeated every
            // 1-2 weeks" for "Which treatment …?").
            Asked::Thing { .. } => !asked::only_how_often(language, answer),
            Asked::Manner { .. } => words(answer)
                .iter()
                .any(|w| w.text(answer).to_lowercase().ends_with("ly")),
            Asked::Schedule => asked::says_how_often(answer),
            // An amount or count opens with its number ("2.5%", "≥ 1,000/μL", "two
            // doses"), not with a name ("USP 2.5").
            Asked::Amount { .. } | Asked::Count { .. } => {
                let opening = answer.trim_start_matches(|c: char| !c.is_alphanumeric());
                opening.chars().next().is_some_and(|c| c.is_ascii_digit())
                    || words(opening)
                        .first()
                        .is_some_and(|w| asked::is_number_word(&w.text(opening).to_lowercase()))
            }
            // A length of time has a number, and is a phrase, not a piece of a clause:
            // "administered 10 days" opens with the verb whose time it gives.
            Asked::Time => {
                words(answer)
                    .iter()
                    .any(|w| w.text(answer).chars().any(|c| c.is_ascii_digit()))
                    && !language
                        .analyse(answer)
                        .tags
                        .first()
                        .is_some_and(|t| t.is_verb())
            }
        };
        if !shaped {
            return Some(best);
        }
        // What the documents warn against for this patient is no answer, whoever reads
        // it ("Rasburicase … is contraindicated in G6PD deficiency").
        // … and so is what names a drug warned against, with a strength or in a
        // combination ("Ciprofloxacin 500" where ciprofloxacin is warned against).
        let theirs = normalize_term(answer);
        let warned: Vec<&str> = self
            .typed()
            .filter(|c| c.blocked_by.is_some())
            .filter_map(|c| language.drugs.lookup(&c.text))
            .map(|d| d.canonical)
            .collect();
        let names_warned = language
            .drugs
            .mentions(&crate::text::word_texts(answer))
            .iter()
            .any(|(_, d)| warned.contains(&d.canonical));
        if names_warned
            || self
                .typed()
                .any(|c| c.blocked_by.is_some() && normalize_term(&c.text) == theirs)
        {
            return Some(best);
        }
        // For a kind of drug, when the reader found a drug said of the patient, an
        // answer that names no drug is not one ("Management of Gouty Arthritis"), even
        // when the reader read it too, and a class loses to the member
        // ("bisphosphonates" against "denosumab": the answer is the most specific).
        if let Asked::Thing { head, plural } = &self.asked {
            if asked::asks_for_drug(language, head) {
                let words = crate::text::word_texts(answer);
                let named = language.drugs.mentions(&words);
                let member =
                    |text: &str| language.drugs.lookup(text).is_some_and(|d| !d.is_class());
                // A class by the lexicon, or a plural where one drug is asked (by its tag,
                // or by its spelling: a name alone is tagged without a sentence around it).
                let in_plural = !plural
                    && (matches!(
                        language.analyse(answer).tags.last(),
                        Some(Tag::Nns | Tag::Nnps)
                    ) || words.last().is_some_and(|w| crate::text::singular(w) != *w));
                let class = in_plural || named.iter().all(|(_, d)| d.is_class());
                let (mine, theirs) = (normalize_term(&best.text), normalize_term(answer));
                let same = mine.contains(&theirs) || theirs.contains(&mine);
                // Words of a section's heading that name no drug are not one, whoever
                // reads them as an answer ("Management of Gouty Arthritis" from
                // "Management of Gouty Arthritis in HFrEF Patients").
                let heading = self
                    .headings
                    .iter()
                    .any(|h| format!(" {h} ").contains(&key));
                if !same && named.is_empty() && heading && member(&best.text) {
                    return Some(best);
                }
                if best.for_patient && !same && (named.is_empty() || (class && member(&best.text)))
                {
                    return Some(best);
                }
            }
        }
        // Where several are asked for, one of the names the best lists is less than the
        // list ("ondansetron" against "ondansetron and domperidone").
        if let Asked::Thing { plural: true, .. } = self.asked {
            let best_key = format!(" {} ", normalize_term(&best.text));
            let listed = best_key.contains(" and ") || best_key.contains(" or ");
            if listed && best_key.contains(&key) && best_key != key {
                return Some(best);
            }
        }
        // The best naming the other answer more fully is the more specific answer:
        // "benzathine penicillin G" over "benzathine penicillin"; a noun phrase nothing
        // types, when the other answer is its head ("gluten challenge" over
        // "challenge").
        let best_key = format!(" {} ", normalize_term(&best.text));
        if best_key != key
            && best_key.contains(&key)
            && (best.typed != Typed::Phrase || best_key.ends_with(&key))
        {
            return Some(best);
        }
        // A plural noun does not modify a name: "Anti-sickness drugs Domperidone" is a
        // heading or a class run into the name the best gives alone.
        let mine = normalize_term(&best.text);
        if let Some(before) = normalize_term(answer).strip_suffix(&format!(" {mine}")) {
            let last = before.rsplit(' ').next().unwrap_or("");
            if !mine.is_empty() && crate::text::singular(last) != last {
                return Some(best);
            }
        }
        // Among the candidates as this reader reads them: said of a patient like this
        // one too, when the best is.
        let among = self.candidates.iter().any(|c| {
            // A candidate no statement counts for (all warn, or none is read) is not
            // one this reader reads as an answer.
            if (best.for_patient && !c.for_patient) || c.typed == Typed::Phrase || c.score <= 0.0 {
                return false;
            }
            let k = format!(" {} ", normalize_term(&c.text));
            key.contains(&k) || k.contains(&key)
        });
        let stands =
            among || !best.for_patient || (other.for_patient && self.of_kind(language, answer));
        (!stands).then_some(best)
    }

    /// Whether another reader's answer that this one does not read can still be of the
    /// asked kind: a noun phrase that is not a drug name (drug names of the kind are
    /// candidates here) where the kind is not a drug's, not a plural where one thing is
    /// asked ("direct oral anticoagulants" names a kind), and, where a number is asked,
    /// one that opens with it ("second dose 4 weeks" counts nothing).
    fn of_kind(&self, language: &Language, answer: &str) -> bool {
        let analysis = language.analyse(answer);
        let Some(&last) = analysis.tags.last() else {
            return false;
        };
        let noun = analysis.tags.iter().any(|t| t.is_noun());
        let opens_with_number = answer
            .split_whitespace()
            .next()
            .is_some_and(|w| w.chars().next().is_some_and(|c| c.is_ascii_digit()));
        let lower = crate::text::lower_words(answer);
        let typed = match &self.asked {
            // Drug names of an asked drug kind are this reader's candidates, and what is
            // not a drug is not of that kind.
            Asked::Thing { head, .. } if asked::asks_for_drug(language, head) => false,
            // A route is named by its word (an adjective: "oral"), and a person is no
            // thing of another kind ("woman" for "Which route …").
            Asked::Thing { head, .. } if head == "route" => {
                return lower.iter().any(|w| Class::Route.has(w));
            }
            Asked::Thing { head, .. }
                if !Class::Person.has(head)
                    && lower.last().is_some_and(|w| Class::Person.has(w)) =>
            {
                false
            }
            // A specimen is named by a specimen's noun ("cerebrospinal fluid", "sputum"),
            // not by a document's code or a test's name.
            Asked::Thing { head, plural } if asked::member_class(head) == Some(Class::Specimen) => {
                lower.last().is_some_and(|w| Class::Specimen.has(w))
                    && (*plural || !matches!(last, Tag::Nns | Tag::Nnps))
            }
            Asked::Thing { plural, .. } => *plural || !matches!(last, Tag::Nns | Tag::Nnps),
            Asked::Amount { .. } | Asked::Count { .. } | Asked::Time => opens_with_number,
            Asked::Schedule | Asked::Manner { .. } => true,
        };
        language.drugs.lookup(answer).is_none() && noun && typed
    }
}

/// Nouns that name a property of what follows their "of" ("the disadvantages of X"),
/// so that the phrase they head never names a thing asked for.
const PROPERTY_NOUNS: &[&str] = &[
    "advantage",
    "disadvantage",
    "benefit",
    "drawback",
    "limitation",
    "risk",
    "downside",
    // … or the act done to a thing, not the thing: "assessment of serum LH",
    // "administration of Fab fragments".
    "assessment",
    "administration",
    "interpretation",
    "definition",
    "evaluation",
    "determination",
    "measurement",
    "estimation",
    "calculation",
    "detection",
    "identification",
    "use",
];

/// Words that open a phrase counting the members of a set ("two", "several", "both"):
/// what they open is how many things there are, not which.
const QUANTIFIERS: &[&str] = &[
    "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "several", "many",
    "various", "numerous", "multiple", "both", "all", "most", "some", "few",
];

/// Adjectives that rank a thing or give it a role rather than say what it is: "the
/// preferred 3rd generation cephalosporin", "an alternative first-line monotherapy",
/// "other methods" describe whatever fills the role; the answer is what the documents
/// name in it.
const ROLE_WORDS: &[&str] = &[
    "preferred",
    "recommended",
    "alternative",
    "first-line",
    "second-line",
    "third-line",
    "standard",
    "usual",
    "appropriate",
    "suitable",
    "optimal",
    "ideal",
    "best",
    "only",
    "other",
    "additional",
    "initial",
    "current",
    "available",
    "possible",
    "same",
    "different",
    "certain",
    "particular",
];

/// Conjunctions that open a clause or join two, and adverbs that join a sentence to
/// the one before ("However"): no answer opens with one.
const CLAUSE_OPENERS: &[&str] = &[
    "if",
    "unless",
    "because",
    "although",
    "though",
    "whereas",
    "and",
    "or",
    "but",
    "however",
    "therefore",
    "moreover",
    "furthermore",
    "thus",
    "hence",
    "nevertheless",
];

/// Pronouns that point back to what a sentence before named: no phrase with one names
/// a thing itself.
const POINTING_PRONOUNS: &[&str] = &[
    "they", "them", "it", "he", "she", "him", "her", "we", "you", "their", "its",
];

/// How much more a statement about the patient's own population counts. It scales the
/// statement's relevance to the question, so that of two statements about the
/// patient's population the one about what is asked counts for more ("Azelaic acid is
/// the preferred substitute for a retinoid" against "benzoyl peroxide may be used for
/// inflammatory lesions" for "What should replace the retinoid?").
const APPLIES_WEIGHT: f32 = 4.0;

/// How much a statement about another population still counts.
const OTHER_POPULATION_WEIGHT: f32 = 0.1;

/// How much a recommending statement counts over a plain one.
const RECOMMENDS_WEIGHT: f32 = 1.5;

/// How much more the statements count for a candidate the drug lexicon names than for
/// a phrase it does not ("warfarin" over "an alternative anticoagulant", "propofol"
/// over "trigger agents"): the answer is the most specific named thing the evidence
/// supports. Fitted as a factor on `1 + score` over the work halves of the
/// development sets; leave-one-set-out, every factor from 1.6 to 2.5 ranks the most
/// answers first, so the round one is kept.
const NAMED_FACTOR: f32 = 2.0;

/// Where an untyped noun phrase's `first` starts counting: after every typed
/// candidate, so ties go to the typed.
const PHRASE_ORDER: usize = 1 << 20;

/// Longest candidate, in words ("50 mg of dolutegravir twice per day").
const MAX_CANDIDATE_WORDS: usize = 10;

/// Reads the answer to `question` from `docs`; `patient` is the patient to gate on
/// (`None`: read the general answer); `ruled_out` are candidates (normalised, see
/// [`normalize_term`]) already blocked for this patient, each with the statement that
/// blocks it; `layout` is how the documents' lines are read.
pub fn read(
    docs: &[Document],
    layout: Layout,
    language: &Language,
    question: &str,
    query: &ParsedQuery,
    patient: Option<&Patient>,
    ruled_out: &[(String, Span)],
) -> Option<Reading> {
    let asked = match by_tags(language, question).or_else(|| Asked::of(question))? {
        // "What acyclovir regimen …": a regimen of one drug is its dose and how often.
        Asked::Thing { head, .. } if head == "regimen" && names_one_drug(language, question) => {
            Asked::Amount { measured: false }
        }
        asked => asked,
    };
    let mut all: Vec<Statement> = docs
        .iter()
        .enumerate()
        .flat_map(|(d, doc)| statements_in(layout, d, &doc.text))
        .collect();
    if all.is_empty() {
        return None;
    }
    // "Which therapy for heart failure with reduced ejection fraction in a pregnant
    // woman?": the disease treated is what every statement is about, not a condition
    // that makes one of them this patient's. Diseases the asking sentence names outside
    // the patient's description count for no statement.
    let asking = asked::asking(question).unwrap_or(question);
    let preamble = &question[..crate::text::asking_start(question)];
    let without_topic = match (patient, query.patient_clause.as_deref()) {
        (Some(p), Some(clause)) => {
            let topic = asking.replacen(clause, " ", 1);
            Some(p.without_topic(&topic, &format!("{preamble} {clause}")))
        }
        _ => None,
    };
    let patient = without_topic.as_ref().or(patient);
    let analyses: Vec<Analysis> = all.iter().map(|s| language.analyse(&s.text)).collect();
    if layout == Layout::Structured {
        let tags: Vec<&[Tag]> = analyses.iter().map(|a| a.tags.as_slice()).collect();
        let texts: Vec<&str> = docs.iter().map(|d| d.text.as_str()).collect();
        structure::run_in_headings(&mut all, &tags, &texts);
    }
    let all = all;

    let slot = match asked {
        Asked::Thing { .. } => asked::Slot::of(language, question),
        _ => None,
    };
    let question_words = stems(question);
    // The question's words as written, for designators it already says ("troponin I").
    let question_written: BTreeSet<&str> = words(question)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| w.text(question))
        .collect();
    // The line of treatment asked for ("Which should be used first line?").
    let asked_line = line_of_treatment(question).first().map(|(_, n)| *n);
    let type_words: BTreeSet<String> = asked::type_words(question)
        .iter()
        .flat_map(|w| stems(w))
        .collect();
    // The patient's words (what the question says of the patient) and the topic (the
    // rest of what it asks about).
    // A question that describes the patient in sentences of its own before it asks
    // ("A 27-year-old woman … used adapalene. Which agent should replace the
    // retinoid?") describes them there.
    let described: BTreeSet<String> = match &query.patient_clause {
        Some(clause) => stems(clause),
        None if !preamble.trim().is_empty() => stems(preamble),
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

    // Candidates of each statement, by key, with where the statement names them; then
    // every other place a statement names one of them by a name it was typed under
    // ("Imojev vaccine" types "Imojev", which "Imojev is not suitable for:" names).
    // Each statement's tokens in lower case, read once for every pass below.
    let lowered: Vec<Vec<String>> = all
        .iter()
        .zip(&analyses)
        .map(|(s, a)| a.lower(&s.text))
        .collect();
    // Short forms the documents define, then those they use undefined for what the
    // question writes in full ("DLB" for "dementia with Lewy bodies").
    let mut written: Vec<(String, String)> = docs
        .iter()
        .flat_map(|doc| abbreviations(&doc.text))
        .collect();
    for doc in docs {
        for (short, long) in initialisms(&doc.text, question) {
            if !written.iter().any(|(s, _)| *s == short) {
                written.push((short, long));
            }
        }
    }
    let defined: BTreeMap<String, String> = written
        .iter()
        .map(|(short, long)| (normalize_term(short), long.clone()))
        .collect();
    // What the question names is not its answer, in the documents' long forms too
    // ("G6PD deficiency": not "glucose-6-phosphate dehydrogenase") …
    let question_key = format!(" {} ", normalize_term(&spelled_text(question, &written)));
    // … unless it offers them to choose from: two or more products it names that are
    // known to be of the asked kind ("The clinic stocks two hepatitis B vaccines: Heplisav-B …
    // and Engerix-B. Which vaccine …?").
    let offered = offered(language, &asked, question);
    // The medicines the question says the patient takes ("who takes clopidogrel"), by
    // canonical name: a warning against combining with one of them holds for them.
    // Where the question describes the patient: its sentences before the asking one,
    // and the asking one ("What dose … while on clarithromycin?"), where "take" is what
    // is asked ("Can she take ibuprofen?"), not what she takes.
    let taken_there = taken_by_patient(language, asking, false);
    let taken: BTreeSet<String> = match patient {
        Some(_) => taken_by_patient(language, preamble, true)
            .union(&taken_there)
            .cloned()
            .collect(),
        None => BTreeSet::new(),
    };
    // The medicines the patient takes besides those the question asks about.
    let co_medicines: BTreeSet<String> = {
        let mut named: BTreeMap<String, usize> = BTreeMap::new();
        for (_, d) in language.drugs.generics(&crate::text::word_texts(asking)) {
            *named.entry(d.to_lowercase()).or_default() += 1;
        }
        // "Which P2Y12 inhibitor … in a man who takes darunavir/ritonavir?": a drug the
        // asking sentence names once, as one the patient takes, is not what it asks about.
        let asked_about: BTreeSet<String> = named
            .into_iter()
            .filter(|(drug, n)| !(*n == 1 && taken_there.contains(drug)))
            .map(|(drug, _)| drug)
            .collect();
        taken.difference(&asked_about).cloned().collect()
    };
    let offers_options = !offered.is_empty();
    // Statements with the short forms spelled out, for whom they are about ("contra-
    // indicated in MG" is about people with myasthenia gravis).
    let spelled: Vec<Statement> = all.iter().map(|s| spell_out(s, &written)).collect();
    // The lead-ins ("You may have a higher chance if:") one of whose items holds for the
    // patient ("you take anti-epilepsy medicine"), by document and text.
    // With the words of those items, which say how the patient is one of its people.
    let mut leads_holding: BTreeMap<(usize, &str), BTreeSet<String>> = BTreeMap::new();
    if let Some(p) = patient {
        for statement in &all {
            let Some(lead) = statement.lead.as_deref() else {
                continue;
            };
            if applies_to(p, &statement.text, &patient_words) == Truth::True {
                leads_holding
                    .entry((statement.span.doc, lead))
                    .or_default()
                    .extend(stems(&statement.text));
            }
        }
    }
    // A question about a patient for whom a first choice is unusable asks for the
    // fallback (see [`fallbacks`]).
    let fallback_asked = {
        let q = format!(" {} ", crate::text::lower_words(question).join(" "));
        UNAVAILABLE
            .iter()
            .chain(&["intolerant", "intolerance", "shortage", "out of stock"])
            .any(|u| q.contains(&format!(" {u} ")))
    };
    // A question that asks for an alternative asks for what the documents name as one
    // (see [`second_choices`]).
    let alternative_asked = crate::text::lower_words(question)
        .iter()
        .any(|w| ALTERNATIVE_WORDS.contains(&crate::text::singular(w).as_str()));
    // A patient the documents place among people at high risk ("High-risk screening.
    // Women with a BRCA1 … variant …") is not among those at average or low risk, whom
    // they set apart from them.
    let at_high_risk = patient.is_some_and(|p| {
        all.iter().any(|s| {
            names_risk(&s.in_scope(), RAISED_RISK) && applies(p, s, &patient_words) == Truth::True
        })
    });
    // A short form the documents define as something else is not the drug the lexicon
    // knows by those letters ("European AIDS Clinical Society (EACS)").
    let redefined = |written: &str| {
        defined.get(&normalize_term(written)).is_some_and(|long| {
            language.drugs.lookup(written).is_some() && language.drugs.lookup(long).is_none()
        })
    };
    // The drug whose amount is asked ("To what dose should her efavirenz be changed
    // while she takes voriconazole?" → efavirenz): an amount a statement gives another
    // drug is not its ("… voriconazole 400 mg twice daily and efavirenz 300 mg …").
    // … and so is the drug whose time is asked ("How long after the last dose should a
    // spinal anaesthetic be delayed in a patient on rivaroxaban?"): the intervals a
    // statement gives for other drugs are not its.
    let mut owner = match asked {
        Asked::Amount { .. } | Asked::Time => dose_owner(language, question),
        _ => None,
    };
    // A dose is a quantity, not a proportion: "What dose …?" is not answered by "28%"
    // unless it asks for a change ("By how much should the dose be reduced?").
    let proportion_answers = !matches!(asked, Asked::Amount { .. }) || {
        let asking = crate::text::lower_words(asking);
        // "To what dose should it be changed?" asks for the new dose itself.
        let target = asking.starts_with(&["to".to_string(), "what".to_string()]);
        !asking.iter().any(|w| w == "dose" || w == "doses")
            || asking
                .iter()
                .any(|w| asked::PART_NOUNS.contains(&w.as_str()))
            || (!target && asking.iter().any(|w| w == "much" || asked::is_change(w)))
    };
    // When the documents give no amount that is not another drug's, they give the asked
    // drug's under another name (a vaccine's dose as its antigen's, "a single dose of
    // H-B-Vax II (40 µg)" for "What dose of hepatitis B surface antigen"), and every
    // amount is read.
    // Where a time is asked, the question's drugs are all of the interaction it asks
    // about ("after his tadalafil … should nitrates be withheld").
    let question_drugs: BTreeSet<String> = {
        drugs_named(language, &crate::text::word_texts(question))
            .into_iter()
            .collect()
    };
    let owned = |statement: &Statement, analysis: &Analysis, at: usize, owner: &str| {
        if matches!(asked, Asked::Time) {
            // A time is for every drug its clause names before it ("discontinuing
            // rivaroxaban, apixaban or edoxaban at least 72 hours before").
            let start = statement.text[..at].rfind(';').map_or(0, |i| i + 1);
            let before: Vec<&str> = analysis
                .words
                .iter()
                .filter(|w| w.span.start >= start && w.span.end <= at)
                .map(|w| w.text(&statement.text))
                .collect();
            let named = drugs_named(language, &before);
            return named.is_empty() || named.iter().any(|d| question_drugs.contains(d));
        }
        // "Posaconazole: 10 mg on day 1, … then 70 mg daily": a medicine the patient
        // takes, written as the label of the amounts after it, says for whom they are,
        // not whose.
        let labelled_taken = |drug: &str| {
            let before = &statement.text[..at];
            before.rfind(':').is_some_and(|colon| {
                let label = crate::text::word_texts(&before[..colon]);
                let last = &label[label.len().saturating_sub(3)..];
                taken.contains(drug) && drugs_named(language, last).iter().any(|d| d == drug)
            })
        };
        drug_before(language, statement, analysis, at)
            .is_none_or(|d| d == owner || labelled_taken(&d))
    };
    // The spans of the asked kind in each statement, read once. A short form the
    // documents define by a long form of the asked kind is of that kind too: "nucleic
    // acid tests (NATs)" makes "an HIV NAT" a test, "rapid diagnostic test (RDT)" makes
    // "pLDH-only RDT" one.
    let kinds: Vec<Asked> = match &asked {
        Asked::Thing { head, plural } => {
            let mut shorts: Vec<String> = written
                .iter()
                .filter(|(_, long)| {
                    long.split_whitespace()
                        .next_back()
                        .is_some_and(|w| asked::stem(w) == *head)
                })
                .map(|(short, _)| asked::stem(short))
                .filter(|short| short != head && short.chars().count() >= 2)
                .collect();
            shorts.sort();
            shorts.dedup();
            std::iter::once(asked.clone())
                .chain(shorts.into_iter().map(|short| Asked::Thing {
                    head: short,
                    plural: *plural,
                }))
                .collect()
        }
        // "How should oxygen saturation be assessed?": a test named answers as the
        // manner of the verb does.
        Asked::Manner { verb, .. } if asked::examines(verb) => vec![
            asked.clone(),
            Asked::Thing {
                head: "test".into(),
                plural: false,
            },
        ],
        _ => vec![asked.clone()],
    };
    // A dose asked for, not a strength or a concentration.
    let asking_words = crate::text::lower_words(asking);
    let asks_when_one = matches!(asked, Asked::Time)
        && !asking_words.iter().any(|w| {
            matches!(
                w.as_str(),
                "apart" | "interval" | "between" | "separate" | "gap"
            )
        });
    let asks_dose = matches!(asked, Asked::Amount { measured: false })
        && asking_words
            .iter()
            .any(|w| matches!(w.as_str(), "dose" | "doses" | "dosage" | "dosing"));
    // … or its bound ("What is the maximum daily dose …?").
    let asks_bound = asking_words.iter().any(|w| {
        matches!(
            w.as_str(),
            "maximum" | "max" | "most" | "exceed" | "limit" | "highest"
        )
    });
    let asks_goal = matches!(asked, Asked::Amount { .. })
        && asked::type_words(question)
            .iter()
            .any(|w| asked::GOAL_HEADS.contains(&asked::stem(w).as_str()));
    // The analyte whose value is asked ("Above what NT-proBNP concentration …"), and
    // the question's words as analytes are named, for the analytes it speaks of.
    let asked_analyte = match asked {
        Asked::Amount { measured: true } => {
            let phrase = asked::type_words(question);
            phrase
                .split_last()
                .and_then(|(_, before)| crate::patient::measure::analyte_ending(&before.join(" ")))
        }
        _ => None,
    };
    let question_analytes = word_set(question);
    let asks_duration = matches!(asked, Asked::Time) && {
        let asking = crate::text::lower_words(asking);
        asking.windows(2).any(|p| p[0] == "how" && p[1] == "long")
            || asking.iter().any(|w| w == "duration")
    };
    let spans: Vec<Vec<(Range<usize>, Typed)>> = all
        .iter()
        .zip(&analyses)
        .zip(&lowered)
        .map(|((statement, analysis), lower)| {
            let found: Vec<(Range<usize>, Typed)> = kinds
                .iter()
                .enumerate()
                .flat_map(|(k, kind)| {
                    let spans = asked::spans(kind, language, &statement.text, analysis);
                    // A short form is part of the name it ends ("HIV RNA NAT" is a test,
                    // "HIV RNA" what it detects).
                    let short = match kind {
                        Asked::Thing { head, .. } if k > 0 => Some(head.clone()),
                        _ => None,
                    };
                    let lower = &lower;
                    spans.into_iter().filter(move |(r, _)| {
                        short.as_ref().is_none_or(|short| {
                            r.end > r.start
                                && lower
                                    .get(r.end - 1)
                                    .is_some_and(|w| asked::stem(w) == *short)
                        })
                    })
                })
                .collect();
            // "Engerix-B 40 mcg (2 mL)": an amount in brackets right after another is the
            // same dose in another unit, not a dose of its own.
            let found: Vec<(Range<usize>, Typed)> = if matches!(asked, Asked::Amount { .. }) {
                let ends: Vec<usize> = found.iter().map(|(r, _)| r.end).collect();
                found
                    .into_iter()
                    .filter(|(r, _)| {
                        !(r.start >= 1
                            && lower.get(r.start - 1).is_some_and(|t| t == "(")
                            && ends.contains(&(r.start - 1)))
                    })
                    .collect()
            } else {
                found
            };
            // "Below what serum ferritin level …": a value of another analyte
            // ("hemoglobin below 100 g/L", "BNP below 100 pg/mL") is not the one asked.
            let found: Vec<(Range<usize>, Typed)> = match &asked_analyte {
                Some(analyte) => found
                    .into_iter()
                    .filter(|(r, _)| {
                        let Some(start) = analysis.words.get(r.start).map(|w| w.span.start) else {
                            return true;
                        };
                        statement.text.get(..start).is_none_or(|before| {
                            crate::patient::measure::analyte_ending(before)
                                .is_none_or(|a| a == *analyte || question_analytes.contains(&a))
                        })
                    })
                    .collect(),
                None => found,
            };
            // "How long should it be given?": an age ("for children 6 years and older")
            // is whom a duration is for, not a duration.
            let found = keep_where(found, asks_duration, |r| {
                !is_age(&statement.text, analysis, r.clone())
            });
            // "epinephrine 1 mg/mL, 0.01 mg/kg IM": a mass per millilitre is the
            // strength of a preparation, not a dose of it.
            let found = keep_where(found, asks_dose, |r| {
                !lower.get(r.end.saturating_sub(1)).is_some_and(|u| {
                    u.split_once('/')
                        .is_some_and(|(mass, per)| per == "ml" && asked::is_mass_unit(mass))
                })
            });
            // "0.01 mg/kg IM (maximum 0.3 mg)", "15 mg/kg every 6 hours, to a maximum of
            // 60 mg/kg daily": a maximum after a dose is that dose's cap, no dose of its
            // own, unless a maximum is asked.
            // Where a maximum is asked, a statement's caps are what it says of it.
            let found: Vec<(Range<usize>, Typed)> = if asks_dose {
                let capping = |r: &Range<usize>| {
                    (r.start.saturating_sub(4)..r.start).find(|&k| {
                        matches!(
                            lower[k].as_str(),
                            "maximum" | "max" | "exceed" | "exceeding"
                        )
                    })
                };
                let starts: Vec<usize> = found.iter().map(|(r, _)| r.start).collect();
                let capped =
                    |r: &Range<usize>| capping(r).is_some_and(|k| starts.iter().any(|&s| s < k));
                let any_cap = found.iter().any(|(r, _)| capping(r).is_some());
                found
                    .into_iter()
                    .filter(|(r, _)| match asks_bound {
                        true => !any_cap || capping(r).is_some(),
                        false => !capped(r),
                    })
                    .collect()
            } else {
                found
            };
            // "two doses 4-8 weeks apart": the time between doses says when no one
            // dose is given, unless that interval is asked.
            let found = keep_where(found, asks_when_one, |r| {
                lower.get(r.end).is_none_or(|t| t != "apart")
            });
            // "An HbA1c goal of less than 8.0%": a value aimed at is its bound with it.
            let found = if asks_goal {
                found
                    .into_iter()
                    .map(|(r, typed)| (with_bound(lower, r), typed))
                    .collect()
            } else {
                found
            };
            asked::sorted(found)
        })
        .collect();
    if let Some(name) = owner.as_deref() {
        let any_owned =
            all.iter()
                .zip(&analyses)
                .zip(&spans)
                .any(|((statement, analysis), spans)| {
                    spans
                        .iter()
                        .filter(|(range, _)| range.len() <= MAX_CANDIDATE_WORDS)
                        .filter_map(|(range, _)| analysis.words.get(range.start))
                        .any(|first| owned(statement, analysis, first.span.start, name))
                });
        if !any_owned {
            owner = None;
        }
    }
    let foreign = |statement: &Statement, analysis: &Analysis, at: usize| -> bool {
        owner
            .as_deref()
            .is_some_and(|owner| !owned(statement, analysis, at, owner))
    };
    // "When should she receive it?" is answered by an event as well as by a number:
    // "after delivery", "before travel".
    let asks_when = matches!(asked, Asked::Time)
        && crate::text::lower_words(asked::asking(question).unwrap_or(question))
            .first()
            .is_some_and(|w| w == "when");
    let mut texts: BTreeMap<String, (String, usize, Typed)> = BTreeMap::new();
    let mut surfaces: BTreeSet<(Vec<String>, String)> = BTreeSet::new();
    let mut mentions: Vec<Vec<Mention>> = Vec::with_capacity(all.len());
    // Every other noun phrase, for the learned ranker: kept apart from the typed
    // candidates, so that none of them names a section's topic, is a lead-in's, or
    // swallows a typed name it contains.
    let mut phrase_texts: BTreeMap<String, (String, usize)> = BTreeMap::new();
    let mut phrase_mentions: Vec<Vec<Mention>> = Vec::with_capacity(all.len());
    // A span that can be a candidate: its bytes, text, key and the name inside it; none
    // that restates the question, gives a role, or is another drug's amount.
    // A test is named without the result it gave ("a negative RT-qPCR").
    let asks_test = matches!(&asked, Asked::Thing { head, .. }
        if asked::member_class(head) == Some(Class::Test));
    // A medicine, test or specimen asked for.
    let gives_or_tests = match &asked {
        Asked::Thing { head, .. } => {
            asked::medicine_noun(head)
                || head == "vaccine"
                || language.drugs.is_class_noun(head)
                || Class::Test.has(head)
                || Class::Specimen.has(head)
        }
        _ => false,
    };
    let admit = |statement: &Statement,
                 analysis: &Analysis,
                 tokens: &[String],
                 range: Range<usize>| {
        // A thing's name opens with no verb ("use venous blood glucose
        // concentrations").
        // … nor with an adverb ("preferably exercise stress echocardiography").
        let mut range = range;
        while range.len() > 1
            && matches!(asked, Asked::Thing { .. })
            && (analysis.tags.get(range.start).is_some_and(|t| {
                matches!(t, Tag::Vb | Tag::Vbp | Tag::Vbz | Tag::Vbd)
                    || (t.is_adverb() && tokens[range.start].ends_with("ly"))
                    || ["ably", "ibly"]
                        .iter()
                        .any(|s| tokens[range.start].ends_with(s))
            }) || (asks_test && lexicon::TEST_RESULTS.contains(&tokens[range.start].as_str())))
        {
            range.start += 1;
        }
        // … nor with a length of time that a chunk ran into it ("From 25 to 29 years
        // MRI is used alone"), nor with how often it is done ("annual breast MRI").
        while range.len() > 2
            && matches!(asked, Asked::Thing { .. })
            && analysis.tags.get(range.start) == Some(&Tag::Cd)
            && asked::is_time_unit(&tokens[range.start + 1])
        {
            range.start += 2;
        }
        while range.len() > 1
            && matches!(asked, Asked::Thing { .. })
            && asked::HOW_OFTEN_ADJECTIVES.contains(&tokens[range.start].as_str())
        {
            range.start += 1;
        }
        if range.is_empty() || range.len() > MAX_CANDIDATE_WORDS {
            return None;
        }
        let first = analysis.words.get(range.start)?;
        let last = analysis.words.get(range.end - 1)?;
        let bytes = first.span.start..last.span.end;
        if foreign(statement, analysis, bytes.start) {
            return None;
        }
        let text = analysis
            .text(&statement.text, range.clone())
            .trim()
            .to_string();
        let (key, name) = candidate_key(language, &asked, analysis, &statement.text, range.clone());
        let content = stems(&text);
        // "Troponin I" for "Which cardiac troponin …": the designator is what the
        // question does not say.
        let designates = words(&text).iter().skip(1).any(|w| {
            let t = w.text(&text);
            asked::is_designator(t) && !question_written.contains(t)
        });
        let restates = !designates
            && (content.is_empty()
                || content.iter().all(|w| {
                    (question_words.contains(w) && !offers_options) || type_words.contains(w)
                }));
        // A role is no name ("the preferred 3rd generation cephalosporin").
        let role = ROLE_WORDS.contains(&tokens[range.start].as_str());
        // Nor is what names whom a statement is about ("in patients taking MAOIs
        // such as phenelzine"): the patients' medicine, not one to give them.
        let population = matches!(asked, Asked::Thing { .. })
            && in_population(tokens, &analysis.tags, range.start);
        // "Pregnancy" and "lactation" name whom a statement is about: no medicine,
        // test or specimen.
        let populace = gives_or_tests && crate::patient::names_only_population(&text);
        let rejected = key.is_empty()
            || role
            || population
            || populace
            || restates
            || asked::changed_from(tokens, range.start)
            || redefined(&text)
            || (!proportion_answers && (text.ends_with('%') || text.ends_with("fold")))
            || (!offers_options
                && (question_key.contains(&format!(" {key} "))
                        || question_key.contains(&format!(" {} ", normalize_term(&text)))
                        // … and by its short form ("RADT" where the question names
                        // the rapid antigen detection test).
                        // (its head, for "a negative RADT").
                        || [text.as_str(), text.rsplit(' ').next().unwrap_or("")]
                            .iter()
                            .filter_map(|t| defined.get(&normalize_term(t)))
                            .any(|long| {
                                question_key.contains(&format!(" {} ", normalize_term(long)))
                            })));
        (!rejected).then_some((bytes, text, key, name))
    };
    // A thing asked for is no person, unless people are asked for.
    let asks_person = match &asked {
        Asked::Thing { head, .. } => Class::Person.has(head) || Class::Group.has(head),
        _ => true,
    };
    for (((statement, analysis), spans), tokens) in
        all.iter().zip(&analyses).zip(&spans).zip(&lowered)
    {
        let mut found: Vec<Mention> = Vec::new();
        let mut phrased: Vec<Mention> = Vec::new();
        if matches!(asked, Asked::Thing { .. }) && !asks_person {
            for phrase in &analysis.phrases {
                let range = phrase.core.clone();
                let headed = range.end > range.start
                    && analysis
                        .tags
                        .get(range.end - 1)
                        .is_some_and(|t| t.is_noun())
                    && !tokens
                        .get(range.end - 1)
                        .is_some_and(|w| Class::Person.has(w) || Class::Group.has(w));
                let typed = spans
                    .iter()
                    .any(|(r, _)| r.start < range.end && range.start < r.end);
                if !headed || typed {
                    continue;
                }
                if let Some((bytes, text, key, _)) = admit(statement, analysis, tokens, range) {
                    let order = phrase_texts.len();
                    phrase_texts.entry(key.clone()).or_insert((text, order));
                    if !phrased.iter().any(|m| m.key == key) {
                        phrased.push(Mention { key, bytes });
                    }
                }
            }
        }
        phrase_mentions.push(phrased);
        let slotted = slot
            .iter()
            .flat_map(|slot| asked::slot_spans(slot, &statement.text, analysis))
            .map(|r| (r, Typed::Slot));
        // "During" the patient's own condition ("during each pregnancy" for a
        // pregnant patient) says nothing of when; "after each dialysis session" does.
        let events = event_times(asks_when, &statement.text, analysis)
            .into_iter()
            .filter(|r| {
                let during = analysis
                    .words
                    .get(r.start)
                    .is_some_and(|w| w.text(&statement.text).eq_ignore_ascii_case("during"));
                !during
                    || patient.is_none_or(|p| {
                        p.evaluate(analysis.text(&statement.text, r.clone())) != Truth::True
                    })
            })
            .map(|r| (r, Typed::Named));
        for (range, typed) in spans.iter().cloned().chain(slotted).chain(events) {
            let Some((bytes, text, key, name)) = admit(statement, analysis, tokens, range.clone())
            else {
                continue;
            };
            let order = texts.len();
            // One amount written "2g" and "2 g" is shown as the latter.
            let spaced = normalize_term(&text) == key;
            let slot = texts
                .entry(key.clone())
                .or_insert((text.clone(), order, typed));
            let glued = normalize_term(&slot.0);
            // One dose written several ways ("20 mg orally once a day", "20 mg once
            // daily") is shown in the fewest words.
            let plainer = key.starts_with(|c: char| c.is_ascii_digit())
                && text.split_whitespace().count() < slot.0.split_whitespace().count();
            // … and a thing asked for in the singular in the singular, where the
            // documents write it so too ("urine culture" after "Urine cultures").
            let in_number = |t: &str| {
                t.split_whitespace()
                    .last()
                    .is_some_and(|w| crate::text::singular(w) == w)
            };
            let singular = matches!(asked, Asked::Thing { plural: false, .. })
                && !in_number(&slot.0)
                && in_number(&text);
            if (spaced && glued != key && unit_apart(&glued) == key) || plainer || singular {
                slot.0 = text;
            }
            slot.2 = slot.2.min(typed);
            surfaces.insert((tokens[range.clone()].to_vec(), key.clone()));
            if let Some(name) = name {
                surfaces.insert((tokens[name].to_vec(), key.clone()));
            }
            // A row names a value once in each cell it fills: "2 mg" under "≤ 65
            // years" and under "> 65 years" are two statements of the table.
            let cell = statement.cell_at(bytes.start);
            if !found
                .iter()
                .any(|m| m.key == key && statement.cell_at(m.bytes.start) == cell)
            {
                found.push(Mention { key, bytes });
            }
        }
        mentions.push(found);
    }
    // Drug names, slot fillers and a member's noun alone answer only a kind the documents
    // never name by its noun.
    if let Some(best) = texts.values().map(|t| t.2).min() {
        texts.retain(|_, t| {
            t.2 == best
                || (best == Typed::Drug && t.2 == Typed::Slot)
                || (best == Typed::Slot && t.2 == Typed::Bare)
        });
    }
    // For a class of drugs ("Which anticoagulant …"), once the documents name a drug
    // of the class, a drug whose name or kind places it in other classes only is not
    // an answer ("clarithromycin", named for its interaction).
    let in_class: BTreeMap<String, Option<bool>> = match &asked {
        Asked::Thing { head, .. } => texts
            .iter()
            .map(|(key, t)| {
                let drug = language.drugs.lookup(&t.0);
                let in_class = drug.and_then(|d| asked::in_class(language, d.canonical, head));
                (key.clone(), in_class)
            })
            .collect(),
        _ => BTreeMap::new(),
    };
    // … and one the lexicon cannot place in the class at all ("CYP3A4", named for the
    // enzyme a drug is cleared by) ranks after every drug it places there: the answer is
    // a member of the asked class when the documents name one.
    // A drug a statement says is of the asked kind is one, whatever the lexicon files it
    // under: "dexamethasone (4-8 mg), which has no effect on repolarisation, is the
    // preferred antiemetic" (a drug of several uses, filed under one). Not where the
    // copula is denied ("is not an antiemetic").
    let said_to_be: BTreeSet<String> = match &asked {
        Asked::Thing { head, .. } => all
            .iter()
            .zip(&mentions)
            .flat_map(|(statement, found)| {
                found.iter().filter_map(move |m| {
                    let after = statement.text.get(m.bytes.end..)?.to_lowercase();
                    let words: Vec<&str> = after
                        .split_whitespace()
                        .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric()))
                        .collect();
                    let copula = words
                        .iter()
                        .take(SUBJECT_REACH)
                        .position(|w| matches!(*w, "is" | "are"))?;
                    let predicate =
                        &words[copula + 1..(copula + 1 + COPULA_REACH).min(words.len())];
                    let denied = predicate
                        .iter()
                        .any(|w| matches!(*w, "not" | "never" | "no"));
                    let named = !denied && predicate.iter().any(|w| asked::stem(w) == *head);
                    named.then(|| m.key.clone())
                })
            })
            .collect(),
        _ => BTreeSet::new(),
    };
    let mut members_first = false;
    if let Asked::Thing { head, .. } = &asked {
        // A cytochrome ("CYP2D6") is named for the drugs it clears, never given: it
        // answers no question that asks for a medicine.
        if asked::asks_for_drug(language, head) {
            texts.retain(|_, t| {
                language
                    .drugs
                    .lookup(&t.0)
                    .is_none_or(|d| !d.is_cytochrome())
            });
        }
        if asked::asks_for_class(language, head) && in_class.values().any(|c| *c == Some(true)) {
            texts.retain(|key, _| {
                in_class.get(key) != Some(&Some(false)) || said_to_be.contains(key)
            });
            members_first = true;
        }
    }
    // One name written shorter and longer ("Norvax", "Norvax (NRV-2) vaccine") is one
    // candidate, under the name written first. An amount or a time is no name: "5 mg
    // BID" is not "5 mg" written longer.
    let aliases = match asked {
        Asked::Thing { .. } | Asked::Manner { .. } => aliases(&texts, &defined),
        _ => BTreeMap::new(),
    };
    for (alias, name) in &aliases {
        if let Some(t) = texts.remove(alias) {
            if let Some(kept) = texts.get_mut(name) {
                kept.2 = kept.2.min(t.2);
            }
        }
    }
    let mut surfaces: BTreeSet<(Vec<String>, String)> = surfaces
        .into_iter()
        .map(|(s, k)| {
            let k = aliases.get(&k).cloned().unwrap_or(k);
            (s, k)
        })
        .collect();
    // A candidate the documents abbreviate is named by its short form wherever that
    // is written ("tuberculin skin test (TST)" … "a positive TST").
    for (short, long) in &written {
        let key = aliases.get(long).cloned().unwrap_or_else(|| long.clone());
        if texts.contains_key(&key) {
            surfaces.insert((crate::text::lower_words(short), key));
        }
    }
    for (statement, found) in all.iter().zip(&mut mentions) {
        for m in found.iter_mut() {
            if let Some(name) = aliases.get(&m.key) {
                m.key = name.clone();
            }
        }
        let mut seen = BTreeSet::new();
        found.retain(|m| seen.insert((m.key.clone(), statement.cell_at(m.bytes.start))));
    }
    for (((statement, analysis), found), tokens) in
        all.iter().zip(&analyses).zip(&mut mentions).zip(&lowered)
    {
        for (surface, key) in &surfaces {
            if found.iter().any(|m| m.key == *key) || surface.is_empty() {
                continue;
            }
            // A number alone ("2", "four") counts or measures only where the statement
            // says what of: "children under four" names no number of doses.
            let bare_number = match surface.as_slice() {
                [w] => {
                    asked::is_number_word(w)
                        || (w.starts_with(|c: char| c.is_ascii_digit())
                            && w.chars()
                                .all(|c| c.is_ascii_digit() || c == '.' || c == ','))
                }
                _ => false,
            };
            if bare_number && !matches!(asked, Asked::Thing { .. }) {
                continue;
            }
            // A one-word name is named too by names joined with a slash
            // ("esomeprazole/omeprazole"): each of them is meant.
            let joined = || match surface.as_slice() {
                [name] => tokens
                    .iter()
                    .position(|t| t.contains('/') && t.split('/').any(|p| p == name)),
                _ => None,
            };
            if let Some(at) = tokens
                .windows(surface.len())
                .position(|w| w == surface.as_slice())
                .or_else(joined)
            {
                let (Some(first), Some(last)) = (
                    analysis.words.get(at),
                    analysis.words.get(at + surface.len() - 1),
                ) else {
                    continue;
                };
                if foreign(statement, analysis, first.span.start) || asked::changed_from(tokens, at)
                {
                    continue;
                }
                found.push(Mention {
                    key: key.clone(),
                    bytes: first.span.start..last.span.end,
                });
            }
        }
        found.retain(|m| texts.contains_key(&m.key));
        // What a statement names is its longest candidates: "once weekly for 8 weeks",
        // not "weekly"; "both A and B", not A.
        let named: Vec<Range<usize>> = found.iter().map(|m| m.bytes.clone()).collect();
        found.retain(|m| {
            !named
                .iter()
                .any(|p| *p != m.bytes && p.start <= m.bytes.start && m.bytes.end <= p.end)
        });
        found.sort_by_key(|m| m.bytes.start);
    }

    // What each statement is about: its own candidates, its lead-in's, or (when it
    // refers back) the subject before it or its section's.
    let mut scores: BTreeMap<String, (f32, Vec<(f32, Span)>)> = BTreeMap::new();
    let mut for_patient: BTreeSet<String> = BTreeSet::new();
    let mut blocked: BTreeMap<String, Span> = BTreeMap::new();
    for (key, (text, _, _)) in &texts {
        let normal = normalize_term(text);
        if let Some((_, span)) = ruled_out.iter().find(|(r, _)| *r == *key || *r == normal) {
            blocked.insert(key.clone(), span.clone());
        }
    }
    let mut contexts: BTreeMap<String, rank::Context> = BTreeMap::new();
    // The asking sentence says whether the first dose is asked ("What starting dose
    // …?"); a description's "is starting exemplazole" says only what she begins.
    let asks_maintenance = matches!(asked, Asked::Amount { .. })
        && asked::asks_for_maintenance(asked::asking(question).unwrap_or(question));
    let asks_start = matches!(asked, Asked::Amount { .. })
        && asked::asks_for_start(asked::asking(question).unwrap_or(question));
    let question_verbs: BTreeSet<String> = asked::asking(question)
        .map(|asking| {
            let analysis = language.analyse(asking);
            analysis
                .lower(asking)
                .iter()
                .zip(&analysis.tags)
                .filter(|(w, t)| t.is_verb() && !Class::Auxiliary.has(w))
                .map(|(w, _)| asked::verb_stem(w))
                .collect()
        })
        .unwrap_or_default();
    let mut section_topic: Option<String> = None;
    let mut last_subject: Option<String> = None;
    let mut lead_topics: Vec<String> = Vec::new();
    let mut previous_applies: Option<Truth> = None;
    // The last population a statement of the document decided for the patient, with
    // the document: what "this age group" points back to past sentences that name none.
    let mut population_named: Option<(usize, Truth)> = None;
    let mut paragraph_scope: Option<Truth> = None;
    let mut previous: Option<(Kind, Span)> = None;
    for (i, statement) in all.iter().enumerate() {
        let own = &mentions[i];
        let analysis = &analyses[i];
        if matches!(statement.kind, Kind::Heading | Kind::Cell) {
            section_topic = own.first().map(|m| m.key.clone());
            last_subject = section_topic.clone();
            if statement.kind == Kind::Heading {
                continue;
            }
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
        // The nouns a reference back to it can use: the asked kind's and its own name's.
        let kind: BTreeSet<String> = referred
            .iter()
            .flat_map(|k| stems(k))
            .chain(type_words.iter().cloned())
            .collect();
        // A statement whose subject refers back ("It can be used … with felodipine as an
        // alternative") is about what it refers to as well as what it names.
        let subject_refers = analysis
            .words
            .iter()
            .find(|w| w.is_word)
            .is_some_and(|w| refers_back(&statement.text, analysis, w.span.clone(), &kind));
        // "Started at 25 mg every other day, then 25 mg daily": where the first dose is
        // asked, a later step of the schedule is not it.
        let step = |m: &Mention| {
            word_at(analysis, m.bytes.start).is_some_and(|at| asked::later_step(&lowered[i], at))
        };
        // … and where the dose it settles on is asked, the steps before it are not.
        let settles = asks_maintenance && own.iter().any(step);
        let later = |m: &&Mention| (asks_start && step(m)) || (settles && !step(m));
        let about: Vec<String> = if !own.is_empty() {
            let mut about: Vec<String> = Vec::new();
            for m in own.iter().filter(|m| !later(m)) {
                if !about.contains(&m.key) {
                    about.push(m.key.clone());
                }
            }
            if subject_refers {
                about.extend(
                    referred
                        .iter()
                        .filter(|r| !about.contains(r))
                        .cloned()
                        .collect::<Vec<_>>(),
                );
            }
            about
        } else if statement.lead.is_some() && !lead_topics.is_empty() {
            lead_topics.clone()
        } else if refers_back(&statement.text, analysis, 0..statement.text.len(), &kind) {
            referred.clone()
        } else {
            Vec::new()
        };
        // What the statement warns against: the candidates in a clause with a warning,
        // a lead-in's when the lead-in warns, or what a warning clause refers back to.
        let clauses = warning_clauses_of(list_clauses(&statement.text, analysis), &statement.text);
        // "Concomitant use of clopidogrel and omeprazole should be avoided": a warning
        // that names a medicine the patient takes is a warning for them.
        let with_taken = !taken.is_empty()
            && clauses
                .iter()
                .any(|c| names_any(language, &statement.text[c.clone()], &taken));
        // "Must not be given within 36 hours of the last dose": the time the denial
        // names is how long to wait, not a time warned against.
        let waited: Vec<&str> = match asked {
            Asked::Time => own
                .iter()
                .filter(|m| {
                    word_at(analysis, m.bytes.start)
                        .and_then(|at| at.checked_sub(1))
                        .is_some_and(|at| asked::waits_out(&lowered[i], at))
                })
                .map(|m| m.key.as_str())
                .collect(),
            _ => Vec::new(),
        };
        let mut warned: Vec<String> = own
            .iter()
            .filter(|m| {
                clauses.iter().any(|c| {
                    (c.start <= m.bytes.start && m.bytes.end <= c.end)
                        || bracketed_before(&statement.text, c.clone(), m.bytes.clone())
                })
            })
            .map(|m| m.key.clone())
            .collect();
        let lead_warns = statement
            .lead
            .as_deref()
            .is_some_and(|l| !warning_clauses(l).is_empty());
        // A heading that warns ("Contraindicated/not recommended", "Drugs to avoid
        // in pregnancy") warns against what the statements under it name, as a
        // lead-in does for its items.
        let heading_warns = statement.kind != Kind::Heading
            && statement.headings.last().is_some_and(|h| heading_warns(h));
        // What a statement says itself outweighs the scope it inherits: "Domperidone
        // is the drug of choice" under "Medications to avoid" endorses domperidone.
        let endorses = clauses.is_empty() && endorses(&lowered[i]);
        let (lead_warns, heading_warns) = (lead_warns && !endorses, heading_warns && !endorses);
        if warned.is_empty() {
            if lead_warns || heading_warns || (!clauses.is_empty() && own.is_empty()) {
                warned = about.clone();
            } else if let Some(c) = clauses
                .iter()
                .find(|c| refers_back(&statement.text, analysis, (*c).clone(), &kind))
            {
                // "Argatroban is cleared by the liver; … so it is best avoided": a
                // pronoun refers to the subject of its own sentence before the one
                // before it.
                let subject = own.iter().find(|m| {
                    m.bytes.end <= c.start
                        && statement.text[..m.bytes.start].split_whitespace().count() <= 1
                });
                warned = match subject {
                    Some(m) => vec![m.key.clone()],
                    None => referred.clone(),
                };
            } else if clauses
                .iter()
                .any(|c| refers_to_named(&statement.text[c.clone()]))
            {
                // "Until data are available for A or B, ACIP does not recommend either
                // of these products": the warning refers to what the sentence names.
                warned = own.iter().map(|m| m.key.clone()).collect();
            }
        }
        // A warning about a kind in the plural warns every candidate of the kind.
        for key in kinds_warned(language, analysis, &statement.text, &clauses, texts.keys()) {
            if !warned.contains(&key) {
                warned.push(key);
            }
        }
        // "The combination of an ACE inhibitor and an ARB is not recommended": a
        // warning against two candidates used together counts neither for nor against
        // either alone. (A drug the patient already takes is named by the question, so
        // it is no candidate: a warning against combining with it warns one candidate.)
        let mut seen = BTreeSet::new();
        warned.retain(|k| seen.insert(k.clone()) && !waited.contains(&k.as_str()));
        let paired = warned.len() >= 2 && names_combination(&statement.text);
        // A lead-in's candidates scope the items below it.
        if structure::is_lead_in(&statement.text) {
            lead_topics = about.clone();
        }
        if let Some(subject) = own
            .iter()
            .find(|m| statement.text[..m.bytes.start].split_whitespace().count() <= 1)
        {
            last_subject = Some(subject.key.clone());
        } else if let Some(other) = drug_subject(language, analysis, &statement.text) {
            // A statement about another drug (one the question names, so no candidate)
            // takes "it" and "this" after it: "Ceftriaxone may be considered … This is a
            // potential risk …" is not about the candidate named before.
            last_subject = Some(other);
        }
        // The statement's other noun phrases count as its typed candidates do, and
        // are warned against as they are: in a warning's clause, or under a lead-in or
        // heading that warns.
        let mut about = about;
        for m in &phrase_mentions[i] {
            let in_warning = lead_warns
                || heading_warns
                || clauses
                    .iter()
                    .any(|c| c.start <= m.bytes.start && m.bytes.end <= c.end);
            let list = if in_warning { &mut warned } else { &mut about };
            if !list.contains(&m.key) {
                list.push(m.key.clone());
            }
        }
        let recommends = recommends(statement);
        {
            let tokens = &lowered[i];
            let cues = rank::Context::of_statement(
                tokens,
                &analysis.tags,
                recommends,
                &type_words,
                &question_verbs,
            );
            for m in own.iter().chain(&phrase_mentions[i]) {
                let Some(at) = word_at(analysis, m.bytes.start) else {
                    continue;
                };
                let bracketed = statement.text[..m.bytes.start].matches('(').count()
                    > statement.text[..m.bytes.start].matches(')').count();
                let cue = cues.at(tokens, &analysis.tags, at, bracketed);
                let slot = contexts.entry(m.key.clone()).or_default();
                *slot = slot.or(cue);
            }
        }
        // "… should be taken at least 4 hours before or after these products": a
        // statement that points back to what the one before it named is about that too.
        let joined: BTreeSet<String>;
        let words = match i.checked_sub(1).map(|p| &all[p]) {
            Some(before)
                if before.span.doc == statement.span.doc
                    && points_back(&lowered[i], &analyses[i].tags) =>
            {
                joined = scope_words[i]
                    .union(&stems(&before.text))
                    .cloned()
                    .collect();
                &joined
            }
            _ => &scope_words[i],
        };
        let relevance = 1.0 + weight(words, &topic);
        // Parts a semicolon joins are sentences of their own: a candidate is as
        // relevant as the part that names it ("X is the preferred substitute for a
        // retinoid; Y may be used for inflammatory lesions" answers "What replaces the
        // retinoid?" with X alone).
        let part_relevance: BTreeMap<&str, f32> = {
            let parts = semicolon_parts(&statement.text);
            if parts.len() < 2 {
                BTreeMap::new()
            } else {
                let mut scope = statement.in_scope();
                scope.truncate(scope.len() - statement.text.len());
                let above = stems(&scope);
                let part_weight: Vec<f32> = parts
                    .iter()
                    .map(|p| {
                        let mut w = stems(&statement.text[p.clone()]);
                        w.extend(above.iter().cloned());
                        1.0 + weight(&w, &topic)
                    })
                    .collect();
                own.iter()
                    .chain(&phrase_mentions[i])
                    .filter_map(|m| {
                        let at = parts.iter().position(|p| p.contains(&m.bytes.start))?;
                        Some((m.key.as_str(), part_weight[at]))
                    })
                    .fold(BTreeMap::new(), |mut map, (key, w)| {
                        map.entry(key).or_insert(w);
                        map
                    })
            }
        };
        let strength = if recommends { RECOMMENDS_WEIGHT } else { 1.0 };
        // "These situations", "such patients": the population of the statement before.
        // As written, or with the short forms spelled out (when it has any).
        // A time the statement gives as an answer to "When …?" is not whom it is about:
        // "Tdap is given at 27 through 36 weeks of gestation" is said of every
        // pregnant woman, not only of those already past 27 weeks.
        let answered;
        let statement_read = if matches!(asked, Asked::Time) && !own.is_empty() {
            let mut text = statement.text.clone();
            for m in own {
                if let Some(span) = text.get(m.bytes.clone()) {
                    let blank = " ".repeat(span.len());
                    text.replace_range(m.bytes.clone(), &blank);
                }
            }
            answered = Statement {
                text,
                ..statement.clone()
            };
            &answered
        } else {
            statement
        };
        let mut applies = patient.map(|p| {
            if at_high_risk && names_risk(&statement.in_scope(), ORDINARY_RISK) {
                return Truth::False;
            }
            let written = applies(p, statement_read, &patient_words);
            if spelled[i] == *statement {
                return written;
            }
            match (written, applies(p, &spelled[i], &patient_words)) {
                (Truth::True, _) | (_, Truth::True) => Truth::True,
                (Truth::False, _) | (_, Truth::False) => Truth::False,
                _ => Truth::Unknown,
            }
        });
        // "For acute otitis media, adults take 500 mg three times daily": the condition
        // the sentence fronts may be the patient's, but what follows is said of the
        // people its subject names.
        let other_people = patient.is_some_and(|p| {
            fronted_people(&statement.text, analysis)
                .is_some_and(|s| applies_to(p, s, &patient_words) == Truth::False)
        });
        if other_people && applies == Some(Truth::True) {
            applies = Some(Truth::False);
        }
        // The sentences of one list item share its condition: in "IgA deficiency – IgA
        // tTG analysis may be less sensitive when total IgA is <0.2 g/L. IgG coeliac
        // serology should be performed" the second speaks of the same patients, unless
        // it names people of its own.
        let same_item = statement.kind == Kind::Item
            && previous.as_ref().is_some_and(|(kind, span)| {
                *kind == Kind::Item
                    && span.doc == statement.span.doc
                    && docs.get(span.doc).is_some_and(|d| {
                        d.text
                            .get(span.range.end..statement.span.range.start)
                            .is_some_and(|between| !between.contains('\n'))
                    })
            })
            && !names_people(&statement.text);
        if applies == Some(Truth::Unknown) && (same_item || refers_to_population(&statement.text)) {
            applies = previous_applies;
            // "Older adults with … dependence in two or more activities of daily living
            // have limited time to benefit … For these patients …": the people the
            // statement before opens with, when it names no condition otherwise.
            if applies == Some(Truth::Unknown) && !same_item {
                let subject = i
                    .checked_sub(1)
                    .filter(|p| all[*p].span.doc == statement.span.doc)
                    .and_then(|p| people_subject(&all[p].text, &analyses[p]));
                if let (Some(p), Some(subject)) = (patient, subject) {
                    let truth = applies_to(p, subject, &patient_words);
                    if truth != Truth::Unknown {
                        applies = Some(truth);
                    }
                }
            }
            if applies == Some(Truth::Unknown) && !same_item {
                if let Some((_, truth)) =
                    population_named.filter(|(doc, _)| *doc == statement.span.doc)
                {
                    applies = Some(truth);
                }
            }
        }
        // "Metformin in chronic kidney disease (eGFR in mL/min/1.73 m2). … 30-44: halve
        // the dose": a label that is only a bound is a bound on what the document's
        // heading measures.
        if applies == Some(Truth::Unknown) {
            if let (Some(p), Some(label)) = (patient, run_in_label(&statement.text)) {
                let opening = all
                    .iter()
                    .find(|s| s.span.doc == statement.span.doc)
                    .filter(|s| s.span != statement.span)
                    .map(|s| s.text.as_str());
                let context = statement.headings.iter().map(String::as_str).chain(opening);
                if let Some(truth) = bound_of_heading(p, label, context) {
                    applies = Some(truth);
                }
            }
        }
        // "Dolutegravir should be taken at least 2 hours before or 6 hours after such
        // antacids": a statement about a medicine the patient takes, by name or pointing
        // back to the one before, is about them, and so is one under a heading that names one.
        // (Not the medicine asked about: what is said of digoxin in general is not
        // said of every patient on it.)
        if applies == Some(Truth::Unknown) && !co_medicines.is_empty() {
            let names_taken = |text: &str| names_any(language, text, &co_medicines);
            let before = i.checked_sub(1).map(|p| &all[p]).filter(|b| {
                b.span.doc == statement.span.doc && points_back(&lowered[i], &analyses[i].tags)
            });
            if names_taken(&statement.text)
                || before.is_some_and(|b| names_taken(&b.text))
                || statement.headings.iter().any(|h| names_taken(h))
            {
                applies = Some(Truth::True);
            }
        }
        // "In bilateral renal artery stenosis, glomerular filtration depends on … ACE
        // inhibitors … are contraindicated": a population fronted at the head of a
        // paragraph scopes the sentences after it that name none of their own.
        let opens_paragraph = previous.as_ref().is_none_or(|(_, span)| {
            span.doc != statement.span.doc
                || docs.get(span.doc).is_none_or(|d| {
                    d.text
                        .get(span.range.end..statement.span.range.start)
                        .is_none_or(|between| between.contains('\n'))
                })
        });
        if opens_paragraph {
            // As written and with its short forms spelled out ("Caution — DLB: …").
            let fronted =
                fronted_condition(&statement.text).or_else(|| run_in_label(&statement.text));
            paragraph_scope = match (patient, fronted) {
                (Some(p), Some(fronted)) if statement.kind == Kind::Sentence => {
                    [fronted.to_string(), spelled_text(fronted, &written)]
                        .iter()
                        .map(|text| applies_to(p, text, &patient_words))
                        .find(|t| *t != Truth::Unknown)
                }
                _ => None,
            };
        } else if applies == Some(Truth::Unknown) && statement.kind == Kind::Sentence {
            applies = paragraph_scope.or(applies);
        }
        // "In patients with contraindications to both macrolides and fluoroquinolones":
        // a population the documents have already put the patient in, by warning
        // against all it names for them.
        if patient.is_some() && applies != Some(Truth::True) {
            let excluded = excluded_for(language, &lowered[i]);
            let warned_for_patient = |name: &String| {
                blocked.keys().any(|k| {
                    k == name || asked::in_class(language, k, &asked::stem(name)) == Some(true)
                })
            };
            if !excluded.is_empty() && excluded.iter().all(warned_for_patient) {
                applies = Some(Truth::True);
            }
        }
        // "Older adults: … Mirabegron is contraindicated in severe uncontrolled
        // hypertension": a warning that names whom it holds for narrows its heading; it
        // holds for the patient only when that population does.
        if let (Some(p), Some(Truth::True)) = (patient, applies) {
            // As written and with its short forms spelled out ("contraindicated in MG").
            let texts = [&statement.text, &spelled[i].text];
            let taken = names_any(language, &statement.text, &co_medicines);
            let own_unknown = texts
                .iter()
                .all(|t| applies_to(p, t, &patient_words) == Truth::Unknown);
            if !taken && own_unknown {
                let narrowed = texts.iter().all(|t| {
                    warned_population(t)
                        .is_some_and(|w| applies_to(p, w, &patient_words) == Truth::Unknown)
                });
                if narrowed {
                    applies = Some(Truth::Unknown);
                }
            }
        }
        // "Can cause arrhythmia in some people over 60": what is said of some of a
        // population is not said of each member, so it neither holds for the patient
        // nor rules them out.
        if applies == Some(Truth::True) && names_some_of(&lowered[i]) {
            applies = Some(Truth::Unknown);
        }
        // "Some women have a higher chance of … and are advised to take 5 mg … You may
        // have a higher chance if: • you take anti-epilepsy medicine": a statement about
        // the people a later lead-in of its section defines by the items under it (or
        // that is that lead-in) holds for the patient when one of the items does.
        let mut defining: BTreeSet<String> = BTreeSet::new();
        if applies == Some(Truth::Unknown) {
            let own = content_stems(&statement.text);
            let defined = all[i..].iter().find_map(|later| {
                let lead = later.lead.as_deref()?;
                let items = leads_holding.get(&(later.span.doc, lead))?;
                let speaks_of = lead == statement.text
                    || (defines(lead)
                        && own.intersection(&content_stems(lead)).count() >= DEFINED_BY);
                (later.span.doc == statement.span.doc
                    && later.headings == statement.headings
                    && speaks_of)
                    .then_some(items)
            });
            if let Some(items) = defined {
                applies = Some(Truth::True);
                defining = items.clone();
            }
        }
        previous_applies = applies;
        if let Some(truth) = applies.filter(|t| *t != Truth::Unknown) {
            population_named = Some((statement.span.doc, truth));
        }
        previous = Some((statement.kind, statement.span.clone()));
        // "In general, start within 2 weeks; however, caution is needed in <the
        // patient's population>": a candidate in a clause the contrast sets against the
        // patient's is the general rule, not this patient's.
        let mut general: Vec<String> = match (patient, applies) {
            (Some(p), Some(Truth::True)) => contrasted(
                |part| applies_to(p, part, &patient_words),
                &statement.text,
                own,
                |part| weight(&stems(part), &patient_words),
            ),
            _ => Vec::new(),
        };
        general.extend(set_aside(&statement.text, own));
        if !fallback_asked {
            general.extend(fallbacks(&statement.text, own));
        }
        if !alternative_asked {
            let named: Vec<Mention> = own.iter().chain(&phrase_mentions[i]).cloned().collect();
            general.extend(second_choices(&statement.text, &named));
        }
        general.extend(other_line(asked_line, &statement.text, own));
        // "Herpes zoster: 1g every 8hrs; CrCl 10–29mL/min: 1g every 24hrs; …": a
        // candidate under a label of its own is for whom its label says.
        // When a later part's label holds for the patient, the first part's value is
        // the usual one that the later part replaces for them.
        let excepted = patient.is_some_and(|p| {
            let text = &statement.text;
            text.match_indices(';').any(|(at, _)| {
                let part = &text[at + 1..];
                let part = &part[..part.find(';').unwrap_or(part.len())];
                part.find(':')
                    .is_some_and(|c| applies_to(p, part[..c].trim(), &patient_words) == Truth::True)
            })
        });
        // "1 g every 8 hours (every 12 hours if CrCl is 26 to 50 mL/min)": a value
        // followed by its own condition is for whom the condition says, and when one
        // holds for the patient, a value before it with no condition of its own is the
        // usual one it replaces.
        let conditional: Vec<(usize, Truth)> = match patient {
            Some(p) => {
                let text = &statement.text;
                let with_own: Vec<&Mention> = own
                    .iter()
                    .filter(|m| condition_after(text, m.bytes.clone(), text.len()).is_some())
                    .collect();
                // "doxycycline for adults, amoxicillin for children under 8 years and
                // azithromycin for pregnant women": a value's condition ends where the
                // next value with a condition of its own begins.
                let found: Vec<(usize, &str, bool)> = with_own
                    .iter()
                    .filter_map(|m| {
                        let until = with_own
                            .iter()
                            .map(|n| n.bytes.start)
                            .filter(|&s| s >= m.bytes.end)
                            .min()
                            .unwrap_or(text.len());
                        let (condition, own_part) = condition_after(text, m.bytes.clone(), until)?;
                        Some((m.bytes.start, condition, own_part))
                    })
                    .collect();
                let listed = found.len() >= 2;
                let truths: Vec<(usize, Truth)> = found
                    .into_iter()
                    .filter(|&(_, _, own_part)| own_part || listed)
                    .map(|(at, condition, _)| {
                        // Values listed each with its own bound split one population by
                        // it, as a table's columns do: the one whose bound the patient
                        // meets is theirs, by age too.
                        let truth = match applies_to(p, condition, &patient_words) {
                            Truth::Unknown if listed => {
                                p.within_bounds(condition).unwrap_or(Truth::Unknown)
                            }
                            truth => truth,
                        };
                        (at, truth)
                    })
                    .collect();
                // … and so do values listed each for people of their own ("doxycycline
                // for adults, … azithromycin for pregnant women"): once one of them
                // names the patient's people, the others are for other people.
                let named = listed && truths.iter().any(|(_, t)| *t == Truth::True);
                truths
                    .into_iter()
                    .map(|(at, truth)| match truth {
                        Truth::Unknown if named => (at, Truth::False),
                        truth => (at, truth),
                    })
                    .collect()
            }
            None => Vec::new(),
        };
        let replaced_before = conditional
            .iter()
            .filter(|(_, truth)| *truth == Truth::True)
            .map(|(at, _)| *at)
            .max();
        let labelled: BTreeMap<&str, Truth> = match patient {
            Some(p) => own
                .iter()
                .filter_map(|m| {
                    if let Some((_, truth)) =
                        conditional.iter().find(|(at, _)| *at == m.bytes.start)
                    {
                        if *truth != Truth::Unknown {
                            return Some((m.key.as_str(), *truth));
                        }
                    } else if replaced_before.is_some_and(|at| m.bytes.start < at)
                        && statement.column_at(m.bytes.start).is_none()
                        && labels_of(&statement.text, m.bytes.start).is_none()
                    {
                        return Some((m.key.as_str(), Truth::False));
                    }
                    // A table's cell is for whom its column's name says ("Maximum
                    // Recommended Dosage: Greater than 65 years"). The columns split
                    // the rows' population, so a column whose bound the patient meets
                    // is theirs, by age too.
                    let column = statement.column_at(m.bytes.start).and_then(|(_, c)| {
                        match applies_to(p, &c.name, &patient_words) {
                            Truth::Unknown => p.within_bounds(&c.name),
                            truth => Some(truth),
                        }
                    });
                    if let Some(truth) = column {
                        return Some((m.key.as_str(), truth));
                    }
                    // "…, preferably X or Y; with LBBB or pacing, Z is preferred": a
                    // later part that fronts a condition of its own is for whom it says,
                    // and for no one the reader can place while that is unknown.
                    let text = &statement.text;
                    let part_condition = semicolon_parts(text)
                        .into_iter()
                        .skip(1)
                        .find(|r| r.contains(&m.bytes.start))
                        .and_then(|r| fronted_condition(text[r].trim_start()));
                    if let Some(condition) = part_condition {
                        return Some((m.key.as_str(), applies_to(p, condition, &patient_words)));
                    }
                    let labels = labels_of(&statement.text, m.bytes.start)?;
                    let first_part = !statement.text[..m.bytes.start].contains(';');
                    if other_people && first_part {
                        return Some((m.key.as_str(), Truth::False));
                    }
                    if excepted && first_part {
                        return Some((m.key.as_str(), Truth::False));
                    }
                    let truth = labels
                        .iter()
                        .map(|l| applies_to(p, l, &patient_words))
                        .fold(Truth::Unknown, |a, b| match (a, b) {
                            (Truth::False, _) | (_, Truth::False) => Truth::False,
                            (Truth::True, _) | (_, Truth::True) => Truth::True,
                            _ => Truth::Unknown,
                        });
                    (truth != Truth::Unknown).then_some((m.key.as_str(), truth))
                })
                // A value a row gives in two cells holds for the patient when one of
                // them does.
                .fold(BTreeMap::new(), |mut map, (key, truth)| {
                    let slot = map.entry(key).or_insert(truth);
                    if truth == Truth::True {
                        *slot = Truth::True;
                    }
                    map
                }),
            None => BTreeMap::new(),
        };
        let matched = weight(words, &patient_words) + weight(&defining, &patient_words);
        for key in about
            .iter()
            .chain(warned.iter().filter(|w| !about.contains(w)))
        {
            let is_warned = warned.contains(key);
            let relevance = part_relevance
                .get(key.as_str())
                .copied()
                .unwrap_or(relevance);
            let applies = match (general.contains(key), labelled.get(key.as_str())) {
                (true, _) => Some(Truth::False),
                (false, Some(truth)) => Some(*truth),
                (false, None) if is_warned && with_taken => Some(Truth::True),
                (false, None) => applies,
            };
            let contribution = match (applies, is_warned) {
                (_, true) if paired => 0.0,
                (None, true) | (Some(Truth::Unknown), true) => 0.0,
                (None, false) => strength * relevance,
                (Some(Truth::True), true) => {
                    blocked
                        .entry(key.clone())
                        .or_insert_with(|| statement.span.clone());
                    continue;
                }
                (Some(Truth::True), false) => {
                    for_patient.insert(key.clone());
                    strength * relevance * (1.0 + APPLIES_WEIGHT * (1.0 + matched))
                }
                (Some(Truth::False), _) => OTHER_POPULATION_WEIGHT * relevance,
                (Some(Truth::Unknown), false) => strength * (relevance + matched),
            };
            let slot = scores.entry(key.clone()).or_default();
            slot.0 += contribution;
            slot.1.push((contribution, statement.span.clone()));
        }
    }

    // A combination product holds each of its ingredients: one warned against for the
    // patient ("nirmatrelvir") is warned against in the product that contains it
    // ("nirmatrelvir/ritonavir").
    let warned_drugs: Vec<(String, Span)> = blocked
        .iter()
        .filter_map(|(key, span)| {
            Some((
                language.drugs.lookup(key)?.canonical.to_string(),
                span.clone(),
            ))
        })
        .collect();
    for (key, (text, _, _)) in &texts {
        if blocked.contains_key(key) {
            continue;
        }
        let warned = language
            .drugs
            .ingredients(text)
            .into_iter()
            .find_map(|ingredient| {
                warned_drugs
                    .iter()
                    .find(|(drug, _)| *drug == ingredient)
                    .map(|(_, span)| span.clone())
            });
        if let Some(span) = warned {
            blocked.insert(key.clone(), span);
        }
    }
    // The options a question offers are what it asks to choose from: what the documents
    // name besides them is no answer, once they name one of them.
    if offers_options && texts.keys().any(|k| offered.contains(k)) {
        texts.retain(|key, _| offered.contains(key));
        phrase_texts.clear();
    }
    phrase_texts.retain(|key, _| !texts.contains_key(key));
    // Between candidates the statements count for equally, one known to be of the
    // asked class goes first ("linezolid, dolutegravir …" for "Which antiretroviral").
    let mut candidates: Vec<(bool, Candidate)> = texts
        .into_iter()
        .chain(
            phrase_texts
                .into_iter()
                .map(|(key, (text, order))| (key, (text, PHRASE_ORDER + order, Typed::Phrase))),
        )
        .map(|(key, (text, first, typed))| {
            let member = in_class.get(&key) == Some(&Some(true)) || said_to_be.contains(&key);
            let (mut score, mut support) = scores.remove(&key).unwrap_or_default();
            if score > 0.0 && language.drugs.lookup(&text).is_some() {
                score = (1.0 + score) * NAMED_FACTOR - 1.0;
            }
            support.sort_by(|a, b| b.0.total_cmp(&a.0));
            let content = stems(&text);
            let restated =
                content.intersection(&question_words).count() as f32 / content.len().max(1) as f32;
            let candidate = Candidate {
                text,
                score,
                support: support.into_iter().map(|(_, s)| s).collect(),
                blocked_by: blocked.get(&key).cloned(),
                first,
                for_patient: for_patient.contains(&key),
                typed,
                in_class: in_class.get(&key).copied().flatten(),
                context: rank::Context {
                    restated,
                    ..contexts.get(&key).copied().unwrap_or_default()
                },
            };
            (member, candidate)
        })
        .collect();
    candidates.sort_by(|(a_member, a), (b_member, b)| {
        let typed = |member: &bool| members_first && *member;
        let phrase = |c: &Candidate| c.typed == Typed::Phrase;
        a.blocked_by
            .is_some()
            .cmp(&b.blocked_by.is_some())
            .then(phrase(a).cmp(&phrase(b)))
            .then(typed(b_member).cmp(&typed(a_member)))
            .then(b.for_patient.cmp(&a.for_patient))
            .then(b.score.total_cmp(&a.score))
            .then(b_member.cmp(a_member))
            .then(a.first.cmp(&b.first))
    });
    let candidates = candidates.into_iter().map(|(_, c)| c).collect();
    let headings = all
        .iter()
        .filter(|s| s.kind == Kind::Heading)
        .map(|s| normalize_term(&s.text))
        .collect();
    Some(Reading {
        asked,
        candidates,
        headings,
        ranked: false,
    })
}

/// Whether the words `range` of `text` (analysed as `analysis`) give an age: a time
/// that, read with the words around it ("children 6 years and older", "aged 2 to 5
/// years"), bounds an age.
fn is_age(text: &str, analysis: &Analysis, range: Range<usize>) -> bool {
    let from = range.start.saturating_sub(AGE_CONTEXT);
    let to = (range.end + AGE_CONTEXT).min(analysis.words.len());
    let (Some(first), Some(last)) = (
        analysis.words.get(from),
        analysis.words.get(to.saturating_sub(1)),
    ) else {
        return false;
    };
    let Some(window) = text.get(first.span.start..last.span.end) else {
        return false;
    };
    let value = analysis
        .words
        .get(range.start)
        .and_then(|w| w.text(text).replace(',', "").parse::<f64>().ok());
    crate::patient::measure::conditions(window).iter().any(|m| {
        m.quantity == crate::patient::measure::Quantity::AgeYears
            && value.is_some_and(|v| {
                let years = [v, v / 12.0, v / 52.0, v / 365.0];
                years.iter().any(|y| {
                    (m.interval.low - y).abs() < 1e-6 || (m.interval.high - y).abs() < 1e-6
                })
            })
    })
}

/// Words either side of a time read to tell whether it is an age (see [`is_age`]).
const AGE_CONTEXT: usize = 3;

/// For a question that asks when, the times a statement gives by an event: a
/// preposition of time before a short noun phrase that names no number ("after
/// delivery", "before discharge", "during the second trimester"). Word ranges of the
/// statement's analysis.
fn event_times(asks_when: bool, text: &str, analysis: &Analysis) -> Vec<Range<usize>> {
    if !asks_when {
        return Vec::new();
    }
    let tokens = analysis.lower(text);
    analysis
        .phrases
        .iter()
        .filter_map(|p| {
            let at = p.range.start.checked_sub(1)?;
            let placed = matches!(
                tokens.get(at)?.as_str(),
                "after" | "before" | "until" | "during"
            );
            let named = p.core.len() <= EVENT_WORDS
                && !p.core.is_empty()
                && !analysis.tags[p.core.clone()].contains(&Tag::Cd);
            (placed && named).then_some(at..p.range.end)
        })
        .collect()
}

/// The longest event a time is given by, in words ("the immediate postpartum period").
const EVENT_WORDS: usize = 3;

/// Candidates that are another's name written shorter or longer, each mapped to the
/// one written first: a name (written with a capital) whose words all appear in the
/// other's ("Norvax" and "Norvax NRV 2"), with the abbreviations the documents
/// `defined` spelled out ("YF vaccine" is "yellow fever vaccine").
fn aliases(
    texts: &BTreeMap<String, (String, usize, Typed)>,
    defined: &BTreeMap<String, String>,
) -> BTreeMap<String, String> {
    let mut by_order: Vec<(&String, &(String, usize, Typed))> = texts.iter().collect();
    by_order.sort_by_key(|(_, t)| t.1);
    let spelled = |k: &str| -> String {
        match defined.get(k) {
            Some(long) => long.clone(),
            None => k
                .split(' ')
                .map(|w| defined.get(w).map_or(w, String::as_str))
                .collect::<Vec<_>>()
                .join(" "),
        }
    };
    let word_set =
        |k: &str| -> BTreeSet<String> { spelled(k).split(' ').map(str::to_string).collect() };
    let mut out: BTreeMap<String, String> = BTreeMap::new();
    for (i, (key, (text, _, _))) in by_order.iter().enumerate() {
        let mine = word_set(key);
        let named = text.chars().any(char::is_uppercase);
        // Names joined by "and" or "or" are several things, not a longer name of one.
        let joined = |k: &str| k.split(' ').any(|w| w == "and" || w == "or");
        let earlier = by_order[..i].iter().find(|(other, (other_text, _, _))| {
            let theirs = word_set(other);
            !joined(key)
                && !joined(other)
                && (named || other_text.chars().any(char::is_uppercase))
                && (mine.is_subset(&theirs) || theirs.is_subset(&mine))
        });
        if let Some((other, _)) = earlier {
            let root = out.get(*other).cloned().unwrap_or_else(|| (*other).clone());
            out.insert((*key).clone(), root);
        }
    }
    // A name the documents spell out stands for its abbreviation, not the other way
    // round: "yellow fever vaccine", not "YF".
    let roots: BTreeSet<String> = out.values().cloned().collect();
    for root in roots {
        if spelled(&root) == root {
            continue;
        }
        let spelled_out = by_order
            .iter()
            .map(|(k, _)| *k)
            .find(|k| out.get(*k) == Some(&root) && spelled(k) == **k);
        if let Some(new_root) = spelled_out.cloned() {
            for name in out.values_mut() {
                if *name == root {
                    *name = new_root.clone();
                }
            }
            out.remove(&new_root);
            out.insert(root, new_root);
        }
    }
    out
}

/// A candidate named in a statement, with its bytes in the statement's text.
#[derive(Debug, Clone)]
struct Mention {
    key: String,
    bytes: std::ops::Range<usize>,
}

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

/// The byte ranges of the parts of `text` that semicolons outside brackets join.
fn semicolon_parts(text: &str) -> Vec<Range<usize>> {
    let mut parts = Vec::new();
    let (mut depth, mut start) = (0usize, 0);
    for (at, c) in text.char_indices() {
        match c {
            '(' | '[' => depth += 1,
            ')' | ']' => depth = depth.saturating_sub(1),
            ';' if depth == 0 => {
                parts.push(start..at);
                start = at + 1;
            }
            _ => {}
        }
    }
    parts.push(start..text.len());
    parts
}

/// Whether a statement's own words endorse what it names: "preferred", "of choice",
/// "recommended", "first-line" (`tokens` lower-cased; a warning's clause is read
/// before this, so "not recommended" never gets here).
fn endorses(tokens: &[String]) -> bool {
    tokens.iter().enumerate().any(|(k, t)| {
        ENDORSING.contains(&t.as_str())
            || (t == "choice" && k > 0 && tokens[k - 1] == "of")
            || (t == "line" && k > 0 && tokens[k - 1] == "first")
    })
}

/// Words that endorse on their own (see [`endorses`]).
const ENDORSING: &[&str] = &["preferred", "recommended", "first-line", "safest"];

/// The lines of treatment a text names ("first-line", "second line agent"), each with
/// its byte offset and its number.
fn line_of_treatment(text: &str) -> Vec<(usize, u8)> {
    let lower = text.to_lowercase();
    let tokens: Vec<(usize, &str)> = words(&lower)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| (w.span.start, w.text(&lower)))
        .collect();
    let number = |w: &str| match w {
        "first" => Some(1),
        "second" => Some(2),
        "third" => Some(3),
        _ => None,
    };
    tokens
        .iter()
        .enumerate()
        .filter_map(|(k, &(at, w))| match w.split_once('-') {
            Some((n, "line")) => number(n).map(|n| (at, n)),
            _ => number(w)
                .filter(|_| tokens.get(k + 1).is_some_and(|(_, l)| *l == "line"))
                .map(|n| (at, n)),
        })
        .collect()
}

/// The candidates `own` names nearest to a line of treatment other than the one asked
/// for: "methyldopa is used as a second line agent" does not answer "Which is used
/// first line?".
fn other_line(asked: Option<u8>, text: &str, own: &[Mention]) -> Vec<String> {
    let Some(asked) = asked else {
        return Vec::new();
    };
    let lines = line_of_treatment(text);
    own.iter()
        .filter(|m| {
            lines
                .iter()
                .min_by_key(|(at, _)| at.abs_diff(m.bytes.start))
                .is_some_and(|(_, n)| *n != asked)
        })
        .map(|m| m.key.clone())
        .collect()
}

/// Words that set one part of a sentence against another ("…; however, …").
const CONTRASTS: &[&str] = &["but", "however", "although", "whereas", "except", "unless"];

/// The candidates `own` names in a sentence part that a contrast sets against a later
/// part about the patient's population ("In general, start ART within 2 weeks; however,
/// caution is needed in people with meningitis" → the 2 weeks, for a patient with
/// meningitis): they are the general rule. The later part must be the one about the
/// patient: it applies to the patient and shares more of the patient's words (weighed by
/// `matched`) than the part before, or it is an exception ("except", "unless") to it.
fn contrasted(
    applies_to: impl Fn(&str) -> Truth,
    text: &str,
    own: &[Mention],
    matched: impl Fn(&str) -> f32,
) -> Vec<String> {
    let lower = text.to_lowercase();
    let Some((turn, word)) = words(&lower)
        .iter()
        .find(|w| w.is_word && CONTRASTS.contains(&w.text(&lower)) && w.span.start > 0)
        .map(|w| (w.span.start, w.text(&lower)))
    else {
        return Vec::new();
    };
    let (before, after) = text.split_at(turn);
    // "X is the drug of choice except in children younger than 8 years": what
    // "except" or "unless" opens names whom the rule before it leaves out, however much
    // of the patient's words the rule shares.
    let exception = matches!(word, "except" | "unless");
    if applies_to(after) != Truth::True || (!exception && matched(after) <= matched(before)) {
        return Vec::new();
    }
    own.iter()
        .filter(|m| m.bytes.end <= turn)
        .map(|m| m.key.clone())
        .collect()
}

/// Comparative words before "than" that compare quantities ("more than 5 days", "less
/// than 20 kg"): such a "than" sets nothing aside.
const QUANTITY_COMPARATIVES: &[&str] = &[
    "more", "less", "fewer", "greater", "higher", "lower", "older", "younger", "longer", "shorter",
    "larger", "smaller",
];

/// Adjectives after which "to" names what a choice is set against ("superior to
/// diazepam").
const SUPERIOR: &[&str] = &["superior", "preferable", "preferred"];

/// Participles after which "over" names what a choice is set against ("preferred over
/// warfarin").
const PREFERRED: &[&str] = &["preferred", "favoured", "favored", "chosen", "recommended"];

/// Modals before "otherwise" that say what would have been but is not.
const COUNTERFACTUAL: &[&str] = &["would", "could", "might"];

/// Most bytes between a setting-aside phrase and the candidate it sets aside.
const SET_ASIDE_REACH: usize = 60;

/// Most words after a copula to the noun it says a candidate is ("is the preferred
/// prophylactic antiemetic").
const COPULA_REACH: usize = 5;

/// Most words from a subject to its copula, past what is set off between them.
const SUBJECT_REACH: usize = 15;

/// Verbs after which "for" names what is replaced ("X can be substituted for Y").
const SUBSTITUTED: &[&str] = &[
    "substituted",
    "substitute",
    "substitutes",
    "exchanged",
    "swapped",
];

/// The candidates `own` names as the alternative not taken: after "rather than",
/// "instead of", "in preference to", "superior to", "preferred over", "would
/// otherwise", "other than", or a "than" that compares choices ("a higher dose
/// (3 mg/kg) than larger children (2.4 mg/kg)"), in the same sentence part.
fn set_aside(text: &str, own: &[Mention]) -> Vec<String> {
    let lower = text.to_lowercase();
    let tokens = word_spans(&lower);
    // Where each setting-aside phrase ends, and whether it sets aside only the first
    // candidate after it.
    let mut ends: Vec<(usize, bool)> = Vec::new();
    for (i, (w, span)) in tokens.iter().enumerate() {
        let prev = |k: usize| i.checked_sub(k).map_or("", |j| tokens[j].0);
        let opens = match *w {
            "than" => prev(1) == "rather" || !QUANTITY_COMPARATIVES.contains(&prev(1)),
            "of" => prev(1) == "instead",
            "to" => (prev(1) == "preference" && prev(2) == "in") || SUPERIOR.contains(&prev(1)),
            "over" => PREFERRED.contains(&prev(1)),
            _ => false,
        };
        // "a patient who would otherwise start on 10 mg should start on 5 mg": what
        // would have been is the one candidate the counterfactual's verb takes.
        let counterfactual = *w == "otherwise" && COUNTERFACTUAL.contains(&prev(1));
        // "amiloride can be substituted for spironolactone", "used in place of
        // warfarin": the one candidate replaced.
        let replaced = (*w == "for" && SUBSTITUTED.contains(&prev(1)))
            || (*w == "of" && prev(1) == "place" && prev(2) == "in");
        if opens || counterfactual || replaced {
            ends.push((span.end, counterfactual || replaced));
        }
    }
    let reaches = |e: usize, m: &Mention| {
        m.bytes.start >= e
            && m.bytes.start - e <= SET_ASIDE_REACH
            && !lower[e..m.bytes.start].contains([';', '.', ':'])
    };
    own.iter()
        .filter(|m| {
            ends.iter().any(|&(e, first_only)| {
                reaches(e, m)
                    && (!first_only
                        || !own
                            .iter()
                            .any(|o| o.bytes.start >= e && o.bytes.start < m.bytes.start))
            })
        })
        .map(|m| m.key.clone())
        .collect()
}

/// The candidates `own` names as a fallback: those before an "if", "when" or
/// "where" that makes another unavailable or not tolerated, in the same part of the
/// sentence ("annual breast MRI, or mammography only if MRI is unavailable";
/// "pitavastatin is preferred, with atorvastatin as an alternative if it is
/// unavailable"). What the condition names is the first choice, and stays.
fn fallbacks(text: &str, own: &[Mention]) -> Vec<String> {
    let lower = text.to_lowercase();
    let tokens = words(&lower);
    let mut out = Vec::new();
    for (i, t) in tokens.iter().enumerate() {
        if !matches!(t.text(&lower), "if" | "when" | "where") {
            continue;
        }
        // The condition, to the end of its clause.
        let rest = &lower[t.span.end..];
        let end = rest.find([',', ';', '.', ')']).unwrap_or(rest.len());
        let condition = format!(" {} ", &rest[..end]);
        if !UNAVAILABLE
            .iter()
            .any(|u| condition.contains(&format!(" {u} ")))
        {
            continue;
        }
        let start = tokens[..i]
            .iter()
            .rev()
            .find(|w| matches!(w.text(&lower), "," | ";" | "." | ":" | "("))
            .map_or(0, |w| w.span.end);
        out.extend(
            own.iter()
                .filter(|m| m.bytes.start >= start && m.bytes.end <= t.span.start)
                .map(|m| m.key.clone()),
        );
    }
    out
}

/// The candidates `own` names as the second choice beside a first one, in the same
/// part of the sentence: "cryotherapy is the usual choice, with trichloroacetic acid
/// or excision as alternatives", "X is preferred; Y is an alternative" reads each part
/// alone. A name before "as an alternative" / "as alternatives" / "is an alternative"
/// (within [`SET_ASIDE_REACH`] bytes, only names listed between), or after "alternatives
/// include" / "alternatively", is a second choice when the part names a candidate that
/// is not one.
fn second_choices(text: &str, own: &[Mention]) -> Vec<String> {
    let lower = text.to_lowercase();
    let tokens = word_spans(&lower);
    let word = |i: usize| tokens.get(i).map_or("", |t| t.0);
    // Where a marker that looks back ends its reach (its first byte), and where one that
    // looks forward starts it (its last byte).
    let mut back: Vec<usize> = Vec::new();
    let mut forward: Vec<usize> = Vec::new();
    for (i, (w, span)) in tokens.iter().enumerate() {
        if !ALTERNATIVE_WORDS.contains(&crate::text::singular(w).as_str()) {
            if *w == "alternatively" {
                forward.push(span.end);
            }
            continue;
        }
        let before = |k: usize| i.checked_sub(k).map_or("", word);
        let named_as = before(1) == "as"
            || (matches!(before(1), "an" | "the") && matches!(before(2), "as" | "is" | "are"))
            || matches!(before(1), "are" | "is");
        if named_as {
            let opener = (1..=3)
                .filter_map(|k| i.checked_sub(k))
                .find(|&k| matches!(word(k), "as" | "is" | "are"))
                .map_or(span.start, |k| tokens[k].1.start);
            back.push(opener);
        } else if matches!(word(i + 1), "include" | "includes" | "are" | "is") {
            forward.push(tokens[i + 1].1.end);
        }
    }
    if back.is_empty() && forward.is_empty() {
        return Vec::new();
    }
    let part = |a: usize, b: usize| !lower[a.min(b)..a.max(b)].contains([';', '.', ':']);
    let second: Vec<&Mention> = own
        .iter()
        .filter(|m| {
            back.iter().any(|&e| {
                m.bytes.end <= e
                    && e - m.bytes.end <= SET_ASIDE_REACH
                    && only_listed(&lower, m.bytes.end..e, own)
            }) || forward.iter().any(|&e| {
                m.bytes.start >= e
                    && m.bytes.start - e <= SET_ASIDE_REACH
                    && part(e, m.bytes.start)
                    && !lower[e..m.bytes.start]
                        .split(|c: char| !c.is_alphanumeric())
                        .any(|w| CONTRASTS.contains(&w))
            })
        })
        .collect();
    let first_named = own.iter().any(|m| {
        !second.iter().any(|s| s.key == m.key)
            && second.iter().any(|s| part(m.bytes.start, s.bytes.start))
    });
    if !first_named {
        return Vec::new();
    }
    second.into_iter().map(|m| m.key.clone()).collect()
}

/// Whether the bytes `gap` of `lower` hold only other names of `own` joined by "or",
/// "and" and commas: the names listed right before a marker ("Y or Z as alternatives").
fn only_listed(lower: &str, gap: Range<usize>, own: &[Mention]) -> bool {
    let mut rest = lower[gap.clone()].to_string();
    for o in own {
        if o.bytes.start >= gap.start && o.bytes.end <= gap.end {
            let (a, b) = (o.bytes.start - gap.start, o.bytes.end - gap.start);
            rest.replace_range(a..b, &" ".repeat(b - a));
        }
    }
    rest.split(|c: char| c.is_whitespace() || c == ',')
        .all(|w| matches!(w, "" | "or" | "and"))
}

/// The words of `lower` (no punctuation) with their bytes.
fn word_spans(lower: &str) -> Vec<(&str, Range<usize>)> {
    words(lower)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| (w.text(lower), w.span.clone()))
        .collect()
}

/// Nouns that name a second choice.
const ALTERNATIVE_WORDS: &[&str] = &["alternative", "second-line", "second-choice"];

/// What makes a first choice unusable, so that what is named for that case is a
/// fallback (see [`fallbacks`]).
const UNAVAILABLE: &[&str] = &[
    "unavailable",
    "not available",
    "not tolerated",
    "cannot be tolerated",
    "cannot be used",
    "contraindicated",
    "unsuitable",
    "not suitable",
    "inappropriate",
    "not appropriate",
    "ineffective",
    "not effective",
];

/// Words that open the condition a population has ("people with …", "those who have
/// …").
const CONDITION_OPENERS: &[&str] = &["with", "having", "have", "has"];

/// Longest condition phrase, in words.
const MAX_CONDITION_WORDS: usize = 4;

/// Whether a statement names a population by a condition the patient's own words
/// describe, which the patient lexicon does not know ("PLHIV with tuberculous
/// meningitis" for a patient with tuberculous meningitis): the phrase after "with" (or
/// "who have"), up to a punctuation mark or a function word, has content words and all
/// of them are the patient's.
fn names_condition_of(text: &str, patient: &Patient, patient_words: &BTreeSet<String>) -> bool {
    let tokens = words(text);
    let warnings = warning_clauses(text);
    tokens.iter().enumerate().any(|(i, w)| {
        let opener = w.text(text).to_lowercase();
        let takes = MEDICINE_OPENERS.contains(&opener.as_str());
        // In a warning, "in" names whom it is for: "contraindicated in myasthenia
        // gravis" (elsewhere "in diabetes" is as often the setting as the population).
        let warns_in = opener == "in"
            && warnings
                .iter()
                .any(|c| c.start <= w.span.start && w.span.end <= c.end);
        if !w.is_word || !(takes || warns_in || CONDITION_OPENERS.contains(&opener.as_str())) {
            return false;
        }
        // "who have had a myocardial infarction": past the perfect's participle and an
        // article.
        let written: Vec<String> = tokens[i + 1..]
            .iter()
            .take_while(|t| t.is_word)
            .map(|t| t.text(text).to_lowercase())
            .skip_while(|t| {
                matches!(opener.as_str(), "have" | "has" | "having")
                    && ["had", "been", "a", "an", "the"].contains(&t.as_str())
            })
            .take_while(|t| !is_function_word(t))
            .take(MAX_CONDITION_WORDS)
            .collect();
        let phrase: Vec<String> = written.iter().flat_map(|w| stems(w)).collect();
        // "patients with achalasia", "patients taking lithium": a condition or a
        // medicine in the patient's own words.
        if !phrase.is_empty() && phrase.iter().all(|w| patient_words.contains(w)) {
            return true;
        }
        // "patients taking beta-blocking medications": a kind of the patient's
        // medicines, named whole, makes most of the phrase.
        let parts: Vec<String> = written
            .iter()
            .flat_map(|w| w.split('-').map(str::to_string).collect::<Vec<_>>())
            .filter(|w| !w.is_empty())
            .collect();
        let covered = patient.kind_words(&parts).len();
        takes && covered >= 1 && 3 * covered >= 2 * parts.len()
    })
}

/// The drug a statement opens with (its first or second word), by its canonical name.
fn drug_subject(language: &Language, analysis: &Analysis, text: &str) -> Option<String> {
    let words: Vec<&str> = analysis.words.iter().map(|w| w.text(text)).collect();
    language
        .drugs
        .mentions(&words)
        .into_iter()
        .find(|(range, _)| range.start <= 1)
        .map(|(_, drug)| normalize_term(drug.canonical))
}

/// The one drug whose amount a question asks for: the drug its asking sentence names
/// before any subordinate clause ("… while she takes voriconazole"), or the only one it
/// names.
fn dose_owner(language: &Language, question: &str) -> Option<String> {
    let asking = asked::asking(question)?;
    let lower = crate::text::lower_words(asking);
    let main = lower
        .iter()
        .position(|w| SUBORDINATORS.contains(&w.as_str()))
        .unwrap_or(lower.len());
    let only = |words: &[String]| -> Option<String> {
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let drugs: BTreeSet<String> = drugs_named(language, &words).into_iter().collect();
        (drugs.len() == 1)
            .then(|| drugs.into_iter().next())
            .flatten()
    };
    only(&lower[..main]).or_else(|| only(&lower))
}

/// What a question asks when its wh-phrase runs straight into its verb, which the
/// tagger tells: "What threshold defines stage 1 hypertension …?" asks what "What
/// threshold?" asks. `None` when no verb follows the wh-word's nouns at once.
fn by_tags(language: &Language, question: &str) -> Option<Asked> {
    let asking = asked::asking(question)?;
    let analysis = language.analyse(asking);
    let lower = analysis.lower(asking);
    let wh = lower.iter().position(|w| w == "which" || w == "what")?;
    // "Which" and "what" that ask are determiners of the noun after them, though the
    // tagger, trained on relative clauses ("… which reduce …"), may take that noun
    // for a verb ("Which antibiotic treats …").
    let noun_after_wh = analysis
        .tags
        .get(wh + 1)
        .is_some_and(|t| matches!(t, Tag::Vb | Tag::Vbp))
        && !Class::Auxiliary.has(lower.get(wh + 1).map_or("", String::as_str));
    let mut k = wh + 1 + usize::from(noun_after_wh);
    while analysis
        .tags
        .get(k)
        .is_some_and(|t| t.is_noun() || t.is_adjective() || *t == Tag::Cd)
    {
        k += 1;
    }
    let verb = analysis.tags.get(k)?;
    // Only a verb in the third person ("defines"): the tagger takes a noun it does not
    // know for a verb of another form ("Which rabies vaccine should …").
    if k == wh + 1
        || *verb != Tag::Vbz
        || !lower[k].ends_with('s')
        || Class::Auxiliary.has(&lower[k])
    {
        return None;
    }
    let end = analysis.words.get(k)?.span.start;
    Asked::of(&format!("{}?", asking.get(..end)?.trim_end()))
}

/// Whether the question's wh-phrase names one drug, not a class ("What acyclovir
/// regimen …", not "Which vasodilator regimen …").
fn names_one_drug(language: &Language, question: &str) -> bool {
    let phrase = asked::type_words(question);
    let words: Vec<&str> = phrase.iter().map(String::as_str).collect();
    language
        .drugs
        .mentions(&words)
        .iter()
        .any(|(_, d)| !d.is_class())
}

/// The drugs (not classes) `words` name, in order, by their generic names in lower case.
fn drugs_named(language: &Language, words: &[&str]) -> Vec<String> {
    language
        .drugs
        .mentions(words)
        .into_iter()
        .filter(|(_, d)| !d.is_class())
        .map(|(_, d)| d.canonical.to_lowercase())
        .collect()
}

/// Words that open a subordinate clause.
const SUBORDINATORS: &[&str] = &[
    "while", "when", "if", "because", "after", "before", "since", "unless", "although", "whilst",
    "once",
];

/// The drug an amount at byte `at` of a statement is given for: the last drug the
/// statement names before it, else the last its lead-in names, else the drug its
/// innermost heading is the name of. Headings that say more are not read: a table's
/// row may name one drug of an interaction and its column the other ("Lopinavir /
/// ritonavir" | "Rifabutin dose change" | "↓ to 150 mg once daily").
fn drug_before(
    language: &Language,
    statement: &Statement,
    analysis: &Analysis,
    at: usize,
) -> Option<String> {
    // The drugs named before `end`, less those a drug before them is used with: in
    // "use of edoxaban with ciclosporin, dronedarone or ketoconazole requires dose
    // reduction to 30 mg" the amount is edoxaban's.
    let last_drug = |text: &str, words: &[crate::text::Word], end: usize| -> Option<String> {
        let before: Vec<&str> = words
            .iter()
            .take_while(|w| w.span.end <= end)
            .map(|w| w.text(text))
            .collect();
        let with = before
            .iter()
            .rposition(|w| COMPANIONS.contains(&w.to_lowercase().as_str()));
        // "… with atorvastatin is necessary, the maintenance dose of atorvastatin should
        // not exceed 20 mg": a dose said to be a drug's, after the companions, is its.
        let dose_of = before.windows(3).enumerate().rev().find_map(|(i, w)| {
            let dose = matches!(w[0].to_lowercase().as_str(), "dose" | "doses" | "dosage");
            (dose && w[1].eq_ignore_ascii_case("of") && with.is_none_or(|k| k < i))
                .then(|| drugs_named(language, &before[i + 2..]).into_iter().next())
                .flatten()
        });
        if dose_of.is_some() {
            return dose_of;
        }
        if let Some(with) = with {
            if let Some(user) = drugs_named(language, &before[..with]).pop() {
                if !drugs_named(language, &before[with + 1..]).is_empty() {
                    return Some(user);
                }
            }
        }
        drugs_named(language, &before).pop()
    };
    // In a table with a header row, a cell's amount is for the drug its cell names
    // before it, else the drug its column's name names ("Safe colchicine use"), else
    // the drug its row is labelled with; not a drug another cell names.
    if let Some((i, column)) = statement.column_at(at) {
        let drugs_in = |text: &str| {
            let words = words(text);
            let words: Vec<&str> = words.iter().map(|w| w.text(text)).collect();
            drugs_named(language, &words)
        };
        let own = statement
            .text
            .get(column.range.start..at)
            .and_then(|t| drugs_in(t).pop());
        // A row's label names its drug first, then its brands ("eszopiclone
        // (Lunesta®, generics)").
        let label = match statement.columns.first() {
            Some(first) if i > 0 => statement
                .text
                .get(first.range.clone())
                .and_then(|t| drugs_in(t).into_iter().next()),
            _ => None,
        };
        return own.or_else(|| drugs_in(&column.name).pop()).or(label);
    }
    // A drug that names whom the amount is for is not the amount's ("Patients taking
    // ciprofloxacin: 0.5 mg once daily should not be exceeded").
    let lower = analysis.lower(&statement.text);
    let own_words: Vec<crate::text::Word> = analysis
        .words
        .iter()
        .enumerate()
        .filter(|(i, _)| !in_population(&lower, &analysis.tags, *i))
        .map(|(_, w)| w.clone())
        .collect();
    drug_of_amount(language, &statement.text, analysis, at)
        .or_else(|| last_drug(&statement.text, &own_words, at))
        .or_else(|| {
            let lead = statement.lead.as_deref()?;
            last_drug(lead, &words(lead), lead.len())
        })
        .or_else(|| {
            // A heading that is a drug's name alone (a table row's label, "Efavirenz")
            // says whose amounts its section gives.
            let heading = statement.headings.last()?;
            language
                .drugs
                .lookup(heading)
                .filter(|d| !d.is_class())
                .map(|d| d.canonical.to_lowercase())
        })
}

/// Words after which the drugs named are used with another, not given in their own
/// amount.
const COMPANIONS: &[&str] = &["with", "plus", "alongside"];

/// The drug an amount at byte `at` is said to be of, right after it: "the 5 mg dose of
/// rizatriptan", "2 tablets of ibuprofen" — at most a unit and a noun of dosing between
/// the number and the "of".
fn drug_of_amount(
    language: &Language,
    text: &str,
    analysis: &Analysis,
    at: usize,
) -> Option<String> {
    let tokens: Vec<&str> = analysis.words.iter().map(|w| w.text(text)).collect();
    let start = word_at(analysis, at)?;
    let of = (start + 1..(start + 4).min(tokens.len()))
        .find(|&j| tokens[j].eq_ignore_ascii_case("of"))?;
    if tokens[start + 1..of]
        .iter()
        .any(|t| !t.chars().all(char::is_alphabetic))
    {
        return None;
    }
    language
        .drugs
        .mentions(&tokens[of + 1..])
        .into_iter()
        .find(|(r, d)| r.start == 0 && !d.is_class())
        .map(|(_, d)| d.canonical.to_lowercase())
}

/// Words after which a population is named by what it takes ("patients taking
/// anticoagulants", "those on beta blockers").
const MEDICINE_OPENERS: &[&str] = &[
    "taking",
    "take",
    "takes",
    "on",
    "receiving",
    "prescribed",
    "using",
    "uses",
];

/// Word pairs that open examples of the noun before them ("such as", "for example").
const EXAMPLE_OPENERS: &[(&str, &str)] = &[("such", "as"), ("for", "example"), ("e", ".")];

/// Whether the word at `at` of a statement (lower-case `tokens`, their `tags`) is in
/// the medicine that names a population: after a noun for people and "taking",
/// "receiving" or "on", in the same phrase ("patients taking MAOIs such as phenelzine
/// or tranylcypromine"). A comma or a finite verb ends the phrase: "In patients taking
/// warfarin, apixaban is preferred" names apixaban for them.
fn in_population(tokens: &[String], tags: &[Tag], at: usize) -> bool {
    // "patients taking moderate CYP3A4 inhibitors (e.g. diltiazem, verapamil)": the
    // bracket gives examples of the medicine before it, and is in its phrase.
    let open = (0..at)
        .rev()
        .take_while(|&k| tokens[k] != ")")
        .find(|&k| tokens[k] == "(");
    if let Some(open) = open {
        // A bracket with a clause of its own ("(fluconazole also raises the INR)")
        // says something else.
        let clause = (open + 1..tokens.len())
            .take_while(|&k| tokens[k] != ")")
            .any(|k| tags.get(k).is_some_and(|t| t.is_finite_verb()));
        if open > 0 && !clause && in_population(tokens, tags, open - 1) {
            return true;
        }
    }
    let mut k = at;
    while k > 0 && at - k < POPULATION_REACH {
        k -= 1;
        let word = tokens[k].as_str();
        // "…, such as probenecid": a comma before examples joins them to the phrase.
        let examples = word == ","
            && matches!(
                tokens.get(k + 1..(k + 3).min(tokens.len())),
                Some([a, b, ..]) if EXAMPLE_OPENERS.contains(&(a.as_str(), b.as_str()))
            );
        if examples {
            continue;
        }
        if matches!(word, "," | ";" | ":" | "." | "(" | ")")
            || tags.get(k).is_some_and(|t| t.is_finite_verb())
        {
            return false;
        }
        if matches!(word, "taking" | "receiving" | "on") {
            return k > 0 && is_people(&tokens[k - 1]);
        }
    }
    false
}

/// Most words between "taking" and a name in the medicine it gives ("taking
/// monoamine oxidase inhibitors such as phenelzine or tranylcypromine").
const POPULATION_REACH: usize = 12;

/// The condition written right after a value at bytes `value` of `text` that opens a
/// bracket or a part after a semicolon, as alternatives to a usual value are set out:
/// "(every 12 hours if CrCl is 26 to 50 mL/min; 500 mg every 12 hours if …)", with
/// whether the value opens such a part (`true`) or only a part after a comma or a
/// clause (`false`). In running prose, "if" and "when" qualify the clause, not the
/// value before them; a value after a comma, or one that people follow ("doxycycline
/// for adults"), has its own condition only in a list of such values ("1 g every 12
/// hours when it is 30-49 mL/min, 1 g every 24 hours when it is 10-29 mL/min"), which
/// the caller sees. The condition ends by `until`, where the next listed value begins.
fn condition_after(text: &str, value: Range<usize>, until: usize) -> Option<(&str, bool)> {
    let opener = text
        .get(..value.start)?
        .trim_end()
        .chars()
        .rev()
        .find(|c| matches!(c, '(' | ';' | ',' | '.' | ':'));
    let opens_part = opener.is_some_and(|c| matches!(c, '(' | ';'));
    let rest = text.get(value.end..until.max(value.end))?.trim_start();
    let lower = rest.to_lowercase();
    // … or "for" / "in" and the people it is for ("450 pg/mL for patients younger
    // than 50 years, 900 pg/mL for those aged 50–75 years", "in pregnant women"): "for
    // 5 days" is how long, "for prophylaxis" what for, "in 2 divided doses" how.
    let for_people = ["for ", "in "]
        .iter()
        .find_map(|p| lower.strip_prefix(p))
        .is_some_and(|after| {
            after
                .split_whitespace()
                .map(|w| w.trim_matches(|c: char| !c.is_alphanumeric() && c != '-'))
                .take(POPULATION_WORDS)
                .take_while(|w| {
                    !w.starts_with(|c: char| c.is_ascii_digit()) && !Class::Preposition.has(w)
                })
                .any(|w| w == "those" || is_people(w))
        });
    let opens = ["if ", "when "].iter().any(|o| lower.starts_with(o)) || for_people;
    // A colon opens a list as a comma continues one ("cut-points: 500 pg/mL for …"), and
    // people after the first value of a clause open one ("X for adults, Y for …").
    let listing = matches!(opener, Some(',' | ':')) || (for_people && opener != Some('.'));
    if !opens || !(opens_part || listing) {
        return None;
    }
    let stop = rest
        .char_indices()
        .find(|&(i, c)| {
            matches!(c, ';' | ')' | ',')
                || (c == '.' && rest[i + 1..].chars().next().is_none_or(char::is_whitespace))
        })
        .map_or(rest.len(), |(i, _)| i);
    // … and ends where "and" or "or" brings in the next value ("… younger than 60
    // years and 1200 pg/mL for those …").
    let stop = words(&rest[..stop])
        .windows(2)
        .find(|p| {
            matches!(p[0].text(rest).to_lowercase().as_str(), "and" | "or")
                && p[1].text(rest).starts_with(|c: char| c.is_ascii_digit())
        })
        .map_or(stop, |p| p[0].span.start);
    // … without the "and" or "or" that joins the next value on.
    let condition = rest[..stop].trim_end();
    let condition = match condition.rsplit_once(char::is_whitespace) {
        Some((before, last))
            if last.eq_ignore_ascii_case("and") || last.eq_ignore_ascii_case("or") =>
        {
            before
        }
        _ => condition,
    };
    Some((condition.trim(), opens_part))
}

/// Most words before the people a "for …" or "in …" after a value names ("for
/// non-pregnant adults", "in women of childbearing potential").
const POPULATION_WORDS: usize = 3;

/// The labels a value at byte `at` of `text` is written under, when the text sets
/// values out as "label: value" parts between semicolons: its own part's label and the
/// first part's ("≥18yrs: Herpes zoster: 1g every 8hrs; CrCl 10–29mL/min: 1g every
/// 24hrs" → "CrCl 10–29mL/min" and "≥18yrs: Herpes zoster"). `None` when its own part
/// has no label.
fn labels_of(text: &str, at: usize) -> Option<Vec<&str>> {
    let start = text[..at].rfind(';').map_or(0, |i| i + 1);
    let mut labels = Vec::new();
    match text[start..at].rfind(':') {
        // A colon can open a list of "population, value" parts: "Dosing by age:
        // infants younger than 6 months, 50,000 IU; …" gives the first value to the
        // population after the colon, under the title before it.
        Some(c) => {
            if let Some(lead) = fronted_condition(&text[start + c + 1..at]) {
                labels.push(lead);
            }
            labels.push(text[start..start + c].trim());
        }
        None => labels.push(fronted_condition(&text[start..at])?),
    }
    let own = labels[0];
    if start > 0 {
        let first = text.split(';').next().unwrap_or("");
        if let Some(c) = first.rfind(':') {
            // The first part's labels scope the later parts, except one that bounds
            // what their own labels bound: "AF: CrCl >50 mL/min: 20 mg; CrCl 15–50
            // mL/min: 15 mg" gives the second its own clearance, under "AF" only.
            let bounded = |label: &str| {
                crate::patient::measure::conditions(label)
                    .iter()
                    .map(|m| m.quantity)
                    .collect::<Vec<_>>()
            };
            let own_bounds = bounded(own);
            labels.extend(
                first[..c]
                    .split(':')
                    .map(str::trim)
                    .filter(|l| !bounded(l).iter().any(|q| own_bounds.contains(q))),
            );
        }
    }
    Some(labels.into_iter().filter(|l| !l.is_empty()).collect())
}

/// The condition a part of a sentence fronts before its first comma, which scopes
/// what the rest of the part says: "For creatinine clearance above 30 and up to 60
/// mL/min, the dose is 30 mg twice daily", "In children, …", "above 10 and up to 30
/// mL/min, it is 30 mg once daily" (a later part that bounds the same quantity). A
/// leading phrase is one when it opens with a preposition or conjunction of condition
/// or bounds a quantity.
fn fronted_condition(part: &str) -> Option<&str> {
    let comma = part.find(',')?;
    let lead = part[..comma].trim();
    let opener = lead
        .split_whitespace()
        .next()
        .map(|w| w.to_lowercase())
        .is_some_and(|w| FRONTED_CONDITIONS.contains(&w.as_str()));
    let bounds = !crate::patient::measure::conditions(lead).is_empty();
    (opener || bounds).then_some(lead)
}

/// The run-in heading a paragraph opens with: the words before its first colon
/// ("Dose adjustment, creatinine clearance below 30 mL/min: enoxaparin accumulates …
/// Treatment dose: 1 mg/kg once daily"). Like a heading on a line of its own, it scopes
/// the paragraph it opens. A label is short: a colon after a whole clause introduces
/// a list or an explanation, not a heading.
fn run_in_label(text: &str) -> Option<&str> {
    const LABEL_WORDS: usize = 10;
    let colon = text.find(':')?;
    let label = text[..colon].trim();
    let words = label.split_whitespace().count();
    (1..=LABEL_WORDS).contains(&words).then_some(label)
}

/// The truth for the patient of a label that is only a bound ("30-44", "Below 30", "60
/// or more"), read as a bound on the quantity a heading in `context` names ("eGFR" in
/// "Metformin in chronic kidney disease (eGFR in mL/min/1.73 m2)"); `None` when the
/// label names more than a bound, or no word of the headings makes it decide.
fn bound_of_heading<'a>(
    patient: &Patient,
    label: &str,
    context: impl Iterator<Item = &'a str>,
) -> Option<Truth> {
    let words = crate::text::word_texts(label);
    let bare = !words.is_empty()
        && words.iter().any(|w| w.chars().any(|c| c.is_ascii_digit()))
        && words.iter().all(|w| {
            w.chars().any(|c| c.is_ascii_digit())
                || crate::patient::measure::is_measure_word(&w.to_lowercase())
                || !w.chars().any(char::is_alphanumeric)
        });
    if !bare {
        return None;
    }
    context
        .flat_map(crate::text::word_texts)
        .find_map(|w| patient.within_bounds(&format!("{w} {label}")))
}

/// The spans of `found` that `keep` accepts, when `filtering`; all of them otherwise.
fn keep_where(
    found: Vec<(Range<usize>, Typed)>,
    filtering: bool,
    keep: impl Fn(&Range<usize>) -> bool,
) -> Vec<(Range<usize>, Typed)> {
    if !filtering {
        return found;
    }
    found.into_iter().filter(|(r, _)| keep(r)).collect()
}

/// Words that open a phrase stating for whom, or when, the rest of its clause holds.
const FRONTED_CONDITIONS: &[&str] = &["for", "in", "if", "when", "among", "with", "during"];

/// The options a question offers to choose from, by candidate key: two or more
/// products it names that are known to be of the asked kind, listed together ("two
/// hepatitis B vaccines: the 2-dose Heplisav-B, which it uses for other adults, and
/// Engerix-B"); none when it names them apart ("Cefotaxime is unavailable, and the team
/// proposes ceftriaxone").
fn offered(language: &Language, asked: &Asked, question: &str) -> BTreeSet<String> {
    let Asked::Thing { head, .. } = asked else {
        return BTreeSet::new();
    };
    let analysis = language.analyse(question);
    let tokens = analysis.lower(question);
    let mut named: Vec<Range<usize>> = asked::spans(asked, language, question, &analysis)
        .into_iter()
        .filter(|(range, typed)| {
            let text = analysis.text(question, range.clone());
            *typed == Typed::Named
                && language
                    .drugs
                    .lookup(text)
                    .is_some_and(|d| match head.as_str() {
                        "vaccine" => d.is_vaccine(),
                        _ => asked::in_class(language, d.canonical, head) == Some(true),
                    })
        })
        .map(|(range, _)| range)
        .collect();
    named.sort_by_key(|r| r.start);
    // Listed together: only commas, "and", "or" and determiners between them, once a
    // relative clause (", which …,") is set aside.
    let listed = |between: &[String]| {
        let mut relative = false;
        between.iter().all(|t| match t.as_str() {
            "which" | "who" | "that" if !relative => {
                relative = true;
                true
            }
            "," => {
                relative = false;
                true
            }
            _ if relative => true,
            t => matches!(t, "and" | "or" | "either" | "the" | "a" | "an"),
        })
    };
    let together = named.len() >= 2
        && named
            .windows(2)
            .all(|w| w[0].end <= w[1].start && listed(&tokens[w[0].end..w[1].start]));
    if !together {
        return BTreeSet::new();
    }
    named
        .into_iter()
        .map(|range| candidate_key(language, asked, &analysis, question, range).0)
        .collect()
}

/// Whether `name` (bytes of `text`) is in the brackets that close where the clause
/// `clause` opens: "AV nodal blocking agents (metoprolol, diltiazem, digoxin) should be
/// avoided" warns against the members it lists as much as against their kind.
fn bracketed_before(text: &str, clause: Range<usize>, name: Range<usize>) -> bool {
    let Some(rest) = text.get(clause.start..) else {
        return false;
    };
    let Some(before) = text.get(..clause.start) else {
        return false;
    };
    rest.starts_with(')')
        && before.rfind('(').is_some_and(|open| {
            open < name.start && name.end <= clause.start && !before[open..].contains(')')
        })
}

/// Whether a clause refers to several things named before it in its sentence: "either
/// of these", "these products", "both", "them".
fn refers_to_named(clause: &str) -> bool {
    let ws = crate::text::lower_words(clause);
    ws.iter().enumerate().any(|(i, w)| {
        let next = ws.get(i + 1).map(String::as_str);
        match w.as_str() {
            "them" => true,
            "either" | "both" | "neither" => next.is_none_or(|n| n == "of" || n == "these"),
            // "these products", not "these patients": a population is another matter.
            "these" | "those" => next.is_some_and(|n| !is_people(n)),
            _ => false,
        }
    })
}

/// Whether a statement names people ("patients", "children", "those"): a population
/// of its own.
fn names_people(text: &str) -> bool {
    crate::text::lower_words(text).iter().any(|w| is_people(w))
}

/// Whether a lower-case word names people, singular or plural ("patients", "those").
/// What a population phrase says its people cannot take: the names after
/// "contraindication(s) to" or "intolerance to/of", up to the end of the phrase
/// ("patients with contraindications to both macrolides and fluoroquinolones" →
/// macrolides, fluoroquinolones). `tokens` are lower-cased.
fn excluded_for(language: &Language, tokens: &[String]) -> Vec<String> {
    let Some(at) = tokens.windows(2).position(|w| {
        matches!(
            w[0].as_str(),
            "contraindication" | "contraindications" | "intolerance"
        ) && matches!(w[1].as_str(), "to" | "of")
    }) else {
        return Vec::new();
    };
    let mut names = Vec::new();
    let mut current: Vec<&str> = Vec::new();
    for t in &tokens[at + 2..] {
        let word = t.as_str();
        let ends = !word.chars().any(char::is_alphanumeric) || Class::Preposition.has(word);
        if ends || matches!(word, "and" | "or" | "both" | "either") {
            if !current.is_empty() {
                names.push(current.join(" "));
                current.clear();
            }
            if ends {
                break;
            }
            continue;
        }
        current.push(word);
    }
    if !current.is_empty() {
        names.push(current.join(" "));
    }
    // Each must name a drug or a class of them.
    names.retain(|n| {
        let singular = crate::text::singular(n);
        language.drugs.lookup(n).is_some()
            || language.drugs.lookup(&singular).is_some()
            || language.drugs.is_class_noun(&asked::stem(n))
    });
    names
}

/// Whether a statement speaks of some members of a population ("in some people",
/// "some elderly patients"): a quantifier before a noun for people.
fn names_some_of(tokens: &[String]) -> bool {
    let words: Vec<&str> = tokens.iter().map(String::as_str).collect();
    lexicon::names_some_of_people(&words)
}

/// A value's word range `r` of `tokens` (lower case) with the bound written before it
/// ("less than 8.0%", "at least 90 mL/min"), where there is one.
fn with_bound(tokens: &[String], r: Range<usize>) -> Range<usize> {
    BOUNDS
        .iter()
        .find(|b| {
            r.start >= b.len()
                && tokens[r.start - b.len()..r.start]
                    .iter()
                    .zip(b.iter())
                    .all(|(t, w)| t == w)
        })
        .map_or(r.clone(), |b| r.start - b.len()..r.end)
}

/// Words that bound a value from before it.
const BOUNDS: &[&[&str]] = &[
    &["less", "than"],
    &["lower", "than"],
    &["no", "more", "than"],
    &["greater", "than"],
    &["more", "than"],
    &["higher", "than"],
    &["at", "least"],
    &["at", "most"],
    &["up", "to"],
    &["below"],
    &["under"],
    &["above"],
    &["over"],
    &["<"],
    &[">"],
    &["≤"],
    &["≥"],
];

/// The people a statement opens with as its subject, up to its first finite verb
/// ("Older adults with multiple chronic illnesses … have limited time …" → "Older
/// adults with multiple chronic illnesses …"), when its subject's head is a person.
fn people_subject<'a>(text: &'a str, analysis: &Analysis) -> Option<&'a str> {
    let verb = analysis
        .words
        .iter()
        .zip(&analysis.tags)
        .position(|(w, t)| w.is_word && t.is_finite_verb())?;
    let first = analysis.phrases.first()?;
    let head = first.core.end.checked_sub(1)?;
    let opens = first.range.start == 0 && head < verb;
    let person = analysis
        .words
        .get(head)
        .is_some_and(|w| is_people(&w.text(text).to_lowercase()));
    (opens && person).then(|| text[..analysis.words[verb].span.start].trim())
}

/// The people a sentence's subject names after the condition it fronts: "For acute
/// otitis media, adults take 500 mg …" → "adults". `None` without a fronted condition
/// or when the subject names no people.
fn fronted_people<'a>(text: &'a str, analysis: &Analysis) -> Option<&'a str> {
    let lead = fronted_condition(text)?;
    let comma = text.find(lead)? + lead.len();
    let first = analysis
        .words
        .iter()
        .position(|w| w.is_word && w.span.start > comma)?;
    let verb = analysis
        .words
        .iter()
        .zip(&analysis.tags)
        .skip(first)
        .position(|(w, t)| w.is_word && t.is_finite_verb())?
        + first;
    let phrase = analysis.phrases.iter().find(|p| p.range.start == first)?;
    let head = phrase.core.end.checked_sub(1)?;
    let person = analysis
        .words
        .get(head)
        .is_some_and(|w| is_people(&w.text(text).to_lowercase()));
    (person && head < verb)
        .then(|| text[analysis.words[first].span.start..analysis.words[verb].span.start].trim())
}

/// Whether a lead-in defines people by the items under it: it ends in the word that
/// the items complete as conditions or members ("You may have a higher chance if:",
/// "Groups at increased risk include:"), not in what it says of them ("Who should not
/// be vaccinated with the nasal spray?").
fn defines(lead: &str) -> bool {
    crate::text::lower_words(lead)
        .last()
        .is_some_and(|w| matches!(w.as_str(), "if" | "when" | "include" | "includes"))
}

/// Fewest content words a statement shares with a later lead-in for it to speak of the
/// people the lead-in defines ("higher", "chance").
const DEFINED_BY: usize = 2;

/// The stems of a text's words that say something: no function words, auxiliaries or
/// nouns for people.
fn content_stems(text: &str) -> BTreeSet<String> {
    crate::text::lower_words(text)
        .iter()
        .filter(|w| {
            !is_function_word(w)
                && !Class::Auxiliary.has(w)
                && !is_people(w)
                && !Class::Pronoun.has(w)
                && w.chars().any(char::is_alphabetic)
        })
        .flat_map(|w| stems(w))
        .collect()
}

/// The word of `analysis` that starts at byte `start`, by its index.
fn word_at(analysis: &Analysis, start: usize) -> Option<usize> {
    analysis.words.iter().position(|w| w.span.start == start)
}

/// Whether `text` names a drug whose canonical name (lower case) is in `drugs`.
fn names_any(language: &Language, text: &str, drugs: &BTreeSet<String>) -> bool {
    language
        .drugs
        .generics(&crate::text::word_texts(text))
        .iter()
        .any(|(_, d)| drugs.contains(&d.to_lowercase()))
}

fn is_people(word: &str) -> bool {
    [Class::Person, Class::Group]
        .iter()
        .any(|c| c.has(word) || c.has(&crate::text::singular(word)))
}

/// The drugs a description says the patient takes, by canonical name in lower case:
/// those named within a few words after "takes", "taking", "on", "receiving" or
/// "using" ("who takes clopidogrel after a coronary stent", "on warfarin and
/// amiodarone"), and after a bare "take" where `bare` (a question's "should she take"
/// asks, it does not describe).
fn taken_by_patient(language: &Language, description: &str, bare: bool) -> BTreeSet<String> {
    let words = crate::text::word_texts(description);
    let mut taken = BTreeSet::new();
    // Where the last drug taken ends: one joined to it is taken with it ("on darunavir
    // boosted with ritonavir").
    let mut last_end: Option<usize> = None;
    for (range, drug) in language.drugs.generics(&words) {
        // "a rash after taking penicillin", "since stopping …": an event of the
        // past, not a medicine taken now.
        // The verb of taking reaches no further than its own clause: in "who takes
        // probenecid is starting baricitinib" baricitinib is what "is starting" takes.
        let opened = (range.start.saturating_sub(TAKEN_REACH)..range.start).any(|k| {
            let opener = words[k].to_lowercase();
            MEDICINE_OPENERS.contains(&opener.as_str())
                && (bare || opener != "take")
                && !(k > 0 && PAST_EVENT.contains(&words[k - 1].to_lowercase().as_str()))
                && !words[k + 1..range.start]
                    .iter()
                    .any(|w| Class::Auxiliary.has(&w.to_lowercase()))
        });
        let joined = last_end.is_some_and(|end| {
            end <= range.start
                && range.start - end <= 2
                && words[end..range.start]
                    .iter()
                    .all(|w| JOINING.contains(&w.to_lowercase().as_str()))
        });
        if opened || joined {
            taken.insert(drug.to_lowercase());
            last_end = Some(range.end);
        }
    }
    taken
}

/// Words that join a drug to one taken before it, as taken with it ("warfarin and
/// amiodarone", "darunavir boosted with ritonavir", "aspirin plus clopidogrel").
const JOINING: &[&str] = &["and", "or", "plus", "with", "boosted"];

/// Words before "taking" that make it an event of the past (see [`taken_by_patient`]).
const PAST_EVENT: &[&str] = &["after", "following", "since"];

/// Most words between a verb of taking and the drug it takes ("takes low-dose
/// aspirin", "on long-term oral warfarin").
const TAKEN_REACH: usize = 4;

/// Whether a statement (lower-case `tokens`, their `tags`) points back to things the
/// one before it named: "these", "those" or "such" before a plural noun ("these
/// products", "such antacids").
fn points_back(tokens: &[String], tags: &[Tag]) -> bool {
    tokens.iter().enumerate().any(|(k, t)| {
        matches!(t.as_str(), "these" | "those" | "such")
            && (k + 1..(k + 3).min(tokens.len()))
                .find(|&n| tags.get(n).is_some_and(|t| t.is_noun()))
                .is_some_and(|n| matches!(tags[n], Tag::Nns | Tag::Nnps))
    })
}

/// The population a warning names as whom it holds for: the phrase after "is
/// contraindicated in", "should be avoided in", "not recommended for" … up to the end of
/// its clause ("Mirabegron is contraindicated in severe uncontrolled hypertension
/// (systolic …)" → "severe uncontrolled hypertension"). None where the phrase points
/// back ("in these patients"), names people only ("in patients"), or names a use with
/// another medicine ("in combination with").
fn warned_population(text: &str) -> Option<&str> {
    let ws = words(text);
    let lower: Vec<String> = ws.iter().map(|w| w.text(text).to_lowercase()).collect();
    let at = (0..lower.len().saturating_sub(1)).find(|&k| {
        let warns = match lower[k].as_str() {
            "contraindicated" | "avoid" | "avoided" | "unsuitable" => true,
            // "not recommended for", "should not be used in": denied, they warn.
            "recommended" | "used" | "given" | "administered" | "suitable" => {
                lower[k.saturating_sub(3)..k].iter().any(|w| w == "not")
            }
            _ => false,
        };
        warns && matches!(lower[k + 1].as_str(), "in" | "for" | "during")
    })?;
    let start = ws.get(at + 2)?.span.start;
    let rest = &text[start..];
    let end = rest
        .find([',', ';', ':', '(', ')', '.', '–', '—'])
        .unwrap_or(rest.len());
    // … or up to a conjunction that opens a clause of its own ("in MG as it impairs
    // …"); "and" and "or" may join conditions.
    let end = words(&rest[..end])
        .iter()
        .find(|w| {
            let t = w.text(rest).to_lowercase();
            Class::Conjunction.has(&t) && !matches!(t.as_str(), "and" | "or")
        })
        .map_or(end, |w| w.span.start);
    let phrase = rest[..end].trim();
    let tokens = crate::text::lower_words(phrase);
    let interaction = tokens.first().is_some_and(|w| {
        matches!(
            w.as_str(),
            "combination" | "conjunction" | "addition" | "use"
        )
    });
    let own = tokens
        .iter()
        .any(|w| !is_people(w) && !is_function_word(w) && !matches!(w.as_str(), "with" | "who"));
    (!interaction
        && own
        && !refers_to_population(phrase)
        && !tokens
            .iter()
            .any(|w| matches!(w.as_str(), "these" | "such" | "this" | "those")))
    .then_some(phrase)
}

/// Whether a statement speaks of the population of the one before ("in these
/// situations", "such patients"), or gives what to use for them in place of what that
/// one spoke of ("Use low-molecular-weight heparin instead": "instead" with no "of"
/// after it points back).
fn refers_to_population(text: &str) -> bool {
    let ws = crate::text::lower_words(text);
    let instead = ws
        .iter()
        .enumerate()
        .any(|(k, w)| w == "instead" && ws.get(k + 1).is_none_or(|n| n != "of"));
    // "these patients", and with one word between: "this age group".
    instead
        || ws.windows(3).any(|p| {
            matches!(p[0].as_str(), "these" | "such" | "those" | "this")
                && (is_people(&p[1]) || Class::Group.has(&crate::text::singular(&p[2])))
        })
        || ws.len() >= 2 && {
            let p = &ws[ws.len() - 2..];
            matches!(p[0].as_str(), "these" | "such" | "those" | "this") && is_people(&p[1])
        }
}

/// Whether `text` names a level of risk of `levels` ("high-risk", "high risk"), as
/// an adjective before "risk".
fn names_risk(text: &str, levels: &[&str]) -> bool {
    let lower = crate::text::lower_words(text);
    let hyphened = lower.iter().any(|w| {
        w.strip_suffix("-risk")
            .is_some_and(|level| levels.contains(&level))
    });
    hyphened
        || lower
            .windows(2)
            .any(|p| p[1] == "risk" && levels.contains(&p[0].as_str()))
}

/// Levels of risk that set people apart from the usual (see [`names_risk`]).
const RAISED_RISK: &[&str] = &["high", "higher", "increased", "elevated"];

/// Levels of risk of the usual people, whom raised risk sets others apart from.
const ORDINARY_RISK: &[&str] = &["average", "low", "usual", "standard"];

/// The words of `text` as an analyte is named (see
/// [`crate::patient::measure::analyte_ending`]): split at every mark, hyphens too
/// ("NT-proBNP" → "nt", "probnp"), lower case and singular.
fn word_set(text: &str) -> BTreeSet<String> {
    text.split(|c: char| !c.is_alphanumeric())
        .filter(|w| !w.is_empty())
        .map(|w| crate::text::singular(&w.to_lowercase()))
        .collect()
}

/// A statement with its long form before every short form the documents define
/// (`written`: as written, with its long form), matched as a whole word and in the same
/// case ("myasthenia gravis (MG)"; "mg" stays milligrams).
fn spell_out(statement: &Statement, written: &[(String, String)]) -> Statement {
    let spell = |text: &str| spelled_text(text, written);
    Statement {
        text: spell(&statement.text),
        lead: statement.lead.as_deref().map(spell),
        headings: statement.headings.iter().map(|h| spell(h)).collect(),
        ..statement.clone()
    }
}

/// `text` with the long form before each short form `written` defines (see
/// [`spell_out`]).
fn spelled_text(text: &str, written: &[(String, String)]) -> String {
    let tokens = words(text);
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for t in &tokens {
        if let Some((short, long)) = written.iter().find(|(short, _)| short == t.text(text)) {
            out.push_str(&text[at..t.span.start]);
            out.push_str(long);
            out.push_str(" (");
            out.push_str(short);
            out.push(')');
            at = t.span.end;
        }
    }
    out.push_str(&text[at..]);
    out
}

/// Whether the patient belongs to the population a statement is about: the statement,
/// its lead-in or its section heading naming a condition the patient has (true), or
/// only conditions the patient does not have (false).
fn applies(patient: &Patient, statement: &Statement, patient_words: &BTreeSet<String>) -> Truth {
    let text = without_emphasis(&statement.text);
    let mut parts: Vec<&str> = vec![text.as_str()];
    if let Some(lead) = &statement.lead {
        parts.push(lead);
    }
    let titled = usize::from(statement.titled);
    parts.extend(statement.headings.iter().skip(titled).map(String::as_str));
    // A table's row that opens with a value ("30–50  250–750 every 12 hrs"), or a cell
    // under a line of its own that keys it ("40–49" over "3.3 mg"), gives the value for
    // the quantity a heading over it names ("Creatinine clearance (mL/min)").
    let opens_with_value = text
        .trim_start()
        .starts_with(|c: char| c.is_ascii_digit() || matches!(c, '<' | '>' | '≤' | '≥'));
    let key = match statement.headings.split_last() {
        Some((last, _)) if structure::is_value_key(last) => Some(last.as_str()),
        _ => opens_with_value.then_some(text.as_str()),
    };
    let keyed: Vec<String> = key.map_or_else(Vec::new, |key| {
        statement
            .headings
            .iter()
            .filter(|h| !structure::is_value_key(h))
            .map(|h| format!("{h} {key}"))
            .collect()
    });
    // The row's key, read for the quantity a heading names, decides for it over the
    // headings, which name the quantity (and so the patient's condition) for every row
    // alike.
    let decided: Vec<Truth> = keyed
        .iter()
        .filter_map(|k| patient.within_bounds(k))
        .collect();
    if decided.contains(&Truth::True) {
        return Truth::True;
    }
    if decided.contains(&Truth::False) {
        return Truth::False;
    }
    // A list item narrows its lead-in: "Offer X for these seizures in:" / "boys and
    // men" is not about a woman, whatever the lead-in says; and a statement narrows
    // its headings: "40–49 years 2.0 nanogram/mL" under "PSA thresholds" is not about a
    // man of 74.
    let own = applies_to(patient, &text, patient_words);
    if own == Truth::False {
        return Truth::False;
    }
    if own == Truth::True {
        return Truth::True;
    }
    let mut any_false = false;
    for part in parts.into_iter().skip(1) {
        match applies_to(patient, part, patient_words) {
            Truth::True => return Truth::True,
            Truth::False => any_false = true,
            Truth::Unknown => {}
        }
    }
    // A heading alone over the text ("Older adults (65 years and over)", as a section
    // after text or an excerpt's first line) says whom the text is for when it names a
    // population or condition the patient's description decides; naming only the
    // topic, as titles do ("Statins"), it says what the text is about.
    if let [heading] = statement.headings.as_slice() {
        if statement.titled && crate::patient::names_concept(heading) {
            match patient.evaluate(heading) {
                Truth::True
                    if !any_false
                        && patient.evaluate(&without_everyone(heading)) != Truth::Unknown =>
                {
                    return Truth::True;
                }
                Truth::False => any_false = true,
                _ => {}
            }
        }
    }
    if any_false {
        Truth::False
    } else {
        Truth::Unknown
    }
}

/// A text without what it singles out for emphasis: "first line in pregnancy,
/// especially for resistant hypertension in the third trimester" holds in all of
/// pregnancy; the part after "especially" (to the next comma, semicolon, dash or
/// bracket) names where it holds most, not where it holds only.
fn without_emphasis(text: &str) -> String {
    let lower = text.to_lowercase();
    let mut out = String::new();
    let mut at = 0;
    for w in words(&lower) {
        if w.span.start < at || !EMPHASIS.contains(&w.text(&lower)) {
            continue;
        }
        let rest = &lower[w.span.end..];
        let end = rest
            .find([',', ';', '(', ')', '—', '–'])
            .into_iter()
            .chain(rest.find(" - "))
            .min()
            .map_or(lower.len(), |e| w.span.end + e);
        if let (Some(before), true) = (text.get(at..w.span.start), text.is_char_boundary(end)) {
            out.push_str(before);
            at = end;
        }
    }
    out.push_str(text.get(at..).unwrap_or(""));
    out
}

/// Words that single out part of what a statement holds for.
const EMPHASIS: &[&str] = &["especially", "particularly", "notably"];

/// Whether the patient belongs to the population one text names: by the patient
/// lexicon, else by a condition in the patient's own words ([`names_condition_of`]).
fn applies_to(patient: &Patient, text: &str, patient_words: &BTreeSet<String>) -> Truth {
    // "(1) in patients with coronary artery disease, or (2) in frail elderly patients":
    // populations that "or" joins, each with a preposition of its own, are
    // alternatives, and the text is about the patient when one of them is.
    let alternatives = or_populations(text);
    if alternatives.len() > 1
        && alternatives
            .iter()
            .any(|a| applies_to_one(patient, a, patient_words) == Truth::True)
    {
        return Truth::True;
    }
    applies_to_one(patient, text, patient_words)
}

/// The parts of `text` that "or" joins where the word after it (past an enumerator,
/// "(2)") is a preposition that opens a population or a condition ("or in frail
/// elderly patients", "or if …"); the whole text when there are none. "Women with X or
/// Y" stays whole: its "or" joins conditions of the same people.
fn or_populations(text: &str) -> Vec<&str> {
    let tokens = words(text);
    let lower = |i: usize| tokens.get(i).map(|t| t.text(text).to_lowercase());
    let mut parts = Vec::new();
    let mut start = 0;
    for (i, t) in tokens.iter().enumerate() {
        if !t.text(text).eq_ignore_ascii_case("or") {
            continue;
        }
        // Past an enumerator: "(2)", "2)", "b)".
        let mut j = i + 1;
        while lower(j).is_some_and(|w| {
            w == "(" || w == ")" || w.chars().all(|c| c.is_ascii_digit()) || w.len() == 1
        }) && j < i + 4
        {
            j += 1;
        }
        if lower(j).is_some_and(|w| ALTERNATIVE_OPENERS.contains(&w.as_str())) {
            parts.push(&text[start..t.span.start]);
            start = t.span.end;
        }
    }
    parts.push(&text[start..]);
    parts
}

/// Prepositions and conjunctions that open a population or condition of its own after
/// "or" (see [`or_populations`]).
const ALTERNATIVE_OPENERS: &[&str] = &["in", "for", "among", "during", "if", "when"];

/// Whether the patient belongs to the population one text names (see [`applies_to`]).
fn applies_to_one(patient: &Patient, text: &str, patient_words: &BTreeSet<String>) -> Truth {
    let truth = |text: &str| match patient.evaluate(text) {
        Truth::Unknown if names_condition_of(text, patient, patient_words) => Truth::True,
        truth => truth,
    };
    match truth(text) {
        // "Women clear zolpidem more slowly": what is said of everyone of the patient's
        // sex, or of every adult, holds for her but says nothing of her own condition.
        Truth::True if truth(&without_everyone(text)) == Truth::Unknown => Truth::Unknown,
        truth => truth,
    }
}

/// Nouns that name everyone of a sex, or every adult: no condition of one patient's.
const EVERYONE: &[&str] = &[
    "woman", "women", "man", "men", "female", "females", "male", "males", "adult", "adults",
];

/// A text with the nouns of [`EVERYONE`] read as "people".
fn without_everyone(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut last = 0;
    for w in words(text).iter().filter(|w| w.is_word) {
        if EVERYONE.contains(&w.text(text).to_lowercase().as_str()) {
            out.push_str(&text[last..w.span.start]);
            out.push_str("people");
            last = w.span.end;
        }
    }
    out.push_str(&text[last..]);
    out
}

/// A candidate's key, and the words of the name it types when it is "name + asked
/// head" ("Imojev vaccine" → "imojev", named by "Imojev"): a drug's canonical name for
/// any of its names, otherwise the normalised text, without the head after a name.
fn candidate_key(
    language: &Language,
    asked: &Asked,
    analysis: &Analysis,
    text: &str,
    range: std::ops::Range<usize>,
) -> (String, Option<std::ops::Range<usize>>) {
    let mut name = None;
    if let Asked::Thing { head, .. } = asked {
        let last = range.end.saturating_sub(1);
        let head_last = analysis
            .words
            .get(last)
            .is_some_and(|w| asked::stem(w.text(text)) == *head);
        if head_last && range.len() >= 2 && asked::name_like(analysis, text, last - 1) {
            name = Some(range.start..last);
        }
    }
    let written = analysis.text(text, name.clone().unwrap_or(range.clone()));
    let key = match language
        .drugs
        .lookup(written)
        .or_else(|| language.drugs.lookup(analysis.text(text, range)))
    {
        // Vaccines of one antigen are different products by name ("Engerix-B" and
        // "Heplisav-B" are both hepatitis B vaccines, for different people): a
        // vaccine is its own name.
        Some(drug) if !drug.is_vaccine() => drug.canonical.to_lowercase(),
        // "2g" and "2 g" are one amount, and so are "1 mg once a day" and "1 mg daily".
        _ => {
            let key = unit_apart(&normalize_term(written));
            if key.starts_with(|c: char| c.is_ascii_digit()) {
                dose::dose_key(&key)
            } else {
                key
            }
        }
    };
    (key, name)
}

/// A key with a number written against the unit after it set apart ("3g" → "3 g",
/// "12.5mg" → "12.5 mg").
fn unit_apart(key: &str) -> String {
    let mut out = String::with_capacity(key.len() + 4);
    let mut previous: Option<char> = None;
    for c in key.chars() {
        if previous.is_some_and(|p| p.is_ascii_digit()) && c.is_alphabetic() {
            out.push(' ');
        }
        out.push(c);
        previous = Some(c);
    }
    out
}

/// Pronouns that refer back to what the text was about.
const REFERS_BACK: &[&str] = &["it", "they", "its"];

/// Demonstratives that refer back alone ("this is") or with the noun after them
/// ("this vaccine").
const DEMONSTRATIVES: &[&str] = &["this", "these", "such"];

/// Whether bytes `range` of `text` (analysed as `analysis`) refer back to what was
/// named before: a pronoun ("it", "they"), a demonstrative standing alone, or one
/// whose noun is of the referent's `kind` (stems of the asked kind and of the
/// referent's name): "this vaccine" refers back to a vaccine, "this risk" does not.
fn refers_back(
    text: &str,
    analysis: &Analysis,
    range: Range<usize>,
    kind: &BTreeSet<String>,
) -> bool {
    let inside: Vec<usize> = (0..analysis.words.len())
        .filter(|&i| {
            let w = &analysis.words[i];
            w.is_word && range.start <= w.span.start && w.span.end <= range.end
        })
        .take(12)
        .collect();
    let lower = |i: usize| analysis.words[i].text(text).to_lowercase();
    let tag = |i: usize| analysis.tags.get(i).copied();
    inside.iter().any(|&i| {
        let word = lower(i);
        if REFERS_BACK.contains(&word.as_str()) {
            return true;
        }
        if !DEMONSTRATIVES.contains(&word.as_str()) {
            return false;
        }
        // The noun the demonstrative determines: the first noun over its adjectives.
        let mut j = i + 1;
        while tag(j).is_some_and(|t| t.is_adjective()) {
            j += 1;
        }
        match tag(j) {
            Some(t) if t.is_noun() => kind.contains(&asked::stem(&lower(j))),
            _ => true,
        }
    })
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
            (w.chars().count() > 1 || w.chars().all(|c| c.is_ascii_digit())) && !is_function_word(w)
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

/// Whether a lower-case word carries no topic or condition.
fn is_function_word(word: &str) -> bool {
    lexicon::any(&lexicon::FUNCTION, word) || FUNCTION_WORDS.contains(&word)
}

/// Words besides the lexicon's function words that carry no topic or condition (with
/// the stems "ha" and "doe" of "has" and "does").
const FUNCTION_WORDS: &[&str] = &[
    "not", "there", "then", "also", "only", "own", "same", "very", "now", "ha", "doe", "year",
    "old", "ask", "asks", "give", "given",
];

#[cfg(test)]
mod tests;
