//! Extraction checked by hand on the CGR paper's worked examples (Table 1 documents,
//! Figure 2) and on the sentence shapes guideline prose uses.

use super::*;
use crate::text::Document;

fn extract(docs: &[&str]) -> Extraction {
    let docs: Vec<Document> = docs
        .iter()
        .enumerate()
        .map(|(i, d)| Document::new(format!("doc {}", i + 1), *d))
        .collect();
    RuleExtractor.extract(&docs)
}

/// The tuples as "⟨…⟩" strings, for readable assertions.
fn shown(x: &Extraction) -> Vec<String> {
    x.tuples.iter().map(ToString::to_string).collect()
}

fn has(x: &Extraction, expected: &str) -> bool {
    shown(x).iter().any(|t| t == expected)
}

/// The tuple that lists `drug` as an option.
fn listed<'a>(x: &'a Extraction, drug: &str) -> &'a Tuple {
    x.tuples
        .iter()
        .find(|t| t.object == drug && t.relation.stance() == Stance::Lists)
        .unwrap_or_else(|| panic!("{drug} is not listed: {:#?}", shown(x)))
}

/// Whether the extraction has a contraindication of `subject` under any condition.
fn contraindicates(x: &Extraction, subject: &str) -> bool {
    x.tuples
        .iter()
        .any(|t| t.subject == subject && t.relation == Relation::ContraindicatedIn)
}

/// Asserts that the extraction has the warning ⟨drug, contraindicated_in, c, [c]⟩.
fn assert_warned(x: &Extraction, drug: &str, condition: &str) {
    let expected = format!("⟨{drug}, contraindicated_in, {condition}, [{condition}]⟩");
    assert!(has(x, &expected), "{expected}: {:#?}", shown(x));
}

const P1: [&str; 2] = [
    "Treatment for major depressive disorder includes antidepressants such as bupropion, sertraline, and fluoxetine. Bupropion acts as a norepinephrine-dopamine reuptake inhibitor.",
    "Bupropion lowers the seizure threshold and is contraindicated in patients with bulimia nervosa or other eating disorders due to elevated seizure risk.",
];

#[test]
fn a_list_after_includes_gives_one_tuple_per_item_with_its_class() {
    let x = extract(&P1);
    for drug in ["bupropion", "sertraline", "fluoxetine"] {
        assert!(
            x.tuples.iter().any(|t| t.object == drug
                && t.relation.stance() == Stance::Lists
                && t.subject == "major depressive disorder"),
            "{drug}: {:#?}",
            shown(&x)
        );
        assert!(
            has(&x, &format!("⟨{drug}, is_a, antidepressants, []⟩")),
            "{:#?}",
            shown(&x)
        );
    }
}

#[test]
fn a_contraindication_is_a_conditional_warning_and_gates_the_treatment_edge() {
    let x = extract(&P1);
    let condition = "patients with bulimia nervosa or other eating disorders";
    assert_warned(&x, "Bupropion", condition);
    // Figure 2: the treatment edge carries the negated condition; the others do not.
    let bupropion = listed(&x, "bupropion");
    assert_eq!(bupropion.conditions, vec![Condition::excludes(condition)]);
    let sertraline = listed(&x, "sertraline");
    assert!(sertraline.conditions.is_empty());
}

#[test]
fn introductory_populations_condition_the_preference() {
    let x = extract(&[
        "For suspected appendicitis, diagnostic imaging options include CT scan, ultrasound, and MRI. CT scan has the highest sensitivity in adult populations.",
        "In pediatric patients, ultrasound is the preferred first-line imaging modality to avoid ionizing radiation exposure, with CT reserved for inconclusive cases.",
    ]);
    assert!(
        has(
            &x,
            "⟨suspected appendicitis, preferred_test, ultrasound, [pediatric patients]⟩"
        ),
        "{:#?}",
        shown(&x)
    );
    // "to avoid radiation" is the purpose of the preference, not a warning about it.
    assert!(
        !x.tuples.iter().any(|t| t.subject == "ultrasound"),
        "{:#?}",
        shown(&x)
    );
}

#[test]
fn co_medication_contraindications_become_taking_conditions() {
    let x = extract(&[
        "Standard therapy for tuberculosis includes rifampin, isoniazid, pyrazinamide, and ethambutol. Rifabutin is an alternative rifamycin with a similar mechanism.",
        "Rifampin is a potent inducer of CYP3A4 and is contraindicated with HIV protease inhibitors. Rifabutin has fewer CYP3A4 interactions and is preferred in patients on antiretroviral therapy.",
    ]);
    assert!(
        has(
            &x,
            "⟨Rifampin, contraindicated_in, taking HIV protease inhibitors, [taking HIV protease inhibitors]⟩"
        ),
        "{:#?}",
        shown(&x)
    );
    assert!(
        has(
            &x,
            "⟨tuberculosis, preferred_treatment, Rifabutin, [patients on antiretroviral therapy]⟩"
        ),
        "{:#?}",
        shown(&x)
    );
}

#[test]
fn class_warnings_reach_members_and_anaphors_reach_the_population() {
    let x = extract(&[
        "Options for treating postmenopausal osteoporosis include alendronate, denosumab and the selective estrogen receptor modulator raloxifene.",
        "Selective estrogen receptor modulators increase the risk of venous thromboembolism. They are contraindicated in women with active or past deep vein thrombosis. In these patients alendronate is preferred.",
    ]);
    let condition = "women with active or past deep vein thrombosis";
    assert!(
        has(
            &x,
            "⟨raloxifene, is_a, selective estrogen receptor modulator, []⟩"
        ),
        "{:#?}",
        shown(&x)
    );
    assert_warned(&x, "raloxifene", condition);
    let raloxifene = listed(&x, "raloxifene");
    assert_eq!(raloxifene.conditions, vec![Condition::excludes(condition)]);
    // "In these patients" resolves to the population named before.
    assert!(
        x.tuples.iter().any(|t| t.object == "alendronate"
            && t.relation == Relation::PreferredTreatment
            && t.conditions == vec![Condition::holds(condition)]),
        "{:#?}",
        shown(&x)
    );
}

#[test]
fn parenthetical_abbreviations_become_aliases() {
    let x = extract(&[
        "Major depressive disorder (MDD) is treated with sertraline. Other oral options include dipeptidyl peptidase-4 (DPP-4) inhibitors such as linagliptin and valproate (divalproex).",
    ]);
    let aliases: Vec<(String, String)> = x.aliases.clone();
    assert!(
        aliases.contains(&("Major depressive disorder".into(), "MDD".into())),
        "{aliases:?}"
    );
    assert!(
        aliases.contains(&(
            "dipeptidyl peptidase-4 inhibitors".into(),
            "DPP-4 inhibitors".into()
        )),
        "{aliases:?}"
    );
    assert!(
        aliases.contains(&("valproate".into(), "divalproex".into())),
        "{aliases:?}"
    );
    let (graph, _) = x.graph();
    assert_eq!(graph.find("MDD"), graph.find("major depressive disorder"));
}

#[test]
fn pronoun_subjects_take_the_previous_subject() {
    let x = extract(&[
        "Mefloquine is used for malaria prophylaxis. It is contraindicated in people with a history of seizures.",
    ]);
    assert!(
        has(
            &x,
            "⟨Mefloquine, contraindicated_in, people with a history of seizures, [people with a history of seizures]⟩"
        ),
        "{:#?}",
        shown(&x)
    );
}

#[test]
fn odd_input_gives_no_tuples_and_no_panic() {
    for doc in [
        "",
        "   ",
        ".",
        "(((",
        "))) is preferred",
        "é ü 🙂 — ;;; :",
        "\u{0}\u{1}\u{7f}",
        "Is is is is.",
    ] {
        let x = extract(&[doc]);
        assert!(x.tuples.len() <= 2, "{doc:?}: {:#?}", shown(&x));
        let _ = x.graph();
    }
}

#[test]
fn what_a_drug_worsens_it_is_warned_against_in() {
    let x = extract(&[
        "Verapamil and diltiazem may worsen heart failure with reduced ejection \
                       fraction, so they should be avoided in this setting.",
    ]);
    assert_warned(
        &x,
        "Verapamil",
        "heart failure with reduced ejection fraction",
    );
    assert_warned(
        &x,
        "diltiazem",
        "heart failure with reduced ejection fraction",
    );
}

#[test]
fn a_reported_finding_is_about_its_own_subject_and_the_use_of_x_is_x() {
    let x = extract(&[
        "The study confirmed propylthiouracil is a safer alternative to methimazole in \
         pregnancy.",
        "Investigators recommend the use of NT-proBNP after sacubitril/valsartan initiation.",
        "Dolutegravir combined with two nucleoside analogues is an equally recommended option.",
    ]);
    let names: Vec<&str> = x
        .tuples
        .iter()
        .flat_map(|t| [t.subject.as_str(), t.object.as_str()])
        .collect();
    for expected in ["propylthiouracil", "NT-proBNP", "Dolutegravir"] {
        assert!(names.contains(&expected), "{expected}: {:#?}", shown(&x));
    }
    for junk in [
        "study confirmed propylthiouracil",
        "use of NT-proBNP",
        "Dolutegravir combined",
    ] {
        assert!(!names.contains(&junk), "{junk}: {:#?}", shown(&x));
    }
}

#[test]
fn a_warning_with_its_own_subject_is_not_the_previous_sentences() {
    let warned = |x: &Extraction, drug: &str| {
        x.tuples
            .iter()
            .any(|t| t.subject == drug && t.relation.stance() == Stance::WarnsAgainst)
    };
    let x = extract(&["Paracetamol can be given. Aspirin should not be given to children."]);
    assert!(
        !warned(&x, "Paracetamol") && warned(&x, "Aspirin"),
        "{:#?}",
        shown(&x)
    );
    // With no subject of its own, the warning is the drug's spoken of before.
    let x = extract(&["Paracetamol can be given. Avoid in children with liver disease."]);
    assert!(warned(&x, "Paracetamol"), "{:#?}", shown(&x));
    // … and so is one with a pronoun for its object; but an object of its own that names
    // no entity ("other QT-prolonging drugs") is what is warned against.
    let x = extract(&["Paracetamol can be given. Avoid them in children with liver disease."]);
    assert!(warned(&x, "Paracetamol"), "{:#?}", shown(&x));
    let x = extract(&[
        "Dexamethasone is the preferred antiemetic. Correct hypokalaemia and \
                       avoid other QT-prolonging drugs.",
    ]);
    assert!(!warned(&x, "Dexamethasone"), "{:#?}", shown(&x));
}

#[test]
fn what_is_said_of_some_people_conditions_nothing() {
    // "in some people over 60" is a subset of a population: no member is ruled out.
    let x = extract(&[
        "Domperidone can cause heart rhythm problems in some people over the age of 60.",
    ]);
    assert!(
        x.tuples.iter().all(|t| t.conditions.is_empty()),
        "{:#?}",
        shown(&x)
    );
    let y = extract(&["Domperidone is contraindicated in people over the age of 60."]);
    assert!(
        y.tuples.iter().any(|t| !t.conditions.is_empty()),
        "{:#?}",
        shown(&y)
    );
}

#[test]
fn a_negation_before_the_verb_denies_the_harm_its_complement_names() {
    let x = extract(&[
        "Mefloquine is the agent of choice in pregnancy, and evidence suggests it is not \
         associated with an increased risk to the fetus.",
    ]);
    assert!(!contraindicates(&x, "Mefloquine"), "{:#?}", shown(&x));
    // A negation in a clause of its own denies nothing after it.
    let x = extract(&[
        "Valproate is not a first choice, and it carries an increased risk in pregnancy.",
    ]);
    assert!(contraindicates(&x, "Valproate"), "{:#?}", shown(&x));
}

#[test]
fn a_harm_to_some_people_takes_no_population_from_the_paragraph() {
    let x = extract(&[
        "Patients with Parkinson's disease should avoid metoclopramide. Domperidone can cause \
         heart rhythm problems in some people over the age of 60.",
    ]);
    assert!(!contraindicates(&x, "Domperidone"), "{:#?}", shown(&x));
    assert!(
        x.tuples
            .iter()
            .any(|t| t.subject == "metoclopramide" || t.object == "metoclopramide"),
        "{:#?}",
        shown(&x)
    );
}

#[test]
fn a_connective_adverb_opening_a_sentence_names_nothing() {
    // "However," before an introductory population is no list item of the predicate's
    // subjects or objects: the tuples name IgG tests, never "However".
    let x = extract(&[
        "The serologic tests that check for IgA antibodies are more sensitive for celiac disease than the tests for IgG antibodies. However, in people who have IgA deficiency, IgG tests may be useful.",
    ]);
    let named = |name: &str| {
        x.tuples
            .iter()
            .any(|t| t.subject == name || t.object == name)
    };
    assert!(named("IgG tests"), "{:#?}", shown(&x));
    assert!(!named("However"), "{:#?}", shown(&x));
}
