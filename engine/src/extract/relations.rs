//! Relations: what a clause's predicate says of its subjects (treats, preferred, first
//! line, avoid in, interacts with, is a) and the indication it is about.

use super::*;

impl Reader<'_> {
    pub(super) fn push_isa(&mut self, member: &str, class: &str, clause: &Clause) {
        let evidence = self.clause_span(clause);
        self.tuples.push(Tuple::new(
            member,
            Relation::IsA,
            class,
            Vec::new(),
            evidence,
        ));
    }

    /// "X raises Y concentrations", "X inhibits the metabolism of Y"… : X interacts
    /// with Y (recorded for a later "the combination is contraindicated").
    pub(super) fn interactions(&mut self, toks: &[Tok], subjects: &[String], evidence: &Span) {
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
    pub(super) fn relations(
        &mut self,
        clause: &Clause,
        subjects: &[String],
        conditions: &[String],
        evidence: &Span,
    ) {
        let toks = &clause.toks;
        self.interactions(toks, subjects, evidence);
        let test = toks.iter().any(|t| is(t, &CUES.test_words));
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
            if let Some((cue, strength)) = CUES
                .recommend_object
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
                && CUES
                    .recommend
                    .iter()
                    .any(|(c, _)| find_any(&toks[..i], &[c]).is_some());
            if let Some(cue) = CUES
                .harm_object
                .iter()
                .find(|c| !purpose && starts_with(toks, i, c))
            {
                let mut names = self.object_names(&toks[i + cue.len()..], clause);
                // "list X as a medication to avoid in Y": X comes before "as".
                if names.is_empty() && i > 0 && toks[i - 1].lower == "to" {
                    if let Some(as_at) = toks[..i].iter().rposition(|t| t.lower == "as") {
                        let start = toks[..as_at]
                            .iter()
                            .rposition(|t| is(t, &CUES.verb_start) || !t.word)
                            .map_or(0, |p| p + 1);
                        names = self.object_names(&toks[start..as_at], clause);
                    }
                }
                // "Avoid in pregnancy", "avoid it": the drug spoken of before; but
                // "Aspirin should not be given to children" names its own.
                let own_subject = clause.verb.is_some_and(|verb| {
                    verb > clause.subject_start
                        && entity(&clause.toks[clause.subject_start..verb])
                            .is_some_and(|e| !is_pronoun(&surface(self.text, &e)))
                });
                // "… and avoid other QT-prolonging drugs": an object of its own that names
                // no entity is still what is warned against, not the drug before.
                let after = &toks[i + cue.len()..];
                let unnamed_object = names.is_empty()
                    && after.first().is_some_and(|t| {
                        t.word
                            && !is(t, &CUES.subordinate)
                            && !is_pronoun(&t.lower)
                            && !Class::Pronoun.has(&t.lower)
                            && !Class::Preposition.has(&t.lower)
                    });
                if names.iter().all(|n| is_pronoun(n))
                    && !(names.is_empty() && own_subject)
                    && !unnamed_object
                {
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
        if let Some((at, len)) = find_any(predicate, &CUES.invalidates) {
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
        let safe = find_any(predicate, &CUES.safe).is_some();
        let harm = find_any(predicate, &CUES.harm).filter(|&(at, _)| {
            // "preferred … to avoid radiation": a purpose, not a warning.
            !(at > 0
                && predicate[at - 1].lower == "to"
                && CUES
                    .recommend
                    .iter()
                    .any(|(c, _)| find_any(&predicate[..at], &[c]).is_some()))
        });
        if let Some((at, _)) = harm {
            // A negation before the verb covers its complements ("is not associated
            // with an increased risk"), up to where another clause begins.
            let negated = predicate[..at]
                .iter()
                .rev()
                .take(NEGATION_REACH)
                .take_while(|t| t.word && !is(t, &["but", "and", "or", "although", "which"]))
                .any(|t| is(t, &["not", "no", "without", "never"]))
                && !starts_with(predicate, at.saturating_sub(1), &["should", "not"])
                && !starts_with(predicate, at.saturating_sub(1), &["must", "not"])
                && !starts_with(predicate, at.saturating_sub(1), &["must", "never"]);
            // "may worsen heart failure with reduced ejection fraction": the object of a
            // verb that worsens a condition is the condition the subject is harmful in.
            let worsened = is(&predicate[at], &CUES.worsens)
                .then(|| {
                    predicate[at + 1..]
                        .iter()
                        .take_while(|t| {
                            t.word && !is(t, &["so", "and", "or", "which", "because", "but"])
                        })
                        .take(8)
                        .cloned()
                        .collect::<Vec<Tok>>()
                })
                .filter(|object| !object.is_empty())
                .map(|object| surface(self.text, &object));
            if let (Some(condition), false, false) = (worsened, negated, safe) {
                let mut phrases = conditions.to_vec();
                phrases.push(condition);
                let values: Vec<Condition> = phrases.iter().map(Condition::holds).collect();
                for s in subjects {
                    self.warn(s, &values, &phrases, evidence);
                }
                return;
            }
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
        let found = CUES
            .recommend
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
    pub(super) fn generic(
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
            .filter(|t| t.word && !is(t, &CUES.subordinate) && !is(t, AUX))
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
                .take_while(|t| t.word && !is(t, &CUES.subordinate) && !is(t, &CUES.verb_start))
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
    pub(super) fn recommend_objects(
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
    pub(super) fn object_names(&mut self, rest: &[Tok], clause: &Clause) -> Vec<String> {
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
                is(&rest[j], &["and", "or"]) && rest.get(j + 1).is_some_and(|n| is(n, &CUES.finite))
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
            if item
                .toks
                .first()
                .is_some_and(|t| is(t, Class::Person.words()))
            {
                continue;
            }
            if let Some(name) = self.item_name(&item, clause) {
                names.push(name);
            }
        }
        names
    }

    /// A warning: ⟨name, contraindicated_in, condition, [condition]⟩ for each condition.
    pub(super) fn warn(
        &mut self,
        name: &str,
        conds: &[Condition],
        conditions: &[String],
        evidence: &Span,
    ) {
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
    pub(super) fn indication(&mut self, toks: &[Tok]) -> Option<String> {
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
                        && !is(t, &CUES.entity_end)
                        && !is(t, &CUES.verb_start)
                        && !is(t, &["and", "or", "usually", "generally", "often"])
                })
                .cloned()
                .collect();
            let body: Vec<Tok> = body
                .into_iter()
                .skip_while(|t| is(t, &CUES.entity_lead))
                .collect();
            if body.is_empty()
                || body.iter().take(3).any(|t| is(t, Class::Person.words()))
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
                    .all(|t| is(t, &CUES.generic_head) || is(t, &CUES.test_words))
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

/// What a harm cue says the subject causes, when the clause names no condition:
/// "can cause neuropsychiatric adverse reactions" → "neuropsychiatric adverse reactions".
pub(super) fn effect(text: &str, predicate: &[Tok]) -> Option<String> {
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

pub(super) fn recommendation(strength: u8, test: bool) -> Relation {
    match (strength, test) {
        (3, true) => Relation::PreferredTest,
        (3, false) => Relation::PreferredTreatment,
        (2, true) => Relation::DiagnosedBy,
        (2, false) => Relation::TreatedBy,
        (_, true) => Relation::DiagnosedBy,
        (_, false) => Relation::AlternativeTreatment,
    }
}

/// How many words before a warning's cue a negation may stand and still deny it ("not
/// associated with an increased risk").
const NEGATION_REACH: usize = 5;
