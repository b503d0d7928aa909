//! Noun phrases: splitting coordinated lists into items and trimming an item down to
//! the name of the thing ("a single oral dose of amoxicillin 2 g" → "amoxicillin").

use super::cues::CUES;
use super::tokens::{is, starts_with, Tok};

/// One item of a list, with the class it was introduced as a member of
/// ("anticoagulants such as A, B" → A and B with class "anticoagulants").
#[derive(Debug, Clone, PartialEq)]
pub(crate) struct Item {
    pub toks: Vec<Tok>,
    pub class: Option<Vec<Tok>>,
}

/// Splits a list region into items at commas, "and", "or", "plus", "and/or"; a
/// "C such as A, B" item makes A, B members of C until another class starts.
pub(crate) fn list_items(toks: &[Tok]) -> Vec<Item> {
    let toks = &drop_quantities(toks);
    let mut items: Vec<Item> = Vec::new();
    let mut current: Vec<Tok> = Vec::new();
    let mut class: Option<Vec<Tok>> = None;
    // Inside a modifier ("with regadenoson or adenosine", "500 mg"): its "and"/"or"
    // do not start new items; the next comma ends it.
    let mut modifier = false;
    let mut i = 0;
    let flush = |current: &mut Vec<Tok>, items: &mut Vec<Item>, class: &Option<Vec<Tok>>| {
        if !current.is_empty() {
            items.push(Item {
                toks: std::mem::take(current),
                class: class.clone(),
            });
        }
    };
    while i < toks.len() {
        let t = &toks[i];
        if modifier {
            if t.lower == "," {
                modifier = false;
                flush(&mut current, &mut items, &class);
            }
            i += 1;
            continue;
        }
        if !current.is_empty() && is(t, &CUES.entity_end) {
            modifier = true;
            i += 1;
            continue;
        }
        if let Some(cue) = CUES.such_as.iter().find(|c| starts_with(toks, i, c)) {
            // What came before is the class; what follows are its members.
            if !current.is_empty() {
                class = Some(std::mem::take(&mut current));
            } else if let Some(previous) = items.pop() {
                // "inhibitors, including A, B": the item before the comma is the class.
                class = Some(previous.toks);
            }
            i += cue.len();
            continue;
        }
        if t.lower == "," || t.lower == "and" || t.lower == "or" || t.lower == "plus" {
            flush(&mut current, &mut items, &class);
            i += 1;
            continue;
        }
        current.push(t.clone());
        i += 1;
    }
    flush(&mut current, &mut items, &class);
    // "breath and stool antigen tests": a bare modifier shares the last item's head.
    if let Some(head) = items
        .last()
        .filter(|last| last.toks.len() >= 2)
        .and_then(|last| last.toks.last())
        .filter(|h| is(h, SHARED_HEADS))
        .cloned()
    {
        let n = items.len();
        for item in &mut items[..n - 1] {
            if item.toks.len() == 1 && item.toks[0].word && !item.toks[0].capital {
                item.toks.push(head.clone());
            }
        }
    }
    items
}

/// Plural heads a coordinated list can share.
const SHARED_HEADS: &[&str] = &[
    "tests",
    "assays",
    "scans",
    "levels",
    "measurements",
    "markers",
];

/// Removes "a single 1 g dose of", "a 10-day course of" before a name.
fn drop_quantities(toks: &[Tok]) -> Vec<Tok> {
    let mut out: Vec<Tok> = Vec::with_capacity(toks.len());
    for t in toks {
        if t.lower == "of"
            && out
                .last()
                .is_some_and(|p| is(p, &["dose", "doses", "course", "courses", "regimen"]))
        {
            let mut start = out.len() - 1;
            while start > 0 && is_quantity(&out[start - 1]) {
                start -= 1;
            }
            out.truncate(start);
            continue;
        }
        out.push(t.clone());
    }
    out
}

fn is_quantity(t: &Tok) -> bool {
    is(t, &CUES.entity_lead)
        || t.lower.chars().next().is_some_and(|c| c.is_ascii_digit())
        || is(
            t,
            &[
                "oral",
                "intravenous",
                "intramuscular",
                "g",
                "mg",
                "mcg",
                "ml",
                "units",
                "daily",
                "weekly",
                "one-time",
            ],
        )
}

/// Trims an item to the entity it names, or `None` when nothing name-like is left.
pub(crate) fn entity(toks: &[Tok]) -> Option<Vec<Tok>> {
    let mut toks: Vec<Tok> = toks.to_vec();
    // A leading adverbial ("during pregnancy only topical azole therapy"): the name
    // starts after it.
    if toks.first().is_some_and(|t| {
        is(
            t,
            &[
                "during", "in", "for", "among", "after", "before", "to", "with", "by", "from", "at",
            ],
        )
    }) {
        match toks.iter().position(|t| is(t, &["only"])) {
            Some(p) => drop(toks.drain(..=p)),
            None => return None,
        }
    }
    // "a 10-day course of X", "a single oral dose of X", "the use of X": keep what
    // follows "of" when all before it is a quantity or an action on it.
    if let Some(of) = toks.iter().position(|t| t.lower == "of") {
        let quantity = toks[..of].iter().all(|t| {
            is(t, &CUES.entity_lead)
                || is(t, &CUES.action_of)
                || t.lower.chars().next().is_some_and(|c| c.is_ascii_digit())
                || matches!(
                    t.lower.as_str(),
                    "oral"
                        | "intravenous"
                        | "course"
                        | "dose"
                        | "regimen"
                        | "trial"
                        | "g"
                        | "mg"
                        | "mcg"
                        | "ml"
                        | "units"
                        | "daily"
                        | "weekly"
                )
        });
        if quantity {
            toks.drain(..=of);
        }
    }
    // Cut at the first word that starts a modifier phrase (but not in first position:
    // "with" cannot start a name anyway).
    if let Some(cut) = toks
        .iter()
        .enumerate()
        .skip(1)
        .find(|(_, t)| {
            is(t, &CUES.entity_end)
                || t.lower == "("
                || t.lower == ":"
                || t.lower == ";"
                // an adverb ("Clarithromycin strongly inhibits …")
                || (t.lower.len() > 4 && t.lower.ends_with("ly"))
        })
        .map(|(i, _)| i)
    {
        // "permethrin 1% lotion": a number before a unit is a dose, not part of the name.
        let unit = is(
            &toks[cut],
            &["%", "mg", "g", "ml", "mcg", "µg", "units", "percent"],
        );
        toks.truncate(cut);
        if unit && toks.last().is_some_and(is_number) {
            toks.pop();
        }
    }
    // Possessive head: "Glyburide's active metabolites" → "Glyburide".
    if let Some(p) = toks
        .iter()
        .position(|t| t.lower.ends_with("'s") || t.lower.ends_with("’s"))
    {
        toks.truncate(p + 1);
    }
    while toks
        .first()
        .is_some_and(|t| is(t, &CUES.entity_lead) || !t.word || is_number(t))
    {
        toks.remove(0);
    }
    // Trailing numbers are doses ("clarithromycin 500"), except after a capitalised
    // word, where they are part of a name ("Compound 99").
    while toks.last().is_some_and(|t| !t.word || is_number(t)) {
        let n = toks.len();
        let named =
            n >= 2 && toks[n - 1].word && toks[n - 2].capital && toks[n - 1].lower.len() >= 2;
        if named {
            break;
        }
        toks.pop();
    }
    if toks.len() > 1 && toks.last().is_some_and(|t| is(t, &CUES.generic_head)) {
        toks.pop();
    }
    // A participle after the name opens a reduced relative clause whose rest was cut
    // ("Dolutegravir combined | with two nucleoside analogues").
    if toks.len() > 1
        && toks
            .last()
            .is_some_and(|t| t.lower.len() > 4 && t.lower.ends_with("ed") && !t.capital)
    {
        toks.pop();
    }
    if toks.is_empty() || toks.len() > 7 {
        return None;
    }
    // A lone participle ("measured", "aiming") is a clause, not a name.
    if toks.len() == 1 && (toks[0].lower.ends_with("ed") || toks[0].lower.ends_with("ing")) {
        return None;
    }
    if toks.iter().all(|t| is(t, &CUES.not_names)) {
        return None;
    }
    Some(toks)
}

/// Whether a token is a number or a number with a unit ("20", "2-g", "5%").
pub(crate) fn is_number(t: &Tok) -> bool {
    t.lower.chars().next().is_some_and(|c| c.is_ascii_digit())
        && !t
            .lower
            .chars()
            .any(|c| c.is_ascii_alphabetic() && c != 'g' && c != 'x')
}

#[cfg(test)]
mod tests {
    use super::super::tokens::{surface, tokenize};
    use super::*;

    fn names(text: &str) -> Vec<String> {
        let toks = tokenize(text, 0);
        list_items(&toks)
            .iter()
            .filter_map(|item| entity(&item.toks))
            .map(|e| surface(text, &e))
            .collect()
    }

    #[test]
    fn lists_split_into_names() {
        assert_eq!(
            names("naltrexone, acamprosate and disulfiram"),
            ["naltrexone", "acamprosate", "disulfiram"]
        );
        assert_eq!(
            names("a single dose of azithromycin or clarithromycin 500 mg, or doxycycline 100 mg"),
            ["azithromycin", "clarithromycin", "doxycycline"]
        );
        assert_eq!(
            names("vasodilator stress myocardial perfusion imaging with regadenoson or adenosine"),
            ["vasodilator stress myocardial perfusion imaging"]
        );
        assert_eq!(names("topical azole therapy"), ["topical azole"]);
        assert_eq!(names("Glyburide's active metabolites"), ["Glyburide's"]);
    }

    #[test]
    fn such_as_makes_members() {
        let text = "sulfonylureas such as glyburide and DPP-4 inhibitors such as linagliptin";
        let toks = tokenize(text, 0);
        let items = list_items(&toks);
        let pairs: Vec<(String, String)> = items
            .iter()
            .map(|i| {
                (
                    surface(text, &i.toks),
                    i.class
                        .as_ref()
                        .map(|c| surface(text, c))
                        .unwrap_or_default(),
                )
            })
            .collect();
        assert_eq!(
            pairs,
            [
                ("glyburide".to_string(), "sulfonylureas".to_string()),
                ("linagliptin".to_string(), "DPP-4 inhibitors".to_string())
            ]
        );
    }
}
