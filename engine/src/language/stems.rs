//! Stems of International Nonproprietary Names: the part of a generic name that says
//! which class of drug it is ("edoxaban" ends in "-xaban", the factor Xa inhibitors,
//! so it is an anticoagulant). WHO builds every new generic name on them, so the
//! class of a drug the lexicons do not classify can still be read from its name.
//! The stems are data in `stems.txt`.

use std::collections::BTreeSet;
use std::sync::LazyLock;

/// A stem and the head nouns its class is asked by.
struct Stem {
    text: String,
    /// "-xaban" ends a name; "cef-" begins one.
    at_end: bool,
    classes: Vec<String>,
}

static STEMS: LazyLock<Vec<Stem>> = LazyLock::new(|| {
    include_str!("stems.txt")
        .lines()
        .map(str::trim)
        .filter(|l| !l.is_empty() && !l.starts_with('#'))
        .filter_map(|line| {
            let mut fields = line.split_whitespace();
            let stem = fields.next()?;
            let (text, at_end) = match (stem.strip_prefix('-'), stem.strip_suffix('-')) {
                (Some(end), _) => (end, true),
                (None, Some(start)) => (start, false),
                (None, None) => return None,
            };
            Some(Stem {
                text: text.to_string(),
                at_end,
                classes: fields.map(str::to_string).collect(),
            })
        })
        .collect()
});

/// The head nouns that ask for the class a generic name's stem places it in ("edoxaban"
/// → "anticoagulant", "inhibitor"); empty when its name has no known stem. Each word
/// of a longer name is read ("metoprolol succinate").
pub fn classes_of(name: &str) -> BTreeSet<&'static str> {
    let name = name.to_lowercase();
    name.split(|c: char| c.is_whitespace() || c == '/')
        .flat_map(|word| {
            STEMS.iter().filter(move |s| {
                // A stem is a part of a longer name, never the whole word.
                word.len() > s.text.len()
                    && if s.at_end {
                        word.ends_with(&s.text)
                    } else {
                        word.starts_with(&s.text)
                    }
            })
        })
        .flat_map(|s| s.classes.iter().map(String::as_str))
        .collect()
}

/// Whether a head noun asks for a class some stem stands for ("anticoagulant").
pub fn is_stem_class(head: &str) -> bool {
    STEMS.iter().any(|s| s.classes.iter().any(|c| c == head))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_generic_name_is_classed_by_its_stem() {
        let cases: &[(&str, &[&str])] = &[
            ("edoxaban", &["anticoagulant", "inhibitor"]),
            (
                "Levofloxacin",
                &[
                    "antibacterial",
                    "antibiotic",
                    "antimicrobial",
                    "fluoroquinolone",
                    "quinolone",
                ],
            ),
            (
                "ceftriaxone",
                &[
                    "antibacterial",
                    "antibiotic",
                    "antimicrobial",
                    "beta-lactam",
                    "cephalosporin",
                ],
            ),
            (
                "adalimumab",
                &["antagonist", "antibody", "biologic", "inhibitor"],
            ),
            (
                "metoprolol succinate",
                &["antagonist", "antihypertensive", "beta-blocker", "blocker"],
            ),
            (
                "metoprolol",
                &["antagonist", "antihypertensive", "beta-blocker", "blocker"],
            ),
            ("zoledronic acid", &["bisphosphonate"]),
            (
                "clarithromycin",
                &[
                    "antibacterial",
                    "antibiotic",
                    "antimicrobial",
                    "chemotherapy",
                    "macrolide",
                ],
            ),
            (
                "rifabutin",
                &["antibacterial", "antibiotic", "antimicrobial", "rifamycin"],
            ),
            ("diclofenac", &["analgesic", "nsaid"]),
            ("primaquine", &["antimalarial"]),
            ("doxazosin", &["antagonist", "antihypertensive", "blocker"]),
            ("prednisolone", &["corticosteroid", "glucocorticoid"]),
            ("phenobarbital", &["barbiturate"]),
            // A stem alone is not a name of its class.
            ("mab", &[]),
            ("warfarin", &[]),
        ];
        for (name, expected) in cases {
            let got: Vec<&str> = classes_of(name).into_iter().collect();
            assert_eq!(got, *expected, "{name}");
        }
        assert!(is_stem_class("anticoagulant"));
        assert!(!is_stem_class("drug"));
    }
}
