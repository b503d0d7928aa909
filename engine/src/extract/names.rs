//! Names: a clause's subjects (pronouns resolved to what came before), list items and
//! appositions, and the aliases that parentheticals and dose forms state.

use super::*;
use crate::text::long_form_start;

impl Reader<'_> {
    /// Drops "( … )" from the tokens, recording the alias it states.
    pub(super) fn strip_parentheticals(&mut self, toks: &[Tok]) -> Vec<Tok> {
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
    pub(super) fn parenthetical_alias(&mut self, before: &[Tok], inner: &[Tok], after: &[Tok]) {
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
            && !is(&before[start - 1], &CUES.subordinate)
            && !is(&before[start - 1], &CUES.verb_start)
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
            let lower: Vec<String> = candidates.iter().map(|t| t.lower.clone()).collect();
            match long_form_start(&lower, &short) {
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
            .take_while(|t| t.word && !is(t, &CUES.subordinate) && !is(t, &CUES.verb_start))
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

    /// The entities a clause is about: its subject, with pronouns resolved.
    pub(super) fn subjects(
        &mut self,
        clause: &Clause,
        sentence_subjects: &[String],
    ) -> Vec<String> {
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
        if region.len() <= 3 && region.first().is_some_and(|t| is(t, &CUES.pronouns)) {
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
        if region.iter().take(4).any(|t| is(t, Class::Person.words())) {
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

    /// "low-dose quetiapine" names quetiapine: dose words do not make a new entity
    /// (routes do: oral and intravenous iron differ).
    pub(super) fn dose_alias(&mut self, e: &[Tok]) {
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
    pub(super) fn item_name(&mut self, item: &phrase::Item, clause: &Clause) -> Option<String> {
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
    pub(super) fn apposition(&mut self, e: &[Tok], clause: &Clause) -> Option<String> {
        if e.len() < 2 || !is_class_head(&e[e.len() - 2].lower) {
            return None;
        }
        let class = surface(self.text, &e[..e.len() - 1]);
        let name = surface(self.text, &e[e.len() - 1..]);
        self.push_isa(&name, &class, clause);
        Some(name)
    }

    /// A recorded combination ("trimethoprim-sulfamethoxazole") containing one of `names`.
    pub(super) fn combination_containing(&self, names: &[String]) -> Option<String> {
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
}

pub(super) fn is_pronoun(name: &str) -> bool {
    CUES.pronouns.contains(&name.to_lowercase().as_str())
}

pub(super) fn strip_possessive(name: &str) -> String {
    name.strip_suffix("'s")
        .or_else(|| name.strip_suffix("’s"))
        .unwrap_or(name)
        .to_string()
}

pub(super) const ENTITY_LEAD_DET: &[&str] = &["a", "an", "the", "of", "and", "or", ","];

/// Nouns that head a drug or test class: "the selective estrogen receptor modulator
/// raloxifene".
pub(super) fn is_class_head(word: &str) -> bool {
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
