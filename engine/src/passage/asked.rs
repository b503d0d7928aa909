//! What a question asks for, and the spans of a statement that can be it.
//!
//! "Which JE vaccine …" asks for a thing a noun phrase headed by "vaccine" names (or a
//! name the text types as one: "Imojev is a live attenuated vaccine"); "What dose …"
//! for an amount with its unit and frequency ("50 mg twice daily"); "How many doses …"
//! for a count of them ("3 doses"); "When …" for a time ("within 2 weeks").

use std::ops::Range;

use crate::language::{stems, Analysis, Language, Tag};
use crate::lexicon::Class;
use crate::text::singular;

/// The kind of answer a question asks for.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Asked {
    /// A thing named by a noun phrase with this head stem ("vaccine", "test"); `plural`
    /// when the question asks for several ("Which blood tests …") or for a kind ("What
    /// kind of vaccine …": kinds are often named in the plural).
    Thing { head: String, plural: bool },
    /// An amount: a number with its unit, frequency and route. `measured` when the
    /// question asks for a value measured in the patient ("Above what NT-proBNP
    /// concentration …", "What LDL target …"): then a laboratory unit ("pg/mL",
    /// "mmol/L") is one, where for a dose it marks a value that is not the answer.
    Amount { measured: bool },
    /// A number of things with this head stem ("dose").
    Count { head: String },
    /// A time or delay ("within 2 weeks").
    Time,
    /// How often and for how long ("once weekly for 8 weeks").
    Schedule,
    /// How something is done, by a form of the question's verb: "How should the dose
    /// be administered?" — "Administer 0.5 mL subcutaneously". `object` is the head
    /// (stem) of what is done to, when the question names it before "be" ("specimen"
    /// in "How should the urine specimen be collected?").
    Manner {
        verb: String,
        object: Option<String>,
    },
}

/// What links a noun phrase to another name for the same thing ("antiviral medications
/// known as neuraminidase inhibitors").
const RENAMING: &[&[&str]] = &[
    &["known", "as"],
    &["called"],
    &["termed"],
    &["referred", "to", "as"],
    &["also", "known", "as"],
];

/// Stems of the test nouns that say only that something is examined, not how: they
/// name a test with a noun for what they examine ("throat culture" is not among them,
/// "antibody test" is), where a method's noun names one whatever qualifies it.
const GENERIC_TESTS: &[&str] = &[
    "test",
    "assay",
    "scan",
    "imag",
    "screen",
    "examination",
    "panel",
    "antibody",
    "antigen",
    "titer",
    "titre",
];

/// Nouns that classify the noun after "of" rather than head the answer ("kind of
/// influenza vaccine" asks for a vaccine).
const CLASSIFIERS: &[&str] = &["kind", "type", "class", "form", "sort", "category", "group"];

/// Head nouns that ask for an amount: a dose, or a measured attribute ("From what
/// induration size …", "Above what level …").
const AMOUNT_HEADS: &[&str] = &[
    "dose",
    "dosage",
    "amount",
    "strength",
    "quantity",
    "size",
    "level",
    "threshold",
    "cutoff",
    "cut-off",
    "concentration",
    "volume",
    // A change of a dose is an amount too ("What change in her warfarin dose …").
    "change",
    "range",
    "maximum",
    "minimum",
    // A bound on an amount is an amount ("What is the metformin dose limit?").
    "limit",
    "ceiling",
    "adjustment",
    "reduction",
    "increase",
    "decrease",
    // A part of a whole is an amount too ("To what fraction of the dose …").
    "fraction",
    "proportion",
    "percentage",
    // What is taken in over a time is an amount ("the maximum daily caffeine intake").
    "intake",
    "consumption",
    "allowance",
];

/// Head nouns that ask for a value aimed at, an amount answered with its bound ("What
/// HbA1c goal …" → "less than 8.0%").
pub const GOAL_HEADS: &[&str] = &["goal", "target"];

/// Head nouns that ask for a value measured in the patient, not given to them: a
/// threshold, a level, a goal.
const MEASURED_HEADS: &[&str] = &[
    "level",
    "threshold",
    "cutoff",
    "cut-off",
    "concentration",
    "goal",
    "target",
];

/// Nouns that name an amount as a part of a whole: where one is asked, a percentage
/// answers even a question about a dose ("To what fraction of the dose …").
pub const PART_NOUNS: &[&str] = &["fraction", "proportion", "percentage", "percent"];

/// Verbs of giving, choosing or withholding a treatment: "What should she be given?",
/// "Which is preferred?", "What is contraindicated for her?" ask for one.
const GIVING: &[&str] = &[
    "give",
    "given",
    "receive",
    "take",
    "prescribe",
    "prescribed",
    "offer",
    "offered",
    "administer",
    "administered",
    "add",
    "use",
    "used",
    "start",
    "started",
    "recommended",
    "advise",
    "advises",
    "advised",
    "suggest",
    "suggests",
    "suggested",
    "need",
    "needs",
    "get",
    "gets",
    "recommend",
    "recommends",
    "preferred",
    "suitable",
    "appropriate",
    "indicated",
    "replace",
    "substitute",
    "substituted",
    // What to withhold is a treatment too ("What is contraindicated for her?").
    "avoid",
    "avoided",
    "contraindicated",
];

/// Verbs of examining: "What should be measured?" asks for a test.
const EXAMINING: &[&str] = &[
    "measure",
    "measured",
    "monitor",
    "monitored",
    "check",
    "checked",
    "test",
    "tested",
    "order",
    "ordered",
    "perform",
    "performed",
    "assess",
    "assessed",
];

/// Whether a word is written as a symbol: two or more capitals, or letters with digits
/// ("TSH", "T4", "HbA1c", "CD4").
fn is_symbol(word: &str) -> bool {
    let letters = word.chars().filter(|c| c.is_alphabetic()).count();
    let capitals = word.chars().filter(|c| c.is_uppercase()).count();
    let digits = word.chars().any(|c| c.is_ascii_digit());
    letters >= 1 && (capitals >= 2 || digits)
}

/// Nouns of the quantity a test measures, after what it measures ("total T4
/// concentration", "potassium levels").
const QUANTITY_NOUNS: &[&str] = &[
    "level",
    "levels",
    "concentration",
    "concentrations",
    "value",
    "values",
    "measurement",
    "measurements",
];

/// Head nouns that ask how often ("On what schedule …").
const SCHEDULE_HEADS: &[&str] = &["schedule", "frequency"];

/// Head nouns that ask for a time.
const TIME_HEADS: &[&str] = &[
    "time", "timing", "point", "interval", "delay", "duration", "length",
];

impl Asked {
    /// What the question asks for, from the wh-phrase of its asking sentence ("How
    /// many …", "When …", "Which/What … <verb>"); `None` when it asks for none of these.
    pub fn of(question: &str) -> Option<Asked> {
        let words = asking_words(question);
        let words: Vec<&str> = words.iter().map(String::as_str).collect();
        let at = |i: usize| words.get(i).copied().unwrap_or("");
        for i in 0..words.len() {
            match (at(i), at(i + 1)) {
                // "By how much should the dose be reduced?": "much" with no noun after it
                // asks for an amount.
                // … and so does "How much higher may the dose need to be?".
                ("how", "much")
                    if at(i + 2).is_empty()
                        || Class::Auxiliary.has(at(i + 2))
                        || COMPARATIVES.contains(&at(i + 2)) =>
                {
                    return Some(Asked::Amount { measured: false })
                }
                // "How many 2.5 ml doses …": what is counted is the noun after the
                // measure of each.
                ("how", "many") | ("how", "much") => {
                    let counted = words[(i + 2).min(words.len())..]
                        .iter()
                        .find(|w| {
                            !w.chars()
                                .all(|c| c.is_ascii_digit() || c == '.' || c == ',')
                                && !UNITS.contains(w)
                        })
                        .copied()
                        .unwrap_or("");
                    return Some(Asked::Count {
                        head: stem(counted),
                    });
                }
                // "How far apart should she take them?", "How soon …": an interval.
                ("how", "long") | ("how", "soon") | ("when", _) => return Some(Asked::Time),
                ("how", "far") if at(i + 2) == "apart" => return Some(Asked::Time),
                ("how", "often") => return Some(Asked::Schedule),
                ("how", aux) if Class::Auxiliary.has(aux) => {
                    // The main verb: the word after "be" ("How should his glucose be
                    // checked in the hours after …"), else the last word before any
                    // preposition that is not an auxiliary or a pronoun ("How should he
                    // take them?").
                    let rest = &words[i + 2..];
                    let be = rest.iter().position(|w| *w == "be");
                    // After a pronoun subject, the word after it ("How should she time
                    // the two medicines?").
                    let after_pronoun = rest
                        .first()
                        .filter(|w| Class::Pronoun.has(w))
                        .and_then(|_| rest.get(1))
                        .filter(|w| !Class::Auxiliary.has(w) && !Class::Preposition.has(w));
                    let verb = match (be, after_pronoun) {
                        (Some(be), _) => rest.get(be + 1)?,
                        (None, Some(verb)) => verb,
                        (None, None) => rest
                            .iter()
                            .take_while(|w| !Class::Preposition.has(w))
                            .filter(|w| !Class::Auxiliary.has(w) && !Class::Pronoun.has(w))
                            .last()?,
                    };
                    let object = be
                        .and_then(|be| be.checked_sub(1))
                        .map(|o| rest[o])
                        .filter(|o| !crate::lexicon::any(&crate::lexicon::FUNCTION, o))
                        .map(stem);
                    return Some(Asked::Manner {
                        verb: verb_stem(verb),
                        object,
                    });
                }
                ("which", _) | ("what", _) => {
                    // "Which of these vaccines …" asks what "Which vaccine …" asks.
                    let from = partitive(&words, i);
                    let picks = from != i;
                    let i = from;
                    // The wh-phrase runs to its verb; "N1 of N2" is headed by N1 unless
                    // N1 only classifies N2.
                    // "What is the maximum dose …": the wh-word is the copula's
                    // complement, and the noun phrase after the copula says what is asked.
                    // "What would be an appropriate alternative?": a modal before "be"
                    // is the copula too.
                    let modal_be = Class::Auxiliary.has(at(i + 1)) && at(i + 2) == "be";
                    let copula = matches!(at(i + 1), "is" | "are" | "was" | "were") || modal_be;
                    let phrase = if copula {
                        let rest: Vec<&str> = words[i + 2 + usize::from(modal_be)..]
                            .iter()
                            .copied()
                            .skip_while(|w| Class::Determiner.has(w))
                            .collect();
                        wh_phrase(&rest)
                    } else {
                        wh_phrase(&words[i + 1..])
                    };
                    let of = phrase.iter().position(|&w| w == "of");
                    let classified =
                        of.is_some_and(|of| of > 0 && CLASSIFIERS.contains(&phrase[of - 1]));
                    let head = match of {
                        Some(of) if of > 0 && !classified => phrase[of - 1],
                        _ => phrase.last().copied().unwrap_or(""),
                    };
                    // A kind is often named in the plural ("inactivated vaccines").
                    // A partitive's noun is plural whatever is picked; its verb says how
                    // many ("Which of these vaccines is …").
                    let plural = if picks {
                        matches!(at(i + 1 + phrase.len()), "are" | "were" | "have")
                    } else {
                        singular(head) != head || classified
                    };
                    // "What is recommended …": a participle after the copula is the
                    // verb, not a head.
                    // "Which one …" names nothing: what the verb says is asked.
                    let referred = referred_kind(question);
                    let head = match phrase.as_slice() {
                        [only] if copula && only.ends_with("ed") => "",
                        // "… needs a DPP-4 inhibitor. Which one …": the kind a sentence
                        // before introduced.
                        ["one"] => referred.as_deref().unwrap_or(""),
                        _ => head,
                    };
                    let head = stem(head);
                    // "To what should the dose be reduced?": the amount a change reaches.
                    let changed_to = i > 0 && at(i - 1) == "to";
                    if head.is_empty() && changed_to && words[i + 1..].iter().any(|w| is_change(w))
                    {
                        return Some(Asked::Amount { measured: false });
                    }
                    // "What should be measured?": what is examined is a test.
                    if head.is_empty() && words[i + 1..].iter().any(|w| EXAMINING.contains(w)) {
                        return Some(Asked::Thing {
                            head: "test".into(),
                            plural: false,
                        });
                    }
                    // "What should she be given?": no noun, but a verb of giving asks for
                    // what is given, a treatment.
                    if head.is_empty() && words[i + 1..].iter().any(|w| GIVING.contains(w)) {
                        return Some(Asked::Thing {
                            head: "treatment".into(),
                            plural: false,
                        });
                    }
                    if head.is_empty() {
                        return None;
                    }
                    if AMOUNT_HEADS
                        .iter()
                        .chain(GOAL_HEADS)
                        .any(|&h| stem(h) == head)
                    {
                        let measured = MEASURED_HEADS.iter().any(|&h| stem(h) == head);
                        return Some(Asked::Amount { measured });
                    }
                    if TIME_HEADS.iter().any(|&h| stem(h) == head) {
                        return Some(Asked::Time);
                    }
                    if SCHEDULE_HEADS.iter().any(|&h| stem(h) == head) {
                        return Some(Asked::Schedule);
                    }
                    return Some(Asked::Thing { head, plural });
                }
                _ => {}
            }
        }
        None
    }
}

/// The words of the wh-phrase ("Which JE vaccine should …" → "je", "vaccine"), which an
/// answer never consists of alone.
pub fn type_words(question: &str) -> Vec<String> {
    let words = asking_words(question);
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    match words
        .iter()
        .position(|w| matches!(*w, "which" | "what" | "many" | "much"))
    {
        Some(i) => wh_phrase(&words[partitive(&words, i) + 1..])
            .into_iter()
            .map(str::to_string)
            .collect(),
        None => Vec::new(),
    }
}

/// Where the wh-phrase's own words start after the wh-word at `i`: a partitive "which
/// of these / the following / them" picks from what follows it, so its determiner (and
/// "following") stands where the wh-word would.
fn partitive(words: &[&str], i: usize) -> usize {
    if words.get(i + 1) != Some(&"of") {
        return i;
    }
    let mut j = i + 2;
    while words
        .get(j)
        .is_some_and(|w| Class::Determiner.has(w) || *w == "following")
    {
        j += 1;
    }
    if j > i + 2 {
        j - 1
    } else {
        i
    }
}

pub use crate::text::asking;

/// The lower-case words of the question proper: its last sentence that asks ("A
/// 10-year-old boy has TB. Which regimen should he receive?"), with its commas, which
/// end a wh-phrase ("which specimen, collected now, gives …").
/// A number keeps its decimal point and thousands separator ("2.5 ml", "1,000 mg").
fn asking_words(question: &str) -> Vec<String> {
    let lower = asking(question).unwrap_or(question).to_lowercase();
    let chars: Vec<char> = lower.chars().collect();
    let mut out: Vec<String> = Vec::new();
    let mut word = String::new();
    for (i, &c) in chars.iter().enumerate() {
        let in_number = matches!(c, '.' | ',')
            && i > 0
            && chars[i - 1].is_ascii_digit()
            && chars.get(i + 1).is_some_and(char::is_ascii_digit);
        if c.is_alphanumeric() || c == '-' || in_number {
            word.push(c);
            continue;
        }
        if !word.is_empty() {
            out.push(std::mem::take(&mut word));
        }
        if c == ',' {
            out.push(",".to_string());
        }
    }
    if !word.is_empty() {
        out.push(word);
    }
    out
}

/// The head noun of the last phrase a sentence before the asking one introduces with
/// "a" or "an" ("She needs a DPP-4 inhibitor." → "inhibitor"), which "which one"
/// refers back to; none when it names people.
fn referred_kind(question: &str) -> Option<String> {
    let asking = asking(question)?;
    let before = question.strip_suffix(asking)?;
    let words: Vec<String> = before
        .to_lowercase()
        .split(|c: char| !c.is_alphanumeric() && c != '-')
        .map(str::to_string)
        .collect();
    // … as what the patient needs or is to be given ("needs a statin", "to start an
    // antidepressant").
    let at = words.iter().rposition(|w| w == "a" || w == "an")?;
    if !at
        .checked_sub(1)
        .is_some_and(|b| NEEDING.contains(&words[b].as_str()))
    {
        return None;
    }
    let phrase: Vec<&String> = words[at + 1..]
        .iter()
        .take_while(|w| {
            !w.is_empty()
                && !crate::lexicon::any(&crate::lexicon::FUNCTION, w)
                && !w.ends_with("ing")
        })
        .take(4)
        .collect();
    let head = phrase.last()?;
    let people = Class::Person.has(head) || Class::Group.has(head);
    (!people && !head.chars().all(|c| c.is_ascii_digit())).then(|| head.to_string())
}

/// Verbs whose object is what a patient is to have ([`referred_kind`]).
const NEEDING: &[&str] = &[
    "need",
    "needs",
    "needed",
    "require",
    "requires",
    "required",
    "start",
    "starts",
    "starting",
    "take",
    "takes",
    "receive",
    "receives",
    "prescribe",
    "prescribed",
    "given",
    "choose",
    "recommend",
    "recommends",
    "want",
    "wants",
];

/// The words after a wh-word up to the verb, or up to a preposition that opens a
/// modifier of the head ("which test | on the nasopharyngeal specimen is …") or a
/// subordinating conjunction ("which blood test | if any"); "of" stays, since "kind of
/// vaccine" and "dose of insulin" are read whole, and so do "and" and "or".
fn wh_phrase<'a>(words: &[&'a str]) -> Vec<&'a str> {
    let mut phrase: Vec<&str> = words
        .iter()
        .copied()
        .take_while(|w| {
            *w != ","
                && !Class::Auxiliary.has(w)
                && !VERBS_AFTER_WH.contains(w)
                && (*w == "of" || !Class::Preposition.has(w))
                && (matches!(*w, "and" | "or") || !Class::Conjunction.has(w))
        })
        .collect();
    // "Which regimen best limits her risk": a determiner or pronoun after the first word
    // opens the verb's object, so the word before it is the verb, and adverbs before the
    // verb are not the head either.
    // A subject pronoun instead opens a relative clause after the head ("the highest
    // daily dose | he should take").
    if let Some(subject) = phrase
        .iter()
        .skip(1)
        .position(|w| SUBJECT_PRONOUNS.contains(w))
    {
        phrase.truncate(subject + 1);
    }
    if let Some(object) = phrase
        .iter()
        .skip(1)
        .position(|w| Class::Determiner.has(w) || Class::Pronoun.has(w))
    {
        // A determiner right after the first word opens an appositive ("To which
        // antihypertensive, the first choice in pregnancy, …"): the first word stays.
        phrase.truncate(object.max(1));
        while phrase.len() > 1 && phrase.last().is_some_and(|w| is_adverb(w)) {
            phrase.pop();
        }
    }
    // "the maximum daily caffeine intake advised | for …": a participle that ends the
    // phrase after its noun opens a clause about it, and the noun is the head.
    if phrase.len() > 1
        && phrase
            .last()
            .is_some_and(|w| w.len() > 4 && w.ends_with("ed") && !w.ends_with("eed"))
    {
        phrase.pop();
    }
    phrase
}

/// Whether a word is an adverb by its form or one of the few without "-ly" that
/// grade a verb ("best", "most").
fn is_adverb(word: &str) -> bool {
    (word.len() > 4 && word.ends_with("ly"))
        || matches!(
            word,
            "best" | "most" | "least" | "better" | "also" | "still"
        )
}

/// Pronouns that are only ever subjects, so open a clause of their own.
const SUBJECT_PRONOUNS: &[&str] = &["i", "he", "she", "we", "they"];

/// Verbs besides auxiliaries that end a wh-phrase ("Which test | needs …").
const VERBS_AFTER_WH: &[&str] = &["need", "needs"];

/// A word's stem for matching heads: lower case, singular, without "-ing" ("tests",
/// "testing" → "test").
pub fn stem(word: &str) -> String {
    // A possessive is its noun, whichever apostrophe the text uses ("Parkinson’s",
    // "Parkinson's", "patients'").
    let lower = word.to_lowercase();
    let owner = ["'s", "’s", "'", "’"]
        .iter()
        .find_map(|p| lower.strip_suffix(p))
        .unwrap_or(&lower);
    let w = singular(owner);
    match w.strip_suffix("ing") {
        Some(base) if base.len() >= 3 => base.to_string(),
        _ => w,
    }
}

/// Units of measure a dose is given in (not "kg" alone: a number of kilograms is a body
/// weight).
/// Nouns that ask for a treatment of any kind, a procedure as well as a medicine.
const TREATMENT_HEADS: &[&str] = &[
    "treatment",
    "therapy",
    "management",
    "option",
    "intervention",
    "procedure",
    "approach",
    "modality",
];

/// Word endings that name a treatment by what is done (therapies and operations).
const PROCEDURE_SUFFIXES: &[&str] = &["therapy", "ectomy", "plasty", "otomy", "ostomy", "pexy"];

/// Whether `unit` (with any number written onto it: "1mg") is a unit of mass.
pub fn is_mass_unit(unit: &str) -> bool {
    let unit = unit.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.');
    matches!(
        unit,
        "mg" | "g"
            | "mcg"
            | "µg"
            | "μg"
            | "ug"
            | "ng"
            | "microgram"
            | "micrograms"
            | "milligram"
            | "milligrams"
            | "gram"
            | "grams"
    )
}

const UNITS: &[&str] = &[
    "mg",
    "g",
    "mcg",
    "µg",
    "μg",
    "ug",
    "ng",
    "ml",
    "l",
    "iu",
    "unit",
    "units",
    "mmol",
    "meq",
    "%",
    "mg/kg",
    "mcg/kg",
    "µg/kg",
    "mg/m2",
    "mg/day",
    "mg/d",
    "ml/kg",
    "tablet",
    "tablets",
    "capsule",
    "capsules",
    "puff",
    "puffs",
    "drop",
    "drops",
    "mm",
    "cm",
    "millimeter",
    "millimeters",
    "millimetre",
    "millimetres",
    "centimeter",
    "centimeters",
    "centimetre",
    "centimetres",
    "milligram",
    "milligrams",
    "microgram",
    "micrograms",
    "gram",
    "grams",
    "nanogram",
    "nanograms",
    "millilitre",
    "millilitres",
    "milliliter",
    "milliliters",
    "litre",
    "litres",
    "liter",
    "liters",
];

/// Units of time.
const TIME_UNITS: &[&str] = &[
    "minute", "minutes", "hour", "hours", "day", "days", "week", "weeks", "month", "months",
    "year", "years", "h", "hr", "hrs",
];

/// Adjectives that say how often a thing is done, not what it is: "annual breast MRI"
/// is breast MRI, done each year.
pub const HOW_OFTEN_ADJECTIVES: &[&str] = &[
    "annual", "yearly", "biennial", "daily", "weekly", "monthly", "nightly", "hourly",
];

/// Whether a word is a unit of time ("days", "weeks", "h").
pub fn is_time_unit(word: &str) -> bool {
    TIME_UNITS.contains(&word)
}

/// Whether the "within" at word `at` of `tokens` (lower case) is denied ("must not be
/// given within 36 hours of …", "never within 2 weeks"): then the time it opens is how
/// long to wait, which answers "When …?" for the patient, not a time warned against.
pub fn waits_out(tokens: &[String], at: usize) -> bool {
    tokens.get(at).is_some_and(|t| t == "within")
        && tokens[at.saturating_sub(DENIAL_REACH)..at]
            .iter()
            .any(|t| matches!(t.as_str(), "not" | "never" | "n't"))
}

/// Whether `question` asks for what is given first ("What starting dose …?", "the
/// initial dose"), not what a schedule reaches.
pub fn asks_for_start(question: &str) -> bool {
    crate::text::lower_words(question).iter().any(|w| {
        matches!(
            w.as_str(),
            "start" | "starting" | "initial" | "initially" | "first" | "begin" | "beginning"
        )
    })
}

/// Whether `question` asks for the dose a schedule settles on ("What maintenance
/// dose …?"), not the steps that reach it.
pub fn asks_for_maintenance(question: &str) -> bool {
    crate::text::lower_words(question)
        .iter()
        .any(|w| w == "maintenance")
}

/// Whether the value at word `at` of `tokens` (lower case) is a later step of a
/// schedule ("25 mg every other day for weeks 1 and 2, then 25 mg daily …", "a
/// maintenance dose of 1 mg"): a word of sequence shortly before it, or a rise it is
/// raised "to" ("the dose can be increased to 5 mg once daily", "titrate up to 20 mg").
pub fn later_step(tokens: &[String], at: usize) -> bool {
    let before = &tokens[at.saturating_sub(SEQUENCE_REACH)..at.min(tokens.len())];
    let sequence = before.iter().any(|t| {
        matches!(
            t.as_str(),
            "then" | "thereafter" | "subsequently" | "maintenance"
        )
    });
    let raised_to = at > 0
        && tokens.get(at - 1).is_some_and(|t| t == "to")
        && before
            .iter()
            .any(|t| RISES.iter().any(|r| t.starts_with(r)));
    // "increased to 5 mg once daily or 2.5 mg every 12 hours", "… or split into 2.5 mg
    // twice daily": what "or" offers beside a value raised to is a later step as well.
    let or_at = (at.saturating_sub(3)..at)
        .rev()
        .find(|&k| tokens[k] == "or")
        .filter(|&k| {
            tokens[k + 1..at]
                .iter()
                .all(|t| !t.starts_with(|c: char| c.is_ascii_digit()))
        });
    let offered_beside = or_at.is_some_and(|or| {
        let clause = &tokens[or.saturating_sub(ALTERNATIVE_REACH)..or];
        let clause = match clause.iter().rposition(|t| matches!(t.as_str(), "." | ";")) {
            Some(p) => &clause[p + 1..],
            None => clause,
        };
        clause
            .windows(2)
            .any(|p| RISES.iter().any(|r| p[0].starts_with(r)) && p[1] == "to")
    });
    sequence || raised_to || offered_beside
}

/// Most words back from an "or" to the rise whose value it offers another beside.
const ALTERNATIVE_REACH: usize = 10;

/// How the words that raise a dose begin ("increased", "titrate", "escalation").
const RISES: &[&str] = &["increas", "titrat", "escalat", "rais", "uptitrat"];

/// Most words between a word of sequence and the value it puts later ("then increased
/// to 50 mg").
const SEQUENCE_REACH: usize = 3;

/// Most words between a denial and the "within" it denies ("must not be given within").
const DENIAL_REACH: usize = 4;

/// Prepositions that open a time.
const TIME_PREPOSITIONS: &[&str] = &[
    "within", "after", "before", "at", "by", "from", "until", "during", "for", "between",
];

/// Words that say how often.
const FREQUENCY: &[&str] = &[
    "once", "twice", "daily", "weekly", "monthly", "nightly", "hourly", "times", "a", "per",
    "every", "day", "week", "month", "three", "four", "thrice", "bid", "bd", "tid", "tds", "qid",
    "qds", "qd", "od", "other",
];

/// Whether a token is the prescriber's "every N hours" ("q8h", "q12h", "q24hr").
fn every_hours(token: &str) -> bool {
    token
        .strip_prefix('q')
        .map(|t| t.trim_end_matches("rs").trim_end_matches('r'))
        .and_then(|t| t.strip_suffix('h'))
        .is_some_and(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
}

/// Routes of giving a medicine, by adjective or abbreviation, as a dose is written
/// before how often ("2.5 mg oral bid", "1 g IV every 8 hours").
const ROUTES: &[&str] = &[
    "oral",
    "po",
    "iv",
    "im",
    "sc",
    "intravenous",
    "intramuscular",
    "subcutaneous",
    "sublingual",
    "inhaled",
    "rectal",
    "topical",
];

/// Participles of giving that may stand between an amount and how often it is given.
const GIVEN: &[&str] = &["taken", "given", "administered"];

/// Words that open a schedule: how often ("once weekly", "every 8 hours").
const HOW_OFTEN: &[&str] = &[
    "once", "twice", "thrice", "daily", "weekly", "monthly", "every",
];

/// Whether `text` says how often (a schedule's shape).
pub fn says_how_often(text: &str) -> bool {
    crate::text::lower_words(text)
        .iter()
        .any(|w| HOW_OFTEN.contains(&w.as_str()) || w == "times")
}

/// Whether `text` says only how often, naming no thing: "repeated every 1-2 weeks",
/// "twice daily for 5 days" (besides how often and for how long, only numbers,
/// function words and a participle of doing), not "flexible sigmoidoscopy every 5
/// years".
pub fn only_how_often(language: &Language, text: &str) -> bool {
    let analysis = language.analyse(text);
    let lower = analysis.lower(text);
    says_how_often(text)
        && lower.iter().zip(&analysis.tags).all(|(w, t)| {
            is_time_unit(w)
                || HOW_OFTEN.contains(&w.as_str())
                || w == "times"
                || is_number_word(w)
                || matches!(
                    t,
                    Tag::Cd | Tag::Dt | Tag::In | Tag::Cc | Tag::To | Tag::Vbn | Tag::Vbd
                )
        })
}

/// Longest manner, in words ("0.5 mL subcutaneously").
const MAX_MANNER_WORDS: usize = 4;

/// Words that leave a number's bound open after "or" ("5 or more").
const OPEN_BOUNDS: &[&str] = &[
    "more", "less", "fewer", "greater", "higher", "lower", "above", "below", "over", "under",
];

/// Whether a word is a number written out ("two", "single").
pub fn is_number_word(word: &str) -> bool {
    NUMBER_WORDS.contains(&word)
}

/// English number words, for counts.
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "single",
];

/// How a span came to be a candidate.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Typed {
    /// The text names it as the asked kind: its head noun, a copula ("X is a vaccine"),
    /// or the pattern of an amount, count or time.
    Named,
    /// Only a drug name, for a kind the documents never name by its noun ("Which
    /// neuraminidase inhibitor …": the members are drug names).
    Drug,
    /// Only the object of the preposition the question fronts, after the question's
    /// verb ("On which specimen should Xpert be used?" — "… should be used in
    /// cerebrospinal fluid"), for a kind the documents never name otherwise.
    Slot,
    /// Only a member's noun alone ("in sputum", "(CSF)"), for a kind the documents
    /// never name otherwise; beside the slot's fillers when there are any.
    Bare,
    /// Any other noun phrase of a statement: nothing types it, so only the learned
    /// ranker ([`super::rank`]) can put it before a typed candidate.
    Phrase,
}

/// The slot a question with a fronted preposition asks to fill: "On which specimen
/// should Xpert be used?" asks for what comes after "used in/on".
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Slot {
    /// The fronted preposition, lower case; empty when the object of the verb is
    /// asked.
    pub preposition: String,
    /// The question's main verb, as [`verb_stem`] leaves it.
    pub verb: String,
}

/// Prepositions that ask for a place or a medium, any of which a statement may use for
/// another ("on which specimen" — "in cerebrospinal fluid").
const PLACES: &[&str] = &["in", "on", "into", "onto"];

impl Slot {
    /// The slot `question` asks to fill, when its asking sentence opens with a
    /// preposition before "which"/"what" and has a verb after the wh-phrase.
    pub fn of(language: &Language, question: &str) -> Option<Slot> {
        let asking = asking(question)?;
        let analysis = language.analyse(asking);
        let lower = analysis.lower(asking);
        let at = lower.iter().position(|w| w == "which" || w == "what")?;
        // "What should she be advised to add?": no noun after the wh-word, so what is
        // asked is the object of the question's last verb, what the documents say to add
        // ("advise her to consider adding a back-up method").
        if at == 0 && lower.get(1).is_some_and(|w| Class::Auxiliary.has(w)) {
            let verb = (2..lower.len()).rev().find(|&i| {
                analysis.tags.get(i).is_some_and(|t| t.is_verb())
                    && !Class::Auxiliary.has(&lower[i])
            })?;
            return Some(Slot {
                preposition: String::new(),
                verb: verb_stem(&lower[verb]),
            });
        }
        if at == 0 {
            // "Which test should be used to monitor her therapy?" asks for the means of
            // monitoring: what comes after "monitoring … by/with/using".
            let used = lower.iter().position(|w| w == "used");
            let verb = match used.map(|u| (lower.get(u + 1), lower.get(u + 2))) {
                Some((Some(to), Some(verb))) if to == "to" => verb_stem(verb),
                // "Which treatment …?" asks for the means of treating: a noun made from
                // a verb by "-ment" names the act, and what it is done with or by is
                // of its kind ("treated with cryotherapy").
                _ => lower
                    .get(at + 1)
                    .and_then(|noun| noun.strip_suffix("ment"))
                    .filter(|verb| verb.chars().count() >= MIN_VERB_LETTERS)
                    .map(verb_stem)?,
            };
            return Some(Slot {
                preposition: "by".to_string(),
                verb,
            });
        }
        let preposition = lower[at - 1].clone();
        if !Class::Preposition.has(&preposition) || preposition == "of" {
            return None;
        }
        let verb = (at + 1..lower.len()).rev().find(|&i| {
            analysis.tags.get(i).is_some_and(|t| t.is_verb()) && !Class::Auxiliary.has(&lower[i])
        })?;
        Some(Slot {
            preposition,
            verb: verb_stem(&lower[verb]),
        })
    }

    /// Whether `word` (lower case) is this slot's preposition or one that can stand for
    /// it.
    fn fits(&self, word: &str) -> bool {
        // Prepositions of a place or medium stand for each other, and so do those of a
        // means ("monitoring warfarin by … / using …").
        let both =
            |class: &[&str]| class.contains(&word) && class.contains(&self.preposition.as_str());
        // "Treated with", "monitored with": "with" gives a means as well.
        let with_means = word == "with" && MEANS.contains(&self.preposition.as_str());
        word == self.preposition || both(PLACES) || both(MEANS) || with_means
    }
}

/// The fewest letters of a verb a "-ment" noun is made from ("treat", "manage").
const MIN_VERB_LETTERS: usize = 4;

/// A verb's stem for matching its forms: "used", "uses", "using" → "use"; "given",
/// "gives" → "giv"/"give" alike ("giv").
pub fn verb_stem(word: &str) -> String {
    let w = word.to_lowercase();
    for suffix in ["ing", "ed", "en", "es", "e", "s", "d"] {
        if let Some(base) = w.strip_suffix(suffix) {
            if base.chars().count() >= 3 {
                return base.to_string();
            }
        }
    }
    w
}

/// Most words between the verb and the preposition of its slot ("used | as the initial
/// test | in …" is too far).
const SLOT_REACH: usize = 3;

/// The noun phrases a statement puts in `slot`: after its preposition, within
/// [`SLOT_REACH`] words after a form of its verb.
pub fn slot_spans(slot: &Slot, text: &str, analysis: &Analysis) -> Vec<Range<usize>> {
    let lower = analysis.lower(text);
    let mut out = Vec::new();
    for (k, word) in lower.iter().enumerate() {
        if verb_stem(word) != slot.verb {
            continue;
        }
        // An object: the phrase right after the verb.
        if slot.preposition.is_empty() {
            if let Some(phrase) = analysis.phrases.iter().find(|np| np.range.start == k + 1) {
                out.push(phrase.core.clone());
            }
            continue;
        }
        let Some(p) =
            (k + 1..(k + 1 + SLOT_REACH).min(lower.len())).find(|&p| slot.fits(&lower[p]))
        else {
            continue;
        };
        if let Some(phrase) = analysis.phrases.iter().find(|np| np.range.start == p + 1) {
            // A plural filler names a kind whose members may follow it ("treated with
            // provider-applied methods: cryotherapy, …"); the members answer, not the
            // kind.
            let last = phrase.core.end.saturating_sub(1);
            let members = if matches!(analysis.tags.get(last), Some(Tag::Nns | Tag::Nnps)) {
                listed_after(analysis, &lower, phrase.range.end)
            } else {
                Vec::new()
            };
            if members.is_empty() {
                out.push(phrase.core.clone());
            }
            out.extend(members);
        }
    }
    out
}

/// The token ranges of a tagged statement that can answer `asked`, with how each was
/// typed.
pub fn spans(
    asked: &Asked,
    language: &Language,
    text: &str,
    analysis: &Analysis,
) -> Vec<(Range<usize>, Typed)> {
    let tokens = analysis.lower(text);
    let tags = &analysis.tags;
    // A cardinal, not an ordinal ("3", "three", "4.5"; not "1st"), nor letters with
    // digits after them ("mg500", text run together on a page).
    let is_number = |i: usize| {
        tokens.get(i).is_some_and(|t| {
            let run_together = t.chars().next().is_some_and(char::is_alphabetic)
                && t.chars().any(|c| c.is_ascii_digit());
            !is_ordinal(t)
                && !run_together
                && (tags.get(i) == Some(&Tag::Cd)
                    || t.chars().next().is_some_and(|c| c.is_ascii_digit())
                    || NUMBER_WORDS.contains(&t.as_str())
                    || is_fraction(t))
        })
    };
    let number_end = |i: usize| -> usize {
        // "4–8", "4-8", "0.5", "4 to 8"
        // A range runs upwards; "from 80 to 10 mg" is a change, whose amount is the
        // second number alone.
        let value = |k: usize| -> Option<f64> {
            let t = tokens.get(k)?.replace(',', "");
            let digits = t.trim_end_matches(|c: char| !c.is_ascii_digit());
            digits.parse().ok()
        };
        // "27 through 36", and "between 27 and 36".
        let between = i > 0 && tokens[i - 1] == "between";
        let mut j = i + 1;
        loop {
            let joined = j + 1 < tokens.len()
                && (matches!(tokens[j].as_str(), "–" | "-" | "to" | "—" | "through")
                    || (between && j == i + 1 && tokens[j] == "and"))
                && is_number(j + 1)
                && !matches!((value(j - 1), value(j + 1)), (Some(a), Some(b)) if b < a);
            // "30% to 50%", "2 mg to 4 mg": the unit written after both numbers.
            let unit_repeated = j + 3 < tokens.len()
                && (tokens[j] == "%" || UNITS.contains(&tokens[j].as_str()))
                && matches!(tokens[j + 1].as_str(), "–" | "-" | "to" | "—")
                && is_number(j + 2)
                && tokens[j + 3] == tokens[j]
                && !matches!((value(j - 1), value(j + 2)), (Some(a), Some(b)) if b < a);
            if joined {
                j += 2;
            } else if unit_repeated {
                j += 3;
            } else {
                break;
            }
        }
        // "5 or more", "2 or fewer": an open bound is part of the number.
        if tokens.get(j).is_some_and(|t| t == "or")
            && tokens
                .get(j + 1)
                .is_some_and(|t| OPEN_BOUNDS.contains(&t.as_str()))
        {
            j += 2;
        }
        j
    };
    let mut out = Vec::new();
    match asked {
        Asked::Amount { measured } => {
            // A change as a multiple: "up to 5-fold", "as much as twofold", with the
            // bound before it.
            for k in 0..tokens.len() {
                let t = tokens[k].as_str();
                let times = t.strip_suffix("-fold").or_else(|| t.strip_suffix("fold"));
                let multiple = times.is_some_and(|n| {
                    !n.is_empty()
                        && (n.chars().all(|c| c.is_ascii_digit() || c == '.')
                            || NUMBER_WORDS.contains(&n))
                });
                if !multiple {
                    continue;
                }
                let before = |bound: &[&str]| {
                    k >= bound.len()
                        && tokens[k - bound.len()..k]
                            .iter()
                            .map(String::as_str)
                            .eq(bound.iter().copied())
                };
                let start = [&["as", "much", "as"][..], &["up", "to"][..]]
                    .iter()
                    .find(|b| before(b))
                    .map_or(k, |b| k - b.len());
                out.push(start..k + 1);
            }
            // A value measured may be a rank in a population: "the 95th percentile".
            if *measured {
                for k in 0..tokens.len() {
                    let rank = is_ordinal(&tokens[k])
                        && tokens
                            .get(k + 1)
                            .is_some_and(|t| matches!(t.as_str(), "percentile" | "centile"));
                    if rank {
                        out.push(k..k + 2);
                    }
                }
            }
            let mut i = 0;
            while i < tokens.len() {
                // "from 1.5mg to 3mg" after "double the dose" is a change, not a range.
                if !is_number(i) || changed_from(&tokens, i) {
                    i += 1;
                    continue;
                }
                let mut j = number_end(i);
                // "mg", "mg/kg", "mg/kg/dose"; not "mL/min", the unit of a clearance,
                // nor a mass per decilitre or litre ("1.5 mg/dL", "5.5 mmol/L"), the unit
                // of a laboratory value.
                let unit = |t: &str| {
                    UNITS.contains(&t)
                        || (t.split_once('/').is_some_and(|(u, per)| {
                            UNITS.contains(&u) && !matches!(per, "dl" | "l")
                        }) && !t.starts_with("ml/min"))
                        || (*measured
                            && t.split_once('/').is_some_and(|(u, per)| {
                                crate::patient::measure::LAB_UNIT_HEADS.contains(&u)
                                    && matches!(per, "dl" | "l" | "ml")
                            }))
                };
                // A part of another dose: "one-third of the clozapine dose", "half the
                // usual dose".
                if is_fraction(&tokens[i]) {
                    let from = j + usize::from(tokens.get(j).is_some_and(|t| t == "of"));
                    let dose = (from..(from + 4).min(tokens.len()))
                        .find(|&k| matches!(tokens[k].as_str(), "dose" | "doses"));
                    if let Some(k) = dose {
                        if (from..k).all(|m| !tags[m].is_verb() && tokens[m] != ",") {
                            out.push(i..k + 1);
                            i = k + 1;
                            continue;
                        }
                    }
                }
                // Or written onto the number ("500mg", "1g"), as tables and formularies do;
                // or given in the unit a table's heading names, with how often after it
                // ("30–50  250–750 Every 12 hrs").
                let every = |k: usize| {
                    tokens.get(k).is_some_and(|t| t == "every")
                        && is_number(k + 1)
                        && tokens
                            .get(k + 2)
                            .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                };
                let after_every = i > 0 && tokens[i - 1] == "every";
                if !glued(&tokens[j - 1]).is_some_and(unit) {
                    if tokens.get(j).is_some_and(|t| unit(t)) {
                        j += 1;
                    } else if !every(j) || after_every {
                        i += 1;
                        continue;
                    }
                }
                // "/kg", "per kg", "per dose"
                // "24 mg/26 mg" written as "mg/26" and "mg": the second amount's unit.
                let second_written_on = tokens[j - 1]
                    .split_once('/')
                    .is_some_and(|(_, n)| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()));
                if second_written_on && tokens.get(j).is_some_and(|t| unit(t)) {
                    j += 1;
                }
                while tokens.get(j).is_some_and(|t| t == "/") && j + 1 < tokens.len() {
                    // "24 mg/26 mg": a combination's second amount, with its unit.
                    let second = is_number(j + 1);
                    j += 2;
                    if second && tokens.get(j).is_some_and(|t| unit(t)) {
                        j += 1;
                    }
                }
                if tokens.get(j).is_some_and(|t| t == "per")
                    && tokens
                        .get(j + 1)
                        .is_some_and(|t| matches!(t.as_str(), "kg" | "dose"))
                {
                    j += 2;
                }
                // "50 mg of dolutegravir twice per day": the drug between the amount
                // and its frequency.
                if tokens.get(j).is_some_and(|t| t == "of") {
                    if let Some(m) = (j + 2..=(j + 4).min(tokens.len().saturating_sub(1)))
                        .find(|&m| FREQUENCY.contains(&tokens[m].as_str()) && tokens[m] != "a")
                    {
                        if tags[j + 1..m].iter().all(|t| t.is_noun()) {
                            j = m;
                        }
                    }
                }
                // How often: "twice daily", "every 12 hours" (a unit of time after the
                // number of an "every").
                let mut k = j;
                while tokens.get(k).is_some_and(|t| {
                    FREQUENCY.contains(&t.as_str())
                        || every_hours(t)
                        || (is_number(k) && k > j)
                        || (k > j + 1
                            && is_number(k - 1)
                            && tokens[k - 2] == "every"
                            && TIME_UNITS.contains(&t.as_str()))
                }) {
                    k += 1;
                }
                // Trailing "a"/"per" without a unit after it belongs to the next phrase.
                while k > j && matches!(tokens[k - 1].as_str(), "a" | "per" | "every") {
                    k -= 1;
                }
                // A route adverb ("subcutaneously", "orally"), and how often after it
                // ("1 mg orally once a day"); how often after a participle of giving
                // ("1 mg taken once daily").
                // (An adverb of a route, not of time: "5 mg once daily immediately
                // before bedtime" ends at "daily".)
                let route = tags.get(k).is_some_and(|t| t.is_adverb())
                    && tokens[k]
                        .strip_suffix("ly")
                        .is_some_and(|adjective| Class::Route.has(adjective));
                // … and a route by its adjective or abbreviation, with how often after
                // it ("2.5 mg oral bid", "1 g IV every 8 hours").
                let given = tokens
                    .get(k)
                    .is_some_and(|t| GIVEN.contains(&t.as_str()) || ROUTES.contains(&t.as_str()));
                if route || given {
                    let mut m = k + 1;
                    while tokens
                        .get(m)
                        .is_some_and(|t| FREQUENCY.contains(&t.as_str()))
                    {
                        // "subcutaneously every 12 hours", "IV every 4-6 hours".
                        if tokens[m] == "every" && is_number(m + 1) {
                            let unit = number_end(m + 1);
                            if tokens
                                .get(unit)
                                .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                            {
                                m = unit + 1;
                                break;
                            }
                        }
                        m += 1;
                    }
                    while m > k + 1 && matches!(tokens[m - 1].as_str(), "a" | "per" | "every") {
                        m -= 1;
                    }
                    if route || m > k + 1 {
                        k = m;
                    }
                }
                out.push(i..k);
                i = k;
            }
        }
        Asked::Count { head } => {
            for i in 0..tokens.len() {
                // "a 3-dose schedule", "the two-dose schedule" as one word, with the
                // noun it counts for.
                if let Some((count, noun)) = tokens[i].split_once('-') {
                    let counts = (!count.is_empty() && count.chars().all(|c| c.is_ascii_digit()))
                        || NUMBER_WORDS.contains(&count);
                    if counts && stem(noun) == *head {
                        let noun_after = tags.get(i + 1).is_some_and(|t| t.is_noun());
                        out.push(i..i + 1 + usize::from(noun_after));
                        continue;
                    }
                }
                // Each time a medicine is given is a dose: "up to 2 times in a day",
                // "twice daily" count doses.
                if head == "dose" && matches!(tokens[i].as_str(), "once" | "twice" | "thrice") {
                    out.push(i..i + 1);
                    continue;
                }
                if !is_number(i) {
                    continue;
                }
                let j = number_end(i);
                if head == "dose" && tokens.get(j).is_some_and(|t| t == "times") {
                    out.push(i..j);
                    continue;
                }
                // "3 doses", "a 3-dose schedule"
                if tokens.get(j).is_some_and(|t| stem(t) == *head) {
                    out.push(i..j + 1);
                } else if tokens.get(j).is_some_and(|t| t == "-")
                    && tokens.get(j + 1).is_some_and(|t| stem(t) == *head)
                {
                    out.push(i..j + 2);
                }
            }
        }
        Asked::Time => {
            // A number of time units is a length of time ("11 months" in a table row),
            // unless it gives an age ("aged 6 months", "6 months old", "of age"); a
            // preposition that places it ("within 72 hours") or a bound ("at least 4
            // hours") is part of it. "for 4–8 weeks" is the span itself.
            for n in 0..tokens.len() {
                if !is_number(n) {
                    continue;
                }
                let mut j = number_end(n);
                // "48 hours", or "48hrs" in one word.
                if glued(&tokens[j - 1]).is_some_and(|u| TIME_UNITS.contains(&u)) {
                    j -= 1;
                } else if !tokens
                    .get(j)
                    .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                {
                    continue;
                }
                let word = |k: usize| tokens.get(k).map_or("", String::as_str);
                let before = |k: usize| n.checked_sub(k).map_or("", word);
                let of_age = word(j + 1) == "of" && word(j + 2) == "age";
                let age_before = matches!(before(1), "aged" | "age" | "ages");
                let age = matches!(word(j + 1), "old" | "-old") || of_age || age_before;
                // An age a preposition places is when, not whom: "at 1 month of age",
                // "until chronological age 1 month".
                let placing = |k: usize| matches!(before(k), "at" | "by" | "until" | "before");
                if age {
                    let at = if of_age && placing(1) {
                        Some(n - 1)
                    } else if age_before && placing(2) {
                        Some(n - 2)
                    } else if age_before && placing(3) {
                        Some(n - 3)
                    } else {
                        None
                    };
                    // "Delayed until chronological age 1 month" is given at that age.
                    if let Some(at) = at {
                        let from = if word(at) == "until" { at + 1 } else { at };
                        out.push(from..j + 1 + if of_age { 2 } else { 0 });
                    }
                    continue;
                }
                let mut from = n;
                while from > 0 && matches!(word(from - 1), "the" | "first" | "next") {
                    from -= 1;
                }
                let placed = from
                    .checked_sub(1)
                    .filter(|&p| TIME_PREPOSITIONS.contains(&word(p)) && word(p) != "for");
                from = match placed {
                    // "must not be given within 36 hours of the last dose": the time
                    // to wait, the answer without the "within" it is denied.
                    Some(p) if waits_out(&tokens, p) => n,
                    Some(p) => p,
                    None if matches!((before(2), before(1)), ("at", "least" | "most")) => n - 2,
                    None => n,
                };
                out.push(from..j + 1);
            }
        }
        Asked::Manner { verb, object } => {
            // "How should it be administered?" is answered by the route, wherever the
            // documents give it: an adverb ("0.5 mL subcutaneously", with the amount
            // before it) or a means ("by intramuscular injection").
            if ADMINISTERING.iter().any(|a| verb.starts_with(a)) {
                for k in 0..tokens.len() {
                    let route_adverb = tokens[k]
                        .strip_suffix("ly")
                        .is_some_and(|adjective| Class::Route.has(adjective));
                    if route_adverb {
                        // The amount right before it: "0.5 mL", "0.5mL".
                        let mut start = k;
                        if k >= 1 && glued(&tokens[k - 1]).is_some_and(|u| UNITS.contains(&u)) {
                            start = k - 1;
                        } else if k >= 2
                            && UNITS.contains(&tokens[k - 1].as_str())
                            && is_number(k - 2)
                        {
                            start = k - 2;
                        }
                        out.push(start..k + 1);
                    }
                    let by_route = MEANS.contains(&tokens[k].as_str())
                        && tokens.get(k + 1).is_some_and(|t| Class::Route.has(t));
                    if by_route {
                        if let Some(p) = analysis.phrases.iter().find(|p| p.core.start == k + 1) {
                            out.push(p.core.clone());
                        }
                    }
                }
            }
            // "How should it be given / taken / timed?" beside another medicine: how far
            // apart ("at least 2 hours before or 6 hours after such antacids", "4 hours
            // apart").
            if ADMINISTERING
                .iter()
                .chain(TIMING)
                .any(|a| verb.starts_with(a))
            {
                // A unit of time at `k` and a word of separation after it.
                let separated = |k: usize| {
                    tokens
                        .get(k)
                        .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                        && tokens
                            .get(k + 1)
                            .is_some_and(|t| SEPARATIONS.contains(&t.as_str()))
                };
                let mut n = 0;
                while n < tokens.len() {
                    if !is_number(n) {
                        n += 1;
                        continue;
                    }
                    let mut j = number_end(n);
                    if !separated(j) {
                        n += 1;
                        continue;
                    }
                    j += 2;
                    // "… before or 6 hours after", "… before or after".
                    if tokens.get(j).is_some_and(|t| t == "or") {
                        if tokens
                            .get(j + 1)
                            .is_some_and(|t| SEPARATIONS.contains(&t.as_str()))
                        {
                            j += 2;
                        } else if is_number(j + 1) {
                            let m = number_end(j + 1);
                            if separated(m) {
                                j = m + 2;
                            }
                        }
                    }
                    let from = if n >= 2 && tokens[n - 2] == "at" && tokens[n - 1] == "least" {
                        n - 2
                    } else {
                        n
                    };
                    out.push(from..j);
                    n = j;
                }
            }
            // "How should the dose be adjusted?" asks which way and how far: "decreased
            // by 50%", "reduce to 2.5 mg" (a verb of one direction, then by or to an
            // amount, the thing changed between them at most a few words long).
            if ADJUSTING.iter().any(|a| verb.starts_with(a)) {
                for k in 0..tokens.len() {
                    if !is_change(&tokens[k]) || ADJUSTING.iter().any(|a| tokens[k].starts_with(a))
                    {
                        continue;
                    }
                    let by = (k + 1..(k + 2 + CHANGED_REACH).min(tokens.len()))
                        .find(|&j| matches!(tokens[j].as_str(), "by" | "to"));
                    // "by about 25%", "by between one-third to one-half": a word of
                    // approximation or of range before the amount.
                    let first = by.map(|j| {
                        if tokens
                            .get(j + 1)
                            .is_some_and(|t| APPROXIMATELY.contains(&t.as_str()) || t == "between")
                        {
                            j + 2
                        } else {
                            j + 1
                        }
                    });
                    if let Some(first) = first.filter(|&n| is_number(n)) {
                        let mut end = number_end(first);
                        if tokens
                            .get(end)
                            .is_some_and(|t| t == "%" || UNITS.contains(&t.as_str()))
                        {
                            end += 1;
                        }
                        out.push(k..end);
                    }
                }
                // … or the new dose as a part or a multiple of the old: "one-third of
                // the original dose", "half the usual dose", "double the dose".
                for k in 0..tokens.len() {
                    if !is_fraction(&tokens[k]) && !MULTIPLES.contains(&tokens[k].as_str()) {
                        continue;
                    }
                    let dose = (k + 1..(k + 7).min(tokens.len()))
                        .take_while(|&j| tokens[j] != "," && !tags[j].is_finite_verb())
                        .find(|&j| matches!(tokens[j].as_str(), "dose" | "doses" | "dosage"));
                    if let Some(j) = dose {
                        out.push(k..j + 1);
                    }
                }
            }
            // "Urine specimens obtained by catheterization or suprapubic aspiration":
            // the means by which what the question names is done, after a participle
            // it takes, whichever verb the documents use; names joined by "or" or
            // "and" are one means.
            if let Some(object) = object {
                let phrase_at = |at: usize| analysis.phrases.iter().find(|q| q.range.start == at);
                for p in &analysis.phrases {
                    let last = p.core.end.saturating_sub(1);
                    let k = p.range.end;
                    let done_by = tags.get(k) == Some(&Tag::Vbn)
                        && tokens
                            .get(k + 1)
                            .is_some_and(|t| MEANS.contains(&t.as_str()));
                    if p.core.is_empty()
                        || tokens.get(last).is_none_or(|t| stem(t) != *object)
                        || !done_by
                    {
                        continue;
                    }
                    let Some(first) = phrase_at(k + 2) else {
                        continue;
                    };
                    let mut end = first.core.end;
                    while let Some(next) = tokens
                        .get(end)
                        .filter(|t| matches!(t.as_str(), "or" | "and"))
                        .and_then(|_| phrase_at(end + 1))
                    {
                        end = next.core.end;
                    }
                    out.push(first.core.start..end);
                }
            }
            // "Administer 0.5 mL subcutaneously": what follows a form of the verb, up
            // to a clause's end, when it says how (an amount or an adverb of manner).
            for k in 0..tokens.len() {
                if verb_stem(&tokens[k]) != *verb {
                    continue;
                }
                let end = (k + 1..tokens.len())
                    .find(|&j| {
                        !(tags[j].is_adverb()
                            || tags[j] == Tag::Cd
                            || tokens[j].chars().next().is_some_and(|c| c.is_ascii_digit())
                            || UNITS.contains(&tokens[j].as_str()))
                    })
                    .unwrap_or(tokens.len());
                let says_how =
                    (k + 1..end).any(|j| tags[j].is_adverb() && tokens[j].ends_with("ly"));
                if end > k + 1 && end - k - 1 <= MAX_MANNER_WORDS && says_how {
                    out.push(k + 1..end);
                    continue;
                }
                // "collected by suprapubic aspiration", "take the tablets with food": a
                // prepositional phrase of means after the verb (and its object) says how;
                // the means is the answer, a manner phrase is said whole.
                // The object is the phrase at `end`, or the one the verb was chunked
                // into ("Measure body temperature with …" opens a sentence, and its
                // verb is tagged as a noun).
                let object = analysis
                    .phrases
                    .iter()
                    .find(|p| p.range.start <= end && end < p.range.end);
                let at = object.map_or(end, |p| p.range.end);
                let Some(preposition) = tokens.get(at) else {
                    continue;
                };
                let phrase = analysis
                    .phrases
                    .iter()
                    .find(|p| p.range.start == at + 1 && p.core.len() <= MAX_MANNER_WORDS);
                if let Some(p) = phrase {
                    // "treated with penicillin": after a verb of treating, "with" gives
                    // the means, and the means is the answer.
                    let means = MEANS.contains(&preposition.as_str())
                        || (preposition == "with" && TREATING.contains(&verb.as_str()));
                    if means {
                        out.push(p.core.clone());
                    } else if MANNER_PREPOSITIONS.contains(&preposition.as_str()) {
                        out.push(at..p.range.end);
                    }
                }
            }
        }
        Asked::Schedule => {
            // "once weekly", "twice daily for 3 days", "every 8 hours for 7 days"
            let mut i = 0;
            while i < tokens.len() {
                let starts = HOW_OFTEN.contains(&tokens[i].as_str())
                    || (is_number(i) && tokens.get(i + 1).is_some_and(|t| t == "times"));
                if !starts {
                    i += 1;
                    continue;
                }
                let mut j = i + 1;
                while j < tokens.len()
                    && (FREQUENCY.contains(&tokens[j].as_str())
                        || TIME_UNITS.contains(&tokens[j].as_str())
                        || (is_number(j) && tokens[i] == "every"))
                {
                    j += 1;
                }
                while j > i + 1 && matches!(tokens[j - 1].as_str(), "a" | "per" | "every") {
                    j -= 1;
                }
                // "for 8 weeks", "for 8-weeks": how long.
                if tokens.get(j).is_some_and(|t| t == "for") && is_number(j + 1) {
                    let n = number_end(j + 1);
                    let unit_in_number = tokens[j + 1]
                        .split_once('-')
                        .is_some_and(|(_, u)| TIME_UNITS.contains(&u));
                    if unit_in_number {
                        j += 2;
                    } else if tokens
                        .get(n)
                        .is_some_and(|t| TIME_UNITS.contains(&t.as_str()))
                    {
                        j = n + 1;
                    }
                }
                out.push(i..j);
                i = j;
            }
        }
        Asked::Thing { head, plural } => {
            for p in &analysis.phrases {
                let end = p.core.end;
                // "Troponin I", "factor VIII": a designator after the head names one of
                // the kind, inside the chunk or just after it.
                let (core, last) = if end >= 2
                    && designator(analysis, text, end - 1)
                    && stem(&tokens[end - 2]) == *head
                {
                    (p.core.clone(), end - 2)
                } else if end >= 1
                    && end < tokens.len()
                    && stem(&tokens[end - 1]) == *head
                    && designator(analysis, text, end)
                {
                    (p.core.start..end + 1, end - 1)
                } else {
                    (p.core.clone(), end.saturating_sub(1))
                };
                if p.core.is_empty() || tokens.get(last).is_none_or(|t| stem(t) != *head) {
                    continue;
                }
                let designated = last + 1 < core.end;
                // A name set off by a dash after one of the kind, or after its relative
                // clause: "prefer a test that reflects free cortisol — late-night
                // salivary cortisol".
                out.extend(named_after_dash(analysis, &tokens, p.range.end));
                // A plural names the kind, not one of its members ("two RSV vaccines",
                // "other JEV vaccines"), unless several are asked for.
                if !plural && matches!(tags[last], Tag::Nns | Tag::Nnps) {
                    continue;
                }
                out.push(core.clone());
                // A name the phrase types ("Imojev vaccine" → "Imojev").
                if p.core.len() >= 2
                    && !designated
                    && tags[p.core.start..last]
                        .iter()
                        .all(|t| matches!(t, Tag::Nnp | Tag::Nnps))
                {
                    out.push(p.core.start..last);
                }
            }
            // A treatment is named by the word for what is done: "cryotherapy",
            // "phototherapy", "appendicectomy", "angioplasty" — typed as a drug's name
            // is, an example of the kind.
            let mut procedures: Vec<Range<usize>> = Vec::new();
            if TREATMENT_HEADS.contains(&head.as_str()) {
                for p in &analysis.phrases {
                    let last = p.core.end.saturating_sub(1);
                    let done = !p.core.is_empty()
                        && tags[last].is_noun()
                        && !matches!(tags[last], Tag::Nns | Tag::Nnps)
                        && PROCEDURE_SUFFIXES.iter().any(|s| {
                            tokens[last]
                                .strip_suffix(s)
                                .is_some_and(|stem| stem.chars().count() >= 3)
                        });
                    if done && p.core.len() <= 3 {
                        procedures.push(p.core.clone());
                    }
                }
            }
            // Names written before the head, with a parenthesised alias ("Pfizer
            // RSVpreF (ABRYSVO) vaccine"), which the chunker leaves in pieces.
            for i in 0..tokens.len() {
                if stem(&tokens[i]) != *head || (!plural && matches!(tags[i], Tag::Nns | Tag::Nnps))
                {
                    continue;
                }
                let start = name_before(analysis, text, i);
                if start < i {
                    out.push(start..i + 1);
                    out.push(start..i);
                }
            }
            // Members listed after a plural of the kind: "two RSV vaccines licensed
            // for use in adults: GSK Arexvy and Pfizer Abrysvo", "antivirals such as
            // A or B", "vaccines (A, B)".
            for p in &analysis.phrases {
                let last = p.core.end.saturating_sub(1);
                if p.core.is_empty()
                    || tokens.get(last).is_none_or(|t| stem(t) != *head)
                    || !matches!(tags[last], Tag::Nns | Tag::Nnps)
                {
                    continue;
                }
                out.extend(listed_after(analysis, &tokens, p.core.end));
            }
            // "Both A and B": the pair is one answer when either is of the asked kind.
            for (a, b) in analysis.phrases.iter().zip(analysis.phrases.iter().skip(1)) {
                let both = tokens.get(a.range.start).is_some_and(|t| t == "both")
                    || (a.range.start > 0 && tokens[a.range.start - 1] == "both");
                let joined = a.range.end + 1 == b.range.start
                    && tokens.get(a.range.end).is_some_and(|t| t == "and");
                let of_kind = [a, b].iter().any(|p| {
                    tokens
                        .get(p.core.end.saturating_sub(1))
                        .is_some_and(|t| stem(t) == *head)
                });
                if both && joined && of_kind {
                    out.push(a.core.start..b.core.end);
                }
            }
            // A name typed by a copula: "X is a live attenuated vaccine", or by the name
            // its complement is known by: "X and Y are antiviral medications known as
            // neuraminidase inhibitors". Every name of a coordinated subject is typed.
            let phrases = &analysis.phrases;
            let words_between = |from: usize, to: usize| -> Vec<&str> {
                tokens[from..to].iter().map(String::as_str).collect()
            };
            for (k, (a, b)) in phrases.iter().zip(phrases.iter().skip(1)).enumerate() {
                // The copula, and adverbs after it ("are usually the antiemetics of
                // choice").
                let copula = matches!(
                    words_between(a.range.end, (a.range.end + 1).min(b.range.start)).as_slice(),
                    ["is"] | ["are"] | ["was"] | ["were"]
                ) && tags[a.range.end + 1..b.range.start]
                    .iter()
                    .all(|t| t.is_adverb() || *t == Tag::Dt);
                if !copula {
                    continue;
                }
                let of_head = |p: &crate::language::NounPhrase| {
                    tokens
                        .get(p.core.end.saturating_sub(1))
                        .is_some_and(|t| stem(t) == *head)
                };
                let renamed = phrases.get(k + 2).is_some_and(|c| {
                    RENAMING.contains(&words_between(b.range.end, c.range.start).as_slice())
                        && of_head(c)
                });
                if !(of_head(b) || renamed) {
                    continue;
                }
                // The object of a preposition is no subject: in "gel 2.5 mL four times
                // daily after meals is the first-line treatment" the gel is.
                // ("The use of X is …" makes X the subject's.)
                let object = a.range.start > 0
                    && Class::Preposition.has(&tokens[a.range.start - 1])
                    && tokens[a.range.start - 1] != "of";
                if object {
                    continue;
                }
                let mut subject = k;
                loop {
                    let p = &phrases[subject];
                    if p.core.len() <= 4 {
                        out.push(p.core.clone());
                        // Where several are asked for, the names listed together are
                        // one answer ("Ondansetron and domperidone are the antiemetics
                        // of choice").
                        if *plural && subject < k {
                            out.push(p.core.start..phrases[k].core.end);
                        }
                    }
                    let Some(before) = subject.checked_sub(1).map(|i| &phrases[i]) else {
                        break;
                    };
                    let joiner = words_between(before.range.end, p.range.start);
                    // A list's last two names are joined by "and" or "or", earlier ones by
                    // commas ("For women, a swab is …" names no list).
                    let conjunction = matches!(
                        joiner.as_slice(),
                        ["and"] | ["or"] | [",", "and"] | [",", "or"]
                    );
                    let comma = joiner.as_slice() == [","] && subject < k;
                    if !(conjunction || comma) {
                        break;
                    }
                    subject -= 1;
                }
            }
            // A copula in the second of two predicates shares the statement's subject:
            // "Holotranscobalamin, the fraction available to cells, falls much less in
            // pregnancy and is the more reliable test".
            if let Some(subject) = phrases.first().filter(|p| p.range.start == 0) {
                // The name without a strength it is written with ("Permethrin 1%").
                let mut core = subject.core.clone();
                while core.len() > 1
                    && tokens[core.end - 1]
                        .chars()
                        .next()
                        .is_some_and(|c| c.is_ascii_digit() || c == '%')
                {
                    core.end -= 1;
                }
                for b in phrases.iter().skip(1) {
                    let of_head = tokens
                        .get(b.core.end.saturating_sub(1))
                        .is_some_and(|t| stem(t) == *head);
                    let mut at = b.range.start;
                    while at > 0 && (tags[at - 1].is_adverb() || tags[at - 1] == Tag::Dt) {
                        at -= 1;
                    }
                    let shared = at >= 2
                        && matches!(tokens[at - 1].as_str(), "is" | "are")
                        && tokens[at - 2] == "and";
                    if of_head && shared && core.len() <= 4 && !core.is_empty() {
                        out.push(core.clone());
                    }
                }
            }
            // What a copula says the asked thing is: "First-line treatment of candidal
            // infection in pregnancy is with a topical imidazole such as clotrimazole",
            // "The preferred specimen is first-void urine": the statement opens with a
            // phrase of the asked head, and its first verb is the copula.
            out.extend(complement_of_head(analysis, &tokens, head));
            let mut bare: Vec<Range<usize>> = Vec::new();
            // Members of a kind the lexicon classes by their head noun, named by a noun
            // before it: "throat culture" is a test, "hepatitis A antibodies" too;
            // "echocardiographic imaging" only says how. A specimen's noun alone names
            // one too ("in sputum", "(CSF)"), unless it is a word for any specimen.
            if let Some(class) = member_class(head) {
                for p in &analysis.phrases {
                    let last = p.core.end.saturating_sub(1);
                    let member = tokens
                        .get(last)
                        .is_some_and(|t| class.has(t) && stem(t) != *head);
                    let alone = class == Class::Specimen
                        && p.core.len() == 1
                        && !matches!(stem(&tokens[last]).as_str(), "specimen" | "sample");
                    // A generic noun of examining needs a noun for what it examines
                    // ("echocardiographic imaging" only says how); a method names its
                    // test whatever qualifies it ("renal ultrasound", "abdominal CT").
                    let method = class == Class::Test
                        && !GENERIC_TESTS.contains(&stem(&tokens[last]).as_str());
                    let named = tags[p.core.start..last]
                        .iter()
                        .any(|t| t.is_noun() || (method && t.is_adjective()));
                    if member && named {
                        out.push(p.core.clone());
                    } else if member && alone {
                        bare.push(p.core.clone());
                    }
                }
            }
            // A test is named by what it measures: the object of a verb of examining
            // ("monitor free T4, not TSH", "recommend measuring total T4 concentration"),
            // without the noun of the quantity measured.
            if member_class(head) == Some(Class::Test) || head == "measurement" {
                for k in 0..tokens.len() {
                    let stem_k = verb_stem(&tokens[k]);
                    let examining =
                        tags[k].is_verb() && EXAMINING.iter().any(|e| verb_stem(e) == stem_k);
                    let Some(p) = analysis
                        .phrases
                        .iter()
                        .find(|p| examining && p.range.start == k + 1 && !p.core.is_empty())
                    else {
                        continue;
                    };
                    let mut end = p.core.end;
                    while end > p.core.start + 1
                        && QUANTITY_NOUNS.contains(&tokens[end - 1].as_str())
                    {
                        end -= 1;
                    }
                    // What is measured is a substance or a marker written as a symbol
                    // ("T4", "TSH", "HbA1c"), not the patient or their response.
                    let measured = (p.core.start..end).any(|i| {
                        let written = analysis.words.get(i).map_or("", |w| w.text(text));
                        is_symbol(written) || language.drugs.lookup(written).is_some()
                    });
                    if measured {
                        out.push(p.core.start..end);
                    }
                }
            }
            // A route is named by its adjective: "transdermal preparations" answers "By
            // which route …", and by the adverb of it: "given subcutaneously".
            if *head == "route" {
                out.extend(
                    (0..tokens.len())
                        .filter(|&i| {
                            Class::Route.has(&tokens[i])
                                || tokens[i]
                                    .strip_suffix("ly")
                                    .is_some_and(|adjective| Class::Route.has(adjective))
                        })
                        .map(|i| i..i + 1),
                );
            }
            let words: Vec<&str> = analysis.words.iter().map(|w| w.text(text)).collect();
            let mut typed: Vec<(Range<usize>, Typed)> = out
                .drain(..)
                .map(|r| (r, Typed::Named))
                .chain(bare.drain(..).map(|r| (r, Typed::Bare)))
                .collect();
            // Drugs are the asked kind when its noun names drug classes, and may be
            // when it names a medicine in general ("Which regimen …").
            let kind = if language.drugs.is_class_noun(head) {
                Some(Typed::Named)
            } else if medicine_noun(head) {
                // A drug is what "which prophylaxis / medication / agent" asks for, and
                // an example of what "which regimen / treatment" asks for.
                let of_one_drug = matches!(
                    head.as_str(),
                    "prophylaxis" | "drug" | "medicine" | "medication" | "agent"
                );
                Some(if of_one_drug {
                    Typed::Named
                } else {
                    Typed::Drug
                })
            } else {
                None
            };
            typed.extend(
                procedures
                    .drain(..)
                    .map(|r| (r, kind.unwrap_or(Typed::Named))),
            );
            // "Which digoxin measurement …": a measured fraction of an analyte ("free
            // digoxin", "ionized calcium", "total T4") is what a measurement is of.
            if MEASURED_THINGS.contains(&head.as_str()) {
                for p in &analysis.phrases {
                    let opens = tokens
                        .get(p.core.start)
                        .is_some_and(|t| FRACTIONS_MEASURED.contains(&t.as_str()));
                    if opens && p.core.len() >= 2 {
                        typed.push((p.core.clone(), Typed::Named));
                    }
                }
            }
            let vaccines = *head == "vaccine";
            // "Which drug class …", "Which class of antihypertensive …": a class is
            // asked for, and the lexicon's classes answer it: any class for a classifier
            // head, a class of the asked kind otherwise.
            let classifier = CLASSIFIERS.iter().any(|c| stem(c) == *head);
            if classifier {
                // Classes the drug lexicon lacks that the kinds know as medicines
                // ("beta blockers"), in the singular or plural.
                for p in &analysis.phrases {
                    let written = analysis.text(text, p.core.clone());
                    let singular_form = match written.rsplit_once(' ') {
                        Some((before, last)) => format!("{before} {}", crate::text::singular(last)),
                        None => crate::text::singular(written),
                    };
                    let medicine_kind = [written, singular_form.as_str()].iter().any(|n| {
                        language
                            .drugs
                            .kinds(n)
                            .is_some_and(|k| k.roots.iter().any(|r| r == "medicine"))
                    });
                    let one_drug = language
                        .drugs
                        .lookup(written)
                        .is_some_and(|d| !d.is_class());
                    if medicine_kind && !one_drug {
                        typed.push((p.core.clone(), Typed::Named));
                    }
                }
            }
            for (range, drug) in language.drugs.mentions(&words) {
                if drug.is_class() {
                    let written = words[range.clone()].join(" ");
                    // A vaccine's product name is one vaccine, though the lexicon files
                    // it under its antigen's vaccines ("Engerix-B" → hepatitis B
                    // vaccines).
                    let product = !written.to_lowercase().contains("vaccin");
                    if vaccines && product && drug.is_vaccine() {
                        typed.push((range, Typed::Named));
                        continue;
                    }
                    let of_kind = classifier
                        || (*plural
                            && [drug.canonical, written.as_str()]
                                .iter()
                                .any(|name| in_class(language, name, head) == Some(true)));
                    if of_kind {
                        typed.push((range, Typed::Named));
                    }
                    continue;
                }
                // A plural names a kind ("transaminases", "antibodies"), not one of its
                // members, unless several are asked for; by its tag and its spelling (a
                // name the tagger does not know, "Cefazolin", may be tagged a plural).
                let last = range.end.saturating_sub(1);
                let spelled_plural = words
                    .get(last)
                    .is_some_and(|w| crate::text::singular(&w.to_lowercase()) != w.to_lowercase());
                let names_kind = !plural
                    && spelled_plural
                    && matches!(tags.get(last), Some(Tag::Nns | Tag::Nnps));
                if names_kind {
                    continue;
                }
                // A vaccine's name answers "Which vaccine …" (MeSH files vaccines apart).
                if vaccines && drug.is_vaccine() {
                    typed.push((range, Typed::Named));
                } else if let Some(kind) = kind {
                    typed.push((range, kind));
                } else if in_class(language, drug.canonical, head) == Some(true) {
                    // A class the lexicon does not file drugs under, read from the
                    // drug's name or kind ("Which fluoroquinolone …": levofloxacin).
                    typed.push((range, Typed::Named));
                }
            }
            // What a drug acts on, before the noun of its action, names a class with
            // it: "angiotensin-converting enzyme inhibitors", "histamine H2 receptor
            // antagonist".
            // … past a short form in brackets ("angiotensin-converting enzyme (ACE)
            // inhibitor").
            let action = |k: usize| {
                words.get(k).is_some_and(|w| {
                    ACTION_NOUNS.contains(&crate::text::singular(&w.to_lowercase()).as_str())
                })
            };
            for (range, _) in &mut typed {
                let bracketed = (words.get(range.end) == Some(&"("))
                    .then(|| {
                        (range.end + 1..(range.end + 4).min(words.len())).find(|&k| words[k] == ")")
                    })
                    .flatten();
                match bracketed {
                    Some(close) if action(close + 1) => range.end = close + 2,
                    _ if action(range.end) => range.end += 1,
                    _ => {}
                }
            }
            // A capital letter after a drug's name is part of it: "penicillin G",
            // "vitamin K" (the lexicon may file the name without it).
            for (range, _) in &mut typed {
                if words.get(range.end).is_some_and(|w| {
                    w.len() == 1 && w.chars().all(|c| c.is_ascii_uppercase()) && *w != "I"
                }) {
                    range.end += 1;
                }
            }
            return sorted(typed);
        }
    }
    sorted(out.into_iter().map(|r| (r, Typed::Named)).collect())
}

/// Whether the drug `name` is of the class a question asks for by `head`
/// ("anticoagulant"): `Some(true)` when its generic name's stem or one of its kinds
/// says so, `Some(false)` when its kinds place it in other classes only, `None` when
/// nothing says (no kinds, or only kinds above the asked class: an antibacterial may
/// be an antibiotic). A stem says no only for a class the stems list: a drug may serve
/// in a class its name does not show (sotalol, a beta-blocker, is an antiarrhythmic).
pub fn in_class(language: &Language, name: &str, head: &str) -> Option<bool> {
    if medicine_noun(head) {
        return None;
    }
    let by_stem = stems::classes_of(name);
    if by_stem.contains(head) {
        return Some(true);
    }
    let stem_says_no = !by_stem.is_empty() && stems::is_stem_class(head);
    let kinds = |name: &str| {
        language
            .drugs
            .kinds(name)
            .filter(|k| k.roots.iter().any(|r| r == "medicine"))
    };
    let drug_kinds = match kinds(name) {
        Some(k) if !k.kinds.is_empty() => &k.kinds,
        _ => return stem_says_no.then_some(false),
    };
    // A kind names the class by any of its words but the generic ones ("antibiotic
    // drug" names the antibiotics).
    let names_head = |kind: &str| {
        kind.split(|c: char| c.is_whitespace() || c == '-')
            .any(|w| stem(w) == head)
            || stem(kind) == head
    };
    if drug_kinds.iter().any(|k| names_head(k)) {
        return Some(true);
    }
    let spaced = head.replace('-', " ");
    let above_head: Vec<&String> = [head, spaced.as_str()]
        .iter()
        .filter_map(|h| kinds(h))
        .flat_map(|k| k.kinds.iter().chain(&k.synonyms))
        .collect();
    if drug_kinds.iter().any(|k| above_head.contains(&k)) {
        return None;
    }
    Some(false)
}

/// Whether a question's head noun asks for a class of drugs: one the lexicon files
/// drugs under, or one a generic-name stem stands for.
pub fn asks_for_class(language: &Language, head: &str) -> bool {
    language.drugs.is_class_noun(head) || stems::is_stem_class(head)
}

/// The unit written onto a number in one word ("500mg" → "mg", "1.5g" → "g", "24hrs"
/// → "hrs"), if any.
fn glued(token: &str) -> Option<&str> {
    let unit = token.trim_start_matches(|c: char| c.is_ascii_digit() || c == '.' || c == ',');
    let starts_with_digit = token.chars().next().is_some_and(|c| c.is_ascii_digit());
    (starts_with_digit && !unit.is_empty() && unit.len() < token.len()).then_some(unit)
}

/// How the words that change a thing or an amount begin ("reduce", "doubled",
/// "switching").
const CHANGES: &[&str] = &[
    "chang", "adjust", "reduc", "increas", "decreas", "lower", "rais", "doubl", "halv", "tripl",
    "titrat", "switch",
];

/// Verbs of giving a medicine whose manner is its route ("How should the dose be
/// administered?").
const ADMINISTERING: &[&str] = &["administer", "giv", "inject", "deliver"];

/// Verbs that ask when a medicine is taken beside another ("How should she time the
/// two medicines?").
const TIMING: &[&str] = &["tim", "spac", "separat"];

/// Words that place a length of time against another medicine's dose.
const SEPARATIONS: &[&str] = &["before", "after", "apart"];

/// Words of approximation before an amount ("by about 25%").
const APPROXIMATELY: &[&str] = &["about", "approximately", "around", "roughly"];

/// Whether a word is a fraction written out ("one-third", "two-thirds", "half").
fn is_fraction(word: &str) -> bool {
    const PARTS: &[&str] = &[
        "half", "halves", "third", "thirds", "quarter", "quarters", "fifth", "fifths",
    ];
    match word.split_once('-') {
        Some((count, part)) => NUMBER_WORDS.contains(&count) && PARTS.contains(&part),
        None => word == "half",
    }
}

/// Whether a verb (its stem, as [`verb_stem`] gives it) examines the patient: "How
/// should oxygen saturation be assessed?" is answered by a test or method ("with
/// CO-oximetry").
pub fn examines(verb: &str) -> bool {
    EXAMINING
        .iter()
        .chain(&[
            "screen",
            "diagnose",
            "confirm",
            "detect",
            "evaluate",
            "determine",
        ])
        .any(|w| verb_stem(w) == verb || verb_stem(&format!("{w}ed")) == verb)
}

/// Comparatives after "how much" that ask for the size of a change.
const COMPARATIVES: &[&str] = &[
    "higher", "lower", "greater", "more", "less", "larger", "smaller",
];

/// Heads that ask what is measured ("Which digoxin measurement …").
const MEASURED_THINGS: &[&str] = &["measurement", "level", "assay", "value", "concentration"];

/// Words that name the part of an analyte a laboratory measures ("free digoxin",
/// "ionized calcium").
const FRACTIONS_MEASURED: &[&str] = &[
    "free",
    "total",
    "ionized",
    "ionised",
    "unbound",
    "bound",
    "corrected",
];

/// Nouns of a drug's action, which follow what it acts on in a class's name
/// ("ACE inhibitor", "calcium channel blocker").
const ACTION_NOUNS: &[&str] = &["inhibitor", "blocker", "antagonist", "agonist"];

/// Words that make a dose a multiple of another ("double the dose").
const MULTIPLES: &[&str] = &["double", "triple", "twice", "quadruple"];

/// Verbs that ask for a change without saying which way ("How should the dose be
/// adjusted?").
const ADJUSTING: &[&str] = &["adjust", "chang", "modif", "alter"];

/// Most words between a verb of change and its "by" or "to" ("reduce the apixaban
/// dose by 50%", "decrease the dose of digoxin by 25-50%").
const CHANGED_REACH: usize = 4;

/// How many words before "from" a change's verb may stand ("double the usual dose of
/// levonorgestrel from …").
const CHANGE_REACH: usize = 8;

/// Whether `word` is a form of a verb that changes a thing or an amount.
pub fn is_change(word: &str) -> bool {
    CHANGES.iter().any(|c| word.starts_with(c))
}

/// Whether the phrase at token `at` is what a change starts from: "double the usual
/// dose from 1.5 milligrams to 3 milligrams", "switch from warfarin to apixaban". It is
/// what the thing was, not what it becomes, so it answers nothing the sentence
/// recommends; "ranging from 4 to 8 mg" changes nothing and stays a range.
pub fn changed_from(tokens: &[String], at: usize) -> bool {
    let Some(from) = at.checked_sub(1) else {
        return false;
    };
    tokens[from] == "from"
        && tokens[..from]
            .iter()
            .rev()
            .take(CHANGE_REACH)
            .take_while(|t| !matches!(t.as_str(), "," | ";" | "." | ":"))
            .any(|t| is_change(t))
        && tokens.iter().skip(at + 1).take(4).any(|t| t == "to")
}

/// The lexicon class whose head nouns name members of an asked kind ("Which test …":
/// cultures, assays, scans; "Which specimen …": urine, swabs).
pub(crate) fn member_class(head: &str) -> Option<Class> {
    match head {
        "test" | "investigation" | "examination" | "assay" | "imag" => Some(Class::Test),
        "specimen" | "sample" => Some(Class::Specimen),
        _ => None,
    }
}

/// Whether a head noun asks for a drug: it names a drug class ("antibiotic") or a
/// medicine in general ("drug", "regimen").
pub fn asks_for_drug(language: &Language, head: &str) -> bool {
    language.drugs.is_class_noun(head) || medicine_noun(head)
}

/// Prepositions whose object is the means by which something is done: "How should
/// the urine be collected?" — "by suprapubic aspiration".
pub const MEANS: &[&str] = &["by", "via", "using", "through"];

/// Stems of the verbs of treating, after which "with" gives the means ("treated with
/// penicillin", "managed with oral rehydration").
const TREATING: &[&str] = &["treat", "manag"];

/// Prepositions whose phrase is itself a manner: "with food", "into the deltoid
/// muscle", "as a single dose".
const MANNER_PREPOSITIONS: &[&str] = &["with", "into", "as"];

/// Nouns that name a medicine in general, whose members can be drug names.
const MEDICINE_NOUNS: &[&str] = &[
    "drug",
    "medicine",
    "medication",
    "agent",
    "therapy",
    "treatment",
    "regimen",
    "option",
    "alternative",
    "product",
    "preparation",
    "prophylaxis",
    "choice",
    // The lay words for a medicine for pain or for an illness ("Which painkillers …").
    "painkiller",
    "remedy",
];

/// Whether a head noun names a medicine in general: one of [`MEDICINE_NOUNS`], or a
/// compound ending in one ("monotherapy", "pharmacotherapy").
pub(super) fn medicine_noun(head: &str) -> bool {
    MEDICINE_NOUNS.iter().any(|n| {
        let n = stem(n);
        head == n || (n.len() >= MIN_COMPOUNDED && head.ends_with(&n))
    })
}

/// Shortest medicine noun that closes a compound naming a medicine too
/// ("chemoprophylaxis", "pharmacotherapy"); shorter ones close other words ("reagent").
const MIN_COMPOUNDED: usize = 7;

/// Whether a word is an ordinal written with digits ("1st", "2nd", "23rd", "4th").
fn is_ordinal(token: &str) -> bool {
    let digits = token.chars().take_while(char::is_ascii_digit).count();
    digits > 0 && matches!(&token[digits..], "st" | "nd" | "rd" | "th")
}

/// Whether a token is written as a name: tagged a proper noun, or with capitals a
/// common word never has ("RSVpreF", "ABRYSVO", "9vHPV").
pub fn name_like(analysis: &Analysis, text: &str, i: usize) -> bool {
    let Some(word) = analysis.words.get(i) else {
        return false;
    };
    let token = word.text(text);
    let letters = token.chars().filter(|c| c.is_alphabetic()).count();
    matches!(analysis.tags.get(i), Some(Tag::Nnp | Tag::Nnps))
        || (letters >= 2 && token.chars().skip(1).any(char::is_uppercase))
}

/// The complement of a copula whose subject is a phrase of the asked `head` opening the
/// statement (a determiner before it aside), and the members listed after it ("… is
/// with a topical imidazole such as clotrimazole"): the phrase after the copula (and a
/// "with" or "by" after it), when the copula is the statement's first verb.
fn complement_of_head(analysis: &Analysis, tokens: &[String], head: &str) -> Vec<Range<usize>> {
    let tags = &analysis.tags;
    let Some(subject) = analysis.phrases.first() else {
        return Vec::new();
    };
    let opens = subject.range.start == 0
        || (subject.range.start == 1 && tokens.first().is_some_and(|t| Class::Determiner.has(t)));
    let headed = (subject.core.start..subject.core.end)
        .any(|i| tokens.get(i).is_some_and(|t| stem(t) == head));
    if !opens || !headed {
        return Vec::new();
    }
    let Some(verb) = (subject.range.end..tokens.len()).find(|&k| tags[k].is_verb()) else {
        return Vec::new();
    };
    if !matches!(
        tokens[verb].as_str(),
        "is" | "are" | "was" | "remains" | "remain"
    ) {
        return Vec::new();
    }
    // Punctuation between the subject and the copula ends the subject.
    if tokens[subject.range.end..verb]
        .iter()
        .any(|t| matches!(t.as_str(), "," | ";" | ":" | "."))
    {
        return Vec::new();
    }
    let mut from = verb + 1;
    if tokens.get(from).is_some_and(|t| t == "with" || t == "by") {
        from += 1;
    }
    let Some(complement) = analysis.phrases.iter().find(|p| p.range.start == from) else {
        return Vec::new();
    };
    // "The urea breath test … are the preferred tests": a complement of the asked kind
    // says what the subject is, not what the kind is.
    if (complement.core.start..complement.core.end)
        .any(|i| tokens.get(i).is_some_and(|t| stem(t) == head))
    {
        return Vec::new();
    }
    let mut out = vec![complement.core.clone()];
    out.extend(listed_after(analysis, tokens, complement.range.end));
    out
}

/// Longest parenthesised alias, in words.
const MAX_ALIAS_WORDS: usize = 3;

/// Where the name before token `head` starts (`head` itself when none does): a run of
/// name-like words, with parenthesised aliases among them.
fn name_before(analysis: &Analysis, text: &str, head: usize) -> usize {
    let token = |i: usize| analysis.words.get(i).map_or("", |w| w.text(text));
    let mut start = head;
    while start > 0 {
        if token(start - 1) == ")" {
            let Some(open) = (start.saturating_sub(MAX_ALIAS_WORDS + 2)..start - 1)
                .rev()
                .find(|&o| token(o) == "(")
            else {
                break;
            };
            let inside = open + 1..start - 1;
            if inside.is_empty()
                || open == 0
                || !inside.clone().all(|i| name_like(analysis, text, i))
                || !name_like(analysis, text, open - 1)
            {
                break;
            }
            start = open;
        } else if name_like(analysis, text, start - 1) {
            start -= 1;
        } else {
            break;
        }
    }
    start
}

/// Whether word `i` of `text` designates one of a kind after its noun: a capital
/// letter, a Roman numeral or a letter with digits ("troponin I", "factor VIII",
/// "vitamin B12"), written as such.
fn designator(analysis: &Analysis, text: &str, i: usize) -> bool {
    analysis
        .words
        .get(i)
        .is_some_and(|w| is_designator(w.text(text)))
}

/// Whether a word as written designates one of a kind after its noun (see
/// [`designator`]).
pub(super) fn is_designator(word: &str) -> bool {
    let mut chars = word.chars();
    let Some(first) = chars.next() else {
        return false;
    };
    let rest: String = chars.collect();
    let roman = word.len() <= 4 && word.chars().all(|c| matches!(c, 'I' | 'V' | 'X'));
    let lettered = first.is_ascii_uppercase()
        && (rest.is_empty() || (rest.len() <= 2 && rest.chars().all(|c| c.is_ascii_digit())));
    roman || lettered
}

/// Longest listed member, in words.
const MAX_MEMBER_WORDS: usize = 5;

/// The noun phrases listed after token `end` as members of what precedes it: after a
/// colon, "such as", "including" or an opening parenthesis, up to the first one not
/// followed by a comma, "and" or "or". A colon may come after modifiers of the kind, not
/// after a finite verb ("vaccines licensed for adults: A and B").
fn listed_after(analysis: &Analysis, tokens: &[String], end: usize) -> Vec<Range<usize>> {
    let tags = &analysis.tags;
    let opens = |i: usize| -> Option<usize> {
        match tokens.get(i).map(String::as_str) {
            Some(":") | Some("(") => Some(i + 1),
            Some("including") | Some("e.g.") => Some(i + 1),
            Some("such") if tokens.get(i + 1).is_some_and(|t| t == "as") => Some(i + 2),
            _ => None,
        }
    };
    let mut i = end;
    if tokens.get(i).is_some_and(|t| t == ",") {
        i += 1;
    }
    let from = match opens(i) {
        Some(from) => from,
        None => {
            // Modifiers up to a colon.
            let colon = (i..tokens.len()).find(|&k| {
                tokens[k] == ":"
                    || tags[k].is_finite_verb()
                    || matches!(tokens[k].as_str(), "." | ";")
            });
            match colon {
                Some(k) if tokens[k] == ":" => k + 1,
                _ => return Vec::new(),
            }
        }
    };
    let mut members = Vec::new();
    let mut at = from;
    for p in analysis.phrases.iter().filter(|p| p.range.start >= from) {
        // A member's own modifier was read with it.
        if p.range.start < at {
            continue;
        }
        if p.range.start != at {
            break;
        }
        if p.core.len() <= MAX_MEMBER_WORDS {
            members.push(p.core.clone());
        }
        at = p.range.end;
        // A member may carry a phrase after a preposition ("cryotherapy with liquid
        // nitrogen, trichloroacetic acid, or surgical removal").
        if tags.get(at) == Some(&Tag::In) && tokens.get(at).is_some_and(|t| t != "of") {
            if let Some(q) = analysis.phrases.iter().find(|q| q.range.start == at + 1) {
                at = q.range.end;
            }
        }
        match tokens.get(at).map(String::as_str) {
            Some(",") => {
                at += 1;
                if tokens.get(at).is_some_and(|t| t == "and" || t == "or") {
                    at += 1;
                }
            }
            Some("and") | Some("or") => at += 1,
            _ => break,
        }
    }
    // One phrase alone after a colon is a definition, not a list of members.
    if members.len() < 2 && tokens.get(from.wrapping_sub(1)).is_some_and(|t| t == ":") {
        return Vec::new();
    }
    members
}

/// The noun phrase a dash sets off after a phrase ending at `end`, or after the
/// relative clause that follows it ("a test that reflects free cortisol — late-night
/// salivary cortisol"): an appositive that names what the phrase describes.
fn named_after_dash(analysis: &Analysis, tokens: &[String], end: usize) -> Option<Range<usize>> {
    let dash = |t: &str| matches!(t, "—" | "–");
    let mut at = end;
    if tokens
        .get(at)
        .is_some_and(|t| matches!(t.as_str(), "that" | "which"))
    {
        at = (at + 1..(at + 1 + MAX_RELATIVE_WORDS).min(tokens.len()))
            .take_while(|&k| !matches!(tokens[k].as_str(), "." | ";" | ":" | ","))
            .find(|&k| dash(&tokens[k]))?;
    }
    if !tokens.get(at).is_some_and(|t| dash(t)) {
        return None;
    }
    analysis
        .phrases
        .iter()
        .find(|p| p.range.start == at + 1 && p.core.len() <= MAX_MEMBER_WORDS)
        .map(|p| p.core.clone())
}

/// Longest relative clause between a phrase and the dash that names it.
const MAX_RELATIVE_WORDS: usize = 8;

/// Spans in order, each range once (with its strongest typing).
pub(crate) fn sorted(mut spans: Vec<(Range<usize>, Typed)>) -> Vec<(Range<usize>, Typed)> {
    spans.sort_by_key(|(r, t)| (r.start, r.end, *t));
    spans.dedup_by(|a, b| a.0 == b.0);
    spans
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn what_a_question_asks_for() {
        let thing = |h: &str| {
            Some(Asked::Thing {
                head: h.into(),
                plural: false,
            })
        };
        let cases: &[(&str, Option<Asked>)] = &[
            (
                "A man who is 60. Which JE vaccine should he be given?",
                thing("vaccine"),
            ),
            (
                "What kind of influenza vaccine should she receive?",
                Some(Asked::Thing {
                    head: "vaccine".into(),
                    plural: true,
                }),
            ),
            (
                "Which blood tests should be done?",
                Some(Asked::Thing {
                    head: "test".into(),
                    plural: true,
                }),
            ),
            (
                "What dolutegravir dose is recommended?",
                Some(Asked::Amount { measured: false }),
            ),
            // An appositive after the wh-phrase leaves its head.
            (
                "To which antihypertensive, the first choice in pregnancy, should she be \
                 switched?",
                thing("antihypertensive"),
            ),
            (
                "What dose of hepatitis B surface antigen should it deliver?",
                Some(Asked::Amount { measured: false }),
            ),
            // A bound on a dose is an amount.
            (
                "What is the recommended metformin dose limit?",
                Some(Asked::Amount { measured: false }),
            ),
            // What is taken in is an amount, and a participle after the head noun opens
            // a clause about it.
            (
                "What is the maximum daily caffeine intake advised in pregnancy?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "What is the first-line treatment recommended for her?",
                thing("treatment"),
            ),
            // What is counted is the noun after the measure of each.
            (
                "How many 2.5 ml doses can be given in a day?",
                Some(Asked::Count {
                    head: "dose".into(),
                }),
            ),
            (
                "How many doses should her schedule have?",
                Some(Asked::Count {
                    head: "dose".into(),
                }),
            ),
            ("When should ART be started?", Some(Asked::Time)),
            (
                "On what schedule should primaquine be given?",
                Some(Asked::Schedule),
            ),
            ("How often should it be taken?", Some(Asked::Schedule)),
            (
                "How should his JYNNEOS dose be administered?",
                Some(Asked::Manner {
                    verb: "administer".into(),
                    object: Some("dose".into()),
                }),
            ),
            ("Which blood test, if any, should she have?", thing("test")),
            (
                "Culture is the gold standard, but which test on the nasopharyngeal specimen \
                 is more likely to be accurate?",
                thing("test"),
            ),
            (
                "From what induration size is his test positive?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "Which anti-inflammatory regimen best limits her gastrointestinal risk?",
                thing("regimen"),
            ),
            ("Which vaccine protects her infant?", thing("vaccine")),
            (
                "By how much should his digoxin maintenance dose be reduced?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "What change in her warfarin dose should be anticipated?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "What is the maximum total dose of rizatriptan she may take?",
                Some(Asked::Amount { measured: false }),
            ),
            ("What is the preferred vaccine for her?", thing("vaccine")),
            (
                "What HbA1c goal is appropriate for an 86-year-old woman?",
                Some(Asked::Amount { measured: true }),
            ),
            (
                "What maintenance dose range should she be given?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "She travels to India in 10 days. What should she be given?",
                thing("treatment"),
            ),
            ("What is recommended for her?", thing("treatment")),
            (
                "What should be suggested for the boy instead?",
                thing("treatment"),
            ),
            (
                "What does the agency advise using for the baby instead?",
                thing("treatment"),
            ),
            (
                "What should she be advised to add to her contraception?",
                thing("treatment"),
            ),
            (
                "How should his glucose be checked in the hours after each dose?",
                Some(Asked::Manner {
                    verb: verb_stem("checked"),
                    object: Some("glucose".into()),
                }),
            ),
            (
                "What would be an appropriate alternative?",
                thing("alternative"),
            ),
            ("Which is preferred?", thing("treatment")),
            ("Which one should she use?", thing("treatment")),
            // "One" refers back to the kind a sentence before introduced, not to people.
            (
                "A woman with stage 4 kidney disease needs a DPP-4 inhibitor. Which one can be \
                 given without renal adjustment?",
                thing("inhibitor"),
            ),
            (
                "A man with gout sees a pharmacist. Which one should she use?",
                thing("treatment"),
            ),
            ("What should she get instead?", thing("treatment")),
            ("What should replace the live vaccine?", thing("treatment")),
            ("What is contraindicated for her?", thing("treatment")),
            ("What does the guideline recommend?", thing("treatment")),
            ("What should be measured?", thing("test")),
            ("What should be used to monitor her?", thing("test")),
            (
                "To what should the dose be reduced?",
                Some(Asked::Amount { measured: false }),
            ),
            (
                "What duration of treatment is recommended?",
                Some(Asked::Time),
            ),
            (
                "How should he take them with his other tablets?",
                Some(Asked::Manner {
                    verb: verb_stem("take"),
                    object: None,
                }),
            ),
            // The verb after a pronoun subject, however the tagger reads it.
            (
                "How should she time the two medicines?",
                Some(Asked::Manner {
                    verb: verb_stem("time"),
                    object: None,
                }),
            ),
            (
                "Which of these vaccines is contraindicated for her?",
                thing("vaccine"),
            ),
            (
                "Which of the following antibiotics should be avoided?",
                thing("antibiotic"),
            ),
            (
                "How far apart should she take the two medicines?",
                Some(Asked::Time),
            ),
            (
                "How much higher may his dose need to be?",
                Some(Asked::Amount { measured: false }),
            ),
            // A subject pronoun opens a relative clause after the head.
            (
                "What is the highest daily simvastatin dose he should take?",
                Some(Asked::Amount { measured: false }),
            ),
            // A comma ends the wh-phrase.
            (
                "Which specimen, collected now, gives the most useful test?",
                thing("specimen"),
            ),
            ("Why is it used?", None),
        ];
        for (question, expected) in cases {
            assert_eq!(&Asked::of(question), expected, "{question}");
        }
    }

    #[test]
    fn the_object_of_a_preposition_is_not_the_subject_of_a_copula() {
        // "gel … after meals is the first-line treatment": the meals are no treatment;
        // "the use of X is …" makes X the subject's.
        let language = crate::language::tests::shipped();
        let asked = Asked::Thing {
            head: "treatment".into(),
            plural: false,
        };
        for (text, typed, not_typed) in [
            (
                "Miconazole oral gel 2.5 mL four times daily after meals is the first-line \
                 treatment.",
                None,
                Some("meals"),
            ),
            (
                "The use of nystatin is the preferred treatment.",
                Some("nystatin"),
                None,
            ),
        ] {
            let analysis = language.analyse(text);
            let got: Vec<String> = spans(&asked, language, text, &analysis)
                .into_iter()
                .map(|(r, _)| analysis.text(text, r).to_lowercase())
                .collect();
            if let Some(typed) = typed {
                assert!(got.iter().any(|g| g == typed), "{text}: {got:?}");
            }
            if let Some(not_typed) = not_typed {
                assert!(!got.iter().any(|g| g == not_typed), "{text}: {got:?}");
            }
        }
    }

    #[test]
    fn a_treatment_is_named_by_the_word_for_what_is_done() {
        let language = crate::language::tests::shipped();
        let asked = Asked::Thing {
            head: "treatment".into(),
            plural: false,
        };
        for (text, named, not_named) in [
            (
                "In pregnancy, cryotherapy with liquid nitrogen is the usual choice.",
                Some("cryotherapy"),
                None,
            ),
            (
                "Laparoscopic appendicectomy is preferred.",
                Some("laparoscopic appendicectomy"),
                None,
            ),
            // The word alone names no treatment.
            ("Therapy should start early.", None, Some("therapy")),
        ] {
            let analysis = language.analyse(text);
            let got: Vec<String> = spans(&asked, language, text, &analysis)
                .into_iter()
                .map(|(r, _)| analysis.text(text, r).to_lowercase())
                .collect();
            if let Some(named) = named {
                assert!(got.iter().any(|g| g == named), "{text}: {got:?}");
            }
            if let Some(not_named) = not_named {
                assert!(!got.iter().any(|g| g == not_named), "{text}: {got:?}");
            }
        }
    }

    #[test]
    fn stems_match_plurals_and_gerunds() {
        assert_eq!(stem("Tests"), "test");
        assert_eq!(stem("testing"), "test");
        assert_eq!(stem("vaccines"), "vaccine");
        assert_eq!(stem("king"), "king");
    }
}
