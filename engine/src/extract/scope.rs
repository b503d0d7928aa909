//! Conditions and scope: the populations and circumstances under which a clause holds
//! ("in patients with …", "during pregnancy", "when/if …", "in these patients"), and the
//! population a sentence or paragraph is about.

use super::*;

impl Reader<'_> {
    /// The population a sentence is about, when its subject names people.
    pub(super) fn population_subject(&self, toks: &[Tok]) -> Option<String> {
        let mut verb = toks
            .iter()
            .position(|t| is(t, &CUES.finite) || is(t, &["show", "have"]))?;
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
                    (comma..toks.len()).find(|&j| is(&toks[j], &CUES.finite))
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
                .is_some_and(|t| is(t, &CUES.verb_start) || is(t, &["avoid", "use", "do"]))
        {
            return None;
        }
        if head.is_empty() || (head.iter().any(|t| t.lower == ",") && !relative) {
            return None;
        }
        if head.first().is_some_and(|t| is(t, &CUES.subordinate)) {
            return None;
        }
        let person = head.iter().position(|t| is(t, Class::Person.words()))?;
        if person > 3 {
            return None;
        }
        Some(surface(self.text, head))
    }

    /// The condition phrases a clause states, with anaphors resolved; each says
    /// whether it names a population (which carries to later sentences) or is a
    /// circumstance ("if the isolate is susceptible"), which does not.
    pub(super) fn conditions(&mut self, clause: &Clause) -> Vec<(String, bool)> {
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
            if let Some(a) = CUES
                .population_anaphors
                .iter()
                .find(|a| starts_with(toks, anaphor_at, a))
            {
                if let Some(p) = &self.population {
                    push_condition(&mut out, p.clone(), true);
                }
                i = anaphor_at + a.len();
                continue;
            }
            let safe_before = || find_any(&toks[..i], &CUES.safe).is_some();
            let opener = is(
                t,
                &[
                    "in", "for", "among", "during", "when", "if", "unless", "where",
                ],
            ) || (t.lower == "including" && safe_before())
                || (t.lower == "after"
                    && i > 0
                    && is(&toks[i - 1], &["avoided", "avoid", "contraindicated"]))
                || (t.lower == "by"
                    && toks[i + 1..]
                        .iter()
                        .take(2)
                        .any(|n| is(n, Class::Person.words())));
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
                            && is(&toks[j], &CUES.verb_start)
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
                    is(r, &CUES.verb_start)
                        || is(r, &["which", "who", "whose", "that", "so", "because"])
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
            // "can cause arrhythmia in some people over 60": what is said of some of a
            // population sets no condition on its members.
            let lowered: Vec<&str> = body.iter().take(3).map(|b| b.lower.as_str()).collect();
            let some_of = crate::lexicon::some_of_people(&lowered);
            if body.is_empty() || some_of {
                i += 1;
                continue;
            }
            let intro = i < clause.subject_start;
            let person = body
                .iter()
                .take(if t.lower == "for" { 3 } else { 4 })
                .any(|b| is(b, Class::Person.words()));
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
                .position(|b| is(b, Class::Person.words()))
                .filter(|&p| {
                    p <= 2
                        && !conditional
                        && body[..p]
                            .iter()
                            .all(|b| b.lower.ends_with("ing") || is(b, &CUES.entity_lead))
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
                ) || is(b, &CUES.entity_lead)
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
        if find_any(toks, &CUES.harm).is_some() {
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
                    && find_any(&toks[w.saturating_sub(5)..w], &CUES.harm).is_some()
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
}

/// Whether a phrase describes a patient (a lexicon concept, an allergy, a number the
/// patient reader understands).
pub(super) fn speaks_of_patient(phrase: &str) -> bool {
    let p = Patient::read(phrase);
    !p.concepts.is_empty()
        || !p.allergies.is_empty()
        || p.age_years.is_some()
        || p.renal_clearance.is_some()
}

pub(super) fn is_anaphor_only(phrase: &str) -> bool {
    let lower = phrase.to_lowercase();
    CUES.population_anaphors
        .iter()
        .any(|a| lower == a.join(" "))
}

pub(super) fn push_condition(v: &mut Vec<(String, bool)>, s: String, population: bool) {
    if !v
        .iter()
        .any(|(x, _)| normalize_term(x) == normalize_term(&s))
    {
        v.push((s, population));
    }
}
