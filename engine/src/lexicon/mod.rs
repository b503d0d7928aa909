//! The shared word lexicon: closed classes of English words (determiners, prepositions,
//! conjunctions, auxiliaries, pronouns, wh-words) and the nouns that name people or a
//! population, as data in `words.txt`.
//!
//! The question parser, the extractor, the patient reader and the passage reader each
//! need to know what a person noun or a function word is; reading them from one list
//! keeps them agreeing (a noun that makes a population for the extractor makes one for
//! the passage reader too). Each reader adds only the words of its own task.

use std::collections::BTreeMap;
use std::sync::LazyLock;

/// A class of words in the lexicon.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub enum Class {
    /// Nouns that name people and say nothing else of them ("patients", "people").
    Anyone,
    /// Nouns that name people ("patients", "adults", "travellers"), [`Class::Anyone`]'s
    /// included.
    Person,
    /// Nouns for a population or circumstance ("group", "situation", "setting").
    Group,
    /// Pronouns and possessives ("it", "their").
    Pronoun,
    Determiner,
    Preposition,
    Conjunction,
    /// Auxiliary and modal verbs ("is", "should").
    Auxiliary,
    /// Interrogative words ("which", "how").
    Wh,
    /// Head nouns that name a diagnostic test or examination ("culture", "assay").
    Test,
    /// Head nouns that name a specimen ("urine", "swab").
    Specimen,
    /// Words that name a route of administration ("oral", "transdermal").
    Route,
    /// The counter-ions of pharmaceutical salts ("mesylate", "sodium"): after a drug's
    /// name, its salt form.
    Salt,
}

impl Class {
    /// Every class, in the order of `words.txt`.
    pub const ALL: [Class; 13] = [
        Class::Anyone,
        Class::Person,
        Class::Group,
        Class::Pronoun,
        Class::Determiner,
        Class::Preposition,
        Class::Conjunction,
        Class::Auxiliary,
        Class::Wh,
        Class::Test,
        Class::Specimen,
        Class::Route,
        Class::Salt,
    ];

    /// The class's section name in `words.txt`.
    pub fn name(self) -> &'static str {
        match self {
            Class::Anyone => "anyone",
            Class::Person => "person",
            Class::Group => "group",
            Class::Pronoun => "pronoun",
            Class::Determiner => "determiner",
            Class::Preposition => "preposition",
            Class::Conjunction => "conjunction",
            Class::Auxiliary => "auxiliary",
            Class::Wh => "wh",
            Class::Test => "test",
            Class::Specimen => "specimen",
            Class::Route => "route",
            Class::Salt => "salt",
        }
    }

    /// The class's words, lower case.
    pub fn words(self) -> &'static [&'static str] {
        LEXICON.get(&self).map_or(&[], Vec::as_slice)
    }

    /// Whether a lower-case word is of this class.
    pub fn has(self, word: &str) -> bool {
        self.words().contains(&word)
    }
}

/// The classes that carry no content of their own: determiners, prepositions,
/// conjunctions, auxiliaries, pronouns and wh-words.
pub const FUNCTION: [Class; 6] = [
    Class::Determiner,
    Class::Preposition,
    Class::Conjunction,
    Class::Auxiliary,
    Class::Pronoun,
    Class::Wh,
];

/// Whether a lower-case word is in any of `classes`.
pub fn any(classes: &[Class], word: &str) -> bool {
    classes.iter().any(|c| c.has(word))
}

/// Whether lower-case `words` open with "some" and, within the next two words, a noun
/// for people ("some people", "some elderly patients"): part of a population, which
/// says nothing of any one member.
pub fn some_of_people(words: &[&str]) -> bool {
    words.first() == Some(&"some")
        && words[1..].iter().take(2).any(|w| {
            [Class::Person, Class::Group]
                .iter()
                .any(|c| c.has(w) || c.has(&crate::text::singular(w)))
        })
}

/// Words that give a test's result: what a test showed, no part of which test it is
/// ("negative RT-qPCR" is an RT-qPCR).
pub const TEST_RESULTS: &[&str] = &[
    "negative",
    "positive",
    "reactive",
    "nonreactive",
    "non-reactive",
    "false-negative",
    "false-positive",
    "abnormal",
    "normal",
    "equivocal",
    "indeterminate",
];

/// Whether lower-case `words` speak of some members of a population anywhere ("can
/// cause arrhythmia in some people over 60"): see [`some_of_people`].
pub fn names_some_of_people(words: &[&str]) -> bool {
    (0..words.len()).any(|k| some_of_people(&words[k..]))
}

static LEXICON: LazyLock<BTreeMap<Class, Vec<&'static str>>> =
    LazyLock::new(|| parse(include_str!("words.txt")));

/// The class sections of `words.txt`, the words of [`Class::Anyone`] counted as
/// [`Class::Person`]'s too. Words under an unknown header are skipped (a test checks that
/// every header is a class).
fn parse(text: &'static str) -> BTreeMap<Class, Vec<&'static str>> {
    let mut out: BTreeMap<Class, Vec<&'static str>> = BTreeMap::new();
    for (name, lines) in sections(text) {
        if let Some(class) = Class::ALL.into_iter().find(|c| c.name() == name) {
            out.entry(class)
                .or_default()
                .extend(lines.iter().flat_map(|l| l.split_whitespace()));
        }
    }
    let anyone = out.get(&Class::Anyone).cloned().unwrap_or_default();
    out.entry(Class::Person).or_default().extend(anyone);
    out
}

/// The sections of a word-list file: each `[name]` header with the non-empty lines
/// under it, trimmed; `#` starts a comment. The lexicon and the extractor's cues are
/// written this way, so that their words are data, not code.
pub(crate) fn sections(text: &'static str) -> Vec<(&'static str, Vec<&'static str>)> {
    let mut out: Vec<(&'static str, Vec<&'static str>)> = Vec::new();
    for line in text.lines() {
        let line = line.split('#').next().unwrap_or("").trim();
        if let Some(name) = line.strip_prefix('[').and_then(|l| l.strip_suffix(']')) {
            out.push((name, Vec::new()));
        } else if let (false, Some((_, lines))) = (line.is_empty(), out.last_mut()) {
            lines.push(line);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_section_is_a_class_and_every_class_has_words() {
        let text = include_str!("words.txt");
        for line in text.lines() {
            if let Some(name) = line
                .trim()
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
            {
                assert!(
                    Class::ALL.iter().any(|c| c.name() == name),
                    "[{name}] is not a class"
                );
            }
        }
        for class in Class::ALL {
            let words = class.words();
            assert!(!words.is_empty(), "{class:?} has no words");
            for w in words {
                assert_eq!(*w, w.to_lowercase(), "{class:?}: {w} is not lower case");
            }
        }
    }

    #[test]
    fn words_are_looked_up_by_class() {
        let cases: &[(&str, Class, bool)] = &[
            ("travellers", Class::Person, true),
            ("patients", Class::Person, true),
            ("patients", Class::Anyone, true),
            ("women", Class::Anyone, false),
            ("situation", Class::Group, true),
            ("situation", Class::Person, false),
            ("should", Class::Auxiliary, true),
            ("whose", Class::Wh, true),
            ("vaccine", Class::Determiner, false),
        ];
        for &(word, class, expected) in cases {
            assert_eq!(class.has(word), expected, "{word} {class:?}");
        }
        assert!(any(&FUNCTION, "the") && !any(&FUNCTION, "vaccine"));
    }
}
