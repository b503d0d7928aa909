use super::*;
use crate::language::tests::shipped;
use crate::query::parse;

/// Reads `question` over `docs` gated on its patient and not, and checks the best
/// answer of each (`None`: no answer).
fn check(docs: &[&str], question: &str, gated: Option<&str>, general: Option<&str>) {
    let docs: Vec<Document> = docs
        .iter()
        .enumerate()
        .map(|(i, t)| Document::new(format!("d{i}"), *t))
        .collect();
    let query = parse(question);
    let patient = Patient::read(question);
    let best = |patient: Option<&Patient>| {
        read(&docs, shipped(), question, &query, patient, &[])
            .and_then(|r| r.best().map(|c| normalize_term(&c.text)))
    };
    assert_eq!(
        best(Some(&patient)).as_deref(),
        gated.map(normalize_term).as_deref(),
        "gated: {question}"
    );
    assert_eq!(
        best(None).as_deref(),
        general.map(normalize_term).as_deref(),
        "general: {question}"
    );
}

const VACCINES: &str = "Zoster vaccines\n\nTwo zoster vaccines are available:\n\n\
    1. Zostavax\n2. Shingrix.\n\nZostavax vaccine\n\nZostavax is a live attenuated vaccine. \
    It is recommended for adults aged 60 years and over and is given as one dose.\n\n\
    Zostavax is not suitable for:\n\n• people who are immunocompromised\n• pregnant women\n\n\
    Zostavax is widely used and is the vaccine most adults receive.\n\nShingrix vaccine\n\n\
    Shingrix is a recombinant vaccine given as 2 doses. People who are immunocompromised \
    can receive this vaccine.";

#[test]
fn a_warning_under_a_lead_in_blocks_and_the_allowed_option_answers() {
    check(
        &[VACCINES],
        "A 66-year-old man who is immunocompromised after a transplant asks about shingles \
         protection. Which zoster vaccine should he be given?",
        Some("Shingrix"),
        Some("Zostavax"),
    );
}

#[test]
fn amounts_counts_and_times_are_read_with_their_units() {
    let dosing = "Dosing\n\nThe usual dose of exemplumab is 20 mg once daily. In people with \
                  severe renal impairment the dose is 10 mg once daily.";
    check(
        &[dosing],
        "A 70-year-old woman with severe renal impairment starts exemplumab. What dose should \
         she take?",
        Some("10 mg once daily"),
        Some("20 mg once daily"),
    );
    let schedule = "Healthy children should receive 2 doses. Children with HIV infection should \
                    receive 3 doses.";
    check(
        &[schedule],
        "A 12-year-old girl with HIV infection starts the course. How many doses should she \
         have?",
        Some("3 doses"),
        Some("2 doses"),
    );
}

#[test]
fn a_statement_about_another_population_counts_for_little() {
    let text = "Children aged below 14 years should be given the long regimen. Adults aged \
                14 years and older can be started on the short regimen. The short regimen is \
                preferred and the short regimen is widely used.";
    check(
        &[text],
        "A 10-year-old boy has drug-resistant TB. Which regimen should he receive?",
        Some("long regimen"),
        Some("short regimen"),
    );
}

#[test]
fn nothing_of_the_asked_kind_gives_no_answer() {
    check(
        &["Influenza is common in winter."],
        "A 30-year-old man has influenza. Which vaccine should he be given?",
        None,
        None,
    );
    check(&[""], "Which vaccine should he be given?", None, None);
}
