//! Warnings: which clauses of a statement warn against what they name ("should not
//! be used in pregnancy", "increases the risk of bleeding", a heading that warns), how
//! a list's commas and a subjectless clause join clauses, and which candidates a
//! warning about a kind in the plural reaches.

use super::*;

/// Phrases that warn against what a statement names (matched on whole words of the
/// lower-cased statement and its lead-in).
pub(super) const WARNS: &[&str] = &[
    "not suitable",
    "not recommended",
    "not recommend",
    // Guidance that advises or recommends against a thing warns against it.
    "advise against",
    "advises against",
    "advised against",
    "recommend against",
    "recommends against",
    "recommended against",
    "no longer recommended",
    "no longer be used",
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
    // Harm to the population is a warning for it ("accumulates, raising bleeding risk",
    // "may worsen heart failure", "may cause hemolytic anemia in patients with G6PD
    // deficiency").
    "accumulate",
    "accumulates",
    "worsen",
    "worsens",
    "exacerbate",
    "exacerbates",
    "aggravate",
    "aggravates",
    "may cause",
    "can cause",
    "likely to cause",
    "known to cause",
    "causes",
    "may precipitate",
    "can precipitate",
    "teratogenic",
    "fetotoxic",
    "unsafe",
    "harmful",
    "dangerous",
    // What is not needed for the population is not what to give it.
    "not necessary",
    "not needed",
    "not required",
    "unnecessary",
    // No evidence for the population is no recommendation for it ("no data about the
    // use of X in children"; "safety in pediatric patients has not been established").
    "no data",
    "insufficient data",
    "insufficient evidence",
    "not been established",
    "not established",
    "not been studied",
    "further study",
    "further studies",
    "further research",
    // A population resistant to a treatment is one it fails in ("patients taking beta
    // blockers may be resistant to epinephrine").
    "resistant to",
    "refractory to",
    // A test that misleads in a population is no test for it ("false-positive
    // dexamethasone suppression tests occur in women taking oral estrogen").
    "false positive",
    "false positives",
    "false negative",
    "false negatives",
    "falsely",
    "unreliable",
    "not reliable",
    "not reliably",
    "less reliable",
    "inaccurate",
    "not accurate",
    "less accurate",
    "misleading",
    // A test that under- or overestimates in a population misleads there ("HbA1c can
    // underestimate past glycaemia in people with haemoglobin variants").
    "underestimate",
    "underestimates",
    "overestimate",
    "overestimates",
    // So is a treatment that does not work for it.
    "ineffective",
    "not effective",
    "less effective",
    "less likely to be effective",
];

/// The words of [`WARNS`] that say a thing harms: denied ("not teratogenic"), they
/// warn of nothing.
pub(super) const HARM_ADJECTIVES: &[&str] =
    &["teratogenic", "fetotoxic", "unsafe", "harmful", "dangerous"];

/// Words and marks that end a clause.
pub(super) const CLAUSE_WORDS: &[&str] =
    &["but", "however", "although", "whereas", "while", "though"];

/// The byte ranges of the clauses of `text`: split at commas, semicolons, colons,
/// brackets and dashes, and before "but", "however" and the like.
pub(super) fn clauses(text: &str) -> Vec<std::ops::Range<usize>> {
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
    bounds.windows(2).map(|b| b[0]..b[1]).collect()
}

/// The byte ranges of the clauses of `text` that contain a warning ("…, but it should
/// not be used in …" → the clause after "but").
pub(super) fn warning_clauses(text: &str) -> Vec<std::ops::Range<usize>> {
    warning_clauses_of(clauses(text), text)
}

/// The clauses of a tagged statement, where a list's commas bound no clause: a part with
/// no verb that a comma joins to the next ("Podofilox, podophyllin resin and
/// sinecatechins should not be used in pregnancy") is one clause with it, so what the
/// clause says holds for every name listed.
pub(super) fn list_clauses(text: &str, analysis: &Analysis) -> Vec<std::ops::Range<usize>> {
    // The tags of the words inside a byte range.
    let words_of = |range: &std::ops::Range<usize>| {
        analysis
            .words
            .iter()
            .zip(&analysis.tags)
            .filter(|(w, _)| w.is_word && range.start <= w.span.start && w.span.end <= range.end)
            .map(|(_, t)| *t)
            .collect::<Vec<Tag>>()
    };
    let verbless = |range: &std::ops::Range<usize>| !words_of(range).iter().any(|t| t.is_verb());
    let raw = asides(clauses(text), text, verbless);
    let mut out = Vec::with_capacity(raw.len());
    let mut open: Option<usize> = None;
    for (i, r) in raw.iter().enumerate() {
        // "Avoid apixaban, rivaroxaban and dabigatran in patients taking carbamazepine":
        // what a comma adds with no verb of its own continues the list of the clause
        // before it, the objects of that clause's verb.
        // (An aside it encloses, and what follows the aside, are not what it adds.)
        let asserts = |t: &Tag| t.is_finite_verb() || *t == Tag::Vb;
        let added = text.get(r.clone()).map_or(r.clone(), |t| {
            let aside = t
                .char_indices()
                .skip(1)
                .find(|(_, c)| matches!(c, '—' | '–' | '('));
            r.start..aside.map_or(r.end, |(at, _)| r.start + at)
        });
        let continues = open.is_none()
            && text.get(r.clone()).is_some_and(|t| t.starts_with(','))
            && !words_of(&added).iter().any(asserts)
            && out
                .last()
                .is_some_and(|before| words_of(before).iter().any(asserts));
        if continues {
            if let Some(before) = out.last_mut() {
                before.end = r.end;
            }
            continue;
        }
        let start = open.unwrap_or(r.start);
        let names = !words_of(r).is_empty();
        let has_verb = !verbless(r);
        let comma_next = raw
            .get(i + 1)
            .and_then(|n| text.get(n.clone()))
            .is_some_and(|n| n.starts_with(','));
        if names && !has_verb && comma_next {
            open = Some(start);
            continue;
        }
        // "the higher dose (7.5 mg) of zopiclone (Imovane®) is likely to cause …": a
        // bracket with no verb is an aside inside its clause, not a clause of its own.
        let starts = |n: &std::ops::Range<usize>, mark: char| {
            text.get(n.clone()).is_some_and(|t| t.starts_with(mark))
        };
        let aside = starts(r, '(') && !has_verb;
        let aside_next = raw.get(i + 1).is_some_and(|n| {
            starts(n, '(') && verbless(n) && raw.get(i + 2).is_some_and(|c| starts(c, ')'))
        });
        if (aside || aside_next) && i + 1 < raw.len() {
            open = Some(start);
            continue;
        }
        // "Cough and cold medicines, including dextromethorphan, are not recommended
        // …": a clause whose first word is its finite verb has no subject of its own;
        // the part before it, with no finite verb, is its subject.
        let subjectless = open.is_none()
            && text.get(r.clone()).is_some_and(|t| t.starts_with(','))
            && words_of(r).first().is_some_and(|t| t.is_finite_verb());
        if subjectless {
            if let Some(before) = out.last_mut() {
                if !words_of(before).iter().any(|t| t.is_finite_verb()) {
                    before.end = r.end;
                    continue;
                }
            }
        }
        out.push(start..r.end);
        open = None;
    }
    if let Some(start) = open {
        out.push(start..text.len());
    }
    // "Other drugs that should be avoided with clopidogrel include: esomeprazole
    // (Nexium), cimetidine …": a list after a colon, with no verb of its own outside
    // brackets, completes the clause before it, when that clause is left open by a
    // verb or a preposition ("include:", "such as:"). After a clause that is whole
    // ("… overestimates GFR in older patients: a plea for cystatin C") what the colon
    // adds is an apposition, not its objects.
    let open_before = |r: &std::ops::Range<usize>| {
        analysis
            .words
            .iter()
            .zip(&analysis.tags)
            .rev()
            .find(|(w, _)| w.is_word && r.start <= w.span.start && w.span.end <= r.end)
            .is_some_and(|(w, t)| {
                let last = w.text(text).to_lowercase();
                t.is_verb()
                    || Class::Preposition.has(&last)
                    || LIST_OPENERS.contains(&last.as_str())
            })
    };
    if let Some(k) = out.iter().position(|r| {
        text.get(r.end..)
            .is_some_and(|rest| rest.trim_start().starts_with(':'))
            && open_before(r)
    }) {
        let colon = out[k].end;
        let mut depth = 0usize;
        let verb_after = analysis.words.iter().zip(&analysis.tags).any(|(w, t)| {
            if w.span.start < colon {
                return false;
            }
            match w.text(text) {
                "(" => depth += 1,
                ")" => depth = depth.saturating_sub(1),
                _ => {}
            }
            depth == 0 && w.is_word && t.is_finite_verb()
        });
        if !verb_after && k + 1 < out.len() {
            let start = out[k].start;
            out.truncate(k);
            out.push(start..text.len());
        }
    }
    out
}

/// Words that end a clause left open for the list after its colon ("the following:").
const LIST_OPENERS: &[&str] = &[
    "following",
    "below",
    "these",
    "those",
    "include",
    "includes",
];

/// `clauses` (byte ranges of `text`) with each aside that a pair of dashes or brackets
/// sets off inside a clause joined to it: "Strong CYP2D6 inhibitors — paroxetine,
/// fluoxetine and bupropion — should be avoided …" and "Simvastatin is contraindicated
/// with strong CYP3A4 inhibitors (clarithromycin, erythromycin, itraconazole)" are one
/// clause each, whose warning holds for the names enclosed. An aside is verbless
/// (`verbless` says so of a range); dashes around a clause with a verb join clauses of
/// their own.
fn asides(
    clauses: Vec<std::ops::Range<usize>>,
    text: &str,
    verbless: impl Fn(&std::ops::Range<usize>) -> bool,
) -> Vec<std::ops::Range<usize>> {
    let mark = |r: &std::ops::Range<usize>| {
        text.get(r.clone())
            .and_then(|t| t.chars().next())
            .filter(|c| matches!(c, '—' | '–' | '(' | ')'))
    };
    let closer = |open: char| if open == '(' { ')' } else { open };
    let mut out: Vec<std::ops::Range<usize>> = Vec::with_capacity(clauses.len());
    let mut i = 0;
    while i < clauses.len() {
        let closing = mark(&clauses[i]).filter(|&m| m != ')').and_then(|open| {
            (i + 1..clauses.len())
                .find(|&k| mark(&clauses[k]).is_some())
                .filter(|&k| mark(&clauses[k]) == Some(closer(open)))
        });
        match closing {
            Some(k) if !out.is_empty() && clauses[i..k].iter().all(&verbless) => {
                if let Some(before) = out.last_mut() {
                    before.end = clauses[k].end;
                }
                i = k + 1;
            }
            _ => {
                out.push(clauses[i].clone());
                i += 1;
            }
        }
    }
    out
}

/// Those of `clauses` (byte ranges of `text`) that contain a warning.
pub(super) fn warning_clauses_of(
    clauses: Vec<std::ops::Range<usize>>,
    text: &str,
) -> Vec<std::ops::Range<usize>> {
    clauses
        .into_iter()
        .flat_map(|r| coordinated(text, r))
        .filter(|r| warns(&text[r.clone()]))
        .map(|r| {
            // "X is the main alternative when succinylcholine is contraindicated": a
            // warning only in a clause that a subordinator opens after the main one
            // warns against what that clause names, not the main clause's subject.
            let clause = &text[r.clone()];
            let split = words(clause).into_iter().find(|w| {
                w.span.start > 0
                    && SUBORDINATORS.contains(&w.text(clause).to_lowercase().as_str())
                    && !warns(&clause[..w.span.start])
                    && warns(&clause[w.span.start..])
            });
            match split {
                Some(w) => r.start + w.span.start..r.end,
                None => r,
            }
        })
        .collect()
}

/// The clauses that "and" or "or" joins inside the clause at `range` of `text`, each with
/// a subject and verb of its own: "tenofovir is used and interferon is
/// contraindicated" is two, and the warning is the second's alone. A part after "and"
/// that opens with its verb shares the subject before it ("… should be stopped and is
/// contraindicated"), and names joined before one verb share it ("X and Y are
/// contraindicated").
fn coordinated(text: &str, range: std::ops::Range<usize>) -> Vec<std::ops::Range<usize>> {
    /// Most words of a subject between "and" and its verb.
    const SUBJECT_WORDS: usize = 4;
    let clause = &text[range.clone()];
    let ws: Vec<(String, usize)> = words(clause)
        .iter()
        .filter(|w| w.is_word)
        .map(|w| (w.text(clause).to_lowercase(), w.span.start))
        .collect();
    let auxiliary = |w: &(String, usize)| Class::Auxiliary.has(&w.0);
    let mut bounds = vec![0];
    for (k, (word, at)) in ws.iter().enumerate() {
        if !matches!(word.as_str(), "and" | "or") {
            continue;
        }
        let from = bounds.last().copied().unwrap_or(0);
        let verb_before = ws[..k].iter().filter(|w| w.1 >= from).any(auxiliary);
        let after = &ws[k + 1..];
        let subject_then_verb = after.first().is_some_and(|w| !auxiliary(w) && w.0 != "not")
            && after.iter().take(SUBJECT_WORDS + 1).skip(1).any(auxiliary);
        if verb_before && subject_then_verb {
            bounds.push(*at);
        }
    }
    bounds.push(clause.len());
    bounds
        .windows(2)
        .map(|b| range.start + b[0]..range.start + b[1])
        .collect()
}

/// Words that open a subordinate clause (see [`warning_clauses_of`]).
const SUBORDINATORS: &[&str] = &["when", "if", "where", "because", "since", "whereas"];

/// Whether one clause warns: a phrase of [`WARNS`] (not a maximum, a purpose, a denied
/// harm or an exception allowed for), or a harm it states.
fn warns(text: &str) -> bool {
    // "must not exceed 500 mg" sets a maximum, it does not warn against 500 mg.
    let clause = crate::text::uncontracted(text);
    let mut padded = format!(" {} ", normalize_term(&clause))
        .replace(" not exceed ", " exceed ")
        .replace(" not to exceed ", " to exceed ")
        .replace(" not be exceeded ", " be exceeded ");
    // "Treatment should not be delayed", "do not stop it abruptly": a negated
    // verb of withholding urges the treatment on.
    for verb in WITHHOLDING {
        for negation in [" not ", " not be ", " never ", " never be "] {
            padded = padded.replace(&format!("{negation}{verb}"), " ");
        }
    }
    // "Give X to avoid bleeding": a purpose, not a warning; "it is best to
    // avoid X" still warns, and so does "drugs to avoid in pregnancy", where
    // "avoid" takes no object of its own.
    let words: Vec<&str> = padded.split_whitespace().collect();
    let purpose = |i: usize| {
        words[i] == "avoid"
            && i >= 2
            && words[i - 1] == "to"
            && !EVALUATIVE.contains(&words[i - 2])
            && words.get(i + 1).is_some_and(|w| !Class::Preposition.has(w))
    };
    let kept: String = words
        .iter()
        .enumerate()
        .filter(|(i, _)| !purpose(*i))
        .map(|(_, w)| *w)
        .collect::<Vec<_>>()
        .join(" ");
    let mut padded = format!(" {kept} ");
    // "Recommended for all stable patients unless contraindicated": an exception
    // the recommendation allows for, not a warning.
    for opener in [" unless ", " if not ", " where not ", " except where "] {
        padded = padded.replace(&format!("{opener}contraindicated "), " ");
    }
    // "Least likely to cause problems during breastfeeding": a harm graded unlikely
    // is reassurance too.
    for graded in [" least likely to cause ", " less likely to cause "] {
        padded = padded.replace(graded, " ");
    }
    // "It is not teratogenic", "not harmful to the fetus": a harm denied is
    // reassurance, not a warning.
    for harm in HARM_ADJECTIVES {
        for negation in [" not ", " non ", " never "] {
            padded = padded.replace(&format!("{negation}{harm} "), " ");
        }
    }
    WARNS.iter().any(|w| padded.contains(&format!(" {w} ")))
        || states_harm(&crate::text::lower_words(&clause))
}

/// The candidates (by key) a warning about a kind in the plural warns against:
/// "false-positive dexamethasone suppression tests occur …" warns against "the 1-mg
/// overnight dexamethasone suppression test" (the kind's words, two or more, are the
/// candidate's, its head last in both), and "avoid fluoroquinolones in …" against every
/// drug the lexicon places in the class. A kind named before a warning that refers back
/// to it ("Macrolides and fluoroquinolones prolong the QT interval; avoid them in …")
/// is warned against too. `clauses` are the statement's warning clauses.
pub(super) fn kinds_warned<'a>(
    language: &Language,
    analysis: &Analysis,
    text: &str,
    clauses: &[Range<usize>],
    keys: impl Iterator<Item = &'a String> + Clone,
) -> Vec<String> {
    if clauses.is_empty() {
        return Vec::new();
    }
    let lower = analysis.lower(text);
    // The first warning clause that refers back with a plural pronoun.
    let referring = clauses.iter().find(|c| {
        analysis.words.iter().zip(&lower).any(|(w, t)| {
            c.start <= w.span.start
                && w.span.end <= c.end
                && PLURAL_REFERENCES.contains(&t.as_str())
        })
    });
    let mut out = Vec::new();
    for p in &analysis.phrases {
        let last = p.core.end.saturating_sub(1);
        // A plural by its tag, or by its spelling where a capital made it a proper
        // noun ("Fluoroquinolones prolong …").
        let plural = match analysis.tags.get(last) {
            Some(Tag::Nns | Tag::Nnps) => true,
            Some(Tag::Nnp) => lower
                .get(last)
                .is_some_and(|w| crate::text::singular(w) != *w),
            _ => false,
        };
        let Some(first) = analysis.words.get(p.core.start) else {
            continue;
        };
        // In a warning, named before one that refers back to it, or given as its
        // example ("should not receive beta-lactam antibiotics, including
        // cephalosporins").
        let included = clauses.iter().any(|c| {
            text.get(c.end..first.span.start).is_some_and(|between| {
                let between = between.trim_matches(|ch: char| ch == ',' || ch.is_whitespace());
                INCLUDING.contains(&between.to_lowercase().as_str())
            })
        });
        let in_warning = clauses
            .iter()
            .any(|c| c.start <= first.span.start && first.span.start < c.end)
            || referring.is_some_and(|c| first.span.end <= c.start)
            || included;
        if !plural || !in_warning {
            continue;
        }
        // "Indirect-acting sympathomimetics such as ephedrine … can provoke a crisis":
        // the examples given of a warned kind are warned.
        for example in examples_of(analysis, text, p.core.end) {
            // The example's name opens it (a chunk may run on into the clause).
            let named: Option<String> = language
                .drugs
                .mentions(&crate::text::word_texts(&example))
                .into_iter()
                .find(|(range, _)| range.start == 0)
                .map(|(_, d)| d.canonical.to_lowercase());
            for key in keys.clone() {
                let of_it = *key == normalize_term(&example) || named.as_deref() == Some(key);
                if of_it && !out.contains(key) {
                    out.push(key.clone());
                }
            }
        }
        let kind = normalize_term(&lower[p.core.clone()].join(" "));
        let kind: Vec<&str> = kind.split(' ').collect();
        let head = kind.last().map(|h| asked::stem(h)).unwrap_or_default();
        // A class by its noun alone: "beta-lactam antibiotics" is not every antibiotic.
        // Nor is a class noun that names its members right after it ("avoid the
        // antiemetics metoclopramide and prochlorperazine"): it warns against those.
        let names_members = analysis.words.get(p.core.end).is_some_and(|w| {
            language
                .drugs
                .lookup(w.text(text))
                .is_some_and(|d| !d.is_class())
        });
        let class = kind.len() == 1
            && !names_members
            && (asked::asks_for_class(language, &head)
                || language.drugs.lookup(kind[0]).is_some_and(|d| d.is_class())
                || language
                    .drugs
                    .kinds(&head)
                    .is_some_and(|k| k.roots.iter().any(|r| r == "medicine")));
        let singular_kind = match kind.split_last() {
            Some((last, before)) => {
                let mut words: Vec<String> = before.iter().map(|w| w.to_string()).collect();
                words.push(crate::text::singular(last));
                words.join(" ")
            }
            None => String::new(),
        };
        for key in keys.clone() {
            let words: Vec<&str> = key.split(' ').collect();
            // The kind itself, or a name of it with its words.
            let itself = words.len() == kind.len()
                && words
                    .iter()
                    .zip(&kind)
                    .all(|(w, k)| asked::stem(w) == asked::stem(k));
            let named = itself
                || (kind.len() >= 2
                    && words.last() == kind.last()
                    && kind.iter().all(|k| words.contains(k)));
            // A class named in more words ("ACE inhibitors", "calcium channel
            // blockers") warns the drugs the lexicon files under that very kind.
            let member = (class
                && language
                    .drugs
                    .lookup(key)
                    .is_some_and(|d| asked::in_class(language, d.canonical, &head) == Some(true)))
                || (kind.len() >= 2
                    && !names_members
                    && language.drugs.lookup(key).is_some()
                    && language.drugs.kinds(key).is_some_and(|k| {
                        k.kinds
                            .iter()
                            .any(|name| normalize_term(name) == singular_kind)
                    }));
            if (named || member) && !out.contains(key) {
                out.push(key.clone());
            }
        }
    }
    out
}

/// The noun phrases a statement gives as examples of the one ending before word
/// `after`: "such as", "including" or "e.g." right after it, then a list joined by
/// commas, "or" and "and" ("MAOIs such as phenelzine or tranylcypromine").
pub(super) fn examples_of(analysis: &Analysis, text: &str, after: usize) -> Vec<String> {
    let mut out = Vec::new();
    let mut end = after;
    let mut phrases: Vec<&Range<usize>> = analysis.phrases.iter().map(|p| &p.core).collect();
    phrases.sort_by_key(|r| r.start);
    for core in phrases.into_iter().filter(|r| r.start >= after) {
        let (Some(last), Some(first), Some(final_word)) = (
            analysis.words.get(end.wrapping_sub(1)),
            analysis.words.get(core.start),
            analysis.words.get(core.end.wrapping_sub(1)),
        ) else {
            break;
        };
        let gap = text
            .get(last.span.end..first.span.start)
            .unwrap_or("")
            .trim()
            .to_lowercase();
        let joins = if out.is_empty() {
            INCLUDING.contains(&gap.trim_start_matches(',').trim())
        } else {
            matches!(gap.as_str(), "," | "or" | "and" | ", or" | ", and")
        };
        if !joins {
            break;
        }
        out.push(text[first.span.start..final_word.span.end].to_string());
        end = core.end;
    }
    out
}

/// Words that give examples of what a clause names before them.
pub(super) const INCLUDING: &[&str] =
    &["including", "such as", "especially", "particularly", "e.g."];

/// Pronouns by which a warning refers back to the kinds named before it.
pub(super) const PLURAL_REFERENCES: &[&str] = &["them", "they", "these", "both"];

/// Whether a clause links what it names to a disease or injury as its effect
/// ("exposure to X … is linked to an embryopathy", "X is associated with
/// hepatotoxicity", "X increases the risk of bleeding"): harm to a population is a
/// warning for it. A link that lowers the risk or denies it ("carries a much lower risk
/// of hepatotoxicity", "is not associated with malformations") is none.
pub(super) fn states_harm(words: &[String]) -> bool {
    let harm = |w: &str| {
        let w = crate::text::singular(w);
        HARM_NOUNS.contains(&w.as_str())
            || HARM_ENDINGS
                .iter()
                .any(|e| w.len() > e.len() + 2 && w.ends_with(e))
    };
    let lowering = |w: &str| LOWERING.contains(&w);
    HARM_LINKS.iter().any(|link| {
        words.windows(link.len()).enumerate().any(|(at, window)| {
            let linked = window.iter().zip(link.iter()).all(|(w, l)| w == l);
            if !linked {
                return false;
            }
            let after = at + link.len();
            let effect = &words[after..(after + HARM_REACH).min(words.len())];
            let before = &words[at.saturating_sub(HARM_REACH)..at];
            let Some(k) = effect.iter().position(|w| harm(w)) else {
                return false;
            };
            !before.iter().chain(&effect[..k]).any(|w| lowering(w))
        })
    })
}

/// Phrases that link an exposure to its effect.
pub(super) const HARM_LINKS: &[&[&str]] = &[
    &["linked", "to"],
    &["associated", "with"],
    &["leads", "to"],
    &["lead", "to"],
    &["results", "in"],
    &["result", "in"],
    &["leading", "to"],
    &["resulting", "in"],
    &["cause"],
    &["causes"],
    &["caused"],
    &["causing"],
    &["provoke"],
    &["provokes"],
    &["provoking"],
    &["precipitate"],
    &["precipitates"],
    &["precipitating"],
    &["trigger"],
    &["triggers"],
    &["triggering"],
    &["increases", "the", "risk", "of"],
    &["increased", "risk", "of"],
    &["raises", "the", "risk", "of"],
    &["higher", "risk", "of"],
];

/// How many words an effect may sit after its link, and a lowering word before it.
pub(super) const HARM_REACH: usize = 4;

/// Nouns that name an injury or harm.
pub(super) const HARM_NOUNS: &[&str] = &[
    "defect",
    "malformation",
    "anomaly",
    "bleeding",
    "hemorrhage",
    "haemorrhage",
    "injury",
    "damage",
    "failure",
    "death",
    "miscarriage",
    "stillbirth",
    "crisis",
    "arrhythmia",
    "seizure",
    "syndrome",
];

/// Endings of the medical names of diseases and injuries ("embryopathy",
/// "hepatotoxicity", "pancreatitis", "hyperkalaemia", "aplasia").
pub(super) const HARM_ENDINGS: &[&str] = &["pathy", "toxicity", "itis", "emia", "plasia"];

/// Words that lower a risk or deny a link.
pub(super) const LOWERING: &[&str] = &[
    "lower",
    "low",
    "reduce",
    "reduces",
    "reduced",
    "reducing",
    "decrease",
    "decreases",
    "decreased",
    "less",
    "no",
    "not",
    "without",
    "minimal",
    "never",
    "prevent",
    "prevents",
];

/// Whether a heading warns against what the statements under it name: it has a
/// warning whose cue takes no object of its own ("Contraindicated/not recommended",
/// "Drugs contraindicated in pregnancy", "Agents to avoid during breastfeeding"),
/// where "Avoid potential vaccination errors" warns against the errors it names.
pub(super) fn heading_warns(heading: &str) -> bool {
    let words = crate::text::lower_words(&crate::text::uncontracted(heading));
    !warning_clauses(heading).is_empty()
        && WARNS.iter().any(|cue| {
            let cue: Vec<&str> = cue.split(' ').collect();
            words.windows(cue.len()).enumerate().any(|(at, w)| {
                w == cue.as_slice()
                    && words.get(at + cue.len()).is_none_or(|next| {
                        Class::Preposition.has(next) || matches!(next.as_str(), "or" | "and")
                    })
            })
        })
}

/// How verbs of withholding, stopping or putting off a treatment begin: negated, they
/// urge it on ("should not be delayed", "do not stop abruptly").
pub(super) const WITHHOLDING: &[&str] = &[
    "delay",
    "withh",
    "stop",
    "discontinu",
    "interrupt",
    "defer",
    "postpon",
    "miss",
    "skip",
];

/// Adjectives that judge an act, before "to avoid": "it is best to avoid X" warns
/// against X, where "give X to avoid bleeding" gives X for a purpose.
pub(super) const EVALUATIVE: &[&str] = &[
    "important",
    "best",
    "better",
    "advisable",
    "prudent",
    "wise",
    "necessary",
    "essential",
    "recommended",
    "preferable",
    "reasonable",
    "safest",
];

/// Whether a statement speaks of drugs used together ("the combination of A and B",
/// "A combined with B", "concomitant use of A and B").
pub(super) fn names_combination(text: &str) -> bool {
    crate::text::lower_words(text)
        .iter()
        .any(|w| COMBINATION_WORDS.iter().any(|c| w.starts_with(c)))
}

/// How words that speak of drugs used together begin.
pub(super) const COMBINATION_WORDS: &[&str] =
    &["combin", "concomitant", "coadminist", "co-administ", "dual"];
