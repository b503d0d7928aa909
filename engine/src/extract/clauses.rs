//! Clauses: a sentence split where it joins statements that each have their own verb,
//! and each clause's subject start and verb found after its introductory phrases.

use super::*;
/// One clause's arguments after resolving the subject.
pub(super) struct Clause {
    pub(super) toks: Vec<Tok>,
    /// Index of the first token of the predicate (the verb group).
    pub(super) verb: Option<usize>,
    /// Start of the subject (after introductory phrases).
    pub(super) subject_start: usize,
}

/// Splits a sentence into clauses at ";" and at ", and/but/whereas/so/while" when what
/// follows has its own finite verb (a list's ", and C" does not).
pub(super) fn clauses(toks: &[Tok]) -> Vec<Vec<Tok>> {
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
            let has_verb = toks[i + 2..next_stop].iter().any(|x| is(x, &CUES.finite));
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
pub(super) fn analyse(toks: Vec<Tok>) -> Clause {
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
        if let Some(a) = CUES
            .population_anaphors
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
            is(t, &CUES.subordinate) && !is(t, &["and", "or", "which", "who", "that", "both"])
        });
        if !starts_intro {
            break;
        }
        match (subject_start..toks.len()).find(|&j| toks[j].lower == ",") {
            Some(comma) => subject_start = comma + 1,
            None => break,
        }
    }
    // "The study confirmed (that) X is a safer alternative": a reporting verb with a
    // clause after it; the clause's subject is what the sentence is about.
    if let Some(j) = (subject_start + 1..toks.len().min(subject_start + 8))
        .take_while(|&j| toks[j].word)
        .find(|&j| is(&toks[j], &CUES.reporting))
    {
        let clause_start = j + 1 + usize::from(toks.get(j + 1).is_some_and(|t| t.lower == "that"));
        let finite_after = toks
            .iter()
            .skip(clause_start + 1)
            .any(|t| is(t, &CUES.finite));
        if finite_after {
            subject_start = clause_start;
        }
    }
    // The verb: the first predicate word outside a comma insert.
    let mut depth_insert = false;
    let mut verb = None;
    for j in subject_start..toks.len() {
        let t = &toks[j];
        if t.lower == "," {
            let next = toks.get(j + 1);
            depth_insert = next.is_some_and(|n| is(n, &CUES.insert_start)) && !depth_insert;
            continue;
        }
        if depth_insert {
            continue;
        }
        // A clause that starts with its verb has an elided subject (", and can cause …").
        if is(t, &CUES.verb_start) && (j > subject_start || subject_start == 0) {
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
pub(super) fn remove_inserts(region: &[Tok]) -> (Vec<Tok>, Option<Vec<Tok>>) {
    let mut out = Vec::new();
    let mut appositive = None;
    let mut i = 0;
    while i < region.len() {
        if region[i].lower == "," && region.get(i + 1).is_some_and(|t| is(t, &CUES.insert_start)) {
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

pub(super) fn conditional_opener(t: &Tok) -> bool {
    is(t, &["when", "if", "unless", "where"])
}
