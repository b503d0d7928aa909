//! Noun-phrase chunks read from part-of-speech tags: the spans a candidate answer may
//! take, with clean edges ("notably amoxicillin" → "amoxicillin", "by measuring serum
//! ferritin" → "serum ferritin"), whatever the words are.

use std::ops::Range;

use super::Tag;

/// One noun phrase: `range` with its determiner, `core` without it; both index the
/// tagged tokens and end at the head noun.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NounPhrase {
    pub range: Range<usize>,
    pub core: Range<usize>,
}

/// The noun phrases of a tagged sentence, left to right, never overlapping.
///
/// A phrase is an optional determiner, then modifiers (adjectives, numbers, past
/// participles, nouns; an adverb only before an adjective; an -ing form only after a
/// determiner, adjective or noun, since after a verb, participle or preposition it is
/// a gerund taking an object), ending in its last noun; a plural common noun before an adjective ends
/// one, and so does a past participle after a noun (a clause about it begins).
pub fn noun_phrases(tags: &[Tag]) -> Vec<NounPhrase> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < tags.len() {
        let start = i;
        let mut j = i;
        while j < tags.len() && matches!(tags[j], Tag::Pdt) {
            j += 1;
        }
        if j < tags.len() && tags[j].is_determiner() {
            j += 1;
        }
        let core_start = j;
        let mut last_noun = None;
        while j < tags.len() {
            let tag = tags[j];
            let before_modifier = tags
                .get(j + 1)
                .is_some_and(|n| n.is_adjective() || *n == Tag::Vbn);
            let after_modifier =
                j > start && (tags[j - 1].is_determiner() || tags[j - 1].is_adjective());
            let fits = tag.is_noun()
                || tag.is_adjective()
                || matches!(tag, Tag::Cd | Tag::Vbn | Tag::Fw)
                || (tag.is_adverb() && before_modifier && j == core_start)
                || (tag == Tag::Vbg
                    && (j == core_start && after_modifier
                        || j > core_start
                            && (tags[j - 1].is_noun() || tags[j - 1].is_adjective())));
            // A participle after a noun opens a clause that tells of it: "diabetes |
            // diagnosed using glucose tests", "specimens | obtained by aspiration".
            let after_noun = j > core_start && tags[j - 1].is_noun();
            if !fits || (tag == Tag::Vbn && after_noun) {
                break;
            }
            if tag.is_noun() || (tag == Tag::Cd && last_noun.is_some()) {
                last_noun = Some(j);
            }
            j += 1;
            // A plural common noun modifies nothing after it that an adjective opens:
            // "in females | quantitative G6PD testing".
            if tag == Tag::Nns && tags.get(j).is_some_and(|n| n.is_adjective()) {
                break;
            }
        }
        match last_noun {
            Some(head) => {
                out.push(NounPhrase {
                    range: start..head + 1,
                    core: core_start..head + 1,
                });
                i = head + 1;
            }
            None => i = start + 1,
        }
    }
    out
}
