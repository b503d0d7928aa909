//! Quantities that define a population, read the same way from a document's condition
//! ("infants younger than 18 months", "CD4 count <100 cells/mm3", "after the first 7
//! days of illness", "CrCl 30–50 mL/min") and from the patient's description ("a
//! 6-week-old", "CD4 count of 80", "day 10 of a febrile illness", "within 48 hours of
//! symptom onset"). Each is a [`Measure`]: a quantity with the interval its value lies
//! in. A condition holds for the patient when the patient's interval lies inside the
//! condition's, and fails when the two do not meet; a partial overlap decides nothing.
//!
//! Which quantity a number is comes from its unit and the words around it, as a reader
//! takes it: a time is an age only beside an age word ("aged", "old", "of age",
//! "younger than", a person noun), weeks are gestation beside "gestation" or
//! "pregnant", days are of an illness beside "illness", "onset" or "symptoms". A number
//! with no such word is no measure: "for 6 months" is a duration, "a 9-month regimen" a
//! name.

/// What a number measures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Quantity {
    AgeYears,
    GestationWeeks,
    /// The weeks of gestation at which a child was born ("born at 39 weeks", "babies
    /// born before 37 weeks of pregnancy"): a fact of the child's birth, neither an age
    /// nor a pregnancy.
    BirthGestationWeeks,
    /// Days since the illness or its symptoms began.
    IllnessDays,
    WeightKg,
    /// CD4 cells per mm³ (= per µL).
    Cd4,
    /// eGFR or creatinine clearance, mL/min.
    Clearance,
    /// A laboratory value by its analyte and unit ("total IgA is <0.2 g/L", "HbA1c
    /// above 9%"), as a hash of the two: the same analyte in the same unit is the same
    /// quantity, whatever the documents call it otherwise.
    Lab(u64),
}

/// A quantity and the interval its value lies in.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Measure {
    pub quantity: Quantity,
    pub interval: Interval,
}

/// An interval of values; each end open or closed. Unbounded ends are infinite.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Interval {
    pub low: f64,
    pub low_open: bool,
    pub high: f64,
    pub high_open: bool,
}

impl Interval {
    /// One value.
    pub fn point(v: f64) -> Interval {
        Interval {
            low: v,
            low_open: false,
            high: v,
            high_open: false,
        }
    }

    /// From zero up to `v`, not reaching it.
    pub fn under(v: f64) -> Interval {
        Interval {
            low: 0.0,
            low_open: false,
            high: v,
            high_open: true,
        }
    }

    fn below(v: f64, open: bool) -> Interval {
        Interval {
            low: f64::NEG_INFINITY,
            low_open: true,
            high: v,
            high_open: open,
        }
    }

    /// From `v` (itself too unless `open`) upwards.
    pub fn above(v: f64, open: bool) -> Interval {
        Interval {
            low: v,
            low_open: open,
            high: f64::INFINITY,
            high_open: true,
        }
    }

    fn between(low: f64, high: f64) -> Interval {
        Interval {
            low: low.min(high),
            low_open: false,
            high: low.max(high),
            high_open: false,
        }
    }

    /// Whether every value of `self` lies in `other`.
    pub fn within(&self, other: &Interval) -> bool {
        let low_ok =
            self.low > other.low || (self.low == other.low && (!other.low_open || self.low_open));
        let high_ok = self.high < other.high
            || (self.high == other.high && (!other.high_open || self.high_open));
        low_ok && high_ok
    }

    /// Whether `self` and `other` share no value.
    pub fn apart(&self, other: &Interval) -> bool {
        let before = |a: &Interval, b: &Interval| {
            a.high < b.low || (a.high == b.low && (a.high_open || b.low_open))
        };
        before(self, other) || before(other, self)
    }

    fn scaled(self, k: f64) -> Interval {
        Interval {
            low: self.low * k,
            high: self.high * k,
            ..self
        }
    }
}

/// The measures a condition (or a whole statement) states: only those with a
/// comparison or a range ("under 5 years", "6–59 months"), since a bare number in a
/// document rarely bounds a population.
pub fn conditions(text: &str) -> Vec<Measure> {
    read(text, false)
}

/// The measures a patient description states: bare values too ("a 6-week-old", "CD4
/// count of 80"), and bounds ("within 48 hours of symptom onset").
pub fn facts(text: &str) -> Vec<Measure> {
    read(text, true)
}

/// The truth of `condition` for a patient whose measures are `facts`: `Some(true)` when
/// the patient's value lies in the condition's interval, `Some(false)` when it cannot,
/// `None` when the patient's value is unknown or only partly inside.
pub fn holds(condition: &Measure, facts: &[Measure]) -> Option<bool> {
    let fact = facts.iter().find(|f| f.quantity == condition.quantity)?;
    if fact.interval.within(&condition.interval) {
        Some(true)
    } else if fact.interval.apart(&condition.interval) {
        Some(false)
    } else {
        None
    }
}

#[derive(Debug, Clone, PartialEq)]
enum Token {
    Number(f64),
    Word(String),
    Symbol(char),
}

fn tokens(text: &str) -> Vec<Token> {
    let mut out = Vec::new();
    let chars: Vec<char> = text.chars().collect();
    let mut i = 0;
    while i < chars.len() {
        let c = chars[i];
        if c.is_ascii_digit() {
            let mut j = i;
            while j < chars.len()
                && (chars[j].is_ascii_digit()
                    || (chars[j] == '.' && chars.get(j + 1).is_some_and(char::is_ascii_digit))
                    || (chars[j] == ','
                        && crate::text::separates_thousands(
                            &chars[i..j].iter().collect::<String>(),
                            &chars[j + 1..(j + 5).min(chars.len())]
                                .iter()
                                .collect::<String>(),
                        )))
            {
                j += 1;
            }
            let s: String = chars[i..j].iter().filter(|&&c| c != ',').collect();
            if let Ok(v) = s.parse::<f64>() {
                out.push(Token::Number(v));
            }
            i = j;
        } else if c.is_alphabetic() || c == 'µ' || c == '³' {
            let mut j = i;
            while j < chars.len() && (chars[j].is_alphanumeric() || chars[j] == '³') {
                j += 1;
            }
            let s: String = chars[i..j].iter().collect();
            let lower = s.to_lowercase();
            // "under the age of three", "within two weeks": a number written as a word.
            match NUMBER_WORDS.iter().position(|w| *w == lower) {
                Some(n) => out.push(Token::Number(n as f64 + 1.0)),
                None => out.push(Token::Word(lower)),
            }
            i = j;
        } else {
            if !c.is_whitespace() {
                out.push(Token::Symbol(c));
            }
            i += 1;
        }
    }
    out
}

/// Numbers written as words, from one.
const NUMBER_WORDS: &[&str] = &[
    "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
    "twelve",
];

/// A unit of time in years, days or hours, or another unit.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Unit {
    /// Time, as a number of days per unit.
    Time(f64),
    Kg,
    /// Grams of body weight ("infants weighing <2,000 g"); a gram beside no weight
    /// word is a dose.
    Grams,
    Cells,
    MlPerMin,
}

fn unit(tokens: &[Token], at: usize) -> Option<(Unit, usize)> {
    // "6-week-old", "a 9-month regimen": the unit after a hyphen.
    if tokens.get(at) == Some(&Token::Symbol('-')) {
        return unit(tokens, at + 1)
            .filter(|u| matches!(u.0, Unit::Time(_) | Unit::Kg))
            .map(|(u, n)| (u, n + 1));
    }
    let word = |k: usize| match tokens.get(at + k) {
        Some(Token::Word(w)) => w.as_str(),
        _ => "",
    };
    let symbol = |k: usize, c: char| tokens.get(at + k) == Some(&Token::Symbol(c));
    Some(match word(0) {
        "year" | "years" | "yr" | "yrs" => (Unit::Time(365.25), 1),
        // "before their 15th birthday": an age in years.
        "th" | "st" | "nd" | "rd" if word(1) == "birthday" => (Unit::Time(365.25), 2),
        "month" | "months" | "mo" | "mos" => (Unit::Time(365.25 / 12.0), 1),
        "week" | "weeks" | "wk" | "wks" => (Unit::Time(7.0), 1),
        "day" | "days" => (Unit::Time(1.0), 1),
        "hour" | "hours" | "h" | "hr" | "hrs" => (Unit::Time(1.0 / 24.0), 1),
        "kg" => (Unit::Kg, 1),
        "g" | "gram" | "grams" if weight_named_before(tokens, at) => (Unit::Grams, 1),
        "cells" => (Unit::Cells, 1),
        "ml" if symbol(1, '/') && word(2) == "min" => (Unit::MlPerMin, 3),
        _ => return None,
    })
}

/// The quantity a number with no unit is of, by the name shortly before it ("CD4 count
/// <200", "eGFR below 30", "Creatinine clearance (mL/min) 30–49"): the name within the
/// four words before the number, or before a bracketed unit that ends right before it.
fn named_quantity(tokens: &[Token], at: usize) -> Option<Quantity> {
    // Back over a bound's signs ("> 60") and a bracketed unit ("(mL/min)").
    let mut end = at;
    while end > 0 && matches!(tokens[end - 1], Token::Symbol('<' | '>' | '≤' | '≥' | '=')) {
        end -= 1;
    }
    if end > 0 && tokens[end - 1] == Token::Symbol(')') {
        end = tokens[..end - 1]
            .iter()
            .rposition(|t| *t == Token::Symbol('('))
            .filter(|&open| end - 1 - open <= 4)?;
    }
    let named = |names: &[&str]| {
        (end.saturating_sub(4)..end)
            .any(|k| matches!(tokens.get(k), Some(Token::Word(w)) if names.contains(&w.as_str())))
    };
    if named(&["cd4"]) {
        Some(Quantity::Cd4)
    } else if named(&["egfr", "gfr", "crcl", "clearance"]) {
        Some(Quantity::Clearance)
    } else {
        None
    }
}

/// Whether a weight word ("weighing", "weight", "weighs") stands in the few words
/// before the number that ends at `at`.
fn weight_named_before(tokens: &[Token], at: usize) -> bool {
    tokens[at.saturating_sub(6)..at.min(tokens.len())]
        .iter()
        .any(|t| matches!(t, Token::Word(w) if w.starts_with("weigh")))
}

/// Words besides person nouns that say a number before them is an age.
const AGE_WORDS: &[&str] = &["aged", "age", "ages", "older", "younger"];

/// Words that bound or measure a quantity rather than name a condition: units, age
/// words and the words of a bound ("at least 18 years old", "CrCl less than 30").
pub fn is_measure_word(word: &str) -> bool {
    let single = [Token::Word(word.to_string())];
    unit(&single, 0).is_some()
        || AGE_WORDS.contains(&word)
        || matches!(
            word,
            "old"
                | "less"
                | "more"
                | "greater"
                | "least"
                | "than"
                | "over"
                | "under"
                | "above"
                | "below"
                | "up"
                | "ml"
                | "min"
                | "mg"
                | "g"
        )
}

/// How a number is bounded by the words before it.
#[derive(Debug, Clone, Copy, PartialEq)]
enum Bound {
    Below { open: bool },
    Above { open: bool },
}

/// Words that give a number roughly.
const APPROXIMATELY: &[&str] = &["about", "approximately", "around", "roughly", "nearly"];

fn bound_before(tokens: &[Token], at: usize) -> Option<Bound> {
    let word = |k: usize| match at.checked_sub(k).and_then(|i| tokens.get(i)) {
        Some(Token::Word(w)) => w.as_str(),
        _ => "",
    };
    let symbol = |k: usize| match at.checked_sub(k).and_then(|i| tokens.get(i)) {
        Some(Token::Symbol(c)) => Some(*c),
        _ => None,
    };
    // "<=" and "≤", "<" …; "after the first 7 days" before "the first 7 days".
    match (symbol(2), symbol(1)) {
        (Some('<'), Some('=')) => return Some(Bound::Below { open: false }),
        (Some('>'), Some('=')) => return Some(Bound::Above { open: false }),
        (_, Some('≤')) => return Some(Bound::Below { open: false }),
        (_, Some('≥')) => return Some(Bound::Above { open: false }),
        (_, Some('<')) => return Some(Bound::Below { open: true }),
        (_, Some('>')) => return Some(Bound::Above { open: true }),
        _ => {}
    }
    // "older than about 60 years": a bound holds however roughly its number is given.
    if APPROXIMATELY.contains(&word(1)) && at >= 1 {
        return bound_before(tokens, at - 1);
    }
    // "before their 15th birthday": the bound before the possessive.
    if matches!(word(1), "their" | "his" | "her") && at >= 1 {
        return bound_before(tokens, at - 1);
    }
    // "over the age of 65", "less than age 3": the bound before the age word.
    if (word(3), word(2), word(1)) == ("the", "age", "of") && at >= 3 {
        return bound_before(tokens, at - 3);
    }
    if matches!(word(1), "age" | "ages") && at >= 1 {
        return bound_before(tokens, at - 1);
    }
    // "less than or equal to 65 years", "greater than or equal to 18".
    if (word(4), word(3), word(2), word(1)) == ("than", "or", "equal", "to") {
        match word(5) {
            "less" | "fewer" | "lower" | "younger" => return Some(Bound::Below { open: false }),
            "more" | "greater" | "higher" | "older" => return Some(Bound::Above { open: false }),
            _ => {}
        }
    }
    let first = word(1) == "first" && word(2) == "the";
    if first {
        return match word(3) {
            "after" | "beyond" => Some(Bound::Above { open: true }),
            _ => Some(Bound::Below { open: false }),
        };
    }
    match (word(2), word(1)) {
        (_, "under" | "below" | "before") => Some(Bound::Below { open: true }),
        ("less" | "fewer" | "younger" | "lower", "than") => Some(Bound::Below { open: true }),
        ("up" | "at", "to" | "most") | (_, "within") => Some(Bound::Below { open: false }),
        ("no" | "not", "more") => Some(Bound::Below { open: false }),
        (_, "over" | "above" | "after" | "beyond") => Some(Bound::Above { open: true }),
        ("more" | "greater" | "older" | "higher", "than") => Some(Bound::Above { open: true }),
        ("at", "least") | (_, "from") => Some(Bound::Above { open: false }),
        _ => None,
    }
}

fn bound_after(tokens: &[Token], at: usize) -> Option<Bound> {
    let word = |k: usize| match tokens.get(at + k) {
        Some(Token::Word(w)) => w.as_str(),
        _ => "",
    };
    if tokens.get(at) == Some(&Token::Symbol('+')) {
        return Some(Bound::Above { open: false });
    }
    // "65 years of age and older": past "of age".
    let skip = if word(0) == "of" && word(1) == "age" {
        2
    } else {
        0
    };
    match (word(skip), word(skip + 1)) {
        ("and" | "or", "older" | "over" | "above" | "more" | "greater") => {
            Some(Bound::Above { open: false })
        }
        ("and" | "or", "younger" | "under" | "less" | "fewer" | "below") => {
            Some(Bound::Below { open: false })
        }
        _ => None,
    }
}

/// The quantity a time is, from the words in the four tokens before the number at
/// `from` and after its unit, which ends at `to`; `facts`: read from a patient
/// description, where "has had a cough for 3 weeks" says how long the illness has run.
fn time_quantity(
    tokens: &[Token],
    from: usize,
    to: usize,
    days_per_unit: f64,
    facts: bool,
) -> Option<Quantity> {
    let near = |range: std::ops::Range<usize>| -> Vec<&str> {
        range
            .filter_map(|i| match tokens.get(i) {
                Some(Token::Word(w)) => Some(w.as_str()),
                _ => None,
            })
            .collect()
    };
    let before = near(from.saturating_sub(4)..from);
    let after = near(to..to + 4);
    let any = |ws: &[&str], set: &[&str]| ws.iter().any(|w| set.contains(w));
    let pregnancy = ["gestation", "gestational", "pregnant", "pregnancy"];
    // The illness, or a symptom whose start dates it ("the first 3 weeks of cough").
    let illness = [
        "illness",
        "onset",
        "symptom",
        "symptoms",
        "fever",
        "disease",
        "cough",
        "rash",
        "diarrhoea",
        "diarrhea",
        "vomiting",
        "jaundice",
    ];
    if days_per_unit == 7.0 && any(&before, &BIRTH_WORDS) {
        return Some(Quantity::BirthGestationWeeks);
    }
    if days_per_unit == 7.0 && (any(&after, &pregnancy) || any(&before, &["gestational"])) {
        return Some(Quantity::GestationWeeks);
    }
    // "48 hours of symptom onset", "5 days after the onset of fever": a time linked to
    // the illness by a preposition ("older than 60 years without coronary disease" is
    // an age).
    let linked = after.first().is_some_and(|w| {
        matches!(
            *w,
            "of" | "after" | "since" | "from" | "into" | "before" | "following" | "post"
        )
    });
    if (linked && any(&after, &illness)) || after.first().is_some_and(|w| illness.contains(w)) {
        return Some(Quantity::IllnessDays);
    }
    // "has had a cough for 3 weeks", "a child with fever for 2 days", "has had a
    // paroxysmal cough with post-tussive vomiting for 5 weeks": "had" may stand further
    // back in the same clause.
    let clause_had = tokens[from.saturating_sub(12)..from]
        .iter()
        .rev()
        .take_while(|t| !matches!(t, Token::Symbol(c) if matches!(c, ',' | ';' | '.' | ':')))
        .any(|t| matches!(t, Token::Word(w) if w == "had"));
    let lasted = before.last() == Some(&"for") && (any(&before, &["had", "with"]) || clause_had);
    if facts && lasted {
        return Some(Quantity::IllnessDays);
    }
    // "of age", "old", or an age word or person right before the number.
    let of_age = after.first() == Some(&"old")
        || (after.first() == Some(&"of") && after.get(1) == Some(&"age"));
    let mut person_before = false;
    for w in before.iter().rev().take(3) {
        if matches!(
            *w,
            "for" | "every" | "per" | "within" | "after" | "since" | "of" | "over"
        ) {
            break;
        }
        if crate::lexicon::Class::Person.has(w) || AGE_WORDS.contains(w) {
            person_before = true;
            break;
        }
    }
    // "40–49 years 2.0 nanogram/mL or higher", "6–11 months: 0.25 mg/kg": a range of
    // years or months written as a label of its own is an age group, as a table's rows
    // and a list's labels set them out.
    let age_group =
        !facts && days_per_unit >= MONTH_DAYS && ranged(tokens, from) && opens_label(tokens, from);
    (of_age || person_before || age_group || !facts && age_label(tokens, from))
        .then_some(Quantity::AgeYears)
}

/// Words that make the weeks after them those of the gestation a child was born at.
pub const BIRTH_WORDS: [&str; 3] = ["born", "delivered", "birth"];

/// The fewest days of a unit of time whose ranges as labels are age groups (months and
/// years; weeks are weeks of gestation as often).
const MONTH_DAYS: f64 = 28.0;

/// Whether the number at `at` opens a range: "40–49", "6 to 11".
fn ranged(tokens: &[Token], at: usize) -> bool {
    let joins = match tokens.get(at + 1) {
        Some(Token::Symbol(c)) => matches!(c, '-' | '–' | '—'),
        Some(Token::Word(w)) => w == "to",
        _ => false,
    };
    joins && matches!(tokens.get(at + 2), Some(Token::Number(_)))
}

/// Whether the number at `at` opens a label: the text or a part after a mark starts
/// with it.
fn opens_label(tokens: &[Token], at: usize) -> bool {
    match at.checked_sub(1).map(|i| &tokens[i]) {
        None => true,
        Some(Token::Symbol(c)) => matches!(c, '|' | '(' | ';' | ',' | ':' | '•' | '-' | '*'),
        _ => false,
    }
}

/// Whether a bounded time at `from` is written as a label of its own, as a table's
/// column or a list's label names an age group ("Maximum dose: Greater than 65 years",
/// "Less than 6 months | …"): the words of its bound open the text or follow a mark,
/// and the label before it names no length of time ("Duration: less than 6 months").
fn age_label(tokens: &[Token], from: usize) -> bool {
    let mut k = from;
    let mut bounded = false;
    while k > 0 {
        match &tokens[k - 1] {
            Token::Word(w) if BOUND_WORDS.contains(&w.as_str()) => bounded = true,
            Token::Symbol('<' | '>' | '≤' | '≥' | '=') => bounded = true,
            _ => break,
        }
        k -= 1;
    }
    let opens = match k.checked_sub(1).map(|i| &tokens[i]) {
        None => true,
        Some(Token::Symbol(':')) => !tokens[..k - 1]
            .iter()
            .rev()
            .take(3)
            .any(|t| matches!(t, Token::Word(w) if DURATION_WORDS.contains(&w.as_str()))),
        Some(Token::Symbol('|' | '(' | ';' | ',')) => true,
        _ => false,
    };
    bounded && opens && bound_before(tokens, from).is_some()
}

/// Whether the number at `at` is an age by the word before it: "age 7–10", "aged 65",
/// "ages 2 to 18", "at the age of 65", "age ≥ 50", "age over 65".
fn age_named_before(tokens: &[Token], at: usize) -> bool {
    let mut k = at;
    while k > 0 {
        match &tokens[k - 1] {
            Token::Symbol('<' | '>' | '≤' | '≥' | '=') => k -= 1,
            Token::Word(w) if w == "of" || BOUND_WORDS.contains(&w.as_str()) => k -= 1,
            _ => break,
        }
        if at - k > 5 {
            return false;
        }
    }
    matches!(k.checked_sub(1).map(|i| &tokens[i]), Some(Token::Word(w)) if matches!(w.as_str(), "age" | "aged" | "ages"))
}

/// The words of a bound before a number ("less than or equal to", "at least").
const BOUND_WORDS: &[&str] = &[
    "less", "more", "greater", "fewer", "higher", "lower", "older", "younger", "than", "or",
    "equal", "to", "over", "under", "above", "below", "up", "at", "least", "most",
];

/// Nouns that name a length of time, so that a bound under them is no age.
const DURATION_WORDS: &[&str] = &["duration", "length", "period", "course", "interval", "time"];

fn read(text: &str, facts: bool) -> Vec<Measure> {
    let tokens = tokens(text);
    let mut out: Vec<Measure> = Vec::new();
    let mut i = 0;
    while i < tokens.len() {
        let Token::Number(first) = tokens[i] else {
            i += 1;
            continue;
        };
        // A range "6–59 months", "6 months to 5 years", "between 2 and 5 years".
        let mut second: Option<(f64, Option<(Unit, usize)>)> = None;
        // "day 10 of illness": the unit before the number.
        let day_before = matches!(i.checked_sub(1).and_then(|k| tokens.get(k)), Some(Token::Word(w)) if w == "day");
        // "children age 7–10", "at age 65", "age ≥ 50": a number an age word names
        // with no unit after it is in years.
        let age_before = age_named_before(&tokens, i);
        let in_years = (Unit::Time(365.25), 0);
        let first_written = unit(&tokens, i + 1).or(day_before.then_some((Unit::Time(1.0), 0)));
        let first_unit = first_written.or(age_before.then_some(in_years));
        let after_first = i + 1 + first_unit.map_or(0, |u| u.1);
        // "11--15 years": a double hyphen for a dash.
        let after_first = match (tokens.get(after_first), tokens.get(after_first + 1)) {
            (Some(Token::Symbol('-')), Some(Token::Symbol('-'))) => after_first + 1,
            _ => after_first,
        };
        let dash = matches!(
            tokens.get(after_first),
            Some(Token::Symbol('–' | '-' | '—'))
        ) || matches!(tokens.get(after_first), Some(Token::Word(w)) if w == "to" || w == "through")
            || (matches!(tokens.get(after_first), Some(Token::Word(w)) if w == "and")
                && matches!(i.checked_sub(1).and_then(|k| tokens.get(k)), Some(Token::Word(w)) if w == "between"));
        if dash {
            if let Some(Token::Number(v)) = tokens.get(after_first + 1) {
                let high_unit = unit(&tokens, after_first + 2);
                second = Some((*v, high_unit.or(age_before.then_some(in_years))));
            }
        }
        let (unit_of_range, interval, end) = match second {
            Some((high, Some(u))) => {
                // "6 months to 5 years": the low end in its own unit; "aged 2 to 3
                // months": in the high end's, when it has none written.
                let low_scale = match (first_written, u.0) {
                    (Some((Unit::Time(a), _)), Unit::Time(b)) => a / b,
                    _ => 1.0,
                };
                let interval = Interval::between(first * low_scale, high);
                (u.0, interval, after_first + 2 + u.1)
            }
            Some((high, None))
                if first_unit.is_none()
                    && !matches!(tokens.get(after_first + 2), Some(Token::Word(_))) =>
            {
                // "Creatinine clearance 30–50", a table's row "30–50" under a
                // "Creatinine clearance (mL/min)" heading: a range with no unit that the
                // quantity's name stands shortly before.
                match named_quantity(&tokens, i) {
                    Some(q) => {
                        out.push(Measure {
                            quantity: q,
                            interval: Interval::between(first, high),
                        });
                        i = after_first + 2;
                    }
                    None => i += 1,
                }
                continue;
            }
            _ => {
                let Some(u) = first_unit else {
                    // "total IgA is <0.2 g/L": a laboratory value, by its analyte.
                    if let Some((q, len)) = lab(&tokens, i) {
                        out.extend(bounded(&tokens, i, i + 1 + len, first, q, facts));
                        i += 1 + len;
                        continue;
                    }
                    // "CD4 count <200", "eGFR below 30" with no unit.
                    if let Some(q) = named_quantity(&tokens, i) {
                        out.extend(bounded(&tokens, i, i + 1, first, q, facts));
                    }
                    i += 1;
                    continue;
                };
                (u.0, Interval::point(first), i + 1 + u.1)
            }
        };
        let birthday =
            matches!(tokens.get(end.saturating_sub(1)), Some(Token::Word(w)) if w == "birthday");
        let quantity = match unit_of_range {
            Unit::Time(_) if age_before || birthday => Some(Quantity::AgeYears),
            Unit::Time(days) => time_quantity(&tokens, i, end, days, facts),
            Unit::Kg | Unit::Grams => Some(Quantity::WeightKg),
            Unit::Cells => Some(Quantity::Cd4),
            Unit::MlPerMin => Some(Quantity::Clearance),
        };
        if let Some(quantity) = quantity {
            // Times are kept in the quantity's own unit: years of age, weeks of
            // gestation, days of illness.
            let scale = match (unit_of_range, quantity) {
                (Unit::Time(days), Quantity::AgeYears) => days / 365.25,
                (Unit::Time(days), Quantity::GestationWeeks | Quantity::BirthGestationWeeks) => {
                    days / 7.0
                }
                (Unit::Time(days), Quantity::IllnessDays) => days,
                (Unit::Grams, _) => 0.001,
                _ => 1.0,
            };
            let measure = match second {
                Some(_) => Some(Measure {
                    quantity,
                    interval: interval.scaled(scale),
                }),
                None => bounded(&tokens, i, end, first * scale, quantity, facts),
            };
            out.extend(measure);
        }
        i = end;
    }
    out
}

/// Units of concentration and proportion a laboratory reports: "g/L", "mmol/L",
/// "mg/dL", "IU/L", "%". A mass alone ("40 mg") is a dose, not a value measured.
pub(crate) const LAB_UNIT_HEADS: &[&str] = &[
    "g", "mg", "µg", "mcg", "ug", "ng", "pg", "mmol", "µmol", "umol", "nmol", "pmol", "iu", "u",
    "miu", "meq", "cells",
];

/// Words between an analyte and its value ("IgA level of", "platelet count is",
/// "potassium above"): they name no analyte.
const BEFORE_VALUE: &[&str] = &[
    "is",
    "was",
    "are",
    "were",
    "of",
    "level",
    "levels",
    "count",
    "counts",
    "concentration",
    "concentrations",
    "value",
    "values",
    // What a value is as a bound: "an HbA1c goal of less than 8%", "a cut-off of".
    "threshold",
    "thresholds",
    "cutoff",
    "cutoffs",
    "cut",
    "off",
    "point",
    "points",
    "goal",
    "goals",
    "target",
    "targets",
    "less",
    "more",
    "greater",
    "fewer",
    "lower",
    "higher",
    "than",
    "below",
    "above",
    "under",
    "over",
    "at",
    "least",
    "most",
    "to",
    "up",
    "equal",
    "or",
    "a",
    "an",
    "the",
    "serum",
    "plasma",
    "blood",
];

/// How many tokens before its value an analyte may stand.
const ANALYTE_REACH: usize = 6;

/// The laboratory quantity of the number at `at`, with its unit's length in tokens:
/// a unit of concentration or a percentage after it, and the analyte named before it
/// (the word closest to the value that is not a bound, a verb of being or a word like
/// "level"). `None` for anything else: an amount of a drug, a bare number.
fn lab(tokens: &[Token], at: usize) -> Option<(Quantity, usize)> {
    let word = |k: usize| match tokens.get(k) {
        Some(Token::Word(w)) => Some(w.as_str()),
        _ => None,
    };
    let (unit, len) = match (tokens.get(at + 1), tokens.get(at + 2)) {
        (Some(Token::Symbol('%')), _) => ("%".to_string(), 1),
        (Some(Token::Word(w)), Some(Token::Symbol('/')))
            if LAB_UNIT_HEADS.contains(&w.as_str()) =>
        {
            let per = word(at + 3)?;
            let head = match w.as_str() {
                "mcg" | "ug" => "µg",
                "umol" => "µmol",
                other => other,
            };
            (format!("{head}/{per}"), 3)
        }
        _ => return None,
    };
    let analyte = analyte(tokens, at)?;
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    (analyte, unit).hash(&mut hasher);
    Some((Quantity::Lab(hasher.finish()), len))
}

/// The analyte named at the end of `text`, as before a value: "a serum ferritin up to"
/// → "ferritin", "hemoglobin below" → "hemoglobin", "Above what NT-proBNP" →
/// "probnp" (the word after the hyphen). `None` when the words there name none (a
/// function word, a person, a number).
pub fn analyte_ending(text: &str) -> Option<String> {
    // A colon or semicolon opens a part of its own: "Cut-points rise with age: 500
    // pg/mL" names no analyte before the value.
    let part = text.rfind([':', ';']).map_or(text, |at| &text[at + 1..]);
    let tokens = tokens(part);
    analyte(&tokens, tokens.len())
}

/// The analyte named before the value at `at` (see [`lab`]), singular.
fn analyte(tokens: &[Token], at: usize) -> Option<String> {
    let analyte = (at.saturating_sub(ANALYTE_REACH)..at)
        .rev()
        .filter_map(|k| match &tokens[k] {
            Token::Word(w) => Some(w.as_str()),
            Token::Number(_) => Some(""),
            Token::Symbol(_) => None,
        })
        .find(|w| !BEFORE_VALUE.contains(w))
        .filter(|w| w.chars().filter(|c| c.is_alphabetic()).count() >= 2)?;
    let analyte = crate::text::singular(analyte);
    (!crate::lexicon::any(&crate::lexicon::FUNCTION, &analyte)
        && !crate::lexicon::Class::Person.has(&analyte))
    .then_some(analyte)
}

/// The measure of the number at `at` (its unit ending before `end`), bounded by the
/// words before or after it; a bare value only for a fact.
fn bounded(
    tokens: &[Token],
    at: usize,
    end: usize,
    value: f64,
    quantity: Quantity,
    facts: bool,
) -> Option<Measure> {
    let interval = match bound_before(tokens, at).or_else(|| bound_after(tokens, end)) {
        Some(Bound::Below { open }) => {
            // "within 48 hours": from the start, so not below zero.
            let mut i = Interval::below(value, open);
            if quantity != Quantity::Cd4 && quantity != Quantity::Clearance {
                i.low = 0.0;
                i.low_open = false;
            }
            i
        }
        Some(Bound::Above { open }) => Interval::above(value, open),
        None if facts => Interval::point(value),
        None => return None,
    };
    Some(Measure { quantity, interval })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The truth of each condition for the patient of `question`.
    fn check(question: &str, expect: &[(&str, Option<bool>)]) {
        let facts = facts(question);
        for (condition, truth) in expect {
            let measures = conditions(condition);
            let got = match measures.as_slice() {
                [] => None,
                [m, ..] => holds(m, &facts),
            };
            assert_eq!(
                got, *truth,
                "{condition:?} for {question:?}: {measures:?} / {facts:?}"
            );
        }
    }

    #[test]
    fn ages_in_any_unit_against_bounds_and_ranges() {
        check(
            "Which test should be used in a 6-week-old infant born to a mother with HIV?",
            &[
                ("infants and children aged <18 months", Some(true)),
                ("children who are ≥18 months of age", Some(false)),
                ("adults 60 years of age and older", Some(false)),
                ("children aged 6 months to 5 years", Some(false)),
                ("infants younger than 2 months", Some(true)),
                ("for 6 months", None),
                // The low end of a range takes the high end's unit when it has none.
                ("babies aged 1 to 2 months", Some(true)),
                ("babies aged 2 to 3 months", Some(false)),
            ],
        );
        check(
            "A 66-year-old woman asks which vaccine.",
            &[
                ("adults aged ≥65 years", Some(true)),
                ("persons 50–64 years", Some(false)),
                ("adolescents aged 11--15 years", Some(false)),
                ("adults 60 years and older", Some(true)),
                ("children under 5 years", Some(false)),
                // Bounds "or equal to"; a bounded time written as a label of its own
                // (a table's column) is an age group, under a label naming no length
                // of time.
                ("Maximum dose: less than or equal to 65 years", Some(false)),
                ("Maximum dose: greater than 65 years", Some(true)),
                ("greater than or equal to 60 years", Some(true)),
                ("Duration: less than 6 months", None),
                ("Patients treated for more than 65 years", None),
                // An age word names the unit when none follows: years.
                (
                    "Children age 7–10 who require more than one dose",
                    Some(false),
                ),
                ("patients over the age of 65", Some(true)),
                ("adults age ≥ 50", Some(true)),
                ("persons aged 18 to 49", Some(false)),
                ("children less than age 3 years", Some(false)),
                ("persons who start before their 15th birthday", Some(false)),
                ("persons vaccinated after their 18th birthday", Some(true)),
                ("people under the age of three", Some(false)),
                ("adults over age sixty", None),
                // A range of years or months as a label of its own (a table's row, a
                // list's label) is an age group; a range of days or weeks is not.
                ("40–49 years 2.0 nanogram/mL or higher", Some(false)),
                ("60–69 years: 4.0 nanogram/mL", Some(true)),
                ("• 6–11 months: 0.25 mg/kg twice daily", Some(false)),
                ("5–7 days: 500 mg daily", None),
                ("Treat for 60–69 years", None),
            ],
        );
    }

    #[test]
    fn days_of_illness_weeks_of_gestation_cd4_weight_and_clearance() {
        check(
            "He is now on day 10 of a febrile illness suspected to be dengue.",
            &[
                ("during the first 7 days of illness", Some(false)),
                ("after the first 7 days of illness", Some(true)),
            ],
        );
        check(
            "A 15-year-old has had paroxysmal cough for 3 weeks.",
            &[
                (
                    "specimens taken at 0-3 weeks following cough onset",
                    Some(true),
                ),
                ("during the first 2 weeks of illness", Some(false)),
            ],
        );
        // Grams are a weight beside a weight word, and "1,600" is one number.
        check(
            "A preterm boy weighing 1,600 g at birth.",
            &[
                ("infants weighing <2,000 g", Some(true)),
                ("birth weight ≥2000 grams", Some(false)),
                ("weighing 600 g or less", Some(false)),
                ("give 1 g every 12 hours", None),
            ],
        );
        check(
            "A 15-year-old has had a paroxysmal cough with post-tussive vomiting for 5 weeks.",
            &[
                (
                    "PCR is preferred during the first 3 weeks of cough",
                    Some(false),
                ),
                ("between 2 and 8 weeks after cough onset", Some(true)),
            ],
        );
        // A clause of its own does not say how long the illness has run.
        check(
            "He had a kidney transplant, on tacrolimus for 5 years.",
            &[("more than 2 years after symptom onset", None)],
        );
        // In a document, "for 3 weeks" is how long something is given.
        check(
            "A 15-year-old with TB.",
            &[("treated with it for 3 weeks", None)],
        );
        check(
            "Influenza confirmed within 48 hours of symptom onset.",
            &[
                ("within 48 hours of symptom onset", Some(true)),
                ("more than 5 days after illness onset", Some(false)),
                ("within 24 hours of onset", None),
            ],
        );
        // The weeks a child was born at are neither its age nor a pregnancy.
        check(
            "A 10-week-old baby born at 39 weeks and weighing 5 kg has a fever.",
            &[
                ("babies aged 2 to 3 months", Some(true)),
                ("if they were born after 37 weeks of pregnancy", Some(true)),
                ("babies born before 37 weeks", Some(false)),
                ("children aged 6 to 11 months", Some(false)),
                ("after 20 weeks of gestation", None),
            ],
        );
        check(
            "A woman at 34 weeks of gestation, CD4 count of 80 cells/mm3, weight 62 kg, \
             creatinine clearance 40 mL/min.",
            &[
                ("at 32 through 36 weeks' gestation", Some(true)),
                ("between 28 and 36 weeks of gestation", Some(true)),
                ("before 20 weeks of pregnancy", Some(false)),
                ("CD4 count <100 cells/mm3", Some(true)),
                ("CD4 count ≥200", Some(false)),
                ("weighing less than 35 kg", Some(false)),
                ("infants weighing <2,000 g", Some(false)),
                ("birth weight of 2,000 grams or more", Some(true)),
                ("CrCl 30–50 mL/min", Some(true)),
                ("CrCl <30 mL/min", Some(false)),
                // A range the quantity's name stands before, with its unit in brackets
                // or none.
                ("Creatinine clearance 30–50", Some(true)),
                ("Creatinine Clearance (mL/min) 50-80", Some(false)),
                ("CrCl 10-29: 1 g every 24 hours", Some(false)),
                ("Baseline creatinine clearance (ml/min) > 60", Some(false)),
                ("Baseline creatinine clearance (ml/min) 40–49", Some(true)),
            ],
        );
    }

    #[test]
    fn laboratory_values_by_their_analyte_and_unit() {
        check(
            "A woman with iron deficiency; her total IgA is 0.1 g/L and her HbA1c is 7.5%.",
            &[
                ("when total IgA is <0.2 g/L", Some(true)),
                ("IgA level of at least 0.2 g/L", Some(false)),
                ("patients with an HbA1c above 9%", Some(false)),
                ("HbA1c under 8%", Some(true)),
                // Another analyte, or the same one in another unit, decides nothing.
                ("serum potassium >5.5 mmol/L", None),
                ("total IgA < 200 mg/dL", None),
            ],
        );
        // A dose is no laboratory value.
        assert_eq!(conditions("doses above 40 mg per day"), vec![]);
        assert_eq!(facts("takes 40 mg daily"), vec![]);
    }

    #[test]
    fn names_and_durations_are_no_measure() {
        assert_eq!(conditions("the 9-month regimen for 6 months"), vec![]);
        assert_eq!(conditions("give 2 doses 4 weeks apart"), vec![]);
        assert_eq!(facts("a 9-month regimen"), vec![]);
    }
}
