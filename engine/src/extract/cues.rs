//! The words and phrases that signal relations, conditions and phrase boundaries in
//! guideline and encyclopedia prose, as data in `cues.txt` (each section's comment
//! says what its cue signals). Matched against lower-case tokens.

use std::sync::LazyLock;

/// A phrase as its lower-case words.
pub(crate) type Phrase = Vec<&'static str>;

/// Every cue list of `cues.txt`, by its section.
pub(crate) struct Cues {
    /// Verbs and auxiliaries that start a predicate: the subject ends before them.
    pub verb_start: Vec<&'static str>,
    /// Finite verbs that mark a new clause after ", and" / ", but".
    pub finite: Vec<&'static str>,
    /// Words that begin an introductory or trailing adverbial phrase.
    pub subordinate: Vec<&'static str>,
    /// Words that start a relative or appositive insert between commas.
    pub insert_start: Vec<&'static str>,
    /// Anaphors that refer back to the population of an earlier sentence.
    pub population_anaphors: Vec<Phrase>,
    /// Pronouns and demonstratives that refer to an earlier entity.
    pub pronouns: Vec<&'static str>,
    /// Predicate cues for a recommendation of the subject, with their strength (1–3).
    pub recommend: Vec<(Phrase, u8)>,
    /// Cues that the subject is safe (no adjustment needed): a weak recommendation.
    pub safe: Vec<Phrase>,
    /// Cues that the subject is harmful, contraindicated or to be avoided.
    pub harm: Vec<Phrase>,
    /// Cues after which the object is recommended, with their strength (1–3).
    pub recommend_object: Vec<(Phrase, u8)>,
    /// Cues after which the object is harmful.
    pub harm_object: Vec<Phrase>,
    /// Phrases that say what follows is a class's members.
    pub such_as: Vec<Phrase>,
    /// Leading words stripped from an entity.
    pub entity_lead: Vec<&'static str>,
    /// Words that end an entity.
    pub entity_end: Vec<&'static str>,
    /// Head nouns that name a role rather than a thing.
    pub generic_head: Vec<&'static str>,
    /// Nouns that say a phrase is a test rather than a treatment.
    pub test_words: Vec<&'static str>,
    /// Cues that the object is made unreliable by the subject.
    pub invalidates: Vec<Phrase>,
    /// Words that alone never name an entity.
    pub not_names: Vec<&'static str>,
    /// Verbs that report a finding with a clause after them.
    pub reporting: Vec<&'static str>,
    /// Nouns of an action on what follows "of" ("the use of X").
    pub action_of: Vec<&'static str>,
    /// Verbs whose object is a condition the subject harms ("may worsen heart failure").
    pub worsens: Vec<&'static str>,
}

/// The cues, read once from `cues.txt`.
pub(crate) static CUES: LazyLock<Cues> = LazyLock::new(|| Cues::parse(include_str!("cues.txt")));

impl Cues {
    /// Reads the sections of a cue file; a section the file lacks is empty (a test
    /// checks that every section is there and has entries).
    fn parse(text: &'static str) -> Cues {
        let sections = crate::lexicon::sections(text);
        let lines = |name: &str| -> Vec<&'static str> {
            sections
                .iter()
                .filter(|(n, _)| *n == name)
                .flat_map(|(_, lines)| lines.iter().copied())
                .collect()
        };
        let words = |name: &str| -> Vec<&'static str> {
            lines(name)
                .into_iter()
                .flat_map(str::split_whitespace)
                .collect()
        };
        let phrases = |name: &str| -> Vec<Phrase> {
            lines(name)
                .into_iter()
                .map(|l| l.split_whitespace().collect())
                .collect()
        };
        let weighted = |name: &str| -> Vec<(Phrase, u8)> {
            lines(name)
                .into_iter()
                .filter_map(|l| {
                    let (phrase, strength) = l.rsplit_once('=')?;
                    Some((
                        phrase.split_whitespace().collect(),
                        strength.trim().parse().ok()?,
                    ))
                })
                .collect()
        };
        Cues {
            verb_start: words("verb_start"),
            finite: words("finite"),
            subordinate: words("subordinate"),
            insert_start: words("insert_start"),
            population_anaphors: phrases("population_anaphors"),
            pronouns: words("pronouns"),
            recommend: weighted("recommend"),
            safe: phrases("safe"),
            harm: phrases("harm"),
            recommend_object: weighted("recommend_object"),
            harm_object: phrases("harm_object"),
            such_as: phrases("such_as"),
            entity_lead: words("entity_lead"),
            entity_end: words("entity_end"),
            generic_head: words("generic_head"),
            test_words: words("test_words"),
            invalidates: phrases("invalidates"),
            not_names: words("not_names"),
            reporting: words("reporting"),
            action_of: words("action_of"),
            worsens: words("worsens"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_read_and_has_entries() {
        let text = include_str!("cues.txt");
        let sections = crate::lexicon::sections(text);
        let names: Vec<&str> = sections.iter().map(|(n, _)| *n).collect();
        assert_eq!(names.len(), 21, "{names:?}");
        let c = &*CUES;
        let sizes = [
            c.verb_start.len(),
            c.finite.len(),
            c.subordinate.len(),
            c.insert_start.len(),
            c.population_anaphors.len(),
            c.pronouns.len(),
            c.recommend.len(),
            c.safe.len(),
            c.harm.len(),
            c.recommend_object.len(),
            c.harm_object.len(),
            c.such_as.len(),
            c.entity_lead.len(),
            c.entity_end.len(),
            c.generic_head.len(),
            c.test_words.len(),
            c.invalidates.len(),
            c.not_names.len(),
            c.reporting.len(),
            c.action_of.len(),
            c.worsens.len(),
        ];
        assert!(sizes.iter().all(|&n| n > 0), "{sizes:?}");
        // A weighted line that does not parse would be dropped silently: none is.
        for name in ["recommend", "recommend_object"] {
            let lines = sections
                .iter()
                .find(|(n, _)| *n == name)
                .map(|(_, l)| l.len());
            let read = match name {
                "recommend" => c.recommend.len(),
                _ => c.recommend_object.len(),
            };
            assert_eq!(lines, Some(read), "[{name}]");
        }
        for (phrase, strength) in c.recommend.iter().chain(&c.recommend_object) {
            assert!((1..=3).contains(strength), "{phrase:?}");
        }
    }

    #[test]
    fn cues_read_as_written() {
        let c = &*CUES;
        assert!(c.verb_start.contains(&"should"));
        assert!(c.recommend.contains(&(vec!["of", "choice"], 3)));
        assert!(c.harm.contains(&vec!["not", "recommended"]));
        assert!(c.such_as.contains(&vec!["e.g"]));
        assert!(c.entity_end.contains(&"%"));
    }
}
