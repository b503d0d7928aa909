use std::sync::OnceLock;

use super::*;

/// The resources `scripts/build_lexicons.py` writes (the test command's setup runs it).
pub(crate) fn shipped() -> &'static Language {
    shipped_shared()
}

/// [`shipped`] as the answer pipeline holds it (a `Prepared` shares its language).
pub(crate) fn shipped_shared() -> &'static std::sync::Arc<Language> {
    static LANGUAGE: OnceLock<std::sync::Arc<Language>> = OnceLock::new();
    LANGUAGE.get_or_init(|| {
        let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../models/lexicons");
        let read = |name: &str| {
            std::fs::read(dir.join(name)).unwrap_or_else(|e| {
                panic!("models/lexicons/{name}: {e}; run scripts/build_lexicons.py")
            })
        };
        std::sync::Arc::new(
            Language::from_bytes(&read("tagger.txt"), &read("drugs.tsv")).expect("language data"),
        )
    })
}

/// Tags `text` and compares `word/TAG` pairs with `expected`.
fn check_tags(language: &Language, text: &str, expected: &str) {
    let analysis = language.analyse(text);
    let got: Vec<String> = analysis
        .words
        .iter()
        .zip(&analysis.tags)
        .map(|(w, t)| format!("{}/{}", w.text(text), t.penn()))
        .collect();
    assert_eq!(got.join(" "), expected, "{text}");
}

/// Compares the noun phrases' cores of `text` with `expected`.
fn check_phrases(text: &str, expected: &[&str]) {
    let language = shipped();
    let analysis = language.analyse(text);
    let got: Vec<&str> = analysis
        .phrases
        .iter()
        .map(|p| analysis.text(text, p.core.clone()))
        .collect();
    assert_eq!(got, expected, "{text}");
}

const TINY: &str = "# a hand-made tagger\n[lexicon]\nthe DT\ndog NN\ncan MD\nrun VB\n. .\n\
[morphology]\nNN s fhassuf 1 NNS x\nly hassuf 2 RB x\n\
[context]\nNN VB PREVTAG MD\n";

#[test]
fn lexicon_then_lexical_rules_then_contextual_rules() {
    let tiny = Language {
        tagger: Tagger::from_bytes(TINY.as_bytes()).expect("tiny tagger"),
        drugs: DrugLexicon::default(),
    };
    // "dogs" is unknown: NN, then its -s makes it NNS; "quickly" ends in -ly: RB.
    check_tags(
        &tiny,
        "the dogs can quickly run.",
        "the/DT dogs/NNS can/MD quickly/RB run/VB ./.",
    );
    // "dog" after a modal is a verb (the contextual rule).
    check_tags(&tiny, "can dog", "can/MD dog/VB");
    // Title case inside a sentence: a proper noun; a number: CD.
    check_tags(&tiny, "the Zorbax 1.73", "the/DT Zorbax/NNP 1.73/CD");
}

#[test]
fn bad_tagger_data_names_its_line() {
    let err = Tagger::from_bytes(b"[lexicon]\nthe DT\n[context]\nNN VB SIDEWAYS MD\n")
        .expect_err("an unknown command");
    assert_eq!(
        err.to_string(),
        "tagger data, line 4: not a contextual rule"
    );
    let err = Tagger::from_bytes(b"the DT\n").expect_err("no section");
    assert_eq!(err.line, 1);
    assert!(Tagger::from_bytes(&[0xff, 0xfe]).is_err());
}

#[test]
fn shipped_tagger_reads_clinical_sentences() {
    let language = shipped();
    assert!(language.tagger.known_words() > 90_000);
    // Hand-checked against the Penn Treebank guidelines.
    // An unknown capitalised word is a proper noun, an unknown -ed word a participle
    // after "is".
    check_tags(
        language,
        "Warfarin is contraindicated in pregnancy.",
        "Warfarin/NNP is/VBZ contraindicated/VBN in/IN pregnancy/NN ./.",
    );
    // Brill's contextual rules make "inactivated" a base form after the modal; an
    // unknown -ed word is a participle.
    check_tags(
        language,
        "Pregnant women should receive inactivated influenza vaccine.",
        "Pregnant/JJ women/NNS should/MD receive/VB inactivated/VBN influenza/NN vaccine/NN ./.",
    );
    // A present "-s" form after a number and the words modifying what it counts is the
    // noun they modify; after "one" it can be a verb.
    check_tags(
        language,
        "Send two fresh aspirates, obtained early.",
        "Send/VB two/CD fresh/NN aspirates/NNS ,/, obtained/VBN early/JJ ./.",
    );
    check_tags(
        language,
        "For these patients a less stringent goal is recommended.",
        "For/IN these/DT patients/NNS a/DT less/RBR stringent/JJ goal/NN is/VBZ recommended/VBN ./.",
    );
    check_tags(
        language,
        "Only one child needs it.",
        "Only/RB one/CD child/NN needs/VBZ it/PRP ./.",
    );
    check_phrases(
        "The preferred specimens are three early-morning gastric aspirates, obtained by \
         nasogastric tube.",
        &[
            "preferred specimens",
            "three early-morning gastric aspirates",
            "nasogastric tube",
        ],
    );
    // An instruction opens with its verb, after a colon too; a noun that opens a
    // phrase keeps its tag.
    check_tags(
        language,
        "Dose adjustment is rare. Older adults: offer renal ultrasound. Test the urine.",
        "Dose/NN adjustment/NN is/VBZ rare/JJ ./. Older/JJR adults/NNS :/: offer/VB \
         renal/JJ ultrasound/NN ./. Test/VB the/DT urine/NN ./.",
    );
    // … and after a comma and a conjunction that opens a clause.
    check_tags(
        language,
        "Scans are contraindicated, so measure receptor antibodies.",
        "Scans/NNS are/VBP contraindicated/VBN ,/, so/JJ measure/VB receptor/NN \
         antibodies/NNS ./.",
    );
    // A heading in capitals is looked up in lower case.
    check_tags(language, "CONTRAINDICATIONS", "CONTRAINDICATIONS/NNS");
    // A symbol opening with a letter, with digits in it, names a thing.
    let symbols = language.analyse("monitor free T4 and HbA1c, not 5mg");
    let tag_of = |word: &str| {
        let at = symbols
            .words
            .iter()
            .position(|w| w.text("monitor free T4 and HbA1c, not 5mg") == word);
        at.map(|i| symbols.tags[i])
    };
    assert!(
        tag_of("T4").is_some_and(|t| t.is_noun()),
        "{:?}",
        symbols.tags
    );
    assert!(
        tag_of("HbA1c").is_some_and(|t| t.is_noun()),
        "{:?}",
        symbols.tags
    );
    // "do" after an adjective is the auxiliary, not a noun (Brill's contextual rules
    // make it one), so no noun phrase runs through it; after a determiner it is a noun.
    check_tags(
        language,
        "How long do rapid tests remain positive?",
        "How/WRB long/JJ do/VBP rapid/JJ tests/NNS remain/VBP positive/JJ ?/.",
    );
    check_phrases(
        "How long do rapid diagnostic tests remain positive?",
        &["rapid diagnostic tests"],
    );
    assert_eq!(language.analyse("the do").tags, [Tag::Dt, Tag::Nn]);
    // A table's cell opens as a sentence does: its capital is not a name's (the
    // lexicon's tag for "trigger" is taken, whichever it is).
    let cell = language.analyse("Halothane | Trigger agents");
    assert_eq!(cell.tags.len(), 4);
    assert_ne!(cell.tags[2], Tag::Nnp);
    assert_eq!(cell.tags[3], Tag::Nns);
}

/// Tag for tag what TextBlob's PatternTagger (the reference implementation of Brill's
/// tagger over the same data) gives for 162 sentences of the held-out documents
/// (`scripts/tagger_reference.py` writes the fixture).
#[test]
fn shipped_tagger_matches_the_reference_implementation() {
    let tagger = &shipped().tagger;
    let fixture = include_str!("fixtures/tags.txt");
    let (mut sentences, mut tokens, mut wrong) = (0, 0, Vec::new());
    for line in fixture.lines().filter(|l| !l.starts_with('#')) {
        let pairs: Vec<(&str, &str)> = line.split(' ').filter_map(|p| p.rsplit_once('/')).collect();
        let words: Vec<&str> = pairs.iter().map(|(w, _)| *w).collect();
        let got = tagger.tag_brill(&words);
        for ((word, want), tag) in pairs.iter().zip(&got) {
            if Tag::from_penn(want) != *tag {
                wrong.push(format!("{word}/{want} tagged {}", tag.penn()));
            }
        }
        sentences += 1;
        tokens += pairs.len();
    }
    assert!(
        sentences > 150 && tokens > 2000,
        "{sentences} sentences, {tokens} tokens"
    );
    assert!(
        wrong.is_empty(),
        "{} of {tokens} differ: {wrong:?}",
        wrong.len()
    );
}

#[test]
fn noun_phrases_have_clean_edges() {
    check_phrases(
        "Use oral amoxicillin, notably in young children.",
        &["oral amoxicillin", "young children"],
    );
    check_phrases(
        "Iron status is assessed by measuring serum ferritin.",
        &["Iron status", "serum ferritin"],
    );
    check_phrases(
        "The recommended dose is 50 mg twice daily.",
        &["recommended dose", "50 mg"],
    );
    check_phrases(
        "Give a loading dose of the drug.",
        &["loading dose", "drug"],
    );
    check_phrases(
        "Pregnant women should receive inactivated influenza vaccine.",
        &["Pregnant women", "inactivated influenza vaccine"],
    );
    check_phrases(
        "In females quantitative G6PD testing is needed.",
        &["females", "quantitative G6PD testing"],
    );
    // A participle after a noun opens a clause about it, and the -ing form after a
    // participle is a verb taking an object.
    check_phrases(
        "It does not exclude diabetes diagnosed using glucose tests.",
        &["diabetes", "glucose tests"],
    );
    // A hyphened compound ending in an -ing form is an adjective.
    check_phrases(
        "A steroid-sparing agent is preferred.",
        &["steroid-sparing agent"],
    );
    check_phrases(
        "Use linezolid-containing 9-month regimens.",
        &["linezolid-containing 9-month regimens"],
    );
}

#[test]
fn combination_products_are_drugs_however_written() {
    let drugs = &shipped().drugs;
    // Listed under another spelling: the lexicon's name.
    for (written, listed) in [
        ("sofosbuvir-velpatasvir", "sofosbuvir and velpatasvir"),
        ("Glecaprevir-Pibrentasvir", "glecaprevir and pibrentasvir"),
        (
            "trimethoprim-sulfamethoxazole",
            "trimethoprim/sulfamethoxazole",
        ),
    ] {
        assert_eq!(
            drugs.lookup(written).map(|d| d.canonical),
            Some(listed),
            "{written}"
        );
    }
    // Not listed under any spelling: no drug the lexicon knows.
    assert_eq!(drugs.lookup("amoxicillin-clavulanate"), None);
    assert_eq!(drugs.lookup("warfarin-induced"), None);
}

#[test]
fn words_a_copied_table_glued_together_are_taken_apart() {
    let language = shipped();
    let cases: &[(&str, &[&str])] = &[
        ("MefloquineOne tablet", &["Mefloquine", "One", "tablet"]),
        (
            "after returnTake with milk",
            &["after", "return", "Take", "with", "milk"],
        ),
        ("Doxycycline100 mg", &["Doxycycline", "100", "mg"]),
        // Short runs and names the lexicon knows stay whole.
        ("EpiPen and GeneXpert", &["EpiPen", "and", "GeneXpert"]),
        (
            "eGFR, HbA1c and CrCl",
            &["eGFR", ",", "HbA1c", "and", "CrCl"],
        ),
        ("Vancomycin4 daily", &["Vancomycin4", "daily"]),
    ];
    for (text, expected) in cases {
        let analysis = language.analyse(text);
        let tokens: Vec<&str> = analysis.words.iter().map(|w| w.text(text)).collect();
        assert_eq!(&tokens, expected, "{text}");
    }
}

#[test]
fn a_salt_form_is_its_medicine() {
    let drugs = &shipped().drugs;
    for (salt, medicine) in [
        ("paroxetine mesylate", "paroxetine"),
        ("Metoprolol succinate", "metoprolol"),
        ("naproxen sodium", "naproxen"),
        ("doxycycline hyclate", "doxycycline"),
    ] {
        let base = drugs.lookup(medicine).map(|d| d.canonical);
        assert!(base.is_some(), "{medicine}");
        assert_eq!(drugs.lookup(salt).map(|d| d.canonical), base, "{salt}");
    }
    // The salt is no medicine of its own beside the one it follows.
    let words = ["low-dose", "paroxetine", "mesylate", "7.5", "mg"];
    let found: Vec<(usize, usize)> = drugs
        .mentions(&words)
        .into_iter()
        .map(|(r, _)| (r.start, r.end))
        .collect();
    assert_eq!(found, [(1, 3)]);
    // A name that is no salt form stays unknown.
    assert_eq!(drugs.lookup("paroxetine tablets"), None);
}

#[test]
fn drug_names_map_brands_and_variants_to_one_generic() {
    let drugs = &shipped().drugs;
    assert!(drugs.len() > 50_000);
    let coumadin = drugs.lookup("Coumadin").expect("a brand");
    assert_eq!(coumadin.canonical, "warfarin");
    assert_eq!(
        drugs.lookup("paracetamol").map(|d| d.canonical),
        Some("acetaminophen")
    );
    assert_eq!(
        drugs.lookup("Tamiflu").map(|d| d.canonical),
        Some("oseltamivir")
    );
    assert!(drugs
        .lookup("influenza vaccine")
        .is_some_and(|d| d.in_class(VACCINES)));
    assert!(drugs.lookup("pregnancy").is_none());
    let words = [
        "switch",
        "from",
        "Coumadin",
        "to",
        "influenza",
        "vaccine",
        ".",
    ];
    let found: Vec<(std::ops::Range<usize>, &str)> = drugs
        .mentions(&words)
        .into_iter()
        .map(|(r, d)| (r, d.canonical))
        .collect();
    assert_eq!(found, [(2..3, "warfarin"), (4..6, "influenza vaccines")]);
    // A footnote mark run onto a name in a copied table.
    assert_eq!(
        drugs.lookup("Vancomycin4").map(|d| d.canonical),
        Some("vancomycin")
    );
    assert!(drugs.lookup("T4").is_none_or(|d| d.canonical != "t"));
    // A hyphen joins words a text may write apart, either way round.
    let spaced = drugs
        .lookup("calcium channel blockers")
        .map(|d| d.canonical);
    assert!(spaced.is_some());
    assert_eq!(
        drugs
            .lookup("calcium-channel blockers")
            .map(|d| d.canonical),
        spaced
    );
    assert!(drugs.kinds("beta blocker").is_some());
    assert_eq!(drugs.kinds("beta-blocker"), drugs.kinds("beta blocker"));
}

#[test]
fn bad_drug_data_is_refused() {
    assert!(DrugLexicon::from_bytes(b"[canonical]\nx\t\n[variant]\ny\t5\t0\n").is_err());
    assert!(DrugLexicon::from_bytes(b"[variant]\n").is_err());
    let ok =
        DrugLexicon::from_bytes(b"[canonical]\nwarfarin\tD03.383\n[variant]\ncoumadin\t0\t1\n")
            .expect("a tiny lexicon");
    assert_eq!(ok.lookup("COUMADIN").map(|d| d.brand), Some(true));
}

#[test]
fn class_nouns_are_told_from_other_nouns() {
    let drugs = &shipped().drugs;
    for noun in [
        "inhibitor",
        "antibiotic",
        "anticoagulants",
        "antidepressant",
        "agent",
        // "anti-retroviral agents", "antiviral agents": a member is named by the modifier.
        "antiretroviral",
        "antiviral",
    ] {
        assert!(drugs.is_class_noun(noun), "{noun}");
    }
    for noun in [
        "vaccine", "regimen", "test", "method", "specimen", "dose", "patient",
    ] {
        assert!(!drugs.is_class_noun(noun), "{noun}");
    }
    assert!(drugs.lookup("anticoagulants").is_some_and(|d| d.is_class()));
    assert!(drugs.lookup("warfarin").is_some_and(|d| !d.is_class()));
}

#[test]
fn nouns_have_their_wordnet_senses_most_frequent_first() {
    let drugs = &shipped().drugs;
    assert_eq!(drugs.senses("asthma"), [Sense::State]);
    // A plural is looked up by its singular; case does not matter.
    assert_eq!(drugs.senses("Weeks").first(), Some(&Sense::Time));
    assert_eq!(drugs.senses("hip").first(), Some(&Sense::Body));
    assert_eq!(drugs.senses("vaccine"), [Sense::Artifact]);
    // Most drug names and short forms are not WordNet's.
    assert!(drugs.senses("dolutegravir").is_empty());
    for sense in Sense::ALL {
        assert_eq!(Sense::from_name(sense.name()), Some(sense));
    }
}

#[test]
fn a_sense_the_lexicon_does_not_know_is_refused_by_line() {
    let bytes =
        b"[canonical]\nwarfarin\t\n[variant]\nwarfarin\t0\t0\n[sense]\nasthma\tstate\nhip\tbone\n";
    let err = DrugLexicon::from_bytes(bytes).unwrap_err().to_string();
    assert!(
        err.contains("line 7") && err.contains("unknown sense"),
        "{err}"
    );
    let ok = b"[canonical]\nwarfarin\t\n[variant]\nwarfarin\t0\t0\n[sense]\nasthma\tstate\n";
    assert_eq!(
        DrugLexicon::from_bytes(ok).unwrap().senses("asthma"),
        [Sense::State]
    );
}
