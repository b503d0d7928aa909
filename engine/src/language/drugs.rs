//! Drug names: generic and brand names with their variants, each mapped to one canonical
//! generic name and the broad MeSH classes of that name. Loaded from bytes as
//! `scripts/build_lexicons.py` writes them (from the drug-named-entity-recognition
//! package's dictionary), so a brand in a label ("Coumadin") and its generic name in a
//! guideline ("warfarin") are one entity, and a drug is recognised as a drug in a
//! document nobody wrote rules for.

use std::collections::HashMap;
use std::ops::Range;

use super::{data_lines, LanguageError};

/// The drug lexicon.
#[derive(Debug, Clone, Default)]
pub struct DrugLexicon {
    canonical: Vec<Canonical>,
    variants: HashMap<String, (u32, bool)>,
    /// The most words any variant has, so a scan never looks further.
    longest: usize,
    /// Head nouns of the names of pharmacological classes ("inhibitors",
    /// "anticoagulants", "antibiotics").
    class_heads: std::collections::HashSet<String>,
    /// Medical nouns (drugs, vaccines, hormones, tests, procedures) and their kinds.
    kinds: HashMap<String, Kinds>,
    /// One-word nouns and their senses, most frequent first.
    senses: HashMap<String, Vec<Sense>>,
}

/// What sort of thing a noun names: the lexicographer file of a WordNet synset, its
/// "supersense". "asthma" names a state, "hip" a part of the body, "week" a time,
/// "vaccine" an artifact: a rule that holds for any noun the documents use, known or
/// not to the medical lexicons.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Sense {
    Tops,
    Act,
    Animal,
    Artifact,
    Attribute,
    Body,
    Cognition,
    Communication,
    Event,
    Feeling,
    Food,
    Group,
    Location,
    Motive,
    Object,
    Person,
    Phenomenon,
    Plant,
    Possession,
    Process,
    Quantity,
    Relation,
    Shape,
    State,
    Substance,
    Time,
}

impl Sense {
    /// Every sense, in WordNet's order of its lexicographer files.
    pub const ALL: [Sense; 26] = [
        Sense::Tops,
        Sense::Act,
        Sense::Animal,
        Sense::Artifact,
        Sense::Attribute,
        Sense::Body,
        Sense::Cognition,
        Sense::Communication,
        Sense::Event,
        Sense::Feeling,
        Sense::Food,
        Sense::Group,
        Sense::Location,
        Sense::Motive,
        Sense::Object,
        Sense::Person,
        Sense::Phenomenon,
        Sense::Plant,
        Sense::Possession,
        Sense::Process,
        Sense::Quantity,
        Sense::Relation,
        Sense::Shape,
        Sense::State,
        Sense::Substance,
        Sense::Time,
    ];

    /// Its name as WordNet's file has it after "noun." ("state").
    pub fn name(self) -> &'static str {
        match self {
            Sense::Tops => "tops",
            Sense::Act => "act",
            Sense::Animal => "animal",
            Sense::Artifact => "artifact",
            Sense::Attribute => "attribute",
            Sense::Body => "body",
            Sense::Cognition => "cognition",
            Sense::Communication => "communication",
            Sense::Event => "event",
            Sense::Feeling => "feeling",
            Sense::Food => "food",
            Sense::Group => "group",
            Sense::Location => "location",
            Sense::Motive => "motive",
            Sense::Object => "object",
            Sense::Person => "person",
            Sense::Phenomenon => "phenomenon",
            Sense::Plant => "plant",
            Sense::Possession => "possession",
            Sense::Process => "process",
            Sense::Quantity => "quantity",
            Sense::Relation => "relation",
            Sense::Shape => "shape",
            Sense::State => "state",
            Sense::Substance => "substance",
            Sense::Time => "time",
        }
    }

    /// The sense a name denotes.
    pub fn from_name(name: &str) -> Option<Sense> {
        Sense::ALL.into_iter().find(|s| s.name() == name)
    }
}

/// What a medical noun is, from WordNet's noun hierarchy: "metoprolol" is a beta
/// blocker (a blocker), a medicine.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Kinds {
    /// Other names of the same thing ("magnetic resonance imaging" for "mri").
    pub synonyms: Vec<String>,
    /// The names of the kinds it belongs to, nearest first, short of the root.
    pub kinds: Vec<String>,
    /// The broad kind it is under ("medicine", "vaccine", "diagnostic test").
    pub roots: Vec<String>,
}

#[derive(Debug, Clone)]
struct Canonical {
    name: String,
    classes: Vec<String>,
}

/// What the lexicon knows of one name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Drug<'a> {
    /// The canonical generic name, lower case ("warfarin" for "Coumadin").
    pub canonical: &'a str,
    /// Whether the name looked up is a brand.
    pub brand: bool,
    /// MeSH tree numbers of the canonical name, first two levels ("D20.215": vaccines).
    pub classes: &'a [String],
}

impl<'a> Drug<'a> {
    /// Whether the name is a pharmacological class (MeSH D27: "anticoagulants"), not
    /// one drug.
    pub fn is_class(&self) -> bool {
        !self.classes.is_empty()
            && self
                .classes
                .iter()
                .all(|c| c.starts_with(PHARMACOLOGICAL_ACTIONS))
    }

    /// Whether the name is a cytochrome (MeSH D08.244: "CYP3A4", "cytochrome P-450
    /// CYP2D6"), an enzyme the body clears drugs with, which labels name beside the
    /// drugs that inhibit or induce it but which is never given as a medicine.
    pub fn is_cytochrome(&self) -> bool {
        self.in_class(CYTOCHROMES)
    }

    /// Whether the drug is in the MeSH branch `prefix` ("D20.215").
    pub fn in_class(&self, prefix: &str) -> bool {
        self.classes.iter().any(|c| c.starts_with(prefix))
    }

    /// Whether it is a vaccine: filed under MeSH's vaccines, or named one by its
    /// generic name ("hepatitis b vaccine" for "Engerix-B", which MeSH does not file).
    pub fn is_vaccine(&self) -> bool {
        self.in_class(VACCINES) || self.canonical.contains("vaccin")
    }
}

/// The nouns a class name gives its members: its head before any MeSH inversion
/// ("abortifacient agents, nonsteroidal" → "agents"), and for "<modifier> agents" or
/// "<modifier> drugs" the modifier too, since English names a member by it alone ("an
/// antiviral", "an antiretroviral" for "anti-retroviral agents").
fn class_nouns(name: &str) -> Vec<String> {
    let name = name.split(',').next().unwrap_or("");
    let words: Vec<&str> = name.split(' ').filter(|w| !w.is_empty()).collect();
    let mut out: Vec<String> = words.last().map(|w| w.to_string()).into_iter().collect();
    if let [modifier, "agents" | "drugs"] = words.as_slice() {
        out.push(modifier.to_string());
        if modifier.contains('-') {
            out.push(modifier.replace('-', ""));
        }
    }
    out
}

/// MeSH's branch of pharmacological actions (the classes drugs belong to by use).
pub const PHARMACOLOGICAL_ACTIONS: &str = "D27";

/// MeSH's branch of the cytochromes (under enzymes and coenzymes).
const CYTOCHROMES: &str = "D08.244";

/// MeSH's branch of vaccines.
pub const VACCINES: &str = "D20.215";

/// A name without the salt it ends with ("paroxetine mesylate" → "paroxetine"): the
/// salt form is the same medicine (`None` when the name ends with no salt, or is one).
fn without_salt(key: &str) -> Option<&str> {
    let mut name = key;
    while let Some((before, last)) = name.rsplit_once(' ') {
        if !crate::lexicon::Class::Salt.has(last) {
            break;
        }
        name = before;
    }
    (name.len() < key.len()).then_some(name)
}

/// A name as the lexicon's maps key it: lower case, white space collapsed.
fn lookup_key(name: &str) -> String {
    name.split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
        .to_lowercase()
}

/// A key with its hyphens written as spaces ("calcium-channel blockers" →
/// "calcium channel blockers"), when it has any.
fn unhyphenated(key: &str) -> Option<String> {
    key.contains('-').then(|| key.replace('-', " "))
}

/// The hyphenated names of `map` written with spaces, each with its value.
fn spaced_copies<V: Clone>(map: &HashMap<String, V>) -> Vec<(String, V)> {
    map.iter()
        .filter_map(|(name, v)| Some((unhyphenated(name)?, v.clone())))
        .collect()
}

/// The drug names a one-word combination joins with hyphens or slashes
/// ("trimethoprim-sulfamethoxazole"), when it has two to four of at least three letters
/// each ("co-trimoxazole" is one name).
fn components(key: &str) -> Option<Vec<&str>> {
    if key.contains(' ') {
        return None;
    }
    let parts: Vec<&str> = key.split(['-', '/']).collect();
    ((2..=4).contains(&parts.len())
        && parts
            .iter()
            .all(|p| p.chars().count() >= 3 && p.chars().all(char::is_alphabetic)))
    .then_some(parts)
}

/// The ways a lexicon writes a combination of `parts`: "a and b", "a/b", "a / b".
fn combined_spellings<'a>(parts: &'a [&'a str]) -> impl Iterator<Item = String> + 'a {
    [" and ", "/", " / "]
        .into_iter()
        .map(|joiner| parts.join(joiner))
}

/// A name with a footnote mark run onto it, as tables copied from a page carry them
/// ("Vancomycin4", "cefazolin12"), without the mark: one or two digits after a word of
/// at least five letters. Names whose digits are their own ("T4", "B12") are shorter.
fn without_footnote(key: &str) -> Option<&str> {
    let name = key.trim_end_matches(|c: char| c.is_ascii_digit());
    let mark = key.len() - name.len();
    let word = name.rsplit(' ').next().unwrap_or(name);
    ((1..=2).contains(&mark) && word.chars().count() >= 5 && word.chars().all(char::is_alphabetic))
        .then_some(name)
}

impl DrugLexicon {
    /// Reads `[canonical]` lines (`name<TAB>classes`), `[variant]` lines
    /// (`variant<TAB>canonical line<TAB>brand 0/1`), then `[kind]` lines
    /// (`name<TAB>synonyms<TAB>kinds<TAB>roots`, lists `;`-separated), then `[sense]`
    /// lines (`noun<TAB>senses`, `;`-separated, most frequent first; optional); `#`
    /// lines are comments.
    pub fn from_bytes(bytes: &[u8]) -> Result<DrugLexicon, LanguageError> {
        const WHAT: &str = "drug lexicon";
        let mut lexicon = DrugLexicon::default();
        for line in data_lines(
            bytes,
            WHAT,
            &["[canonical]", "[variant]", "[kind]", "[sense]"],
        )? {
            let bad = |why: &str| LanguageError::new(WHAT, line.number, why.to_string());
            let fields: Vec<&str> = line.text.split('\t').collect();
            match (line.section, fields.as_slice()) {
                ("[canonical]", [name, classes]) => lexicon.canonical.push(Canonical {
                    name: (*name).to_string(),
                    classes: classes
                        .split(';')
                        .filter(|c| !c.is_empty())
                        .map(str::to_string)
                        .collect(),
                }),
                ("[variant]", [variant, index, brand]) => {
                    let index: u32 = index.parse().map_err(|_| bad("a bad canonical index"))?;
                    if index as usize >= lexicon.canonical.len() {
                        return Err(bad("a canonical index past the [canonical] section"));
                    }
                    lexicon.longest = lexicon.longest.max(variant.split(' ').count());
                    lexicon
                        .variants
                        .insert((*variant).to_string(), (index, *brand == "1"));
                }
                ("[kind]", [name, synonyms, kinds, roots]) => {
                    let list = |field: &str| -> Vec<String> {
                        field
                            .split(';')
                            .filter(|k| !k.is_empty())
                            .map(str::to_string)
                            .collect()
                    };
                    lexicon.kinds.insert(
                        (*name).to_string(),
                        Kinds {
                            synonyms: list(synonyms),
                            kinds: list(kinds),
                            roots: list(roots),
                        },
                    );
                }
                ("[sense]", [noun, senses]) => {
                    let senses = senses
                        .split(';')
                        .map(|n| Sense::from_name(n).ok_or_else(|| bad("an unknown sense")))
                        .collect::<Result<Vec<Sense>, LanguageError>>()?;
                    lexicon.senses.insert((*noun).to_string(), senses);
                }
                _ => return Err(bad("wrong number of fields")),
            }
        }
        if lexicon.variants.is_empty() {
            return Err(LanguageError::new(WHAT, 0, "no [variant] entries".into()));
        }
        // A hyphen joins words a text may write apart ("beta-blockers" / "beta
        // blockers"): every hyphenated name is also known with spaces, and a name looked
        // up is tried with spaces too (see [`unhyphenated`]).
        for (name, v) in spaced_copies(&lexicon.variants) {
            lexicon.longest = lexicon.longest.max(name.split(' ').count());
            lexicon.variants.entry(name).or_insert(v);
        }
        for (name, k) in spaced_copies(&lexicon.kinds) {
            lexicon.kinds.entry(name).or_insert(k);
        }
        // A class name's head is its last word before any MeSH inversion
        // ("abortifacient agents, nonsteroidal" → "agents").
        let heads: Vec<String> = lexicon
            .variants
            .iter()
            .filter(|(_, (index, _))| {
                lexicon.canonical.get(*index as usize).is_some_and(|c| {
                    !c.classes.is_empty()
                        && c.classes
                            .iter()
                            .all(|k| k.starts_with(PHARMACOLOGICAL_ACTIONS))
                })
            })
            .flat_map(|(name, _)| class_nouns(name))
            .collect();
        lexicon.class_heads.extend(heads);
        Ok(lexicon)
    }

    /// How many names (variants) the lexicon knows.
    pub fn len(&self) -> usize {
        self.variants.len()
    }

    /// Whether the lexicon knows no name.
    pub fn is_empty(&self) -> bool {
        self.variants.is_empty()
    }

    /// The drug a name denotes, compared in lower case with white space collapsed.
    pub fn lookup(&self, name: &str) -> Option<Drug<'_>> {
        let key = lookup_key(name);
        let &(index, brand) = self
            .variants
            .get(&key)
            .or_else(|| self.variants.get(&unhyphenated(&key)?))
            .or_else(|| self.variants.get(without_footnote(&key)?))
            .or_else(|| self.variants.get(without_salt(&key)?))
            .or_else(|| {
                // A combination product written the way the lexicon does not list it
                // ("sofosbuvir-velpatasvir" for "sofosbuvir and velpatasvir").
                let parts = components(&key)?;
                let spellings: Vec<String> = combined_spellings(&parts).collect();
                spellings
                    .iter()
                    .find_map(|spelled| self.variants.get(spelled))
            })?;
        let canonical = self.canonical.get(index as usize)?;
        Some(Drug {
            canonical: &canonical.name,
            brand,
            classes: &canonical.classes,
        })
    }

    /// The generic names of the ingredients of a combination written as one word
    /// ("nirmatrelvir/ritonavir", "trimethoprim-sulfamethoxazole"), each that the
    /// lexicon knows; empty for a name that joins no drug names.
    pub fn ingredients(&self, name: &str) -> Vec<&str> {
        let key = lookup_key(name);
        components(&key).map_or_else(Vec::new, |parts| {
            parts
                .iter()
                .filter_map(|p| self.lookup(p).map(|d| d.canonical))
                .collect()
        })
    }

    /// What kinds of thing a medical noun names, compared in lower case with white
    /// space collapsed; a drug name the kinds do not list is looked up by its generic
    /// name ("Lopressor", "metoprolol tartrate" → "metoprolol").
    pub fn kinds(&self, name: &str) -> Option<&Kinds> {
        let key = lookup_key(name);
        self.kinds
            .get(&key)
            .or_else(|| self.kinds.get(&unhyphenated(&key)?))
            .or_else(|| {
                let drug = self.lookup(&key)?;
                self.kinds.get(drug.canonical)
            })
    }

    /// The senses of a one-word noun, most frequent first, compared in lower case; a
    /// plural is looked up by its singular too ("weeks" → "week"). Empty when WordNet
    /// does not know it (most drug names, short forms).
    pub fn senses(&self, noun: &str) -> &[Sense] {
        let key = noun.to_lowercase();
        self.senses
            .get(&key)
            .or_else(|| self.senses.get(&crate::text::singular(&key)))
            .map_or(&[], Vec::as_slice)
    }

    /// Whether a noun heads the names of pharmacological classes, so that what it
    /// names is a drug ("Which neuraminidase inhibitor …", "Which oral antibiotic …").
    pub fn is_class_noun(&self, noun: &str) -> bool {
        let noun = noun.to_lowercase();
        self.class_heads.contains(&noun) || self.class_heads.contains(&format!("{noun}s"))
    }

    /// The generic names a sequence of words names, with where: each drug
    /// [`Self::mentions`] finds, and the ingredients of a combination written as one word
    /// that the lexicon does not list as one ("darunavir/ritonavir"). Ranges index `words`.
    pub fn generics(&self, words: &[&str]) -> Vec<(Range<usize>, &str)> {
        let found = self.mentions(words);
        let mut out: Vec<(Range<usize>, &str)> = found
            .iter()
            .map(|(range, drug)| (range.clone(), drug.canonical))
            .collect();
        for (i, word) in words.iter().enumerate() {
            if found.iter().any(|(range, _)| range.contains(&i)) {
                continue;
            }
            out.extend(
                self.ingredients(word)
                    .into_iter()
                    .map(|name| (i..i + 1, name)),
            );
        }
        out.sort_by_key(|(range, _)| range.start);
        out
    }

    /// Drug mentions in a sequence of words: at each position the longest run of words
    /// that names a drug (a salt form included: "paroxetine mesylate" is paroxetine, not
    /// paroxetine and a mesylate), left to right, never overlapping. Ranges index `words`.
    pub fn mentions(&self, words: &[&str]) -> Vec<(Range<usize>, Drug<'_>)> {
        let mut out = Vec::new();
        let mut i = 0;
        while i < words.len() {
            let longest = self.longest.min(words.len() - i);
            let found = (1..=longest).rev().find_map(|n| {
                let name = words[i..i + n].join(" ");
                self.lookup(&name).map(|d| (i..i + n, d))
            });
            match found {
                Some((range, drug)) => {
                    i = range.end;
                    out.push((range, drug));
                }
                None => i += 1,
            }
        }
        out
    }
}
