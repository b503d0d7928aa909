//! What a question says about the patient, and the truth of any condition phrase for
//! that patient — the condition table L of CGR §4.2.2 computed without an LLM.
//!
//! A [`Patient`] is read once from the question: concepts from the lexicon (age
//! groups, sex, pregnancy and trimester, renal and hepatic function, dialysis,
//! immunosuppression), numbers (age, weeks of gestation, eGFR / creatinine clearance),
//! allergies, and the words of the patient clause. [`Patient::evaluate`] then gives a
//! condition phrase true, false or unknown: lexicon concepts with implications and
//! exclusions first ("5-year-old" ⇒ "in children" true, "in adults" false), thresholds
//! next ("CrCl 25" ⇒ "creatinine clearance below 30" true), then the words of the phrase
//! against the patient's; unknown when nothing speaks to it.

mod lexicon;
pub mod measure;

pub use lexicon::Concept;

use std::collections::{BTreeMap, BTreeSet};

use crate::gate::{ConditionTable, Truth};
use crate::language::DrugLexicon;
use crate::lexicon::{Class, FUNCTION};
use crate::text::{normalize_term, singular, spelled_ordinals, words};
use measure::Quantity;

/// The facts a question states about its patient.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Patient {
    /// Concepts with a known value.
    pub concepts: BTreeMap<Concept, Truth>,
    /// Age in years, when stated.
    pub age_years: Option<f64>,
    /// Weeks of gestation, when stated.
    pub gestation_weeks: Option<f64>,
    /// eGFR or creatinine clearance in mL/min, when stated.
    pub renal_clearance: Option<f64>,
    /// Quantities stated of the patient (age, gestation, day of illness, weight, CD4
    /// count, clearance), with what dialysis or severe renal impairment implies.
    pub measures: Vec<measure::Measure>,
    /// Substances the patient reacted to ("penicillin", "aspirin", "iodinated contrast").
    pub allergies: BTreeSet<String>,
    /// Whether the question says the patient has no known allergies.
    pub no_known_allergies: bool,
    /// Whether the question says the patient's allergic reaction was a mild one ("a
    /// non-life-threatening rash after penicillin"), not the immediate, severe kind.
    pub mild_reaction: bool,
    /// Singular, lower-case content words of the patient description.
    pub words: BTreeSet<String>,
    /// Words of what the question asks to treat, taken out of `words` by
    /// [`Patient::without_topic`]: the patient has it, so a modifier that names it is
    /// met ("pregnant women with chronic hypertension"), though naming it makes no
    /// statement the patient's.
    pub topic_words: BTreeSet<String>,
    /// Words the description negates ("without urticaria" → "urticaria").
    pub negated_words: BTreeSet<String>,
    /// The kinds of what the description names ("beta blocker" for "metoprolol"), as
    /// the drug lexicon gives them (see [`Patient::learn_kinds`]), in
    /// [`crate::text::normalize_term`]'s form.
    pub kinds: BTreeSet<String>,
    /// Condition phrases given a value apart from the description, as a condition
    /// table the user edits gives them (see [`Patient::revised`]), padded, longest
    /// first: a phrase that names one of them takes its value.
    pub stated: Vec<(String, Truth)>,
    /// Test results the description gives, by what was tested for: true for positive
    /// ("HBsAg-negative" → "hbsag": false). See [`results`].
    pub results: BTreeMap<String, bool>,
}

/// The test results a text states, by what was tested for, lower case: "HBsAg-negative",
/// "HBsAg negative", "negative for HBsAg" (true for positive). Words that say how a
/// result was had ("tested negative") name nothing tested.
pub fn results(text: &str) -> BTreeMap<String, bool> {
    let tokens: Vec<String> = text
        .split(|c: char| !(c.is_alphanumeric() || c == '-'))
        .filter(|t| !t.is_empty())
        .map(str::to_lowercase)
        .collect();
    let polarity = |t: &str| match t {
        "positive" => Some(true),
        "negative" => Some(false),
        _ => None,
    };
    let tested = |t: &str| {
        t.chars().any(char::is_alphabetic)
            && !crate::lexicon::any(&FUNCTION, t)
            && !RESULT_WORDS.contains(&t)
            && polarity(t).is_none()
    };
    let mut out = BTreeMap::new();
    for (i, t) in tokens.iter().enumerate() {
        if let Some((what, sign)) = t.rsplit_once('-') {
            if let Some(positive) = polarity(sign).filter(|_| tested(what)) {
                out.insert(what.to_string(), positive);
                continue;
            }
        }
        let Some(positive) = polarity(t) else {
            continue;
        };
        if let Some(what) = i
            .checked_sub(1)
            .map(|k| tokens[k].as_str())
            .filter(|w| tested(w))
        {
            out.insert(what.to_string(), positive);
        } else if tokens.get(i + 1).is_some_and(|w| w == "for") {
            if let Some(what) = tokens.get(i + 2).filter(|w| tested(w)) {
                out.insert(what.clone(), positive);
            }
        }
    }
    out
}

/// `phrase` with a child's mothers and fathers written as parents.
fn kin_as_parents(phrase: &str) -> String {
    let mut out = String::with_capacity(phrase.len());
    let mut last = 0;
    for w in words(phrase).iter().filter(|w| w.is_word) {
        let written = w.text(phrase);
        let parent = match written.to_lowercase().as_str() {
            "mother" | "father" => "parent",
            "mothers" | "fathers" => "parents",
            _ => continue,
        };
        out.push_str(&phrase[last..w.span.start]);
        out.push_str(parent);
        last = w.span.end;
    }
    out.push_str(&phrase[last..]);
    out
}

/// Words before "positive" or "negative" that say how a result was had, not what was
/// tested for.
const RESULT_WORDS: &[&str] = &[
    "tested", "tests", "test", "testing", "result", "results", "remains", "remained", "became",
    "turned", "returned", "came", "back", "screened", "strongly", "weakly", "also", "still",
    "falsely", "false", "true",
];

/// Words of an allergic reaction of the immediate, severe kind.
const SEVERE_REACTIONS: &[&str] = &[
    "anaphylaxis",
    "anaphylactic",
    "immediate",
    "urticaria",
    "angioedema",
];

/// Words that name an allergic reaction.
const ALLERGY_WORDS: &[&str] = &[
    "allergy",
    "allergies",
    "allergic",
    "hypersensitivity",
    "anaphylaxis",
    "anaphylactic",
    "reaction",
    "reactions",
];

/// What a description says of an allergic reaction that was not of the severe kind
/// (hyphens read as spaces).
const MILD_REACTIONS: &[&str] = &[
    "non life threatening",
    "nonlife threatening",
    "not life threatening",
    "non severe",
    "nonsevere",
    "mild rash",
    "mild allergic",
    "minor rash",
    "delayed rash",
    "non anaphylactic",
    "nonanaphylactic",
    "non immediate",
    "low risk allergy",
];

/// The age below which a person is young, in years ("young adults").
const YOUNG_BELOW_YEARS: f64 = 40.0;

/// The ages of adolescence, in years: from the first up to the second (WHO: 10 to 19).
const ADOLESCENCE_YEARS: (f64, f64) = (10.0, 20.0);

/// Middle age, in years: from 45 up to 65, where older adults begin.
const MIDDLE_AGE_YEARS: (f64, f64) = (45.0, 65.0);

/// Words besides function words, person nouns that say nothing of the person
/// ("patients") and population nouns ("cases", "settings") that carry no condition by
/// themselves.
const NO_CONDITION: &[&str] = &[
    "history",
    "known",
    "taking",
    "take",
    "takes",
    "receiving",
    "receive",
    "receives",
    "using",
    "use",
    "uses",
    "undergoing",
    "presence",
    "diagnosed",
    "diagnosis",
    "adequate",
    "current",
    "currently",
    "active",
    "prior",
    "previous",
    "recent",
    "new",
];

/// Whether a lower-case word carries no condition by itself.
fn is_stop(word: &str) -> bool {
    crate::lexicon::any(&FUNCTION, word)
        || crate::lexicon::any(&[Class::Anyone, Class::Group], word)
        || NO_CONDITION.contains(&word)
}

/// Words that grade or time a condition without changing what it is: "high-risk
/// antiphospholipid syndrome" speaks of antiphospholipid syndrome.
const QUALIFIERS: &[&str] = &[
    "high",
    "risk",
    "clinically",
    "significant",
    "ongoing",
    "require",
    "requires",
    "requiring",
    "past",
    "life",
    "threatening",
    "true",
    "documented",
    "established",
    "confirmed",
    "suspected",
    "most",
    "some",
    "all",
    "certain",
    "selected",
    "caused",
    "due",
    "related",
    "infected",
    // A disease the patient has is there beneath whatever is treated now: "underlying
    // respiratory disease", "pre-existing lung disease", "known asthma".
    "underlying",
    "existing",
    "preexisting",
    "pre",
    "known",
];

/// Prepositions whose object, when it names people, names other people than the
/// population a phrase is about ("children exposed to adults", "contacts of people
/// with TB").
const OTHERS_AFTER: &[&str] = &["to", "of", "from", "by"];

/// The tokens of `phrase` (punctuation included) and their lower-case texts.
fn tokens_lower(phrase: &str) -> (Vec<crate::text::Word>, Vec<String>) {
    let tokens = words(phrase);
    let lower = tokens
        .iter()
        .map(|w| w.text(phrase).to_lowercase())
        .collect();
    (tokens, lower)
}

/// A phrase without the point a wait lasts until: "if treatment cannot be deferred
/// until the second trimester" says when the wait would end, not that the patient is
/// in the second trimester. "Until" (or "till") to the end of its clause goes.
fn without_wait_end(phrase: &str) -> String {
    let (tokens, lower) = tokens_lower(phrase);
    let mut out = String::with_capacity(phrase.len());
    let mut from = 0;
    let mut i = 0;
    while i < tokens.len() {
        if matches!(lower[i].as_str(), "until" | "till") {
            out.push_str(&phrase[from..tokens[i].span.start]);
            let end = (i + 1..tokens.len())
                .find(|&k| matches!(lower[k].as_str(), "," | ";" | ")"))
                .unwrap_or(tokens.len());
            from = tokens.get(end).map_or(phrase.len(), |t| t.span.start);
            i = end;
        } else {
            i += 1;
        }
    }
    out.push_str(&phrase[from..]);
    out
}

/// The part of `phrase` that describes its own population: the phrase up to a
/// preposition that names other people ([`OTHERS_AFTER`] + a person noun within two
/// words), when a person noun comes before it; the whole phrase otherwise.
fn own_population(phrase: &str) -> &str {
    let (tokens, lower) = tokens_lower(phrase);
    let person = |i: usize| lower.get(i).is_some_and(|w| Class::Person.has(w));
    let mut seen_person = false;
    for (i, w) in lower.iter().enumerate() {
        if seen_person
            && OTHERS_AFTER.contains(&w.as_str())
            && (person(i + 1) || (person(i + 2) && !person(i)))
        {
            return phrase.get(..tokens[i].span.start).unwrap_or(phrase);
        }
        seen_person |= person(i);
    }
    phrase
}

/// The populations a phrase lists: its parts split at "and", "or" or a comma where the
/// part after opens with a person noun or one modifier and a person noun ("children
/// <8 y old and pregnant women"); the whole phrase when it lists none.
fn populations(phrase: &str) -> Vec<&str> {
    let (tokens, lower) = tokens_lower(phrase);
    let person = |i: usize| lower.get(i).is_some_and(|w| Class::Person.has(w));
    let mut cuts: Vec<usize> = Vec::new();
    let mut from = 0;
    for (i, w) in lower.iter().enumerate() {
        let joins = matches!(w.as_str(), "and" | "or" | ",");
        // "Children or adolescents on long-term aspirin": person nouns alone before
        // the join head one population with the people after it, sharing its modifier.
        let heads_only =
            (from..i).all(|k| person(k) || matches!(lower[k].as_str(), "and" | "or" | ","));
        if joins && i > 0 && (person(i + 1) || person(i + 2)) && !heads_only {
            cuts.push(i);
            from = i + 1;
        }
    }
    if cuts.is_empty() {
        return vec![phrase];
    }
    let mut out = Vec::new();
    let mut start = 0;
    for &c in &cuts {
        out.push(&phrase[start..tokens[c].span.start]);
        start = tokens[c].span.end;
    }
    out.push(&phrase[start..]);
    out.into_iter()
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .collect()
}

/// The condition words of a phrase beyond its people, grades and quantities: what
/// it asks of a person besides being one ("with sickle cell disease").
fn own_words(ws: &[String]) -> Vec<String> {
    ws.iter()
        .filter(|w| {
            !is_stop(w)
                && !QUALIFIERS.contains(&w.as_str())
                && !Class::Person.has(w)
                && !crate::lexicon::any(&[Class::Preposition], w)
                && !w.chars().any(|c| c.is_ascii_digit())
                && !measure::is_measure_word(w)
        })
        .map(|w| singular(w).to_lowercase())
        .collect()
}

/// Whether the first person noun of `ws` has a negated modifier: right after it
/// ("women not of childbearing potential", "adults without …"), or after "who" /
/// "that" / "with" and auxiliaries ("women who are not pregnant", "patients who have
/// never had …"). A negated main verb says nothing of who the people are
/// ("children were not included in the trials").
fn negated_modifier(ws: &[String]) -> bool {
    let Some(at) = ws.iter().position(|w| Class::Person.has(w)) else {
        return false;
    };
    let mut rest = ws[at + 1..].iter().map(String::as_str).peekable();
    if rest
        .peek()
        .is_some_and(|w| matches!(*w, "who" | "that" | "with"))
    {
        rest.next();
        while rest.peek().is_some_and(|w| AUXILIARIES.contains(w)) {
            rest.next();
        }
    }
    rest.next().is_some_and(|w| NEGATORS.contains(&w))
}

/// Auxiliaries between "who" and a negation ("who have not been …").
const AUXILIARIES: &[&str] = &[
    "are", "is", "was", "were", "have", "has", "had", "do", "does", "did", "can", "could", "will",
    "would", "been",
];

/// Words that negate what follows them in a condition phrase. "Cannot" and "unable"
/// are not among them: an inability is a state the patient's own words name as it
/// is ("a child who cannot expectorate sputum").
const NEGATORS: &[&str] = &["no", "not", "without", "never", "non"];

/// Words that open a modifier of a person noun that asks something of the people:
/// "children with …", "infants at risk of …", "women who …".
const PEOPLE_MODIFIERS: &[&str] = &["with", "who", "at", "having", "receiving", "taking", "on"];

/// The modifier of the first person noun of `ws` that opens with one of
/// [`PEOPLE_MODIFIERS`], up to a conjunction, an auxiliary other than the first word
/// after "who", or six words: "children with sickle cell disease" → "sickle cell
/// disease".
fn people_modifier(ws: &[String]) -> Vec<String> {
    let Some(mut at) = ws.iter().position(|w| Class::Person.has(w)) else {
        return Vec::new();
    };
    // "children or adolescents … on long-term aspirin": the modifier after the last
    // of people named together is theirs.
    while ws.get(at + 1).is_some_and(|w| w == "or" || w == "and")
        && ws.get(at + 2).is_some_and(|w| Class::Person.has(w))
    {
        at += 2;
    }
    // "adolescents (2 years through 17 years of age) on …": past their ages.
    while ws.get(at + 1).is_some_and(|w| {
        w.chars().all(|c| c.is_ascii_digit())
            || measure::is_measure_word(w)
            || matches!(w.as_str(), "of" | "through" | "to")
    }) {
        at += 1;
    }
    match ws.get(at + 1) {
        // It ends where a new noun phrase opens with its determiner: "patients with
        // pulmonary diseases | the beta blockers … are preferred", and where a clause
        // says where or when rather than who ("women with HIT | where danaparoid is
        // unavailable": the circumstance, not the people).
        Some(opener) if PEOPLE_MODIFIERS.contains(&opener.as_str()) => ws[at + 2..]
            .iter()
            .enumerate()
            .take_while(|(k, w)| {
                !Class::Conjunction.has(w)
                    && (*k == 0 || !Class::Determiner.has(w))
                    && (!Class::Wh.has(w) || matches!(w.as_str(), "who" | "whom" | "whose"))
            })
            .take(6)
            .map(|(_, w)| w.clone())
            .collect(),
        _ => Vec::new(),
    }
}

/// Two words of one stem: one is the other plus a short suffix ("wear" / "wearer",
/// "sulfonamide" / "sulfonamides"), both at least 4 letters of shared stem.
fn same_stem(a: &str, b: &str) -> bool {
    let (short, long) = if a.len() <= b.len() { (a, b) } else { (b, a) };
    if short.len() >= 4
        && long.starts_with(short)
        && matches!(
            &long[short.len()..],
            "er" | "ers" | "s" | "es" | "ing" | "ed" | "al" | "ic"
        )
    {
        return true;
    }
    // A long word inside a derived one: "pituitary" in "hypopituitarism".
    let root = short.trim_end_matches(['a', 'e', 'i', 'o', 'u', 'y']);
    root.len() >= 7 && long.contains(root)
}

/// Most words of a medicine's name that [`Patient::learn_kinds`] looks up.
const MAX_KIND_WORDS: usize = 3;

/// The broad kinds under which a name is a medicine the patient can take.
const MEDICINE_ROOTS: &[&str] = &["medicine", "drug"];

/// A word with an agent or action suffix removed, so that "blocking" and "blocker"
/// compare equal.
fn kind_stem(word: &str) -> &str {
    ["ing", "ers", "er", "s"]
        .iter()
        .find_map(|suffix| {
            word.strip_suffix(suffix)
                .filter(|stem| stem.chars().count() >= 4)
        })
        .unwrap_or(word)
}

/// Lower-case words of `text`, hyphens and slashes splitting words.
fn plain_words(text: &str) -> Vec<String> {
    words(text)
        .iter()
        .filter(|w| w.is_word)
        .flat_map(|w| {
            w.text(text)
                .split(['-', '/', '\'', '’'])
                .filter(|p| !p.is_empty())
                .map(|p| spelled_ordinals(&p.to_lowercase()))
                .collect::<Vec<_>>()
        })
        .collect()
}

/// Words that introduce examples of what comes before them: "a CYP2C19 inhibitor
/// (such as cimetidine)", "enzyme inducers, e.g. rifampicin", "heart disease, including
/// heart failure".
const EXAMPLE_MARKERS: &[&str] = &["such as", "e.g.", "eg.", "for example", "including"];

/// A population and, apart, the examples it names and their other names: a patient who is one of the
/// examples (takes cimetidine) is in the population (those taking a CYP2C19 inhibitor)
/// whatever the lexicons know of its kind.
fn with_examples(alternative: &str) -> Vec<&str> {
    let marker_at = |at: usize| {
        let opens = alternative[..at]
            .chars()
            .next_back()
            .is_none_or(|c| !c.is_alphanumeric());
        EXAMPLE_MARKERS
            .iter()
            .find(|m| {
                opens
                    && alternative
                        .get(at..at + m.len())
                        .is_some_and(|s| s.eq_ignore_ascii_case(m))
            })
            .map(|m| at + m.len())
    };
    alternative
        .char_indices()
        .find_map(|(at, _)| marker_at(at).map(|end| (at, end)))
        .map_or_else(
            || vec![alternative],
            |(at, end)| {
                // An example's bracketed name is another name for it ("cimetidine
                // [Tagamet]"): either one names it.
                std::iter::once(&alternative[..at])
                    .chain(alternative[end..].split(['(', ')', '[', ']']))
                    .collect()
            },
        )
}

/// `text` as space-separated lower-case words with a space on each side, for
/// whole-word substring tests.
fn padded(text: &str) -> String {
    format!(" {} ", plain_words(text).join(" "))
}

/// [`padded`] with every word singular, so that a phrase is found inside a longer
/// one whatever the number of its words ("tick bite" in "tick bites in summer").
fn singular_padded(text: &str) -> String {
    let ws: Vec<String> = plain_words(text).iter().map(|w| singular(w)).collect();
    format!(" {} ", ws.join(" "))
}

fn contains_phrase(haystack_padded: &str, phrase: &str) -> bool {
    let needle = padded(phrase);
    !needle.trim().is_empty() && haystack_padded.contains(&needle)
}

/// Whether `phrase` occurs in `haystack_padded`: `Some(true)` for a plain mention,
/// `Some(false)` when every mention is negated by one of the two words before it
/// ("not in adults", "without pregnancy", "non-pregnant"), `None` when absent. Mentions
/// that name something else are skipped: "Child-Pugh", "as a child".
fn mention(haystack_padded: &str, phrase: &str) -> Option<bool> {
    let needle = padded(phrase);
    if needle.trim().is_empty() {
        return None;
    }
    let mut seen = None;
    for (at, _) in haystack_padded.match_indices(&needle) {
        let before: Vec<&str> = haystack_padded[..at]
            .split_whitespace()
            .rev()
            .take(2)
            .collect();
        let after = haystack_padded[at + needle.len()..]
            .split_whitespace()
            .next();
        // "Child-Pugh" is a liver score, not a child; "as a child" is the patient's past
        // (while "classified as Child-Pugh class B" is the patient's present).
        let names_person =
            needle.split_whitespace().any(|w| Class::Person.has(w)) && !needle.contains(" pugh ");
        let past_self = names_person && (before.first() == Some(&"as") || before == ["a", "as"]);
        if after == Some("pugh") || past_self {
            continue;
        }
        // "An infant born to a mother with HIV": a person named as the object of "to",
        // "of", "from" or "by" is someone else, not the patient.
        let object_of = match before.as_slice() {
            [first, ..] if OTHERS_AFTER.contains(first) => true,
            [first, second] => Class::Determiner.has(first) && OTHERS_AFTER.contains(second),
            _ => false,
        };
        if names_person && object_of {
            continue;
        }
        if !negated_before(haystack_padded, at) {
            return Some(true);
        }
        seen = Some(false);
    }
    seen
}

/// Whether one of the two words before byte `at` of `haystack_padded` negates what is
/// written there ("not in adults", "without pregnancy", "non-pregnant").
/// A function called normal is not impaired ("normal renal function").
fn negated_before(haystack_padded: &str, at: usize) -> bool {
    let before = haystack_padded[..at].split_whitespace().rev();
    let function = haystack_padded[at..]
        .split_whitespace()
        .take(3)
        .any(|w| w == "function");
    let normal = function
        && before
            .clone()
            .next()
            .is_some_and(|w| matches!(w, "normal" | "preserved" | "good" | "adequate"));
    normal
        || before
            .take(2)
            .any(|w| matches!(w, "not" | "no" | "without" | "non" | "never" | "nor"))
}

/// Whether `phrase` occurs in `haystack_padded` as [`mention`] says, counting every
/// mention, people named after "to" or "of" included: a condition phrase's own people
/// are found by [`own_population`] first.
fn mention_in_phrase(haystack_padded: &str, phrase: &str) -> Option<bool> {
    let needle = padded(phrase);
    if needle.trim().is_empty() {
        return None;
    }
    let mut seen = None;
    for (at, _) in haystack_padded.match_indices(&needle) {
        if !negated_before(haystack_padded, at) {
            return Some(true);
        }
        seen = Some(false);
    }
    seen
}

fn number(word: &str) -> Option<f64> {
    word.replace(',', "")
        .parse::<f64>()
        .ok()
        .filter(|v| v.is_finite())
}

/// Substances named after an allergy cue in `ws` ("allergic to X", "X allergy",
/// "anaphylaxis to X", "reaction to X", "urticaria after taking X", "... from X").
fn allergens(ws: &[String]) -> BTreeSet<String> {
    let mut out = BTreeSet::new();
    let cue_before = [
        "allergy",
        "allergies",
        "allergic",
        "hypersensitivity",
        "intolerance",
        "reaction",
        "reactions",
    ];
    for (i, w) in ws.iter().enumerate() {
        // "penicillin allergy"
        if cue_before.contains(&w.as_str())
            && i > 0
            && !is_stop(&ws[i - 1])
            && !matches!(
                ws[i - 1].as_str(),
                "no" | "known" | "drug" | "severe" | "mild"
            )
        {
            out.insert(singular(&ws[i - 1]).to_lowercase());
        }
        // "allergic to X", "anaphylaxis to X", "reaction to X", "hypersensitivity to X"
        let to_cue = [
            "allergic",
            "anaphylaxis",
            "reaction",
            "hypersensitivity",
            "sensitivity",
            "allergy",
            "intolerance",
            "anaphylactic",
        ];
        if to_cue.contains(&w.as_str()) {
            let mut j = i + 1;
            // skip "reaction to", "anaphylactic reaction to"
            while j < ws.len() && matches!(ws[j].as_str(), "reaction" | "to" | "a" | "an") {
                j += 1;
            }
            if j > i + 1 && ws[j - 1] == "to" && j < ws.len() {
                out.insert(singular(&ws[j]).to_lowercase());
                if j + 1 < ws.len() && ws[j] == "iodinated" {
                    out.insert(format!("iodinated {}", ws[j + 1]));
                }
            }
        }
        // "cannot take X", "unable to take X", "intolerant of X": the phrase form of an
        // allergy or intolerance.
        if w == "take"
            && i > 0
            && matches!(ws[i - 1].as_str(), "cannot" | "to" | "not")
            && i + 1 < ws.len()
        {
            let negated = ws[i - 1] != "to" || (i > 1 && ws[i - 2] == "unable");
            if negated {
                out.insert(singular(&ws[i + 1]).to_lowercase());
            }
        }
        if w == "intolerant" && i + 2 < ws.len() && matches!(ws[i + 1].as_str(), "of" | "to") {
            out.insert(singular(&ws[i + 2]).to_lowercase());
        }
        // "urticaria after taking X", "syndrome from X"
        if matches!(w.as_str(), "after" | "from") && i > 0 {
            let trigger = [
                "urticaria",
                "rash",
                "anaphylaxis",
                "syndrome",
                "reaction",
                "hives",
                "angioedema",
                "necrolysis",
            ];
            if trigger.contains(&ws[i - 1].as_str()) {
                let mut j = i + 1;
                while j < ws.len() && matches!(ws[j].as_str(), "taking" | "receiving" | "using") {
                    j += 1;
                }
                if j < ws.len() {
                    out.insert(singular(&ws[j]).to_lowercase());
                }
            }
        }
    }
    out
}

/// Drug families an allergy to a member extends to (a penicillin allergy covers
/// amoxicillin; an amoxicillin reaction is a penicillin allergy).
const ALLERGY_FAMILIES: &[(&str, &[&str])] = &[
    (
        "penicillin",
        &[
            "penicillin",
            "amoxicillin",
            "ampicillin",
            "piperacillin",
            "nafcillin",
            "oxacillin",
            "dicloxacillin",
            "benzylpenicillin",
        ],
    ),
    (
        "sulfonamide",
        &["sulfonamide", "sulfa", "sulfamethoxazole", "trimethoprim"],
    ),
    ("aspirin", &["aspirin", "nsaid", "salicylate"]),
    ("contrast", &["contrast", "iodinated", "iodine"]),
];

fn allergy_family(substance: &str) -> Option<&'static str> {
    ALLERGY_FAMILIES
        .iter()
        .find(|(_, members)| members.contains(&substance))
        .map(|(family, _)| *family)
}

/// The concepts a padded phrase names, each with whether it names it plainly (true)
/// or only negated ("non-pregnant women", "women who are not pregnant").
fn concepts_mentioned(padded_phrase: &str) -> Vec<(Concept, bool)> {
    lexicon::SYNONYMS
        .iter()
        .filter_map(|(c, synonyms)| {
            let seen: Vec<bool> = synonyms
                .iter()
                .filter_map(|s| mention_in_phrase(padded_phrase, s))
                .collect();
            (!seen.is_empty()).then(|| (*c, seen.contains(&true)))
        })
        .collect()
}

/// Whether a condition phrase excludes people by a negation: "who are not pregnant",
/// "non-pregnant adults", "without renal impairment".
pub fn negates(phrase: &str) -> bool {
    plain_words(phrase)
        .iter()
        .any(|w| NEGATORS.contains(&w.as_str()))
}

/// Whether a phrase names a population or condition the lexicon knows, or bounds a
/// quantity ("Older adults (65 years and over)", "CrCl below 30 mL/min"), not only a
/// topic ("Statins") or the patient's own words.
pub fn names_concept(phrase: &str) -> bool {
    !concepts_mentioned(&padded(phrase)).is_empty() || !measure::conditions(phrase).is_empty()
}

/// Whether a phrase names a population and nothing else: "pregnancy", "lactation",
/// "severe renal impairment" (each content word a word of a population concept it
/// names). Such a phrase says whom a statement is about, never what to give them.
pub fn names_only_population(phrase: &str) -> bool {
    let padded_phrase = padded(phrase);
    let named: Vec<Concept> = concepts_mentioned(&padded_phrase)
        .into_iter()
        .map(|(c, _)| c)
        .collect();
    if named.is_empty() {
        return false;
    }
    let covered = concept_words(&padded_phrase, &named);
    plain_words(phrase)
        .iter()
        .filter(|w| !is_stop(w) && !QUALIFIERS.contains(&w.as_str()))
        .all(|w| covered.contains(&singular(w).to_lowercase()))
}

/// The words (singular, lower case) of the synonyms of `concepts` that a padded phrase
/// writes: what of the phrase names those concepts.
fn concept_words(padded_phrase: &str, concepts: &[Concept]) -> BTreeSet<String> {
    lexicon::SYNONYMS
        .iter()
        .filter(|(c, _)| concepts.contains(c))
        .flat_map(|(_, synonyms)| synonyms.iter())
        .filter(|s| contains_phrase(padded_phrase, s))
        .flat_map(|s| plain_words(s))
        .map(|w| singular(&w).to_lowercase())
        .collect()
}

/// The most specific of the concepts mentioned, which speak for the phrase: "first
/// trimester" also names pregnancy, but it is the trimester that decides.
fn most_specific(mentioned: &[(Concept, bool)]) -> Vec<(Concept, bool)> {
    mentioned
        .iter()
        .filter(|(c, _)| !mentioned.iter().any(|(d, _)| d != c && implies(*d, *c)))
        .copied()
        .collect()
}

/// Whether `a` implies `b` through the lexicon's implications (transitively).
fn implies(a: Concept, b: Concept) -> bool {
    let mut frontier = vec![a];
    let mut seen = BTreeSet::new();
    while let Some(c) = frontier.pop() {
        for (x, y) in lexicon::IMPLIES {
            if *x == c && seen.insert(*y) {
                if *y == b {
                    return true;
                }
                frontier.push(*y);
            }
        }
    }
    false
}

impl Patient {
    /// This patient as `table` revises it: every phrase the table gives another value
    /// than this patient's own reading (a condition the user flipped, or one a language
    /// model evaluated) takes the table's value, and so does any phrase that names it;
    /// the lexicon concepts such a phrase names take it too, so that other wordings of
    /// the same condition follow ("Pregnant People" set false makes "during pregnancy"
    /// false), and a concept set false takes the concepts that imply it with it (not
    /// pregnant: in no trimester).
    pub fn revised(&self, table: &ConditionTable) -> Patient {
        let mut stated: Vec<(String, Truth)> = table
            .entries()
            .filter(|&(phrase, truth)| self.evaluate(phrase) != truth)
            .map(|(phrase, truth)| (singular_padded(phrase), truth))
            .filter(|(phrase, _)| !phrase.trim().is_empty())
            .collect();
        stated.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        let mut revised = self.clone();
        for (phrase, truth) in &stated {
            for (concept, plain) in most_specific(&concepts_mentioned(phrase)) {
                let value = if plain { *truth } else { truth.negate() };
                revised.set_concept(concept, value);
            }
        }
        revised.stated = stated;
        revised
    }

    /// This patient without the diseases and words `topic` names that `description`
    /// does not: what a question asks to treat ("for heart failure with reduced
    /// ejection fraction") and with what ("the enoxaparin dose") is its topic, not a
    /// condition that singles out a statement for them.
    pub fn without_topic(&self, topic: &str, description: &str) -> Patient {
        let described: Vec<Concept> = concepts_mentioned(&padded(description))
            .into_iter()
            .map(|(c, _)| c)
            .collect();
        let mut out = self.clone();
        let own: BTreeSet<String> = plain_words(description)
            .iter()
            .map(|w| singular(w).to_lowercase())
            .collect();
        for w in plain_words(topic) {
            let w = singular(&w).to_lowercase();
            if !own.contains(&w) && out.words.remove(&w) {
                out.topic_words.insert(w);
            }
        }
        for (concept, plain) in most_specific(&concepts_mentioned(&padded(topic))) {
            if plain && concept.is_disease() && !described.contains(&concept) {
                out.set_concept(concept, Truth::Unknown);
            }
        }
        out
    }

    /// Sets a concept's value; a concept set false or unknown takes the concepts that
    /// imply it with it.
    fn set_concept(&mut self, concept: Concept, value: Truth) {
        if value != Truth::True {
            let implying: Vec<Concept> = self
                .concepts
                .keys()
                .copied()
                .filter(|&c| c != concept && implies(c, concept))
                .collect();
            for c in implying {
                self.concepts.insert(c, value);
            }
        }
        match value {
            Truth::Unknown => self.concepts.remove(&concept),
            v => self.concepts.insert(concept, v),
        };
    }

    /// Adds the kinds of the medicines `text` names (not those it negates), so that a
    /// patient "on long-term metoprolol" is one of the "patients taking beta-blocking
    /// medications": the patient's words stay theirs, the kinds are matched whole.
    pub fn learn_kinds(&mut self, drugs: &DrugLexicon, text: &str) {
        let ws = plain_words(text);
        for n in (1..=MAX_KIND_WORDS).rev() {
            for gram in ws.windows(n) {
                if gram.iter().all(|w| self.negated_words.contains(w)) {
                    continue;
                }
                let name = gram.join(" ");
                // A single word names a medicine the patient takes only when the drug
                // lexicon knows it as a drug or a class: WordNet also files "dose",
                // "acid" and "pot" as street names of drugs.
                if n == 1 && drugs.lookup(&name).is_none() && !drugs.is_class_noun(&name) {
                    continue;
                }
                let Some(kinds) = drugs.kinds(&name) else {
                    continue;
                };
                if kinds
                    .roots
                    .iter()
                    .any(|r| MEDICINE_ROOTS.contains(&r.as_str()))
                {
                    self.kinds
                        .extend(kinds.kinds.iter().map(|k| normalize_term(k)));
                }
            }
        }
    }

    /// The positions of `words` (lower case) that name a kind of the patient's
    /// medicines whole: "beta" and "blocking" in "beta blocking medications".
    pub fn kind_words(&self, words: &[String]) -> BTreeSet<usize> {
        self.kinds
            .iter()
            .filter_map(|kind| {
                kind.split(' ')
                    .map(|k| {
                        words.iter().position(|w| {
                            let w = singular(w);
                            w == k || kind_stem(&w) == kind_stem(k)
                        })
                    })
                    .collect::<Option<Vec<usize>>>()
            })
            .flatten()
            .collect()
    }

    /// Reads the patient facts of a question (or any description of a patient).
    pub fn read(text: &str) -> Patient {
        let ws = plain_words(text);
        let padded_text = format!(" {} ", ws.join(" "));
        let mut p = Patient {
            results: results(text),
            ..Patient::default()
        };
        for (concept, phrases) in lexicon::SYNONYMS {
            for ph in phrases.iter() {
                match mention(&padded_text, ph) {
                    Some(true) => {
                        p.concepts.insert(*concept, Truth::True);
                    }
                    // "but not in adults": false unless also stated positively.
                    Some(false) => {
                        p.concepts.entry(*concept).or_insert(Truth::False);
                    }
                    None => {}
                }
            }
        }
        p.read_numbers(&ws);
        if contains_phrase(&padded_text, "no known allergies")
            || contains_phrase(&padded_text, "no known drug allergies")
            || contains_phrase(&padded_text, "no allergies")
        {
            p.no_known_allergies = true;
        }
        p.allergies = allergens(&ws);
        let lower = text.to_lowercase().replace('-', " ");
        p.mild_reaction = MILD_REACTIONS.iter().any(|m| lower.contains(m));
        // Negated words: "without X", "no X", "not X", "never X"; not "no other X",
        // which says the patient has an X already named.
        for (i, w) in ws.iter().enumerate() {
            let besides = ws
                .get(i + 1)
                .is_some_and(|n| matches!(n.as_str(), "other" | "further" | "additional"));
            if matches!(w.as_str(), "without" | "no" | "not" | "never") && !besides {
                for next in ws.iter().skip(i + 1).take(4) {
                    if matches!(next.as_str(), "and" | "but" | "who" | "with") {
                        break;
                    }
                    if !is_stop(next) && next != "or" {
                        p.negated_words.insert(singular(next).to_lowercase());
                    }
                }
            }
        }
        // Negation after the finding: "with fluoroquinolone resistance ruled out",
        // "malignancy excluded".
        for (i, w) in ws.iter().enumerate() {
            let after =
                w == "excluded" || (w == "ruled" && ws.get(i + 1).is_some_and(|n| n == "out"));
            if !after {
                continue;
            }
            for prev in ws[..i].iter().rev().take(3) {
                if matches!(
                    prev.as_str(),
                    "with" | "and" | "but" | "has" | "had" | "is" | "was" | "been" | "who"
                ) {
                    break;
                }
                if !is_stop(prev) {
                    p.negated_words.insert(singular(prev).to_lowercase());
                }
            }
        }
        p.words = ws
            .iter()
            .filter(|w| !is_stop(w))
            .map(|w| singular(w).to_lowercase())
            .filter(|w| !p.negated_words.contains(w))
            .collect();
        p.close();
        p.measures = p.all_measures(text);
        // "A creatinine clearance below 30 mL/min": a bounded clearance says how
        // impaired the kidneys are as a number would.
        if p.renal_clearance.is_none() {
            let bound = p
                .measures
                .iter()
                .find(|m| m.quantity == Quantity::Clearance)
                .map(|m| m.interval.high);
            if let Some(high) = bound {
                p.renal_function(high, true);
                p.close();
            }
        }
        p
    }

    /// The quantities `text` states of the patient, with those read as numbers
    /// before and what dialysis or severe renal impairment implies of clearance.
    fn all_measures(&self, text: &str) -> Vec<measure::Measure> {
        use measure::{Interval, Measure, Quantity};
        let mut out = measure::facts(text);
        let mut add = |quantity: Quantity, interval: Option<Interval>| {
            if let Some(interval) = interval {
                if !out.iter().any(|m| m.quantity == quantity) {
                    out.push(Measure { quantity, interval });
                }
            }
        };
        add(Quantity::AgeYears, self.age_years.map(Interval::point));
        add(
            Quantity::GestationWeeks,
            self.gestation_weeks.map(Interval::point),
        );
        let known = |c: Concept| self.concepts.get(&c) == Some(&Truth::True);
        let clearance = match self.renal_clearance {
            Some(v) => Some(Interval::point(v)),
            None if known(Concept::Dialysis) => Some(Interval::under(15.0)),
            None if known(Concept::SevereRenalImpairment) => Some(Interval::under(30.0)),
            // Kidneys known not to be impaired clear 60 mL/min or more.
            None if self.concepts.get(&Concept::RenalImpairment) == Some(&Truth::False) => {
                Some(Interval::above(60.0, false))
            }
            None => None,
        };
        add(Quantity::Clearance, clearance);
        out
    }

    fn read_numbers(&mut self, ws: &[String]) {
        for (i, w) in ws.iter().enumerate() {
            let Some(value) = number(w) else { continue };
            let next = |k: usize| ws.get(i + k).map(String::as_str).unwrap_or("");
            let prev = |k: usize| if i >= k { ws[i - k].as_str() } else { "" };
            match (next(1), next(2)) {
                ("year" | "years", "old") | ("yo", _) => self.age_years = Some(value),
                ("year" | "years", "of") if next(3) == "age" => self.age_years = Some(value),
                ("month" | "months", "old") => self.age_years = Some(value / 12.0),
                ("week" | "weeks", "old") => self.age_years = Some(value / 52.0),
                ("day" | "days", "old") => self.age_years = Some(value / 365.0),
                // "born at 32 weeks of gestation": the weeks a child was born at.
                ("week" | "weeks", "pregnant" | "gestation" | "of")
                    if !measure::BIRTH_WORDS.contains(&prev(1))
                        && !measure::BIRTH_WORDS.contains(&prev(2))
                        && (next(2) == "pregnant"
                            || next(2) == "gestation"
                            || (next(2) == "of"
                                && matches!(next(3), "gestation" | "pregnancy"))) =>
                {
                    self.gestation_weeks = Some(value);
                }
                _ => {}
            }
            if prev(1) == "aged" {
                self.age_years = Some(value);
            }
            let renal_cue = ["egfr", "gfr", "crcl"];
            if renal_cue.contains(&prev(1))
                || renal_cue.contains(&prev(2))
                || (prev(1) == "of" && prev(2) == "clearance")
                || (prev(1) == "clearance")
            {
                self.renal_clearance = Some(value);
            }
            // "LVEF of 25%", "an ejection fraction of 30%", "EF 35%": 40% or less is a
            // reduced ejection fraction, 50% or more a preserved one.
            let ejection = |k: usize| {
                matches!(prev(k), "lvef" | "ef")
                    || (prev(k) == "fraction" && prev(k + 1) == "ejection")
            };
            if ejection(1) || (matches!(prev(1), "of" | "is" | "was") && ejection(2)) {
                if value <= 40.0 {
                    self.concepts
                        .insert(Concept::ReducedEjectionFraction, Truth::True);
                } else if value >= 50.0 {
                    self.concepts
                        .insert(Concept::ReducedEjectionFraction, Truth::False);
                }
            }
            // "a QTc of 530 ms", "QTc 480 ms": 470 ms or more is a prolonged QT
            // interval whatever the sex, 430 ms or less a normal one.
            let qt = |k: usize| matches!(prev(k), "qtc" | "qt" | "qtcf" | "qtcb");
            let qt_named = qt(1) || (matches!(prev(1), "of" | "is" | "was") && qt(2));
            if qt_named && matches!(next(1), "ms" | "msec" | "milliseconds") {
                if value >= 470.0 {
                    self.concepts.insert(Concept::QtProlongation, Truth::True);
                } else if value <= 430.0 {
                    self.concepts.insert(Concept::QtProlongation, Truth::False);
                }
            }
            if prev(1) == "stage" && matches!(next(1), "chronic" | "ckd" | "kidney") {
                if value >= 4.0 {
                    self.concepts
                        .insert(Concept::SevereRenalImpairment, Truth::True);
                }
                self.concepts.insert(Concept::RenalImpairment, Truth::True);
            }
        }
        if let Some(age) = self.age_years {
            let set = |p: &mut Patient, c| {
                p.concepts.insert(c, Truth::True);
            };
            if age < 28.0 / 365.0 {
                set(self, Concept::Neonate);
            } else if age < 1.0 {
                set(self, Concept::Infant);
            }
            if age < 18.0 {
                set(self, Concept::Child);
            } else {
                set(self, Concept::Adult);
            }
            let adolescent = (ADOLESCENCE_YEARS.0..ADOLESCENCE_YEARS.1).contains(&age);
            let adolescent = if adolescent {
                Truth::True
            } else {
                Truth::False
            };
            self.concepts.insert(Concept::Adolescent, adolescent);
            if age >= 65.0 {
                set(self, Concept::Elderly);
            }
            if age < YOUNG_BELOW_YEARS {
                set(self, Concept::Young);
            }
            let middle_aged = if (MIDDLE_AGE_YEARS.0..MIDDLE_AGE_YEARS.1).contains(&age) {
                Truth::True
            } else {
                Truth::False
            };
            self.concepts.insert(Concept::MiddleAged, middle_aged);
        }
        if let Some(weeks) = self.gestation_weeks {
            let trimester = if weeks < 14.0 {
                Concept::FirstTrimester
            } else if weeks < 28.0 {
                Concept::SecondTrimester
            } else {
                Concept::ThirdTrimester
            };
            self.concepts.insert(trimester, Truth::True);
        }
        if let Some(clearance) = self.renal_clearance {
            self.renal_function(clearance, false);
        }
    }

    /// What a creatinine clearance (mL/min) says of the kidneys: impaired below 60,
    /// severely below 30. `bounded`: the clearance is only known to be below `clearance`
    /// ("below 30 mL/min"), so it says nothing of unimpaired kidneys.
    fn renal_function(&mut self, clearance: f64, bounded: bool) {
        let below = |limit: f64| clearance < limit || (bounded && clearance <= limit);
        match (below(60.0), bounded) {
            (true, _) => {
                self.concepts.insert(Concept::RenalImpairment, Truth::True);
            }
            (false, false) => {
                self.concepts.insert(Concept::RenalImpairment, Truth::False);
            }
            (false, true) => {}
        }
        if below(30.0) {
            self.concepts
                .insert(Concept::SevereRenalImpairment, Truth::True);
        }
    }

    /// Applies implications and exclusions until nothing changes.
    fn close(&mut self) {
        for _ in 0..8 {
            let before = self.concepts.clone();
            for (a, b) in lexicon::IMPLIES {
                if self.concepts.get(a) == Some(&Truth::True) {
                    self.concepts.insert(*b, Truth::True);
                }
            }
            for (a, b) in lexicon::EXCLUSIVE {
                for (x, y) in [(a, b), (b, a)] {
                    if self.concepts.get(x) == Some(&Truth::True) && !self.concepts.contains_key(y)
                    {
                        self.concepts.insert(*y, Truth::False);
                    }
                }
            }
            if self.concepts == before {
                break;
            }
        }
        // A stated age with no pregnancy mentioned for a child under 10: not pregnant.
        if self.age_years.is_some_and(|a| a < 10.0)
            && !self.concepts.contains_key(&Concept::Pregnancy)
        {
            self.concepts.insert(Concept::Pregnancy, Truth::False);
        }
    }

    /// The truth of a condition phrase for this patient. A quantity the phrase bounds
    /// that the patient's value fails makes it false ("in infants younger than 18
    /// months" for a child of two). A bound the patient meets makes it true when it is
    /// a clinical state ("CrCl below 30", "CD4 count <100", "32–36 weeks' gestation"),
    /// unless the rest of the phrase says otherwise; an age bound met decides nothing by
    /// itself: "people aged 2 months and over" names everyone past infancy, not a
    /// condition of this patient's. The rest is read as words: concepts, allergies,
    /// the patient's own words. People named inside a population's modifiers are
    /// other people: "children exposed to adults with TB" is about children.
    pub fn evaluate(&self, phrase: &str) -> Truth {
        // What was stated of a phrase decides every phrase that names it ("women who
        // are not pregnant" the other way).
        if !self.stated.is_empty() {
            let whole = singular_padded(phrase);
            let stated = self
                .stated
                .iter()
                .find_map(|(s, truth)| Some((mention_in_phrase(&whole, s)?, *truth)));
            if let Some((plain, truth)) = stated {
                return if plain { truth } else { truth.negate() };
            }
        }
        // "Infants born to HBsAg-positive mothers" is not about one whose mother tested
        // HBsAg-negative.
        let opposite = results(phrase)
            .iter()
            .any(|(what, positive)| self.results.get(what).is_some_and(|p| p != positive));
        if opposite {
            return Truth::False;
        }
        // "If the mother is HBsAg-negative": for a child, the mother is a parent of the
        // patient, not the patient (nor what the patient's sex is).
        let parent;
        let phrase = if self.concepts.get(&Concept::Child) == Some(&Truth::True) {
            parent = kin_as_parents(phrase);
            parent.as_str()
        } else {
            phrase
        };
        let waited = without_wait_end(phrase);
        let phrase = own_population(&waited);
        // "children <8 y old and pregnant women": populations listed side by side, each
        // with its own person noun, are alternatives; the patient is in the list when in
        // one of them.
        let populations = populations(phrase);
        if populations.len() > 1 {
            let truths: Vec<Truth> = populations.iter().map(|p| self.evaluate_one(p)).collect();
            if truths.contains(&Truth::True) {
                return Truth::True;
            }
            if truths.iter().all(|t| *t == Truth::False) {
                return Truth::False;
            }
        }
        self.evaluate_one(phrase)
    }

    /// [`Patient::evaluate`] for one population.
    fn evaluate_one(&self, phrase: &str) -> Truth {
        match (self.measured(phrase), self.evaluate_words(phrase)) {
            (Some(Truth::False), _) => Truth::False,
            (Some(Truth::True), Truth::Unknown) => Truth::True,
            (_, words) => words,
        }
    }

    /// [`Patient::evaluate`] without the quantities: concepts, allergies, words.
    fn evaluate_words(&self, phrase: &str) -> Truth {
        let mut padded_phrase = padded(phrase);
        // Trimesters come in order: "after the first trimester" is the second or third.
        for (said, meant) in lexicon::TRIMESTER_SPANS {
            padded_phrase = padded_phrase.replace(&padded(said), &padded(meant));
        }
        let ws = plain_words(phrase);
        // "In compensated cirrhosis" is not said of decompensated cirrhosis, nor
        // "uncontrolled hypertension" of hypertension that is well controlled.
        if ws.iter().any(|w| self.reverses(w)) {
            return Truth::False;
        }
        // 1. Concepts of the lexicon.
        let mut found = false;
        let mut any_true = false;
        let mut all_false = true;
        let mentioned = concepts_mentioned(&padded_phrase);
        let named: Vec<Concept> = mentioned.iter().map(|(c, _)| *c).collect();
        for (concept, plain) in &most_specific(&mentioned) {
            found = true;
            // "Young and otherwise healthy adults": "young" narrows the people it
            // modifies, so a patient who is not young is none of them.
            if matches!(concept, Concept::Young | Concept::MiddleAged)
                && *plain
                && self.concepts.get(concept) == Some(&Truth::False)
            {
                return Truth::False;
            }
            match (self.concepts.get(concept), plain) {
                (Some(Truth::True), true) | (Some(Truth::False), false) => any_true = true,
                (Some(Truth::False), true) => {}
                // "Women without HIV" excludes a woman with HIV, whatever else holds.
                (Some(Truth::True), false) => return Truth::False,
                _ => all_false = false,
            }
        }
        // 2. Allergies.
        // "Patients with immediate-type hypersensitivity to penicillin (anaphylaxis,
        // urticaria)" are not those whose reaction was a mild one.
        let lower: Vec<String> = ws.iter().map(|w| w.to_lowercase()).collect();
        let names = |list: &[&str]| lower.iter().any(|w| list.contains(&w.as_str()));
        if self.mild_reaction && names(SEVERE_REACTIONS) && names(ALLERGY_WORDS) {
            return Truth::False;
        }
        let phrase_allergens = allergens(&ws);
        if !phrase_allergens.is_empty() || ws.iter().any(|w| w.starts_with("allerg")) {
            found = true;
            if self.no_known_allergies {
                return Truth::False;
            }
            let hit = phrase_allergens.iter().any(|a| {
                self.allergies.contains(a)
                    || allergy_family(a).is_some_and(|f| {
                        self.allergies.iter().any(|b| allergy_family(b) == Some(f))
                    })
            });
            if hit {
                return Truth::True;
            }
            all_false = false;
        }
        // A concept the patient has decides the phrase only when the patient also has
        // what the phrase's modifier of its people asks of them: "children with sickle
        // cell disease" is not every child, "infants at low risk of HIV acquisition" not
        // every infant.
        // "Women who are not of childbearing potential": a negation after the person
        // noun asks something of the people that the words below decide.
        let negated_after_person = negated_modifier(&ws);
        let qualified = any_true
            && (negated_after_person || {
                let covered = concept_words(&padded_phrase, &named);
                let rest: Vec<String> = own_words(&people_modifier(&ws))
                    .into_iter()
                    .filter(|w| !covered.contains(&singular(w).to_lowercase()))
                    .collect();
                let matched = rest
                    .iter()
                    .filter(|w| {
                        self.has_word(w) || self.topic_words.contains(&singular(w).to_lowercase())
                    })
                    .count();
                matched < rest.len() && 3 * matched < 2 * rest.len()
            });
        if found && !qualified {
            if any_true {
                return Truth::True;
            }
            if all_false {
                return Truth::False;
            }
        }
        // 3. The phrase's own words against the patient's; a list of alternatives
        //    ("A, B or C") holds when one of them does.
        let mut any_content = false;
        let mut all_negated = true;
        let mut alternatives = 0;
        let mut excluded = 0;
        for alternative in phrase
            .split([',', ';'])
            .flat_map(|part| part.split(" or "))
            .flat_map(with_examples)
        {
            let content: Vec<String> = plain_words(alternative)
                .iter()
                .filter(|w| !is_stop(w) && !QUALIFIERS.contains(&w.as_str()))
                .map(|w| singular(w).to_lowercase())
                .collect();
            if content.is_empty() {
                continue;
            }
            // "Children or adolescents … on long-term aspirin treatment": people named
            // alone before "or" share the modifier after the last of them, which the
            // patient does not meet (`qualified`), so they do not hold by themselves.
            if qualified && content.iter().all(|w| Class::Person.has(w)) {
                continue;
            }
            any_content = true;
            alternatives += 1;
            // "People with no known risk factors": those without them, as the patient
            // is when the description negates them too. "Women who are not of
            // childbearing potential": what the negation covers must not be the
            // patient's, and what comes before it must be.
            let all_words = plain_words(alternative);
            if let Some(at) = all_words
                .iter()
                .position(|w| NEGATORS.contains(&w.as_str()))
            {
                let condition = |ws: &[String]| -> Vec<String> {
                    ws.iter()
                        .filter(|w| !is_stop(w) && !QUALIFIERS.contains(&w.as_str()))
                        .map(|w| singular(w).to_lowercase())
                        .collect()
                };
                let before = condition(&all_words[..at]);
                let negated = condition(&all_words[at + 1..]);
                let holds_before = before
                    .iter()
                    .all(|w| Class::Person.has(w) || self.has_word(w));
                all_negated = false;
                if negated.is_empty() || !holds_before {
                    continue;
                }
                if negated.iter().all(|w| self.negated_words.contains(w)) {
                    return Truth::True;
                }
                if negated.iter().all(|w| self.has_word(w)) {
                    excluded += 1;
                }
                continue;
            }
            let kind_covered = self.kind_words(&content);
            let matched = content
                .iter()
                .enumerate()
                .filter(|(i, w)| kind_covered.contains(i) || self.has_word(w))
                .count();
            // All of the phrase's content words, or most of a longer phrase
            // ("mechanical heart valves" for "a mechanical mitral valve") unless a word
            // left over contradicts the patient ("right" bundle branch block for "left").
            let contradicted = content.iter().any(|w| {
                lexicon::OPPOSITES.iter().any(|(a, b)| {
                    (w == a && self.words.contains(*b)) || (w == b && self.words.contains(*a))
                })
            });
            if matched == content.len()
                || (matched >= 2 && 3 * matched >= 2 * content.len() && !contradicted)
            {
                return Truth::True;
            }
            if !content.iter().all(|w| self.negated_words.contains(w)) {
                all_negated = false;
            }
        }
        if any_content && (all_negated || excluded == alternatives) {
            return Truth::False;
        }
        Truth::Unknown
    }

    /// Whether the patient's words hold `word` reversed by a prefix that negates or
    /// undoes it ("decompensated" for "compensated", "compensated" for
    /// "decompensated", "uncontrolled" for "controlled"). Only words long enough that
    /// the rest is a word of its own.
    fn reverses(&self, word: &str) -> bool {
        const REVERSING: &[&str] = &["non", "un", "de", "dis"];
        const SHORTEST: usize = 6;
        let word = word.to_lowercase();
        word.len() >= SHORTEST
            && REVERSING.iter().any(|prefix| {
                self.words.contains(&format!("{prefix}{word}"))
                    || word
                        .strip_prefix(prefix)
                        .is_some_and(|rest| rest.len() >= SHORTEST && self.words.contains(rest))
            })
    }

    /// Whether the patient description has `word`, or a word of the same stem
    /// ("wearers" / "wears"), or names a drug of that class ("oxycodone" → "opioid").
    fn has_word(&self, word: &str) -> bool {
        if self.words.contains(word) {
            return true;
        }
        if lexicon::DRUG_CLASSES.iter().any(|(class, members)| {
            *class == word && members.iter().any(|m| self.words.contains(*m))
        }) {
            return true;
        }
        lexicon::SAME_AS.iter().any(|(a, b)| {
            (*a == word && self.words.contains(*b)) || (*b == word && self.words.contains(*a))
        }) || self.words.iter().any(|w| same_stem(w, word))
    }

    /// Whether the patient's values meet the quantities `phrase` bounds, ages included:
    /// true when every one the patient's values decide holds, false when one fails,
    /// `None` when none is decided. Where labels split a population by one quantity (a
    /// table's columns "Less than or equal to 65 years" and "Greater than 65 years"),
    /// the label whose bound the patient meets is the patient's, though an age bound
    /// met in prose decides nothing (see [`Patient::evaluate`]).
    pub fn within_bounds(&self, phrase: &str) -> Option<Truth> {
        let decided: Vec<bool> = measure::conditions(phrase)
            .iter()
            .filter_map(|c| measure::holds(c, &self.measures))
            .collect();
        match (decided.is_empty(), decided.iter().all(|d| *d)) {
            (true, _) => None,
            (false, true) => Some(Truth::True),
            (false, false) => Some(Truth::False),
        }
    }

    /// The truth of the quantities `phrase` bounds ("infants younger than 18 months",
    /// "CrCl below 30"): false when every one the patient's values decide fails; true
    /// when every one holds and one of them is a clinical state, not an age (see
    /// [`Patient::evaluate`]); `None` when none is decided, only ages hold, or they
    /// disagree (a statement that names two populations).
    fn measured(&self, phrase: &str) -> Option<Truth> {
        let decided: Vec<(measure::Measure, bool)> = measure::conditions(phrase)
            .into_iter()
            .filter_map(|c| {
                let holds = measure::holds(&c, &self.measures)?;
                Some((c, holds))
            })
            .collect();
        let met: Vec<&measure::Measure> = decided.iter().filter(|d| d.1).map(|d| &d.0).collect();
        let failed = decided.iter().any(|d| !d.1);
        match (met.is_empty(), failed) {
            (false, false) if met.iter().any(|m| decides_alone(m)) => Some(Truth::True),
            (true, true) => Some(Truth::False),
            _ => None,
        }
    }

    /// The condition table L for every phrase given (e.g. a graph's condition phrases).
    pub fn table<'a>(&self, phrases: impl IntoIterator<Item = &'a str>) -> ConditionTable {
        let mut table = ConditionTable::new();
        for phrase in phrases {
            let truth = self.evaluate(phrase);
            if truth != Truth::Unknown {
                table.set(phrase, truth);
            }
        }
        table
    }
}

/// Whether a bound the patient meets makes a population theirs by itself: a clinical
/// state ("CrCl below 30"), or an age from which on people are older adults, one of
/// medicine's special populations ("older than 60 years", "65 and over"), rather than
/// a bound nearly everyone meets ("aged 2 months and over", "adults 18 years and
/// older"). Children are named by their nouns and ranges, which say more than an age.
fn decides_alone(m: &measure::Measure) -> bool {
    m.quantity != measure::Quantity::AgeYears
        || (m.interval.low >= OLDER_ADULT_YEARS && m.interval.high.is_infinite())
}

/// The youngest age that bounds older adults as a population.
const OLDER_ADULT_YEARS: f64 = 50.0;

#[cfg(test)]
mod tests {
    use super::*;

    /// A table the user edits revises the patient: the flipped phrase, phrases that
    /// name it (negated ones the other way), other wordings of its concepts and the
    /// concepts that imply them follow; what the table leaves as the patient had it
    /// changes nothing.
    #[test]
    fn a_flipped_condition_revises_the_patient() {
        let patient =
            Patient::read("A woman in the first trimester of pregnancy with Lyme disease.");
        let mut table = patient.table(["Pregnant People", "in adults"]);
        assert_eq!(patient.revised(&table), patient);
        table.set("Pregnant People", Truth::False);
        let revised = patient.revised(&table);
        for (phrase, expected) in [
            ("Pregnant People", Truth::False),
            ("pregnant people with Lyme disease", Truth::False),
            ("people who are not pregnant people", Truth::True),
            ("during pregnancy", Truth::False),
            ("in the first trimester", Truth::False),
            ("in women", Truth::True),
        ] {
            assert_eq!(revised.evaluate(phrase), expected, "{phrase}");
            assert_ne!(patient.evaluate(phrase), Truth::Unknown, "{phrase}");
        }
        // Set true, a phrase the description never spoke to holds for her.
        table.set("people with a history of tick bites", Truth::True);
        let revised = patient.revised(&table);
        assert_eq!(
            patient.evaluate("people with a history of tick bites"),
            Truth::Unknown
        );
        assert_eq!(
            revised.evaluate("people with a history of tick bites"),
            Truth::True
        );
    }

    #[test]
    fn an_age_bound_met_decides_a_label_of_a_split_but_not_a_population() {
        let patient = Patient::read("A 74-year-old woman with insomnia.");
        // In prose "people aged 2 months and over" names everyone past infancy, no
        // condition of hers.
        assert_eq!(
            patient.evaluate("people aged 2 months and over"),
            Truth::Unknown
        );
        for (label, truth) in [
            ("people aged 2 months and over", Some(Truth::True)),
            ("Maximum dose: greater than 65 years", Some(Truth::True)),
            (
                "Maximum dose: less than or equal to 65 years",
                Some(Truth::False),
            ),
            ("Maximum dose", None),
        ] {
            assert_eq!(patient.within_bounds(label), truth, "{label}");
        }
    }

    #[test]
    fn an_age_from_which_on_people_are_older_adults_makes_them_a_population() {
        check(
            "An 84-year-old man with no known heart disease has hypothyroidism.",
            &[
                // However roughly the age is given, and whatever follows it.
                (
                    "Patients older than about 60 years without coronary disease",
                    Truth::True,
                ),
                ("adults aged 65 years and older", Truth::True),
                // A bound nearly every adult meets says nothing of this one.
                ("people aged 18 years and over", Truth::Unknown),
                ("patients younger than 40 years", Truth::False),
            ],
        );
    }

    #[test]
    fn a_wait_until_a_time_and_a_circumstance_say_nothing_of_the_patient() {
        check(
            "A woman in the first trimester of pregnancy has symptomatic giardiasis.",
            &[
                // The wait ends in the second trimester; she is not said to be in it.
                (
                    "if treatment cannot be deferred until the second trimester",
                    Truth::Unknown,
                ),
                ("women in the second trimester", Truth::False),
                ("pregnant women until delivery", Truth::True),
            ],
        );
        check(
            "A woman who is 28 weeks pregnant has heparin-induced thrombocytopenia.",
            &[
                // "where …" says when the preference holds, not who the women are.
                (
                    "pregnant women with thrombocytopenia where danaparoid sodium is not \
                     available locally",
                    Truth::True,
                ),
                ("pregnant women with thrombocytopenia", Truth::True),
            ],
        );
    }

    #[test]
    fn a_measured_qtc_decides_qt_prolongation() {
        check(
            "A 35-year-old woman whose baseline ECG shows a QTc of 530 ms has opioid use \
             disorder.",
            &[
                ("patients with QT prolongation", Truth::True),
                ("patients with long QT syndrome", Truth::True),
            ],
        );
        check(
            "A man with a QTc of 410 ms has schizophrenia.",
            &[("patients with a prolonged QTc interval", Truth::False)],
        );
        check(
            "A man with a QTc of 455 ms has schizophrenia.",
            &[("patients with QT prolongation", Truth::Unknown)],
        );
    }

    fn check(question: &str, expect: &[(&str, Truth)]) {
        let patient = Patient::read(question);
        for (phrase, truth) in expect {
            assert_eq!(
                patient.evaluate(phrase),
                *truth,
                "{phrase:?} for {question:?}\n{patient:#?}"
            );
        }
    }

    #[test]
    fn a_disease_is_of_the_kind_it_belongs_to() {
        check(
            "A 67-year-old man with heart failure also has moderate COPD with frequent wheeze.",
            &[
                ("patients with pulmonary diseases", Truth::True),
                (
                    "In patients with pulmonary diseases the beta blockers including \
                     bisoprolol are preferred",
                    Truth::True,
                ),
                ("people with underlying respiratory disease", Truth::True),
                ("patients with asthma", Truth::Unknown),
            ],
        );
    }

    #[test]
    fn adolescents_are_aged_10_to_19() {
        check(
            "A 2-year-old boy has suspected pulmonary tuberculosis.",
            &[
                ("In adolescents with suspected tuberculosis", Truth::False),
                ("In children with suspected tuberculosis", Truth::True),
            ],
        );
        check(
            "A 15-year-old girl has suspected pulmonary tuberculosis.",
            &[
                ("In adolescents with suspected tuberculosis", Truth::True),
                ("In children with suspected tuberculosis", Truth::True),
            ],
        );
        check(
            "A 19-year-old man has suspected pulmonary tuberculosis.",
            &[("In adolescents and adults", Truth::True)],
        );
        check(
            "A 40-year-old man has suspected pulmonary tuberculosis.",
            &[("In teenagers", Truth::False)],
        );
        // Young people are never the elderly.
        check(
            "An 84-year-old man has overt primary hypothyroidism.",
            &[
                (
                    "In most young and otherwise healthy adults with overt disease",
                    Truth::False,
                ),
                (
                    "Patients older than 60 years without coronary disease",
                    Truth::True,
                ),
            ],
        );
        check(
            "A 25-year-old woman has overt primary hypothyroidism.",
            &[("In young adults", Truth::True)],
        );
        // Middle age lies between young and old, and narrows the adults it modifies.
        for (who, expected) in [
            ("An 82-year-old man", Truth::False),
            ("A 52-year-old man", Truth::True),
            ("A 30-year-old man", Truth::False),
        ] {
            check(
                &format!("{who} has breathlessness."),
                &[("In middle-aged adults", expected)],
            );
        }
    }

    #[test]
    fn people_named_before_or_share_the_modifier_after_them() {
        check(
            "A 3-year-old girl with asthma is due for her flu vaccine.",
            &[
                (
                    "Children or adolescents (2 years through 17 years of age) on long-term \
                     aspirin treatment",
                    Truth::Unknown,
                ),
                ("Children or adolescents with asthma", Truth::True),
            ],
        );
    }

    #[test]
    fn haemophilia_is_a_bleeding_disorder() {
        check(
            "A 30-year-old man with severe haemophilia A needs vaccines before travelling.",
            &[
                ("patients with bleeding disorders", Truth::True),
                // A qualifier the description does not decide leaves it open.
                (
                    "patients with congenital bleeding disorders",
                    Truth::Unknown,
                ),
                ("If you have a bleeding disorder", Truth::True),
                ("patients with coagulation disorders", Truth::True),
                ("people without a bleeding disorder", Truth::False),
            ],
        );
    }

    #[test]
    fn a_prefix_that_reverses_a_word_of_the_patient_s_excludes_them() {
        check(
            "A 58-year-old man with decompensated cirrhosis and well-controlled hypertension.",
            &[
                ("In compensated cirrhosis", Truth::False),
                ("In decompensated cirrhosis", Truth::True),
                ("patients with uncontrolled hypertension", Truth::False),
                ("patients with cirrhosis", Truth::True),
            ],
        );
        check(
            "A 40-year-old woman with uncomplicated cystitis.",
            &[
                ("complicated cystitis", Truth::False),
                ("uncomplicated cystitis", Truth::True),
            ],
        );
    }

    #[test]
    fn a_negated_modifier_excludes_the_people_it_negates() {
        // The negation after the person noun decides: what it covers must not be the
        // patient's. A negated main verb says nothing of who the people are.
        check(
            "A 22-year-old woman of childbearing potential has new generalised seizures.",
            &[
                ("women who are not of childbearing potential", Truth::False),
                ("women not of childbearing potential", Truth::False),
                ("women of childbearing potential", Truth::True),
                ("Children were not included in the trials", Truth::False),
            ],
        );
        check(
            "A 30-year-old pregnant woman at 12 weeks has a urinary tract infection.",
            &[
                ("women who are not pregnant", Truth::False),
                ("non-pregnant women", Truth::False),
                ("adults who are not pregnant", Truth::False),
                ("women who are pregnant", Truth::True),
            ],
        );
        check(
            "A 60-year-old man with diabetes and chronic kidney disease has hypertension.",
            &[
                ("patients who do not have diabetes", Truth::False),
                ("people without diabetes", Truth::False),
                ("adults who have never had diabetes", Truth::False),
                ("patients with diabetes", Truth::True),
            ],
        );
        check(
            "A 45-year-old man who has never been vaccinated against hepatitis B is exposed.",
            &[
                ("people who have not been vaccinated", Truth::True),
                ("people who have been vaccinated", Truth::False),
            ],
        );
    }

    #[test]
    fn a_population_is_its_own_people_and_its_own_negations() {
        // People inside a population's modifiers are other people.
        check(
            "A 41-year-old man with HIV has no other TB risk factors.",
            &[
                (
                    "Infants, children, and adolescents exposed to adults in high-risk categories",
                    Truth::False,
                ),
                ("HIV-infected persons", Truth::True),
                // "No other risk factors" says he has one already: he is not among
                // the people with none.
                ("People with no known risk factors for TB", Truth::False),
            ],
        );
        // Populations side by side are alternatives.
        check(
            "A 29-year-old woman who is 22 weeks pregnant.",
            &[
                (
                    "Contraindicated in children <8 y old and pregnant women",
                    Truth::True,
                ),
                ("children <8 y old and infants", Truth::False),
            ],
        );
        // Trimesters in order.
        check(
            "A woman who is 22 weeks pregnant.",
            &[
                ("Can be used after the first trimester", Truth::True),
                ("Avoid after the second trimester", Truth::False),
                ("in the first trimester", Truth::False),
            ],
        );
        // A function called normal is not impaired.
        check(
            "An 81-year-old woman with normal renal function.",
            &[
                ("patients with renal impairment", Truth::False),
                ("patients with normal renal function", Truth::True),
                ("creatinine clearance below 30 mL/min", Truth::False),
            ],
        );
        // The weeks a baby was born at are no trimester of a pregnancy.
        check(
            "A 6-week-old infant born at 30 weeks of gestation.",
            &[("Avoid in the third trimester", Truth::Unknown)],
        );
        // A population without something holds for a patient without it.
        check(
            "A 30-year-old woman has no risk factors for TB.",
            &[("People with no known risk factors for TB", Truth::True)],
        );
        check(
            "A 30-year-old woman with diabetes.",
            &[("Give the vaccine to adults with diabetes", Truth::True)],
        );
        // Being one of the people a phrase names is not enough when it asks more of
        // them; a person named after "born to" is someone else.
        check(
            "A 6-week-old infant born to a mother with HIV.",
            &[
                ("infants", Truth::True),
                ("infants at low risk of HIV acquisition", Truth::Unknown),
                ("children with sickle cell disease", Truth::Unknown),
                ("women", Truth::Unknown),
            ],
        );
        check(
            "A 7-year-old boy with sickle cell disease.",
            &[("children with sickle cell disease", Truth::True)],
        );
    }

    #[test]
    fn table_9_example_1() {
        check(
            "Which gene causes cardiomyopathy in pediatric patients but not in adults?",
            &[
                ("pediatric", Truth::True),
                ("in children", Truth::True),
                ("in adults", Truth::False),
                ("adult patients", Truth::False),
            ],
        );
    }

    #[test]
    fn table_9_example_2() {
        check(
            "What antibiotic is safe for a 5-year-old boy with pneumonia and no known allergies?",
            &[
                ("in children", Truth::True),
                ("in adults", Truth::False),
                ("penicillin allergy", Truth::False),
                ("renal impairment", Truth::Unknown),
                ("pregnancy", Truth::False),
            ],
        );
    }

    #[test]
    fn pregnancy_weeks_trimesters_and_planning() {
        check(
            "Which antihypertensive is preferred in a woman who is 16 weeks pregnant?",
            &[
                ("in pregnancy", Truth::True),
                ("pregnant women", Truth::True),
                ("second-trimester exposure", Truth::True),
                ("first trimester", Truth::False),
                ("in men", Truth::False),
            ],
        );
        check(
            "Which immunosuppressant is preferred in a woman who plans to conceive within the next year?",
            &[("women who plan pregnancy", Truth::True)],
        );
        check(
            "Which anticoagulant is recommended for deep vein thrombosis diagnosed at 18 weeks of gestation?",
            &[("during pregnancy", Truth::True)],
        );
    }

    #[test]
    fn epilepsy_is_a_seizure_disorder() {
        check(
            "Which smoking-cessation pharmacotherapy is preferred for a patient with poorly \
             controlled epilepsy?",
            &[
                (
                    "contraindicated in patients with a seizure disorder",
                    Truth::True,
                ),
                ("in patients with a history of seizures", Truth::True),
            ],
        );
        check(
            "Which antibiotic for a patient with a convulsive disorder?",
            &[("in epilepsy", Truth::True)],
        );
    }

    #[test]
    fn ejection_fraction_numbers() {
        check(
            "Which calcium-channel blocker for angina in a man with a left ventricular \
             ejection fraction of 30%?",
            &[
                (
                    "should be avoided in reduced left ventricular function",
                    Truth::True,
                ),
                (
                    "in heart failure with reduced ejection fraction",
                    Truth::True,
                ),
                ("left ventricular systolic dysfunction", Truth::True),
            ],
        );
        check(
            "Which drug for rate control in a patient with an LVEF of 60%?",
            &[(
                "in patients with left ventricular dysfunction",
                Truth::False,
            )],
        );
        // Between 40% and 50% is neither reduced nor preserved.
        check(
            "Which drug for rate control in a patient with an EF of 45%?",
            &[(
                "in patients with left ventricular dysfunction",
                Truth::Unknown,
            )],
        );
    }

    #[test]
    fn what_a_question_asks_to_treat_is_its_topic_not_a_condition() {
        let question = "Which afterload-reducing therapy should be used for heart failure with \
                        reduced ejection fraction in a woman at 28 weeks of gestation?";
        let patient = Patient::read(question);
        // (Another wording of it: the question's own words stay the patient's.)
        let hfref = "in left ventricular systolic dysfunction";
        assert_eq!(patient.evaluate(hfref), Truth::True);
        let topic = "Which afterload-reducing therapy should be used for heart failure with \
                     reduced ejection fraction";
        let description = "in a woman at 28 weeks of gestation";
        let without = patient.without_topic(topic, description);
        assert_eq!(without.evaluate(hfref), Truth::Unknown);
        assert_eq!(without.evaluate("during pregnancy"), Truth::True);
        // … unless the description names it too.
        let without = patient.without_topic(topic, "in a pregnant woman with HFrEF");
        assert_eq!(without.evaluate(hfref), Truth::True);
        // The patient has what is asked about: people named with it are people like her.
        let question = "Which oral antihypertensive is first-line for chronic hypertension \
                        in pregnancy?";
        let without = Patient::read(question).without_topic(
            "Which oral antihypertensive is first-line for chronic hypertension",
            "in pregnancy",
        );
        assert_eq!(without.evaluate("hypertension"), Truth::Unknown);
        assert_eq!(
            without.evaluate("pregnant women with chronic hypertension"),
            Truth::True
        );
    }

    #[test]
    fn renal_function_numbers_and_dialysis() {
        check(
            "Which antibiotic for cystitis in a woman with a creatinine clearance of 25 mL/min?",
            &[
                ("creatinine clearance is below 30 mL/min", Truth::True),
                ("renal impairment", Truth::True),
                ("eGFR below 15", Truth::False),
            ],
        );
        check(
            "Which agent for type 2 diabetes in a patient on maintenance hemodialysis?",
            &[
                ("in dialysis", Truth::True),
                ("when eGFR is below 30 mL/min/1.73 m²", Truth::True),
                ("kidney failure", Truth::True),
            ],
        );
        check(
            "Which mood stabilizer in a patient with bipolar I disorder and stage 4 chronic kidney disease?",
            &[("advanced chronic kidney disease", Truth::True), ("when renal function is severely impaired", Truth::True)],
        );
        // A bound on the clearance says as much as a number.
        check(
            "Which anticoagulant for a pulmonary embolism in a patient with a creatinine clearance below 30 mL/min?",
            &[
                ("in severe renal impairment", Truth::True),
                ("renal impairment", Truth::True),
            ],
        );
    }

    #[test]
    fn a_patient_who_is_one_of_the_examples_is_in_the_population() {
        check(
            "A 46-year-old woman with depression also takes cimetidine long term for reflux.",
            &[
                (
                    "those taking a CYP2C19 inhibitor (such as cimetidine [Tagamet])",
                    Truth::True,
                ),
                (
                    "patients taking a CYP2C19 inhibitor, e.g. cimetidine",
                    Truth::True,
                ),
                (
                    "patients taking enzyme inducers, e.g. rifampicin",
                    Truth::Unknown,
                ),
            ],
        );
        check(
            "A 70-year-old man with cirrhosis needs pain relief.",
            &[(
                "patients with liver disease including cirrhosis",
                Truth::True,
            )],
        );
    }

    #[test]
    fn a_test_result_rules_out_the_opposite_result() {
        assert_eq!(
            results("her mother tested HBsAg-negative; HIV positive, negative for HCV"),
            BTreeMap::from([
                ("hbsag".to_string(), false),
                ("hiv".to_string(), true),
                ("hcv".to_string(), false),
            ])
        );
        assert!(results("the test came back negative").is_empty());
        check(
            "A preterm boy was born to a mother who tested HBsAg-negative.",
            &[
                ("infants born to HBsAg-positive mothers", Truth::False),
                ("infants whose mothers are HBsAg positive", Truth::False),
                // The mother of a child is not the child.
                ("if the mother is HBsAg-positive", Truth::False),
                ("if the mother is HBsAg-negative", Truth::True),
            ],
        );
    }

    #[test]
    fn ages_allergies_and_plain_words() {
        check(
            "Which first-line drug for postherpetic neuralgia should be avoided in an 84-year-old?",
            &[
                ("adults aged 65 years and older", Truth::True),
                ("in children", Truth::False),
            ],
        );
        check(
            "Which cephalosporin for bacterial meningitis in a 10-day-old neonate?",
            &[
                ("in neonates", Truth::True),
                ("newborns", Truth::True),
                ("in adults", Truth::False),
            ],
        );
        check(
            "What antibiotic for pharyngitis in a patient with a history of anaphylaxis to penicillin?",
            &[("penicillin allergy", Truth::True), ("patients allergic to penicillin", Truth::True)],
        );
        check(
            "Which antibiotic for endocarditis prophylaxis in a patient who developed urticaria after taking amoxicillin?",
            &[("patients allergic to penicillin", Truth::True)],
        );
        check(
            "Which stress test in a patient with left bundle branch block?",
            &[
                (
                    "patients with left bundle branch block or ventricular paced rhythm",
                    Truth::True,
                ),
                ("left bundle branch block", Truth::True),
                ("right bundle branch block", Truth::Unknown),
            ],
        );
        // Negated after the finding.
        check(
            "A boy has confirmed TB with fluoroquinolone resistance ruled out. Which regimen?",
            &[("resistance to fluoroquinolones", Truth::False)],
        );
        check(
            "A boy has confirmed TB with fluoroquinolone resistance. Which regimen?",
            &[("resistance to fluoroquinolones", Truth::True)],
        );
    }

    #[test]
    fn words_inside_other_names_are_not_concepts() {
        check(
            "Which benzodiazepine in a patient with Child-Pugh class C cirrhosis?",
            &[
                ("in children", Truth::Unknown),
                ("severe hepatic impairment", Truth::True),
            ],
        );
        // Those with an immediate, severe reaction are not those whose reaction was mild.
        check(
            "A woman developed a non-life-threatening rash after taking penicillin.",
            &[(
                "patients with a history of immediate-type hypersensitivity reactions to \
                 penicillin (anaphylaxis, urticaria)",
                Truth::False,
            )],
        );
        // Child-Pugh classes grade hepatic impairment, one grade excluding the others.
        check(
            "A 34-year-old man with alcohol-related cirrhosis classified as Child-Pugh class B \
             starts a drug.",
            &[
                ("patients with moderate hepatic impairment", Truth::True),
                ("patients with severe hepatic impairment", Truth::False),
                ("mild hepatic impairment", Truth::False),
                ("hepatic impairment", Truth::True),
            ],
        );
        check(
            "Which test in an adult who received BCG vaccination as a child?",
            &[("in adults", Truth::True), ("in children", Truth::False)],
        );
    }

    #[test]
    fn the_table_holds_only_known_values() {
        let patient = Patient::read("a 5-year-old boy");
        let table = patient.table(["in children", "renal impairment"]);
        assert_eq!(table.phrase("in children"), Truth::True);
        assert_eq!(table.entries().count(), 1);
    }
}

#[cfg(test)]
mod kind_tests {
    use super::*;
    use crate::language::tests::shipped;

    /// The patient `text` describes, with the kinds of the medicines it names.
    fn with_kinds(text: &str) -> Patient {
        let mut patient = Patient::read(text);
        patient.learn_kinds(&shipped().drugs, text);
        patient
    }

    #[test]
    fn a_patient_on_a_medicine_is_among_those_taking_its_kind() {
        let question = "A 58-year-old man on long-term metoprolol has anaphylaxis.";
        let patient = with_kinds(question);
        assert!(
            patient.kinds.contains("beta blocker"),
            "{:?}",
            patient.kinds
        );
        for (phrase, expected) in [
            (
                "patients who are taking beta-blocking medications",
                Truth::True,
            ),
            ("patients that are prescribed beta blockers", Truth::True),
            ("patients taking anticoagulants", Truth::Unknown),
        ] {
            assert_eq!(patient.evaluate(phrase), expected, "{phrase}");
        }
        let negated = "A woman who takes no warfarin.";
        let patient = with_kinds(negated);
        assert!(
            !patient.kinds.contains("anticoagulant"),
            "{:?}",
            patient.kinds
        );
        // "Dose" is no street name of a drug here, whatever else WordNet files it as.
        let dose = "What is the maximum daily dose of metformin for this patient?";
        let patient = with_kinds(dose);
        assert!(
            patient.kinds.contains("antidiabetic"),
            "{:?}",
            patient.kinds
        );
        assert!(
            !patient.kinds.contains("hallucinogen"),
            "{:?}",
            patient.kinds
        );
    }
}
