use super::*;
use crate::language::tests::shipped;
use crate::query::parse;

/// Documents of these texts, named "d0", "d1", ….
fn documents(texts: &[&str]) -> Vec<Document> {
    texts
        .iter()
        .enumerate()
        .map(|(i, t)| Document::new(format!("d{i}"), *t))
        .collect()
}

/// The best answer to `question` over `docs`, gated on its patient or not (`None`: no
/// answer).
fn best(docs: &[&str], question: &str, gated: bool) -> Option<String> {
    let docs = documents(docs);
    let mut patient = Patient::read(question);
    patient.learn_kinds(&shipped().drugs, question);
    read(
        &docs,
        Layout::Structured,
        shipped(),
        question,
        &parse(question),
        gated.then_some(&patient),
        &[],
    )
    .and_then(|r| r.best().map(|c| normalize_term(&c.text)))
}

/// The reading of `question` over one document, gated on its patient.
fn gated_reading(text: &str, question: &str) -> Option<Reading> {
    let docs = [Document::new("d0", text)];
    let query = parse(question);
    let patient = Patient::read(question);
    read(
        &docs,
        Layout::Structured,
        shipped(),
        question,
        &query,
        Some(&patient),
        &[],
    )
}

/// The reading of `question` over `docs`, gated on its patient (with the kinds of the
/// medicines it takes).
fn patient_reading(docs: &[Document], question: &str) -> Reading {
    let mut patient = Patient::read(question);
    patient.learn_kinds(&shipped().drugs, question);
    read(
        docs,
        Layout::Structured,
        shipped(),
        question,
        &parse(question),
        Some(&patient),
        &[],
    )
    .expect("a reading")
}

/// The candidate `text` of the gated reading of `question` over `docs`.
fn patient_candidate(docs: &[&str], question: &str, text: &str) -> Candidate {
    patient_reading(&documents(docs), question)
        .candidates
        .into_iter()
        .find(|c| c.text == text)
        .unwrap_or_else(|| panic!("{text} is a candidate"))
}

/// Reads `question` over `docs` gated on its patient and not, and checks the best
/// answer of each (`None`: no answer).
fn check(docs: &[&str], question: &str, gated: Option<&str>, general: Option<&str>) {
    assert_eq!(
        best(docs, question, true).as_deref(),
        gated.map(normalize_term).as_deref(),
        "gated: {question}"
    );
    assert_eq!(
        best(docs, question, false).as_deref(),
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
    // How often, after the route or a participle of giving.
    let routed = "Dosing\n\nThe usual dose of exemplumab is 2 mg orally once a day. In \
                  moderate renal impairment, the dose is 1 mg taken once daily.";
    check(
        &[routed],
        "A 70-year-old woman with moderate renal impairment starts exemplumab. What dose \
         should she take?",
        Some("1 mg taken once daily"),
        Some("2 mg orally once a day"),
    );
    // … and every so many hours after the route.
    check_gated(
        &["Exemplaparin: aged 75 years or older, 0.75 mg/kg subcutaneously every 12 hours."],
        "An 81-year-old woman starts exemplaparin. What dose should she receive?",
        "0.75 mg/kg subcutaneously every 12 hours",
    );
    // An amount in brackets right after another is the same dose in another unit.
    check_gated(
        &[
            "Exemplovax dosing\n\nAdults receive exemplovax 20 mcg (1 mL). For adults receiving \
           hemodialysis, exemplovax 40 mcg (2 mL) is given, or another vaccine 40 mcg (1 mL).",
        ],
        "A 58-year-old man on maintenance hemodialysis needs exemplovax. What dose of \
         exemplovax should be given?",
        "40 mcg",
    );
    // A change as a multiple answers "by how much", not "what dose".
    let multiple = [
        "Interactions\n\nExemplazole may raise the exemplitrigine dose needed by as \
                     much as twofold. The usual maintenance dose is 200 mg daily.",
    ];
    check_gated(
        &multiple,
        "A woman starts exemplazole. By how much may her exemplitrigine maintenance dose need \
         to be increased?",
        "as much as twofold",
    );
    check_gated(
        &multiple,
        "A woman takes exemplitrigine. What maintenance dose should she take?",
        "200 mg daily",
    );
    // An adverb of time after how often is no route.
    check_gated(
        &[
            "Dosing\n\nIn adults aged 65 or older, the dose is 5 mg once daily immediately \
           before bedtime.",
        ],
        "What dose of exemplidem is recommended for a 70-year-old man?",
        "5 mg once daily",
    );
    // A combination's amounts, one for each drug.
    check(
        &[
            "Dosing\n\nThe usual starting dose is 49 mg/51 mg twice daily. In severe renal \
           impairment, start at 24 mg/26 mg BID.",
        ],
        "A 70-year-old man with severe renal impairment starts exemplitril/exemplisartan. What \
         starting dose should he receive?",
        Some("24 mg/26 mg BID"),
        Some("49 mg/51 mg twice daily"),
    );
    // How often as prescribers write it, and an amount per dose.
    check(
        &[
            "Dosing\n\nThe usual dose of exemplumab is 20mg q12h. In severe renal impairment, \
           the dose is 10mg q24h.",
        ],
        "A 70-year-old woman with severe renal impairment starts exemplumab. What dose should \
         she take?",
        Some("10mg q24h"),
        Some("20mg q12h"),
    );
    check_gated(
        &["Dosing\n\nChildren with severe renal impairment receive 3 mg/kg per dose."],
        "A 6-year-old boy with severe renal impairment starts exemplumab. What dose should he \
         receive?",
        "3 mg/kg per dose",
    );
    // A route by its adjective or abbreviation, with how often after it.
    let abbreviated = "Dosing\n\nThe usual dose of exemplumab is 5 mg oral bid. In moderate \
                       renal impairment, the dose is 35 mg IV daily.";
    check(
        &[abbreviated],
        "A 70-year-old woman with moderate renal impairment starts exemplumab. What dose \
         should she take?",
        Some("35 mg IV daily"),
        Some("5 mg oral bid"),
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

#[test]
fn listed_members_and_parenthesised_names_are_candidates() {
    // Members listed after a colon that follows the kind and its modifiers; a name with
    // its alias in brackets before the head; mentions by the name alone count for it.
    let text = "There are two RSV vaccines licensed for older adults in Examplia: Norvax and \
                Corvex.\n\nNorvax (NRV-2) vaccine is the only RSV vaccine approved during \
                pregnancy. Pregnant people should only receive Norvax.";
    check(
        &[text],
        "A 31-year-old woman at 34 weeks of pregnancy asks for an RSV vaccine. Which RSV \
         vaccine should she be given?",
        Some("Norvax"),
        Some("Norvax"),
    );
    // Without the colon list and the alias, a name only mentioned alone is no candidate.
    check(
        &["Older adults often receive Corvex."],
        "Which RSV vaccine should she be given?",
        None,
        None,
    );
}

#[test]
fn an_amount_keeps_its_frequency_and_a_count_is_not_an_ordinal() {
    let dosing = "The usual dose is 50 mg once daily. With rifampicin, offer 50 mg of exemplavir \
                  twice per day.";
    check(
        &[dosing],
        "A woman on exemplavir 50 mg once daily starts rifampicin. What exemplavir dose \
         should she take while on rifampicin?",
        Some("50 mg of exemplavir twice per day"),
        Some("50 mg of exemplavir twice per day"),
    );
    let schedule = "A 3-dose schedule is recommended for people with HIV infection. The 2nd dose \
                    is given 2 months after the 1st dose.";
    check(
        &[schedule],
        "A 12-year-old girl with HIV infection starts the course. How many doses should her \
         schedule have?",
        Some("3-dose schedule"),
        Some("3-dose schedule"),
    );
}

#[test]
fn a_time_for_a_span_is_the_span() {
    let text = "In people with meningitis, delay treatment for 4–8 weeks.";
    check(
        &[text],
        "A man has meningitis. When should treatment be started?",
        Some("4–8 weeks"),
        Some("4–8 weeks"),
    );
}

#[test]
fn no_evidence_for_a_population_is_no_recommendation_for_it() {
    let text = "Children were not included in the trials, and there are no data on the short \
                regimen in children. Children should be given the long regimen or the short \
                regimen.";
    check(
        &[text],
        "A 10-year-old boy has drug-resistant TB. Which regimen should he receive?",
        Some("long regimen"),
        Some("short regimen"),
    );
}

/// How the reading's answer meets another reader's: `(answer, said of the patient)`.
#[test]
fn another_answer_stands_unless_the_documents_say_otherwise_for_this_patient() {
    // (documents, question, the reading's best, [(other answer, said of the patient,
    // avoid-question, the answer given instead: None when the other stands)])
    type Case<'a> = (&'a str, &'a str, &'a str, &'a [(&'a str, bool, bool, bool)]);
    let cases: &[Case] = &[
        (
            "Adults receive the short regimen. Children aged below 14 years should be given \
             the long regimen.",
            "A 10-year-old boy has drug-resistant TB. Which regimen should he receive?",
            "long regimen",
            &[
                // One of its candidates said of the patient: stands.
                ("the long regimen", false, false, false),
                // A candidate the documents give another population (adults).
                ("short regimen", false, false, true),
                // Not a candidate and not said of the patient.
                ("as well", true, false, true),
                ("standard therapy", false, false, true),
                // Said of the patient, but a regimen is a drug's kind, whose names are
                // this reader's candidates.
                ("standard therapy", true, false, true),
                // Any avoid answer stands.
                ("as well", true, true, false),
            ],
        ),
        (
            "Osteoporosis treatment\n\nBisphosphonates are the usual first treatment for \
             osteoporosis. In people with a creatinine clearance below 35 mL/min, \
             bisphosphonates are not recommended. In people with a creatinine clearance \
             below 35 mL/min, denosumab should be used.",
            "A 76-year-old woman with osteoporosis has a creatinine clearance of 24 mL/min. \
             Which osteoporosis medicine should be started?",
            "denosumab",
            &[
                // A class of drugs, even said of the patient, loses to its member said
                // of the patient.
                ("bisphosphonates", true, false, true),
                // The member itself stands.
                ("denosumab", true, false, false),
            ],
        ),
        (
            "Adults give a sputum specimen. In children aged below 14 years, a gastric \
             aspirate specimen should be collected.",
            "A 10-year-old boy may have TB. Which specimen should be collected?",
            "gastric aspirate specimen",
            &[
                // Said of the patient and of the asked kind: it stands.
                ("nasopharyngeal swab", true, false, false),
                // Naming the kind in the plural, or not said of the patient: it does not.
                ("nasopharyngeal swabs", true, false, true),
                ("nasopharyngeal swab", false, false, true),
                // A property of a thing is not a thing.
                ("disadvantages of nasopharyngeal swab", true, false, true),
                // Nor is how many of them there are, a role, or a person.
                ("two nasopharyngeal swabs", true, false, true),
                ("preferred nasopharyngeal swab", true, false, true),
                ("boy", true, false, true),
                // A specimen is named by a specimen's noun, after an adjective too; a
                // test's name or a document's code is none.
                ("cerebrospinal fluid", true, false, false),
                ("Xpert Ultra", true, false, true),
                ("WHO_CDS_TB_2020", true, false, true),
            ],
        ),
        (
            "Tumour lysis\n\nPatients at high risk of tumour lysis should receive rasburicase. \
             Rasburicase is contraindicated in G6PD deficiency; allopurinol is used instead in \
             these patients.",
            "A man with G6PD deficiency is at high risk of tumour lysis. Which drug should be \
             used?",
            "allopurinol",
            &[
                // What the documents warn against for the patient is no answer, even
                // said of the patient.
                ("rasburicase", true, false, true),
                // … nor what names it with a strength or in a combination.
                ("rasburicase 0.2", true, false, true),
                ("rasburicase/febuxostat", true, false, true),
                ("allopurinol", true, false, false),
                // A plural before the name is a heading or a class run into it.
                ("Urate-lowering drugs allopurinol", true, false, true),
                // A phrase left open at its end is a piece of a clause, and so is one
                // that opens with a preposition or holds a verb.
                ("allopurinol doses of", true, false, true),
                ("Of allopurinol users", true, false, true),
                ("allopurinol levels might rise", true, false, true),
                ("oral allopurinol", true, false, false),
            ],
        ),
        (
            "Cholera vaccine\n\nThe vaccine is given at least 10 days before travel. In \
             people taking chloroquine, it should be administered 10 days before chloroquine \
             is started.",
            "A traveller will take chloroquine. How long before starting chloroquine should \
             the vaccine be given?",
            "10 day",
            &[
                // A length of time is a phrase, not the piece of a clause around it.
                ("administered 10 days", true, false, true),
                ("10 days", true, false, false),
            ],
        ),
        (
            "Oral preparations are usually first-line. In women with risk factors for venous \
             thromboembolism, transdermal preparations should be used.",
            "A woman with risk factors for venous thromboembolism wants HRT. By which route \
             should her oestrogen be given?",
            "transdermal",
            &[
                // A route said of the patient stands; one not said of the patient does
                // not, nor does what names no route.
                ("oral", true, false, false),
                ("oral", false, false, true),
                ("woman", true, false, true),
                ("preparations", true, false, true),
            ],
        ),
        (
            "Management of gout\n\nColchicine is the drug most often used first.",
            "A 70-year-old man with heart failure has an acute gout flare. Which drug should \
             be used?",
            "colchicine",
            &[
                // Words of a heading that name no drug are not a drug, even where no
                // statement is said of the patient.
                ("Management of gout", false, false, true),
                // Other words that name no drug stand when nothing is said of the
                // patient, unless they only give a role ("standard therapy").
                ("anti-inflammatory therapy", false, false, false),
                ("standard therapy", false, false, true),
                // An act done to a thing is not the thing.
                (
                    "administration of anti-inflammatory therapy",
                    false,
                    false,
                    true,
                ),
            ],
        ),
        (
            "Mydriasis\n\nThe usual strength of the drops is 2.5%.",
            "A 6-month-old infant needs pupil dilation. What strength of drops should be used?",
            // "2.5%", normalised.
            "2.5",
            &[
                // An amount opens with its number: a name with a number in it is none.
                ("USP 2.5", false, false, true),
                // A number with nothing said of the patient stands.
                ("10%", false, false, false),
                // A piece of a clause is no answer, whoever says it.
                ("if 10%", true, false, true),
                ("and 10%", false, false, true),
                ("However", false, false, true),
                // … nor a sentence adverb, nor words that point back.
                ("Additionally", false, false, true),
                ("presumably they", false, false, true),
                // Where an amount is asked of what to avoid, the usual arbitration.
                ("However", false, true, true),
                ("10%", false, true, false),
            ],
        ),
        (
            "Flu usually gets better on its own. To bring down a fever in children and \
             teenagers, give paracetamol. Flu vaccines are offered to children and teenagers \
             every year.",
            "Which painkillers are recommended to bring down a fever from flu in a \
             13-year-old?",
            // A painkiller is a medicine: the name of one said of the patient answers,
            // and what names no medicine is not of the kind, even said of the patient.
            "paracetamol",
            &[("vaccines", true, false, true)],
        ),
    ];
    for &(text, question, best, others) in cases {
        let reading = gated_reading(text, question).expect("a reading");
        let best = Some(best.to_string());
        let given = reading
            .instead_of(shipped(), None, false)
            .map(|c| normalize_term(&c.text));
        assert_eq!(given, best, "{question}");
        for &(text, for_patient, avoid, replaced) in others {
            let given = reading
                .instead_of(shipped(), Some(Other { text, for_patient }), avoid)
                .map(|c| normalize_term(&c.text));
            let expected = if replaced { best.clone() } else { None };
            assert_eq!(given, expected, "{question} / {text} {for_patient} {avoid}");
        }
    }
}

#[test]
fn a_statement_about_a_medicine_the_patient_takes_is_about_them() {
    let for_patient = |text: &str, question: &str, value: &str| {
        gated_reading(text, question)
            .iter()
            .flat_map(|r| r.candidates.clone())
            .find(|c| c.text == value)
            .map(|c| c.for_patient)
    };
    let text = "Aspirin dosing\n\nAspirin is usually taken at 325 mg daily. The ticagrelor \
                label advises aspirin 75 to 100 mg per day.";
    let question = "A 57-year-old woman has been started on ticagrelor 90 mg twice daily. What \
                    daily aspirin dose should she take?";
    assert_eq!(
        for_patient(text, question, "75 to 100 mg per day"),
        Some(true)
    );
    assert_eq!(for_patient(text, question, "325 mg daily"), Some(false));
    let question = "A 57-year-old woman uses ticagrelor. What daily aspirin dose should she take?";
    assert_eq!(
        for_patient(text, question, "75 to 100 mg per day"),
        Some(true)
    );
    // … but not one about the medicine asked about, said of everyone who takes it.
    let question = "A 57-year-old woman takes aspirin for pain. What daily aspirin dose should \
                    she take?";
    assert_eq!(for_patient(text, question, "325 mg daily"), Some(false));
}

#[test]
fn these_patients_are_the_people_the_statement_before_opens_with() {
    // A value aimed at is answered with its bound.
    let goals = [
        "For most adults with type 2 diabetes, an HbA1c goal of less than 7.0% reduces \
         complications.",
        "Older adults with multiple chronic illnesses, moderate cognitive impairment or \
         dependence in activities of daily living have limited time to benefit from tight \
         control and a high risk of hypoglycemia. For these patients a goal of less than \
         8.0% is recommended.",
    ];
    check_gated(
        &goals,
        "What HbA1c goal is appropriate for an 86-year-old woman with type 2 diabetes who has \
         moderate dementia and dependence in several activities of daily living?",
        "less than 8.0%",
    );
    check_gated(
        &goals,
        "What HbA1c goal is appropriate for a 45-year-old man with type 2 diabetes?",
        "less than 7.0%",
    );
}

#[test]
fn a_starting_dose_is_the_first_step_of_its_schedule() {
    check(
        &[
            "Exemplotrigine titration\n\nExemplotrigine is started at 25 mg daily. In patients \
           taking valproate, exemplotrigine is started at 25 mg every other day for weeks 1 and \
           2, then 25 mg daily for weeks 3 and 4, then 50 mg daily.",
        ],
        "A 26-year-old man on valproate is to start exemplotrigine. What starting dose of \
         exemplotrigine should be used?",
        Some("25 mg every other day"),
        Some("25 mg daily"),
    );
    // A dose the first is raised to is a later step too.
    check_gated(
        &[
            "Exemplotadine dosing\n\nAdults take 10 mg once daily. Children between 2 and 6 \
             years of age should begin with 2.5 mg once daily. If needed, the dose can be \
             increased to 5 mg once daily. For children 2 to 6 years, the dose may be titrated \
             up to 5 mg once daily.",
        ],
        "What starting dose of exemplotadine is recommended for a 3-year-old?",
        "2.5 mg once daily",
    );
    let tokens = |text: &str| crate::text::lower_words(text);
    let raised = tokens("the dose can be increased to 5 mg once daily");
    assert!(asked::later_step(&raised, 6));
    // … and what "or" offers beside it.
    let beside = tokens("the dose can be increased to 5 mg once daily or 2.5 mg every 12 hours");
    assert!(asked::later_step(&beside, 11));
    let split = tokens("increase to 5 mg once daily or split into 2.5 mg twice daily");
    assert!(asked::later_step(&split, 9));
    let reduced = tokens("the dose should be reduced to 5 mg once daily");
    assert!(!asked::later_step(&reduced, 6));
}

#[test]
fn a_time_denied_by_within_is_how_long_to_wait() {
    check_gated(
        &[
            "Switching\n\nExemplostat is contraindicated with ACE inhibitors and must not be \
           given within 36 hours of the last dose of an ACE inhibitor such as enalapril.",
        ],
        "A 67-year-old man who takes enalapril is to be switched to exemplostat. When should \
         the first dose of exemplostat be given?",
        "36 hours",
    );
}

#[test]
fn when_is_answered_by_an_event_as_well_as_by_a_number() {
    check_gated(
        &[
            "Women without rubella immunity should receive MMR at the earliest opportunity \
           and avoid pregnancy for four weeks after vaccination.",
            "MMR must not be given during pregnancy. A pregnant woman who is rubella-susceptible \
           should be vaccinated after delivery.",
        ],
        "A woman who is 11 weeks pregnant is not immune to rubella. When should she receive \
         MMR?",
        "after delivery",
    );
}

#[test]
fn a_warning_over_a_list_warns_every_name_listed() {
    // The commas of a list bound no clause: the first name shares the warning.
    check(
        &[
            "Warts may be treated with podofilox, imiquimod or trichloroacetic acid. \
           Podofilox is used most.",
            "Podofilox, podophyllin and imiquimod should not be used in pregnancy. \
           Trichloroacetic acid is used in pregnant women.",
        ],
        "Which treatment is preferred for warts in a woman at 22 weeks of gestation?",
        Some("trichloroacetic acid"),
        Some("podofilox"),
    );
    // A clause that opens with its verb takes the parts before it as its subject, an
    // aside with a participle ("including …") among them.
    check(
        &[
            "Cold in children\n\nDextromethorphan is widely used for a cold. Cough \
           suppressants, including dextromethorphan, are not recommended for children \
           younger than 4 years. Paracetamol can be given to children.",
        ],
        "Which medicine can a 3-year-old boy with a cold be given?",
        Some("Paracetamol"),
        Some("Dextromethorphan"),
    );
}

#[test]
fn a_contrast_sets_the_general_rule_against_the_patients_exception() {
    // The patient's condition is named in the patient's own words, not the lexicon's;
    // "these situations" refers back to its population.
    let text = "In general, it is recommended to start treatment within 2 weeks; however, caution is needed in \
                people with tuberculous meningitis. Delaying treatment for 4–8 weeks might be \
                considered in these situations.";
    check(
        &[text],
        "A man with HIV has tuberculous meningitis. When should treatment be started?",
        Some("4–8 weeks"),
        Some("within 2 weeks"),
    );
    // What "except" opens is left out of the rule before it, whatever words they share.
    check(
        &[
            "Early Lyme disease\n\nDoxycycline is the drug of choice for erythema migrans \
           except in children younger than 8 years, in whom amoxicillin is preferred.",
        ],
        "A 5-year-old boy has early Lyme disease with erythema migrans. Which antibiotic \
         should he receive?",
        Some("amoxicillin"),
        Some("Doxycycline"),
    );
}

/// Reads `question` over `docs` gated on its patient and checks the best answer.
fn check_gated(docs: &[&str], question: &str, gated: &str) {
    assert_eq!(
        best(docs, question, true),
        Some(normalize_term(gated)),
        "{question}"
    );
}

#[test]
fn a_weight_bound_scopes_a_dose_and_the_alternative_after_than_is_set_aside() {
    // "kg" alone is a body weight, never a dose; "mg/kg/dose" is one unit.
    let dosing = "Intravenous exemplumab\n\n• Exemplumab 1.5 mg/kg body weight given at \
                  admission, then daily.\n• Children weighing <25 kg should receive a higher \
                  dose of exemplumab (2 mg/kg/dose) than larger children and adults \
                  (1.5 mg/kg/dose).";
    check_gated(
        &[dosing],
        "A 4-year-old boy weighing 15 kg is admitted with the infection. What dose of \
         intravenous exemplumab should he receive?",
        "2 mg/kg/dose",
    );
}

#[test]
fn an_age_bound_the_patient_fails_takes_the_statement_off_the_patient() {
    let testing = "Diagnosis in young children\n\n• An antigen test must be used to diagnose \
                   the infection in children younger than 18 months.\n• An antibody test can \
                   be used in children aged 18 months and older.";
    check_gated(
        &[testing],
        "Which test should be used to diagnose the infection in a 6-week-old infant?",
        "antigen test",
    );
    check_gated(
        &[testing],
        "Which test should be used to diagnose the infection in a 3-year-old child?",
        "antibody test",
    );
}

#[test]
fn a_count_written_in_words_before_a_hyphen_is_read() {
    let schedule = "An alternate two-dose schedule of Exemplovax is licensed for adolescents \
                    aged 11–15 years. Everyone else receives three doses.";
    check_gated(
        &[schedule],
        "A 13-year-old starts Exemplovax under the alternate schedule. How many doses will she \
         need?",
        "two-dose schedule",
    );
}

/// A table pasted from a web page, one cell per line: its header's column names, then
/// each row's cells. The row that names the patient's co-medication (wrapped onto a
/// parenthesised second line) scopes the dose cells under it.
const PASTED_TABLE: &str = "Exemplazole with antiepileptic drugs\n\nCo-medication\nExemplazole \
    dose\nComments\nCarbamazepine\n(Tegretol)\nIncrease to 200 mg twice daily\nLevels fall \
    by half.\nValproate\n(Depakote)\nReduce to 25 mg once daily\nLevels double. Because of this \
    risk, monitor closely.";

#[test]
fn the_cells_of_a_pasted_table_are_scoped_by_the_row_they_follow() {
    check_gated(
        &[PASTED_TABLE],
        "A 25-year-old woman with epilepsy who takes Depakote is starting exemplazole. What \
         exemplazole dose should she take?",
        "25 mg once daily",
    );
    check_gated(
        &[PASTED_TABLE],
        "A 25-year-old woman with epilepsy who takes Tegretol is starting exemplazole. What \
         exemplazole dose should she take?",
        "200 mg twice daily",
    );
}

/// A table written with bars: its header row, over a rule, names the columns of the
/// rows under it; the rows' drug names start in lower case and stand on their own lines.
const DOSE_TABLE: &str = "Maximum doses\n\nDrug | Strengths | Maximum daily dose: less than or \
    equal to 65 years | Maximum daily dose: greater than 65 years | Colchicine dose \
    |\n---|---|---|---|---|\nzolpidem (Ambien) | 5 mg, 10 mg tablets | 10 mg | 5 mg | Doses up \
    to 2 mg daily |\neszopiclone (Lunesta) | 1 mg, 2 mg, 3 mg tablets | 3 mg | 2 mg | |";

#[test]
fn a_cell_is_for_whom_its_column_says_and_its_amount_for_the_drug_of_its_column_or_row() {
    // The row's drug owns its cells' amounts; the column the patient's age falls in is
    // theirs, and the other age's column is another population's.
    check(
        &[DOSE_TABLE],
        "A 74-year-old woman takes eszopiclone. What is the maximum daily dose of \
         eszopiclone for her?",
        Some("2 mg"),
        Some("1 mg"),
    );
    check_gated(
        &[DOSE_TABLE],
        "A 40-year-old man takes eszopiclone. What is the maximum daily dose of eszopiclone \
         for him?",
        "3 mg",
    );
    // A column that names a drug owns the amounts under it, whatever drug the row names.
    check_gated(
        &[DOSE_TABLE],
        "A 40-year-old man who takes zolpidem starts colchicine. Up to what daily dose of \
         colchicine is safe?",
        "2 mg daily",
    );
}

#[test]
fn a_demonstrative_refers_back_only_with_a_noun_of_the_referents_kind() {
    // "this risk" is not the dose named in the heading above it; "this dose" is.
    let text = "Exemplazole\n\n100 mg daily\n\nLevels double. Because of this risk, monitor \
                closely. Adults with epilepsy should take this dose.";
    check_gated(
        &[text],
        "A 40-year-old man with epilepsy starts exemplazole. What exemplazole dose should he \
         take?",
        "100 mg daily",
    );
    let risk = "Exemplazole\n\n100 mg daily\n\nBecause of this risk, adults with epilepsy should \
                be monitored.";
    assert_eq!(
        best(
            &[risk],
            "A 40-year-old man with epilepsy starts exemplazole. What exemplazole dose should \
             he take?",
            true
        ),
        None
    );
}

#[test]
fn a_schedule_and_a_measured_threshold_are_read_whole_for_the_patients_population() {
    let schedule = "Primaquine\n\nPrimaquine is usually given daily for 14 days. In patients \
                    with G6PD deficiency it should be given once weekly for 8 weeks.";
    check(
        &[schedule],
        "A man with vivax malaria has G6PD deficiency. On what schedule should his \
         primaquine be given?",
        Some("once weekly for 8 weeks"),
        Some("daily for 14 days"),
    );
    let threshold = "Reading the test\n\nAn induration of 5 or more millimeters is positive for\n\
                     People with HIV\nRecent contacts of people with TB\n\
                     An induration of 10 or more millimeters is positive for\n\
                     Children exposed to adults with TB\nInjection drug users\n\
                     An induration of 15 or more millimeters is positive for\n\
                     People with no known risk factors for TB";
    // Each threshold holds for its own populations; without a patient none is the
    // general one, so only the gated reading is checked.
    assert_eq!(
        best(
            &[threshold],
            "A 40-year-old man with HIV has no other risk factors. From what induration size \
             is his test positive?",
            true
        )
        .as_deref(),
        Some("5 or more millimeter")
    );
}

#[test]
fn a_flattened_table_row_is_read_for_the_quantity_its_heading_names() {
    // One row a line, the dose given in the unit a heading names, how often after it.
    let rows = "Dosing by renal function\n\nCreatinine clearance\n>80 500–1,500 Every 12 hrs\n\
                50–80 500–1,000 Every 12 hrs\n30–50 250–750 Every 12 hrs\n\
                <30 250–500 Every 12 hrs";
    assert_eq!(
        best(
            &[rows],
            "A 70-year-old man with epilepsy has a creatinine clearance of 40 mL/min. What \
             dose range of the drug should he be given?",
            true
        )
        .as_deref(),
        Some("250 750 every 12 hrs")
    );
    // One cell a line: each value keys the cell under it, under the columns' names.
    let cells = "Recommended dose by clearance\n\nBaseline creatinine clearance (mL/min)\n\
                 Recommended dose\n> 60\n4.0 mg\n50–60\n3.5 mg\n40–49\n3.3 mg\n30–39\n3.0 mg";
    assert_eq!(
        best(
            &[cells],
            "A 67-year-old woman has a baseline creatinine clearance of 55 mL/min. What dose \
             should she receive?",
            true
        )
        .as_deref(),
        Some("3.5 mg")
    );
}

#[test]
fn an_age_a_preposition_places_is_when() {
    check_gated(
        &[
            "Preterm infants born to HBsAg-positive mothers receive the first dose within 12 \
           hours of birth. In preterm infants born to HBsAg-negative mothers the first dose is \
           delayed until chronological age 1 month.",
        ],
        "A preterm boy was born to a mother who tested HBsAg-negative. When should his first \
         dose be given?",
        "chronological age 1 month",
    );
    assert_eq!(
        best(
            &["Infants of HBsAg-negative mothers get the first dose at 1 month of age."],
            "When should the first dose be given?",
            false
        )
        .as_deref(),
        Some("at 1 month of age")
    );
}

#[test]
fn both_of_a_pair_are_one_answer() {
    check(
        &[
            "Before Q fever vaccination, people must have both serum antibody testing and a \
           skin test.",
        ],
        "A 19-year-old abattoir worker. What pre-vaccination testing does he need?",
        Some("serum antibody testing and a skin test"),
        Some("serum antibody testing and a skin test"),
    );
}

#[test]
fn a_fronted_preposition_asks_for_what_fills_its_slot() {
    let docs = "Xpert\n\nIn adults with signs of TB meningitis, Xpert should be used in \
                cerebrospinal fluid as an initial test.\nIn adults with signs of pulmonary TB, \
                Xpert should be used on sputum.";
    check(
        &[docs],
        "A 34-year-old man has signs of TB meningitis. On which specimen should Xpert be \
         used?",
        Some("cerebrospinal fluid"),
        Some("cerebrospinal fluid"),
    );
    let slot = asked::Slot::of(shipped(), "On which specimen should Xpert be used?");
    assert_eq!(
        slot,
        Some(asked::Slot {
            preposition: "on".into(),
            verb: "use".into()
        })
    );
    assert_eq!(
        asked::Slot::of(shipped(), "Which specimen should be used?"),
        None
    );
}

#[test]
fn names_are_typed_by_the_name_their_kind_is_known_by() {
    // "X and Y are … techniques known as stiffness measurements": both are of the asked
    // kind, and a warning for the patient's population rules one out.
    let docs = "Liver fibrosis\n\nTransient elastography and magnetic resonance elastography \
                are noninvasive techniques known as stiffness measurements. Transient \
                elastography is the one most often used. Transient elastography should not be \
                used in people with ascites.";
    check(
        &[docs],
        "A 58-year-old man with cirrhosis has ascites. Which stiffness measurement should be \
         used?",
        Some("magnetic resonance elastography"),
        Some("transient elastography"),
    );
}

#[test]
fn a_role_is_no_name_and_it_refers_to_the_drug_last_spoken_of() {
    // "the preferred 3rd generation cephalosporin" describes cefotaxime, which the
    // question rules out; "it" after "Ceftriaxone may …" is ceftriaxone, named by the
    // question, not the candidate named before it.
    let docs = "Cefotaxime, historically the preferred 3rd generation cephalosporin for \
                neonates, is no longer manufactured. Ceftazidime is an alternative. \
                Ceftriaxone may be considered in older infants. Avoid it in neonates with \
                hyperbilirubinemia.";
    check_gated(
        &[docs],
        "A 9-day-old neonate with hyperbilirubinemia needs a cephalosporin; cefotaxime is \
         unavailable and the team proposes ceftriaxone. Which cephalosporin is the \
         alternative?",
        "ceftazidime",
    );
}

#[test]
fn a_test_is_named_by_what_it_measures() {
    // The object of a verb of examining that names a substance or a marker is a test;
    // the patient, a response or a treatment is not.
    let docs = "Monitoring\n\nIn patients with central hypothyroidism, monitor free T4 \
                levels, not TSH. Clinicians should monitor the response and monitor patients \
                closely.";
    check(
        &[docs],
        "A 50-year-old man with central hypothyroidism takes levothyroxine. Which laboratory \
         test should guide his dose?",
        Some("free T4"),
        Some("free T4"),
    );
}

#[test]
fn a_compound_of_therapy_asks_for_a_drug() {
    // A monotherapy, like a therapy, is given as a drug the documents name.
    let docs = "Generalized onset seizures\n\nIn women of childbearing potential, monotherapy \
                with lamotrigine should be offered as first-line treatment.";
    check(
        &[docs],
        "A 22-year-old woman of childbearing potential has generalized onset seizures. Which \
         first-line monotherapy should she be offered?",
        Some("lamotrigine"),
        Some("lamotrigine"),
    );
}

#[test]
fn a_warning_in_a_condition_rules_out_for_patients_who_have_it() {
    // "contraindicated in MG": "in" names whom a warning is for, by the documents' short
    // form of the patient's condition.
    let docs = "Myasthenia gravis (MG) is an autoimmune disease. Magnesium sulfate is the \
                anticonvulsant used for seizure prophylaxis in preeclampsia. However, \
                magnesium sulfate is contraindicated in MG as it impairs nerve-muscle \
                transmission. Levetiracetam is an alternative anticonvulsant.";
    check(
        &[docs],
        "A pregnant woman with preeclampsia has myasthenia gravis. Which anticonvulsant \
         should be used for seizure prophylaxis?",
        Some("levetiracetam"),
        Some("magnesium sulfate"),
    );
}

#[test]
fn a_means_is_read_after_the_purpose_of_its_use() {
    // "Which … should be used to monitor X?" asks for what X is monitored by, with or
    // using; the documents never call it a "measurement".
    let docs = "The INR is used to monitor warfarin in most patients. In patients with lupus \
                anticoagulant, the INR is falsely high. Monitoring warfarin therapy by \
                chromogenic factor X activity in patients with lupus anticoagulant avoids this \
                artifact.";
    check_gated(
        &[docs],
        "A woman with lupus anticoagulant takes warfarin. Which laboratory measurement \
         should be used to monitor her warfarin therapy?",
        "chromogenic factor X activity",
    );
    assert_eq!(
        asked::Slot::of(
            shipped(),
            "Which test should be used to monitor her therapy?"
        ),
        Some(asked::Slot {
            preposition: "by".into(),
            verb: "monitor".into()
        })
    );
}

#[test]
fn a_manner_is_read_after_the_questions_verb() {
    let table = "Administration\n\nMost adults\nAdminister 0.1 mL intradermally or 0.5 mL \
                 subcutaneously.\nPeople who have a history of keloid scars\nAdminister 0.5 mL \
                 subcutaneously.";
    check_gated(
        &[table],
        "A man with a history of keloid scars is eligible. How should his dose be \
         administered?",
        "0.5 mL subcutaneously",
    );
}

#[test]
fn a_member_of_the_asked_kind_answers_without_its_noun() {
    // "Throat culture" is a test, "first-void urine" a specimen, though neither is
    // written with the asked noun; "echocardiographic imaging" only says how.
    check(
        &[
            "In adults, a rapid antigen test should be done. In children younger than \
           5 years, a throat culture should be done.",
        ],
        "A 4-year-old girl has a sore throat. Which test should be done?",
        Some("throat culture"),
        Some("rapid antigen test"),
    );
    check(
        &[
            "For men, a urethral swab can be collected. For women, a vaginal swab is the \
           preferred specimen for screening.",
        ],
        "A 30-year-old woman needs chlamydia screening. Which specimen is preferred?",
        Some("vaginal swab"),
        Some("vaginal swab"),
    );
    // A specimen's noun alone names one where nothing names the kind otherwise.
    check_gated(
        &[
            "In adults with TB meningitis, Xpert should be performed on CSF. In adults with \
           pulmonary TB, Xpert should be used in sputum.",
        ],
        "A 30-year-old man has TB meningitis. Which specimen should be tested?",
        "CSF",
    );
}

#[test]
fn a_subject_that_refers_back_makes_the_statement_about_its_referent() {
    // "It" is amlodipine: the statement speaks of it for these patients, not only of
    // the alternative it names.
    check(
        &[
            "Verapamil is frequently chosen for angina.",
            "Verapamil may worsen heart \
           failure, so it should be avoided in patients with heart failure. Amlodipine is \
           safer in patients with heart failure. It can be used for angina in these \
           patients, with felodipine as an alternative.",
        ],
        "Which calcium channel blocker is preferred for angina in a patient with heart failure?",
        Some("amlodipine"),
        Some("amlodipine"),
    );
}

#[test]
fn how_something_is_done_can_be_its_means_or_a_manner_phrase() {
    check(
        &[
            "In older children, urine can be collected by clean catch. In infants younger \
           than 2 months, urine should be collected by suprapubic aspiration.",
        ],
        "A 5-week-old infant has a fever. How should the urine be collected?",
        Some("suprapubic aspiration"),
        Some("clean catch"),
    );
    check(
        &["Adults should take the tablets with water. Children younger than 12 years should take \
           the tablets with food."],
        "An 8-year-old boy starts the tablets. How should he take them?",
        Some("with food"),
        Some("with water"),
    );
    // After a verb of treating, "with" gives the means.
    check(
        &[
            "Adults can be treated with doxycycline. In pregnancy, syphilis should be treated \
           with penicillin.",
        ],
        "A woman who is 14 weeks pregnant has syphilis. How should she be treated?",
        Some("penicillin"),
        Some("doxycycline"),
    );
}

#[test]
fn an_abbreviation_the_documents_define_is_one_candidate_with_its_long_form() {
    let text = "Vaccines and breastfeeding\n\nAll vaccines except yellow fever vaccine may be \
                given to people who are breastfeeding. The yellow fever (YF) vaccine is \
                contraindicated in people who are breastfeeding infants. Cases of YF \
                vaccine-associated encephalitis occurred in breastfed infants. People who \
                are breastfeeding should postpone travel; if travel cannot be avoided they \
                should receive YF vaccine.";
    // One candidate under its long form, and the warning that names it by either form
    // (its short form in brackets inside the long one) blocks it for this patient.
    let question = "A woman who is breastfeeding her 4-month-old plans a trip. Which of \
                    these vaccines is contraindicated for her while she is breastfeeding?";
    let reading = patient_reading(&[Document::new("d0", text)], question);
    let named: Vec<(String, bool)> = reading
        .typed()
        .map(|c| (normalize_term(&c.text), c.blocked_by.is_some()))
        .collect();
    assert_eq!(
        named,
        [("yellow fever vaccine".to_string(), true)],
        "{question}"
    );
}

#[test]
fn a_length_of_time_needs_no_preposition_but_an_age_is_not_one() {
    let table = "Intervals before measles vaccine\n\nProduct | Dose | Interval\n\
                 Hepatitis B immune globulin | 0.06 mL/kg | 3 months\n\
                 Kawasaki disease | 2 g/kg IV | 11 months\n\n\
                 Infants aged 6 months can be given the vaccine before travel.";
    check_gated(
        &[table],
        "A 13-month-old boy was given IVIG for Kawasaki disease. How long after the IVIG \
         dose should the measles vaccine be deferred?",
        "11 months",
    );
    let apart = "Calcium carbonate reduces the absorption of levothyroxine. Advise patients \
                 to separate the doses by at least 4 hours.";
    check_gated(
        &[apart],
        "A woman on levothyroxine starts calcium carbonate. How far apart should she take \
         the two medicines?",
        "at least 4 hours",
    );
}

#[test]
fn a_patient_on_a_medicine_is_in_the_population_named_by_its_kind() {
    let text = "Anaphylaxis\n\nEpinephrine is the first-line treatment of anaphylaxis and \
                is widely used. Patients who are taking beta-blocking medications may be \
                resistant to treatment with epinephrine. In patients taking beta blockers, \
                glucagon should be given.";
    check(
        &[text],
        "A 58-year-old man on long-term metoprolol has anaphylaxis and remains hypotensive. \
         Which drug should be given next?",
        Some("glucagon"),
        Some("epinephrine"),
    );
}

#[test]
fn a_short_form_the_documents_define_is_not_the_drug_the_lexicon_spells_so() {
    // "EACS" is a drug name in the lexicon (epsilon-aminocaproic acid); here it is a
    // society.
    let text = "Treatment of mild PJP\n\nFor adults with mild PJP, use the regimen of the \
                European AIDS Clinical Society (EACS): atovaquone alone is an option for \
                adults who cannot take co-trimoxazole, as EACS advises.";
    check_gated(
        &[text],
        "A man with mild PJP cannot take co-trimoxazole. Which single oral agent should \
         he be treated with?",
        "atovaquone",
    );
}

#[test]
fn an_amount_belongs_to_the_drug_named_before_it_and_a_dose_is_not_a_proportion() {
    let text = "Efavirenz and voriconazole\n\nWhen coadministered, the voriconazole \
                maintenance dose must be increased to 400 mg twice daily and the efavirenz \
                dose should be reduced by 50% (i.e., to 300 mg once daily).";
    check_gated(
        &[text],
        "A woman with HIV on efavirenz 600 mg daily is starting voriconazole. To what dose \
         should her efavirenz be changed while she takes voriconazole?",
        "300 mg once daily",
    );
    let limit = "Metformin and dolutegravir\n\nDolutegravir increases metformin exposure by \
                 79%. In patients taking dolutegravir, one must not exceed metformin 1000 mg \
                 daily.";
    check_gated(
        &[limit],
        "A man taking dolutegravir will start metformin. What total daily metformin dose \
         should not be exceeded?",
        "1000 mg daily",
    );
    // Where no amount the documents give is the asked drug's by name, they give it under
    // another one: a vaccine's dose is its antigen's.
    let antigen = "Hepatitis B vaccine\n\nAdults on haemodialysis should receive a single \
                   dose of Engerix-B (40 µg) on each occasion.";
    check_gated(
        &[antigen],
        "A man on haemodialysis starts hepatitis B vaccination. What dose of hepatitis B \
         surface antigen should each occasion deliver?",
        "40 µg",
    );
}

#[test]
fn a_population_named_by_a_short_form_the_documents_define_is_the_patients() {
    let text = "Myasthenia gravis (MG) is a rare autoimmune disease. Magnesium sulfate is \
                the first-line drug for seizure prophylaxis in preeclampsia. Magnesium \
                sulfate is widely used for seizure prophylaxis. In people with MG, \
                magnesium sulfate is contraindicated; levetiracetam should be used.";
    check(
        &[text],
        "A 31-year-old woman with myasthenia gravis develops preeclampsia. Which drug should \
         be used for seizure prophylaxis?",
        Some("levetiracetam"),
        Some("magnesium sulfate"),
    );
}

#[test]
fn harm_a_drug_may_cause_in_a_population_warns_against_it_there() {
    let text = "Tumor lysis syndrome\n\nRasburicase is recommended to prevent tumor lysis \
                syndrome and is widely used. Rasburicase may cause hemolytic anemia in \
                patients with G6PD deficiency. Allopurinol is an alternative.";
    check(
        &[text],
        "A 45-year-old man with lymphoma and G6PD deficiency is at high risk of tumor lysis \
         syndrome. Which uric acid-lowering drug should be used?",
        Some("allopurinol"),
        Some("rasburicase"),
    );
}

#[test]
fn a_plural_drug_name_names_a_kind_not_the_one_drug_asked_for() {
    let text = "Relapse prevention\n\nCheck transaminases before treatment; transaminases \
                are raised in liver disease and transaminases guide the choice of drug to \
                prevent relapse. Naltrexone can be used to prevent relapse.";
    check_gated(
        &[text],
        "A man with alcohol dependence wants to prevent relapse. Which drug is appropriate?",
        "naltrexone",
    );
}

#[test]
fn a_list_item_narrows_its_lead_in_and_a_drug_that_does_not_work_is_warned_against() {
    let text = "Tonic-clonic seizures\n\nOffer sodium valproate as first-line monotherapy for \
                tonic-clonic seizures in:\n• boys and men\n• girls aged under 10 years\n\n\
                Offer lamotrigine as first-line monotherapy for tonic-clonic seizures in:\n\
                • women able to have children";
    check_gated(
        &[text],
        "A 22-year-old woman has new tonic-clonic seizures. Which medication should be \
         offered as first-line monotherapy?",
        "lamotrigine",
    );
    let failing =
        "Epilepsy\n\nSeizures of generalised onset\n\nCarbamazepine is widely used and is \
                   effective for focal seizures. Carbamazepine is less likely to be \
                   effective if the seizures are of generalised onset. Levetiracetam can be \
                   used.";
    check_gated(
        &[failing],
        "A man has seizures of generalised onset. Which medication should be used?",
        "levetiracetam",
    );
}

#[test]
fn a_candidate_is_named_by_the_short_form_its_documents_give_it() {
    let text = "Testing for TB infection\n\nThe interferon-gamma release assay (IGRA) and the \
                tuberculin skin test are both used. In people who received BCG vaccine, use \
                an IGRA. The tuberculin skin test is widely used and most clinics offer the \
                tuberculin skin test.";
    check_gated(
        &[text],
        "A nurse who received BCG vaccine as an infant needs screening for TB infection. \
         Which test should be used?",
        "interferon-gamma release assay",
    );
}

#[test]
fn a_named_drug_outranks_a_phrase_that_only_describes_one() {
    let hit = "Heparin-induced thrombocytopenia\n\nIn patients with heparin-induced \
               thrombocytopenia, all heparin must be stopped and a non-heparin anticoagulant, \
               argatroban, started.";
    check(
        &[hit],
        "A 60-year-old man develops heparin-induced thrombocytopenia after surgery. Which \
         anticoagulant should he be given?",
        Some("Argatroban"),
        Some("Argatroban"),
    );
}

#[test]
fn amounts_written_onto_their_units_are_read_under_their_own_labels() {
    let bands = "Valacyclovir dosing\n\nHerpes zoster: 1g every 8hrs; CrCl 30–49mL/min: 1g \
                 every 12hrs; CrCl 10–29mL/min: 1g every 24hrs; CrCl <10mL/min: 500mg every \
                 24hrs.";
    check(
        &[bands],
        "A 68-year-old man with herpes zoster has a creatinine clearance of 20 mL/min. What \
         valacyclovir dose should he take?",
        Some("1g every 24hrs"),
        Some("1g every 8hrs"),
    );
    // A colon opens a list of "population, value" parts: the first value is the first
    // population's, not the title's.
    let by_age = "Vitamin A for measles\n\nDosing by age: infants younger than 6 months, \
                  50,000 IU; infants 6 through 11 months, 100,000 IU; children 12 months and \
                  older, 200,000 IU. Each dose is given orally once daily for two days.";
    for (age, dose) in [
        ("an infant aged 8 months", "100,000 IU"),
        ("an infant aged 3 months", "50,000 IU"),
        ("a child aged 4 years", "200,000 IU"),
    ] {
        check_gated(
            &[by_age],
            &format!("What dose of vitamin A should be given to {age} who has measles?"),
            dose,
        );
    }
    // A threshold asked is a laboratory value, of the analyte the question names; a
    // value for the people "for" names after it is theirs.
    let cut_points = [
        "Exemplin in suspected heart failure\n\nAn exemplin below 200 pg/mL makes heart \
         failure unlikely, and a haemoglobin below 100 g/L should be looked for. Rule-in \
         cut-points rise with age: 500 pg/mL for patients younger than 60 years and 1200 \
         pg/mL for those aged 60 years or older.",
    ];
    for (age, value) in [("48-year-old", "500 pg/mL"), ("81-year-old", "1200 pg/mL")] {
        check_gated(
            &cut_points,
            &format!(
                "Above what exemplin concentration is heart failure likely in a {age} man with \
                 breathlessness?"
            ),
            value,
        );
    }
    check_gated(
        &[
            "Anaemia in heart failure\n\nAn exemplin above 900 pg/mL supports heart failure, and \
             a haemoglobin below 100 g/L should be investigated.",
        ],
        "Below what haemoglobin level should a 70-year-old man with breathlessness be \
         investigated for anaemia?",
        "100 g/L",
    );
    // Populations "or" joins, each with its own preposition, are alternatives: the
    // statement is about the patient when one of them is.
    let alternatives = [
        "Exemplumab: most middle-aged adults can start at the full dose of 50 mg daily.",
        "Full-dose initiation is not appropriate (1) in patients with coronary artery disease, \
         or (2) in frail elderly patients. In these groups exemplumab should be started at 10 \
         mg daily.",
    ];
    check(
        &alternatives,
        "A 60-year-old man with coronary artery disease starts exemplumab. What starting dose \
         should he take?",
        Some("10 mg daily"),
        Some("50 mg daily"),
    );
    // A mass per decilitre is a laboratory value, not a dose.
    check_gated(
        &[
            "Apixaban dosing\n\nThe recommended dose is 5 mg twice daily. In patients with at \
           least 2 of the following: age ≥80 years, body weight ≤60 kg, or serum creatinine \
           ≥1.5 mg/dL, the recommended dose is 2.5 mg twice daily.",
        ],
        "An 80-year-old woman with atrial fibrillation weighs 55 kg and has a serum \
         creatinine of 1.6 mg/dL. What apixaban dose should she take?",
        "2.5 mg twice daily",
    );
    // A line that sets a value under its label is a statement, not a heading.
    let directions = "Directions\n\nAdults and children 6 years and over: 10 mg once daily\n\
                      Children 2 to under 6 years of age: 5 mg once daily\n\
                      Children under 2 years of age: ask a doctor";
    for (age, dose) in [
        ("8-year-old", "10 mg once daily"),
        ("4-year-old", "5 mg once daily"),
    ] {
        check_gated(
            &[directions],
            &format!("A {age} child needs loratadine for allergies. What dose should he take?"),
            dose,
        );
    }
    // A bracketed alternative with its own condition replaces the usual value.
    check(
        &[
            "Meropenem dosing\n\nThe usual dose is 1 g IV every 8 hours (every 12 hours if \
           CrCl is 26 to 50 mL/min; 500 mg every 12 hours if CrCl is 10 to 25 mL/min).",
        ],
        "A 45-year-old man with a CrCl of 40 mL/min needs meropenem for a complicated \
         intra-abdominal infection. How often should it be given?",
        Some("every 12 hours"),
        Some("every 8 hours"),
    );
    // Values listed after commas, each with its own condition, are for whom each says.
    let renal = "Exemplovir dosing\n\nFor shingles the usual dose is 1 g every 8 hours. In \
                 renal impairment, the dose is 1 g every 12 hours when creatinine clearance is \
                 30-49 mL/min, 1 g every 24 hours when it is 10-29 mL/min, and 500 mg every \
                 24 hours when it is below 10 mL/min.";
    for (clearance, dose) in [
        ("22", "1 g every 24 hours"),
        ("40", "1 g every 12 hours"),
        ("6", "500 mg every 24 hours"),
    ] {
        check_gated(
            &[renal],
            &format!(
                "A 76-year-old man with shingles has a creatinine clearance of {clearance} \
                 mL/min. What dose of exemplovir should he take?"
            ),
            dose,
        );
    }
    // The first part's own bound is a sibling of the later parts', not their scope.
    check(
        &[
            "Rivaroxaban dosing in atrial fibrillation: CrCl >50 mL/min: 20 mg once daily with \
           the evening meal; CrCl 15-50 mL/min: 15 mg once daily with the evening meal.",
        ],
        "A 70-year-old man with atrial fibrillation has a CrCl of 40 mL/min. What dose of \
         rivaroxaban should he take?",
        Some("15 mg once daily"),
        Some("20 mg once daily"),
    );
    check(
        &["Influenza\n\nStart oseltamivir within 48hrs of the first symptoms."],
        "A 40-year-old woman has influenza. How soon should oseltamivir be started?",
        Some("within 48hrs"),
        Some("within 48hrs"),
    );
}

#[test]
fn a_heading_that_is_a_drugs_name_owns_the_amounts_under_it() {
    let table = "Dosing with rifampin\n\nEfavirenz\n\nSome clinicians increase the dose to \
                 800mg in adults.\n\nNevirapine\n\nStart at 200 mg twice daily in adults.";
    check(
        &[table],
        "A 33-year-old woman on rifampin must start nevirapine. What dose of nevirapine should \
         she take?",
        Some("200 mg twice daily"),
        Some("200 mg twice daily"),
    );
}

#[test]
fn a_range_runs_upwards_and_a_change_gives_its_second_amount() {
    check(
        &[
            "Simvastatin\n\nThe maximum daily dose was cut from 80 to 10 mg in patients taking \
           diltiazem. The usual dose range is 5 to 40 mg daily.",
        ],
        "A 70-year-old man taking diltiazem needs simvastatin. What is the highest daily \
         simvastatin dose he should take?",
        Some("10 mg"),
        Some("10 mg"),
    );
}

#[test]
fn a_generic_names_stem_says_its_class() {
    // A class the lexicon does not file drugs under is read from the names' stems.
    check(
        &[
            "Psoriasis with Crohn's disease\n\nIn patients with Crohn's disease, adalimumab is \
           preferred.",
        ],
        "A 38-year-old man with psoriasis also has Crohn's disease. Which biologic should be \
         chosen?",
        Some("adalimumab"),
        Some("adalimumab"),
    );
    // Once a drug of the asked class is named, one of another class is not an answer.
    check(
        &[
            "Atrial fibrillation\n\nClarithromycin is recommended in patients with atrial \
           fibrillation and pneumonia. Clarithromycin raises edoxaban levels.",
        ],
        "A 70-year-old woman with atrial fibrillation has pneumonia. Which anticoagulant \
         should she be given?",
        Some("edoxaban"),
        Some("edoxaban"),
    );
    // A name the lexicon cannot place in the asked class (an enzyme a drug is cleared
    // by) ranks after the class's members, however often the documents name it.
    check(
        &[
            "Interactions\n\nStrong CYP3A4 inhibitors raise exposure through CYP3A4. \
           Itraconazole inhibits CYP3A4 in patients with atrial fibrillation. In patients \
           with atrial fibrillation taking itraconazole, edoxaban may be used at a reduced \
           dose.",
        ],
        "A 70-year-old woman with atrial fibrillation takes itraconazole. Which anticoagulant \
         can she take?",
        Some("edoxaban"),
        Some("edoxaban"),
    );
    // A cytochrome is never the medicine asked for, even where the lexicon cannot
    // place the drug named beside it in the asked class.
    let text = "Hot flushes with tamoxifen\n\nIn women taking tamoxifen, CYP2D6 should be \
                considered: CYP2D6 converts tamoxifen to its active form. Citalopram can be used \
                for hot flushes.";
    let question = "A 49-year-old woman taking tamoxifen has hot flushes. Which SSRI can be used?";
    let reading = gated_reading(text, question);
    let named: Vec<&str> = reading
        .iter()
        .flat_map(|r| &r.candidates)
        .map(|c| c.text.as_str())
        .collect();
    assert!(named.contains(&"Citalopram"), "{named:?}");
    assert!(!named.contains(&"CYP2D6"), "{named:?}");
    // Between equals, the one of the asked class goes first.
    check(
        &[
            "Tuberculosis and HIV\n\nIn people with tuberculosis, linezolid, dolutegravir and \
           ethionamide are all used.",
        ],
        "A 36-year-old man with HIV has tuberculosis. Which antiretroviral should he take?",
        Some("dolutegravir"),
        Some("dolutegravir"),
    );
}

#[test]
fn an_imperative_verb_chunked_as_a_noun_still_says_how() {
    check(
        &[
            "Fever in infants\n\nIn infants under the age of 4 weeks, measure body temperature \
           with an electronic thermometer in the axilla.",
        ],
        "A 3-week-old baby feels hot to touch. How should her body temperature be measured?",
        Some("with an electronic thermometer"),
        Some("with an electronic thermometer"),
    );
}

#[test]
fn a_line_that_says_the_following_scopes_the_items_after_it() {
    let doc = "Folic acid\n\n- Women should take a daily 0.4 mg folic acid supplement before \
               conception.\n- The following groups of women should take a higher dose of 5 \
               milligrams\n- women with a previous pregnancy affected by a neural tube \
               defect\n- women with diabetes";
    check_gated(
        &[doc],
        "A 31-year-old woman with type 1 diabetes is trying to conceive. What daily dose of \
         folic acid should she take?",
        "5 milligrams",
    );
}

#[test]
fn warnings_are_read_in_their_usual_wordings() {
    // (sentence, whether it warns)
    let cases: &[(&str, bool)] = &[
        (
            "Miconazole oral gel should be contra-indicated in patients taking warfarin.",
            true,
        ),
        (
            "Miconazole is contraindicated in patients taking warfarin.",
            true,
        ),
        ("Beta blockers may precipitate bronchospasm.", true),
        ("Cefalexin is less likely to be effective.", true),
        ("Metformin must not exceed 1000 mg daily.", false),
        ("Nystatin is preferred.", false),
        // Contractions are the words they stand for.
        ("Don’t use oral hydralazine as monotherapy.", true),
        ("You shouldn't give it with food.", true),
        // Harm to the population is a warning for it; a lowered or denied link is none.
        (
            "Exposure to methimazole between 6 and 10 weeks of gestation is linked to a \
             recognizable embryopathy.",
            true,
        ),
        ("Valproate increases the risk of neural tube defects.", true),
        // What does not reliably work misleads as what is unreliable does.
        (
            "Dabigatran is not reliably reversed by prothrombin complex concentrate.",
            true,
        ),
        // A clause of a participle links its effect as a verb does.
        (
            "Clarithromycin raises simvastatin levels, causing myopathy.",
            true,
        ),
        (
            "NSAIDs reduce renal blood flow, leading to kidney failure.",
            true,
        ),
        ("Amiodarone is associated with hepatotoxicity.", true),
        (
            "It carries a much lower risk of fulminant hepatotoxicity than the alternative.",
            false,
        ),
        (
            "Sertraline is not associated with major malformations.",
            false,
        ),
        ("Patients with hepatitis B should receive tenofovir.", false),
        // A harm denied is no warning.
        (
            "Spiramycin concentrates in the placenta and is not teratogenic.",
            false,
        ),
        (
            "Limited data suggest that it is not harmful to the fetus.",
            false,
        ),
        ("Isotretinoin is teratogenic.", true),
        // A test that misleads in a population warns against it there.
        (
            "False-positive dexamethasone suppression tests occur in women taking oral \
             estrogen.",
            true,
        ),
        (
            "HbA1c is unreliable in people with haemolytic anaemia.",
            true,
        ),
        (
            "HbA1c can underestimate past glycaemia in people with haemoglobin variants.",
            true,
        ),
        (
            "Serum creatinine overestimates kidney function in people with low muscle mass.",
            true,
        ),
        ("A normal ferritin may be misleading in inflammation.", true),
        ("Ferritin estimates iron stores.", false),
        // A harm graded unlikely reassures.
        (
            "Beta-blockers least likely to cause problems during breastfeeding are \
             labetalol and propranolol.",
            false,
        ),
    ];
    for (sentence, warns) in cases {
        assert_eq!(!warning_clauses(sentence).is_empty(), *warns, "{sentence}");
    }
    // A heading warns against what the lines under it name when its cue takes no
    // object of its own.
    let headings: &[(&str, bool)] = &[
        ("Contraindicated / not recommended", true),
        (
            "Drugs contraindicated in pregnancy or to be used with caution",
            true,
        ),
        ("Agents to avoid during breastfeeding", true),
        ("Avoid potential vaccination errors", false),
        ("Recommended regimens", false),
    ];
    for (heading, warns) in headings {
        assert_eq!(heading_warns(heading), *warns, "{heading}");
    }
}

#[test]
fn what_to_avoid_is_what_the_documents_warn_against_for_the_patient() {
    let question = "A 30-year-old pregnant woman has acne. Which topical treatment should \
                    she not use?";
    assert!(parse(question).asks_to_avoid);
    let reading = gated_reading(
        "CONTRAINDICATIONS\n\n• Pregnancy: tazarotene is contraindicated in women who are \
         pregnant.\n\nAzelaic acid and benzoyl peroxide are considered safe in pregnancy.",
        question,
    );
    let answer = reading
        .as_ref()
        .and_then(|r| r.instead_of(shipped(), None, true));
    assert_eq!(
        answer.map(|c| normalize_term(&c.text)).as_deref(),
        Some("tazarotene")
    );
}

#[test]
fn a_drug_is_what_a_noun_for_one_drugs_use_asks_for() {
    // "Opportunistic infection prophylaxis" names the kind; the drug is the answer.
    check_gated(
        &[
            "Opportunistic infection prophylaxis\n\nPneumocystis pneumonia: start \
           dapsone when the CD4 count is <200 cells/mm3.",
        ],
        "A 55-year-old man with HIV has a CD4 count of 150 cells/mm3. Which prophylaxis \
         should he start?",
        "dapsone",
    );
}

#[test]
fn a_heading_that_warns_warns_against_what_is_listed_under_it() {
    let text = "Antihypertensives\n\nLabetalol can be used in pregnancy.\n\nDrugs to avoid in pregnancy\n\n\
                Enalapril is taken for chronic hypertension in women.";
    check_gated(
        &[text],
        "A woman at 10 weeks of gestation has chronic hypertension. Which antihypertensive \
         should she take for chronic hypertension?",
        "labetalol",
    );
}

#[test]
fn a_question_for_a_class_is_answered_by_a_class() {
    // "Which drug class": any class the lexicon knows; "which class of X": a class of X.
    check(
        &[
            "Heartburn in older people\n\nIn people over 65 years, proton pump inhibitors \
           are recommended. Calcium channel blockers may worsen reflux in people over 65 \
           years.",
        ],
        "A 70-year-old woman has heartburn. Which drug class should be used?",
        Some("proton pump inhibitors"),
        Some("proton pump inhibitors"),
    );
    // A class the kinds know as a medicine, which the drug lexicon does not name.
    check(
        &[
            "Rate control in atrial fibrillation\n\nIn patients with heart failure with \
           reduced ejection fraction, beta blockers are recommended for rate control. \
           Calcium channel blockers should be avoided in patients with reduced ejection \
           fraction.",
        ],
        "A 70-year-old woman with atrial fibrillation has heart failure with reduced \
         ejection fraction. Which drug class should be used for rate control?",
        Some("beta blockers"),
        Some("beta blockers"),
    );
    check(
        &[
            "Hypertension in chronic kidney disease\n\nIn people with chronic kidney disease \
           and albuminuria, start an ACE inhibitor. In people without albuminuria, a \
           calcium channel blocker may be started.",
        ],
        "A 60-year-old man with chronic kidney disease and albuminuria has high blood \
         pressure. Which class of antihypertensive should be started?",
        Some("ACE inhibitor"),
        Some("ACE inhibitor"),
    );
}

#[test]
fn a_copula_after_the_asked_kind_names_it() {
    // "The <kind> is (with) X": X is of the asked kind, and so are the members listed
    // after it (the named member first).
    check(
        &[
            "Candidal infection in pregnancy\n\nFirst-line treatment of candidal infection in \
           pregnancy is with a topical imidazole such as clotrimazole.",
        ],
        "A 30-year-old woman at 10 weeks' gestation has vaginal thrush. What is the \
         first-line treatment?",
        Some("clotrimazole"),
        Some("clotrimazole"),
    );
    check(
        &["The preferred specimen in men is first-void urine."],
        "A 30-year-old man needs chlamydia screening. Which specimen is preferred?",
        Some("first-void urine"),
        Some("first-void urine"),
    );
}

#[test]
fn a_warning_against_a_combination_spares_each_drug_alone() {
    // Neither the combination's warning nor its mention counts for or against either.
    check(
        &[
            "Hypertension in chronic kidney disease\n\nIn people with chronic kidney disease \
           and albuminuria, start losartan. The combination of losartan and lisinopril is \
           not recommended in chronic kidney disease.",
        ],
        "A 60-year-old man with chronic kidney disease and albuminuria has high blood \
         pressure. Which antihypertensive should be started?",
        Some("losartan"),
        Some("losartan"),
    );
}

#[test]
fn what_a_change_starts_from_is_not_what_it_gives() {
    // "Double the dose from A to B": B is the dose for this patient, A the usual one.
    check(
        &[
            "Women should take the usual dose of exemplumab, 1.5 milligrams. In women who use enzyme \
           inducers, double the usual dose of exemplumab from 1.5 milligrams to 3 milligrams.",
        ],
        "A 27-year-old woman uses enzyme inducers for epilepsy. What dose of exemplumab \
         should she take?",
        Some("3 milligrams"),
        Some("1.5 milligrams"),
    );
    check(
        &["In women who take enzyme inducers, double the dose from 1.5mg to 3mg."],
        "A 27-year-old woman takes enzyme inducers for epilepsy. What dose should she take?",
        Some("3mg"),
        Some("3mg"),
    );
}

#[test]
fn names_joined_by_a_slash_are_each_named() {
    // "Avoid esomeprazole/omeprazole with clopidogrel" warns against each of them.
    check(
        &[
            "Proton pump inhibitors include esomeprazole and pantoprazole. Esomeprazole \
           is widely used.\n\nInteraction with clopidogrel\n\n• Avoid concomitant use of \
           esomeprazole/omeprazole with clopidogrel.",
        ],
        "A 64-year-old man takes clopidogrel after a stent. Which proton pump inhibitor \
         should he take?",
        Some("pantoprazole"),
        Some("esomeprazole"),
    );
}

#[test]
fn how_a_thing_is_done_is_its_means_or_its_change() {
    // The means after any participle the asked-about thing takes.
    check(
        &[
            "Urine specimens obtained by catheterization or suprapubic aspiration are \
           preferred in children who are not toilet trained. Clean-catch specimens are used \
           in toilet-trained children.",
        ],
        "A 10-month-old girl who is not toilet trained needs a urine culture. How should \
         the urine specimen be collected?",
        Some("catheterization or suprapubic aspiration"),
        Some("catheterization or suprapubic aspiration"),
    );
    // "How should the dose be adjusted?": which way, and how far.
    check(
        &[
            "The usual dose of exemplumab is 5 mg twice daily. The dose of exemplumab \
           should be decreased by 50% when coadministered with strong CYP3A4 inhibitors \
           (e.g., ketoconazole, itraconazole).",
        ],
        "A 72-year-old man on exemplumab has to start itraconazole. How should his \
         exemplumab dose be adjusted?",
        Some("decreased by 50%"),
        Some("decreased by 50%"),
    );
    // A range with its unit after both numbers, an approximation, a fraction.
    for (said, answer) in [
        (
            "should be reduced empirically by 30% to 50%",
            "reduced empirically by 30% to 50%",
        ),
        (
            "should be increased by about 25% to 30%",
            "increased by about 25% to 30%",
        ),
        (
            "should be reduced to one-quarter of the usual dose",
            "reduced to one-quarter",
        ),
        // A range opened by "between", and a changed thing of four words.
        (
            "is reduced by between one-third to one-half",
            "reduced by between one-third to one-half",
        ),
    ] {
        check_gated(
            &[&format!(
                "The usual dose of exemplumab is 5 mg twice daily. When itraconazole is \
                 started, the exemplumab dose {said}."
            )],
            "A 72-year-old man on exemplumab has to start itraconazole. How should his \
             exemplumab dose be adjusted?",
            answer,
        );
    }
    check_gated(
        &["When itraconazole is started, decrease the dose of exemplumab by 25-50%."],
        "A 72-year-old man on exemplumab has to start itraconazole. How should his \
         exemplumab dose be adjusted?",
        "decrease the dose of exemplumab by 25-50%",
    );
    // A part of the usual dose.
    check_gated(
        &[
            "The usual dose of exemplumab is 300 mg daily. With strong CYP1A2 inhibitors, use \
           one-third of the exemplumab dose.",
        ],
        "A woman who takes fluvoxamine, a strong CYP1A2 inhibitor, starts exemplumab. What \
         dose should be used?",
        "one-third of the exemplumab dose",
    );
    // How far apart a medicine is given from another.
    check_gated(
        &[
            "Exemplumab is given once daily with or without food. Antacids reduce its \
           absorption: exemplumab should be taken at least 2 hours before or 6 hours after \
           antacids.",
        ],
        "A woman starting exemplumab takes an antacid for reflux. How should exemplumab be \
         given?",
        "at least 2 hours before or 6 hours after",
    );
    // A statement that points back ("these products") is about what the one before
    // it named: the patient's other medicine.
    check_gated(
        &[
            "Exemplumab should be taken on an empty stomach, 30 to 60 minutes before \
           breakfast.",
            "Calcium carbonate and iron salts bind exemplumab in the gut. Exemplumab should be \
           taken at least 4 hours before or after these products.",
        ],
        "A woman who takes exemplumab every morning has started calcium carbonate. How \
         should she time the two medicines?",
        "at least 4 hours before or after",
    );
}

#[test]
fn vaccine_products_are_candidates_and_a_question_may_offer_them() {
    // Product names the lexicon files under their antigen's vaccines are each a
    // vaccine; a warning that refers to "either of these products" warns both.
    let docs = [
        "Providers should administer a 3-dose series of Twinrix, Engerix-B or Recombivax HB.\n\n\
         Until safety data are available for Heplisav-B or PreHevbrio during pregnancy, ACIP \
         does not recommend the use of either of these products during pregnancy.",
    ];
    // The question lists two of them to choose from: the answer is one of those two.
    check(
        &docs,
        "A 27-year-old woman at 14 weeks of gestation needs hepatitis B vaccination. The \
         clinic stocks two hepatitis B vaccines: the 2-dose Heplisav-B, which it uses for its \
         other adult patients, and Engerix-B. Which vaccine should she be given?",
        Some("Engerix-B"),
        Some("Engerix-B"),
    );
    // Named apart, the products the question names are not its answer.
    check(
        &docs,
        "A 27-year-old pregnant woman was offered Heplisav-B, but it is out of stock. Which \
         vaccine should she be given?",
        Some("Twinrix"),
        Some("Twinrix"),
    );
}

#[test]
fn urging_a_treatment_on_is_no_warning_against_it() {
    // "Should not be delayed" and "to avoid fluctuations" speak for the treatment; "it
    // is best to avoid" speaks against it.
    let docs = [
        "In people with renal impairment, treatment with heparin should not be delayed. \
         Give heparin by continuous infusion to avoid fluctuations.\n\nIn people with renal \
         impairment it is best to avoid enoxaparin.",
    ];
    check(
        &docs,
        "A 70-year-old man with renal impairment has a pulmonary embolism. Which \
         anticoagulant should he be given?",
        Some("heparin"),
        Some("heparin"),
    );
}

#[test]
fn how_a_dose_is_given_is_its_route_with_its_amount() {
    check(
        &[
            "Standard regimen: 0.5 mL subcutaneously in 2 doses 4 weeks apart.\n\nAlternative \
           regimen for people 18 years and older: 0.1 mL intradermally in 2 doses. People with \
           a history of keloid scars should receive the standard regimen.",
        ],
        "A 30-year-old man with a history of keloid scars is eligible for vaccination. How \
         should his dose be administered?",
        Some("0.5 mL subcutaneously"),
        Some("0.5 mL subcutaneously"),
    );
}

#[test]
fn a_warning_against_a_kind_warns_the_members_bracketed_after_it() {
    check(
        &[
            "In atrial fibrillation with Wolff-Parkinson-White syndrome, AV nodal blocking \
           agents (metoprolol, digoxin) should be avoided. Procainamide is the recommended \
           therapy in patients with Wolff-Parkinson-White syndrome. Metoprolol and digoxin \
           are widely used for rate control in atrial fibrillation.",
        ],
        "A 30-year-old man with Wolff-Parkinson-White syndrome has atrial fibrillation. \
         Which drug should he be given?",
        Some("procainamide"),
        Some("metoprolol"),
    );
}

#[test]
fn the_sentences_of_one_list_item_share_its_condition() {
    // The second sentence of the item names no people: it speaks of the item's.
    check(
        &[
            "Coeliac serology\n\n- IgA tTG antibodies should be measured first for coeliac \
           disease.\n- IgA deficiency – IgA tTG may be less sensitive when total IgA is <0.2 \
           g/L. IgG tTG antibodies should be measured.",
        ],
        "A 35-year-old woman is investigated for coeliac disease. Her total IgA is 0.1 g/L. \
         Which test should be performed?",
        Some("IgG tTG antibodies"),
        Some("IgA tTG antibodies"),
    );
}

#[test]
fn where_several_are_asked_for_the_names_listed_together_answer() {
    check(
        &[
            "Metoclopramide and prochlorperazine should be avoided in Parkinson's disease. \
           Ondansetron and domperidone are usually the antiemetics of choice in Parkinson's \
           disease.",
        ],
        "A 70-year-old man with Parkinson's disease has nausea. Which antiemetics are the \
         drugs of choice for him?",
        Some("ondansetron and domperidone"),
        Some("ondansetron and domperidone"),
    );
}
/// "Which treatment …?" asks for what the documents treat with, and a plural means
/// is the kind its listed members belong to, each with its own modifier.
#[test]
fn a_treatment_is_what_the_documents_treat_with() {
    let filled = slot_fillers(
        "Which treatment is preferred for external anogenital warts in a woman?",
        "Anogenital warts in pregnant women are treated with provider-applied methods: \
         cryotherapy with liquid nitrogen, trichloroacetic acid, or surgical removal.",
    );
    assert_eq!(
        filled,
        ["cryotherapy", "trichloroacetic acid", "surgical removal"]
    );
    // A noun that is no verb's act asks for no means.
    let language = crate::language::tests::shipped();
    assert!(super::asked::Slot::of(language, "Which vaccine is preferred in pregnancy?").is_none());
}

/// What `text` puts in the slot `question` asks to fill, phrase by phrase.
fn slot_fillers(question: &str, text: &str) -> Vec<String> {
    let language = crate::language::tests::shipped();
    let slot = super::asked::Slot::of(language, question).expect("a slot is asked");
    let analysis = language.analyse(text);
    let lower = analysis.lower(text);
    super::asked::slot_spans(&slot, text, &analysis)
        .into_iter()
        .map(|r| lower[r].join(" "))
        .collect()
}

/// What the documents say for a patient like this one comes before what they say in
/// general, even of a drug the lexicon names: "cryotherapy" for a pregnant woman, the
/// drug for anyone else.
#[test]
fn what_is_said_for_the_patient_comes_first() {
    let docs = [
        "Common warts may be treated with topical salicylic acid, which patients apply at \
         home.",
        "Common warts in pregnant women are treated with physical methods: cryotherapy or \
         curettage.",
    ];
    check(
        &docs,
        "Which treatment is preferred for common warts in a woman at 20 weeks of gestation?",
        Some("cryotherapy"),
        Some("topical salicylic acid"),
    );
}

/// A short form the documents define by a long form of the asked kind is of that kind,
/// and names the thing whole: "an HIV NAT" is a test, not "HIV" (and one candidate
/// with "NATs", the name written first).
#[test]
fn a_defined_short_form_is_of_its_long_form_kind() {
    let docs = [
        "Nucleic acid tests (NATs) detect the virus directly. An HIV NAT is recommended \
         for infants exposed to HIV. In adults, a laboratory antibody test is used.",
    ];
    check(
        &docs,
        "Which test is recommended for a 6-week-old infant exposed to HIV?",
        Some("NAT"),
        Some("NAT"),
    );
}

/// "What should she add?" names no kind: it asks for the object of its verb, what the
/// documents say to add.
#[test]
fn what_is_asked_without_a_noun_is_the_object_of_the_verb() {
    let filled = slot_fillers(
        "She takes the pill and has started phenytoin. What should she be advised to add \
         to her contraception?",
        "Advise her to consider adding a back-up method of birth control, like condoms.",
    );
    assert_eq!(filled, ["back-up method"]);
}

/// A warning about a kind in the plural warns every candidate of the kind, and a dash
/// after one of the asked kind (or its relative clause) sets off its name.
#[test]
fn a_plural_kind_warns_its_members_and_a_dash_names_one() {
    let docs = [
        "Screening for Cushing syndrome uses the 1-mg overnight dexamethasone suppression \
         test, which is the most widely used first test.",
        "False-positive dexamethasone suppression tests occur in women taking oral \
         estrogen. In these women, prefer a test that reflects free cortisol — late-night \
         salivary cortisol.",
    ];
    check(
        &docs,
        "Which screening test for Cushing syndrome should be used in a woman taking oral \
         estrogen?",
        Some("late-night salivary cortisol"),
        Some("1-mg overnight dexamethasone suppression test"),
    );
}

#[test]
fn every_other_noun_phrase_is_an_untyped_candidate_after_the_typed_ones() {
    let text = "Diagnosis\n\nThe urea breath test is the preferred test. In people who take a \
                proton pump inhibitor, the breath test gives false-negative results; \
                serology should be used instead.";
    let question = "A 50-year-old man who takes omeprazole daily has dyspepsia. Which test \
                    should be used?";
    let reading = gated_reading(text, question).expect("a reading");
    let typed: Vec<&str> = reading.typed().map(|c| c.text.as_str()).collect();
    assert!(typed.contains(&"urea breath test"), "{typed:?}");
    let serology = reading
        .candidates
        .iter()
        .position(|c| c.text == "serology")
        .expect("serology is a candidate");
    let candidate = &reading.candidates[serology];
    assert!(candidate.blocked_by.is_none());
    assert_eq!(candidate.typed, Typed::Phrase);
    assert!(candidate.score > 0.0);
    // Unranked, the typed candidates come first and a phrase is never the best.
    let open: Vec<Typed> = reading
        .candidates
        .iter()
        .filter(|c| c.blocked_by.is_none())
        .map(|c| c.typed)
        .collect();
    let first_phrase = open.iter().position(|t| *t == Typed::Phrase);
    assert!(first_phrase.is_some_and(|at| open[at..].iter().all(|t| *t == Typed::Phrase)));
    assert_ne!(reading.best().map(|c| c.typed), Some(Typed::Phrase));
    // The person a statement is about is no candidate of a thing.
    assert!(reading.candidates.iter().all(|c| c.text != "people"));
}

#[test]
fn a_warning_about_a_drug_class_warns_its_members_and_the_class_itself() {
    // By a pronoun that refers back to the class named before the warning.
    check(
        &[
            "Community-acquired pneumonia\n\nOutpatients are treated with levofloxacin or \
           doxycycline. Levofloxacin is preferred.\n\nFluoroquinolones prolong the QT \
           interval; avoid them in patients with long QT syndrome.",
        ],
        "A 40-year-old woman with long QT syndrome has community-acquired pneumonia. Which \
         antibiotic should she take?",
        Some("doxycycline"),
        Some("levofloxacin"),
    );
    // By an example the warning gives ("including cephalosporins"); a class with a
    // modifier ("beta-lactam antibiotics") is not every antibiotic.
    check(
        &[
            "Amoxicillin is recommended for streptococcal pharyngitis; cephalexin is an \
           alternative. Patients with anaphylaxis to penicillin should not receive \
           beta-lactam antibiotics, including cephalosporins. In these patients \
           clindamycin is used.",
        ],
        "A 30-year-old man with a history of anaphylaxis to penicillin has streptococcal \
         pharyngitis. Which antibiotic should he take?",
        Some("clindamycin"),
        Some("amoxicillin"),
    );
}

#[test]
fn a_fronted_condition_scopes_the_values_of_its_part_of_the_sentence() {
    check(
        &[
            "Oseltamivir dosing\n\nThe adult treatment dose of oseltamivir is 75 mg twice \
           daily. For creatinine clearance above 30 and up to 60 mL/min, the treatment dose \
           is 30 mg twice daily; above 10 and up to 30 mL/min, it is 30 mg once daily.",
        ],
        "A 70-year-old woman with a creatinine clearance of 45 mL/min has influenza. What \
         dose of oseltamivir should she receive?",
        Some("30 mg twice daily"),
        Some("75 mg twice daily"),
    );
}

#[test]
fn an_amount_written_as_the_dose_of_a_drug_is_that_drugs() {
    // "In patients taking propranolol, the 5 mg dose of rizatriptan": the amount is
    // rizatriptan's, though propranolol is named before it.
    check(
        &[
            "Rizatriptan\n\nThe recommended dose of rizatriptan for migraine attacks is 10 \
           mg. In patients taking propranolol, the 5 mg dose of rizatriptan is used.",
        ],
        "A 35-year-old woman who takes propranolol daily needs rizatriptan for migraine \
         attacks. What dose of rizatriptan should she take?",
        Some("5 mg"),
        Some("10 mg"),
    );
}

#[test]
fn an_amount_given_every_so_many_hours_keeps_its_unit_of_time() {
    check(
        &[
            "Tigecycline dosing\n\nThe recommended dose of tigecycline is 50 mg every 12 hrs. \
           In severe hepatic impairment (Child-Pugh C), the dose of tigecycline is 25 mg \
           every 12 hrs.",
        ],
        "A 60-year-old man with severe hepatic impairment needs tigecycline. What dose of \
         tigecycline should he receive?",
        Some("25 mg every 12 hrs"),
        Some("50 mg every 12 hrs"),
    );
}

#[test]
fn a_time_window_answers_when_and_is_not_whom_the_statement_is_about() {
    // "27 through 36 weeks" is one range; the weeks of gestation it names are when the
    // dose is given, not a population a woman 16 weeks pregnant is outside of; and
    // "during each pregnancy" only restates that she is pregnant.
    check(
        &[
            "Tdap\n\nAdults should receive a Td or Tdap booster every 10 years. Pregnant \
           women should receive one dose of Tdap during each pregnancy, optimally at 27 \
           through 36 weeks of gestation.",
        ],
        "A 28-year-old woman who is 16 weeks pregnant asks about Tdap. When should she \
         receive Tdap?",
        Some("at 27 through 36 weeks"),
        Some("10 years"),
    );
}

#[test]
fn an_amount_after_drugs_used_with_another_is_the_other_ones() {
    // The drugs edoxaban is used with own none of its amounts.
    check(
        &[
            "Edoxaban\n\nThe recommended dose of edoxaban is 60 mg once daily. Concomitant \
           use of edoxaban with ciclosporin, dronedarone, erythromycin, or ketoconazole \
           requires dose reduction to 30 mg once daily.",
        ],
        "A 70-year-old man takes edoxaban for atrial fibrillation and is now being started \
         on dronedarone. What edoxaban dose should he take?",
        Some("30 mg once daily"),
        Some("60 mg once daily"),
    );
}

#[test]
fn a_run_in_heading_scopes_the_rest_of_its_paragraph() {
    // "Gout in renal failure." titles the sentences after it on its line: their
    // warnings are for this patient, and so is the alternative they prefer.
    check(
        &[
            "Acute gout. Naproxen or colchicine is used first for a flare.\n\nGout in renal \
             failure. Naproxen is contraindicated, and colchicine is likewise avoided. \
             Prednisolone is the preferred alternative.",
        ],
        "A 74-year-old man with renal failure has an acute gout flare. Which drug should \
         he be given?",
        Some("prednisolone"),
        Some("naproxen"),
    );
    let s = statements(
        0,
        "Renal impairment. Avoid naproxen. Give paracetamol.\nAvoid in pregnancy. Give rest.",
    );
    let titled: Vec<(&str, Vec<String>)> = {
        let mut all = s.clone();
        let analyses: Vec<Analysis> = all.iter().map(|t| shipped().analyse(&t.text)).collect();
        let tags: Vec<&[Tag]> = analyses.iter().map(|a| a.tags.as_slice()).collect();
        structure::run_in_headings(
            &mut all,
            &tags,
            &["Renal impairment. Avoid naproxen. Give paracetamol.\nAvoid in pregnancy. Give rest."],
        );
        s.iter()
            .zip(all)
            .map(|(before, after)| (before.text.as_str(), after.headings))
            .collect()
    };
    // A verbless phrase titles its line; a sentence with a verb ("Avoid in pregnancy.")
    // does not.
    assert_eq!(
        titled,
        vec![
            ("Renal impairment.", vec![]),
            ("Avoid naproxen.", vec!["Renal impairment".to_string()]),
            ("Give paracetamol.", vec!["Renal impairment".to_string()]),
            ("Avoid in pregnancy.", vec![]),
            ("Give rest.", vec![]),
        ]
    );
}

#[test]
fn a_candidate_is_as_relevant_as_the_part_of_the_sentence_that_names_it() {
    // What replaces the retinoid is said in the first part; the second part's drugs
    // are for something else.
    check(
        &[
            "Acne in pregnancy. Topical retinoids should be avoided. Azelaic acid is the \
             usual substitute for a retinoid; erythromycin gel may be used for inflamed \
             papules.",
        ],
        "A 29-year-old woman who is 12 weeks pregnant has comedonal acne and used a \
         retinoid before. Which topical agent should replace the retinoid?",
        Some("azelaic acid"),
        Some("azelaic acid"),
    );
    assert_eq!(semicolon_parts("a; b (c; d); e"), vec![0..1, 2..11, 12..14]);
}

#[test]
fn small_rules_of_english_hold() {
    let tokens = |t: &str| crate::text::lower_words(t);
    // A statement about some members of a population is not about each member.
    assert!(names_some_of(&tokens(
        "It can cause arrhythmia in some people over 60."
    )));
    assert!(names_some_of(&tokens("Some elderly patients need less.")));
    assert!(!names_some_of(&tokens("Give some fluids to patients.")));
    // Endorsing words of a statement's own.
    assert!(endorses(&tokens("Domperidone is the drug of choice.")));
    assert!(endorses(&tokens("It is used first line.")));
    assert!(!endorses(&tokens("It may be given.")));
    // What "especially" singles out is not where a statement holds only.
    assert_eq!(
        without_emphasis("first line in pregnancy, especially in the third trimester, and after"),
        "first line in pregnancy, , and after"
    );
    assert_eq!(without_emphasis("especially in children"), "");
    // Lines of treatment, with their numbers.
    assert_eq!(
        line_of_treatment("X is first-line; Y is a second line agent")
            .iter()
            .map(|(_, n)| *n)
            .collect::<Vec<_>>(),
        vec![1, 2]
    );
    // A possessive is its noun, with either apostrophe.
    assert_eq!(asked::stem("Parkinson’s"), "parkinson");
    assert_eq!(asked::stem("Parkinson's"), asked::stem("parkinson"));
}

#[test]
fn a_second_line_drug_does_not_answer_for_the_first_line() {
    check(
        &[
            "Hypertension in pregnancy\n\nLabetalol is the first-line treatment in \
             pregnancy. Methyldopa is often used as a second line agent in pregnancy, and \
             nifedipine is sometimes used.",
        ],
        "A 30-year-old woman with chronic hypertension is 10 weeks pregnant. Which drug \
         should be used first line?",
        Some("labetalol"),
        Some("labetalol"),
    );
}

#[test]
fn a_class_noun_that_names_its_members_warns_against_those_only() {
    // "the antiemetics metoclopramide and prochlorperazine" are two antiemetics, not all.
    check(
        &[
            "Nausea in Parkinson's disease\n\nAvoid the antiemetics metoclopramide and \
             prochlorperazine in these patients. Ondansetron can be used.",
        ],
        "A 70-year-old man with Parkinson's disease has nausea. Which antiemetic can be \
         used?",
        Some("ondansetron"),
        Some("ondansetron"),
    );
}

#[test]
fn a_statement_that_endorses_outweighs_a_heading_that_warns() {
    check(
        &[
            "Drugs to avoid in Parkinson's disease\n\nHaloperidol and metoclopramide worsen \
             the symptoms. Domperidone is the antiemetic of choice.",
        ],
        "A 68-year-old woman with Parkinson's disease is vomiting. Which antiemetic is \
         preferred?",
        Some("domperidone"),
        Some("domperidone"),
    );
}

#[test]
fn other_than_sets_its_drug_aside() {
    check(
        &[
            "Post-tonsillectomy pain\n\nChoose an analgesic other than codeine for children. \
           Ibuprofen can be used.",
        ],
        "A 6-year-old child had a tonsillectomy. Which drug should be used for the pain?",
        Some("ibuprofen"),
        Some("ibuprofen"),
    );
}

#[test]
fn a_capital_letter_after_a_drugs_name_is_part_of_it() {
    check(
        &["Syphilis\n\nBenzathine penicillin G 2.4 million units once is the treatment of choice."],
        "A 30-year-old man has early syphilis. Which antibiotic should he receive?",
        Some("Benzathine penicillin G"),
        Some("Benzathine penicillin G"),
    );
}

#[test]
fn a_short_form_of_what_the_question_names_is_no_answer() {
    // The question names the rapid antigen detection test; "RADT" is the same test.
    check(
        &[
            "A rapid antigen detection test (RADT) is highly specific. A negative RADT in a \
             child should be backed up by a throat culture.",
        ],
        "A 9-year-old boy with sore throat has a negative rapid antigen detection test. \
         Which test is needed next?",
        Some("throat culture"),
        Some("throat culture"),
    );
}

#[test]
fn a_population_defined_by_what_it_cannot_take_holds_once_the_documents_rule_that_out() {
    // Long QT rules out macrolides and fluoroquinolones, so the patient is one of those
    // "with contraindications to both".
    check(
        &[
            "Pneumonia\n\nA beta-lactam plus azithromycin, or levofloxacin alone, is \
             recommended. Macrolides and fluoroquinolones prolong the QT interval; avoid them \
             in patients with long QT syndrome. In patients with contraindications to both \
             macrolides and fluoroquinolones, a beta-lactam plus doxycycline is recommended.",
        ],
        "A 50-year-old woman with long QT syndrome has community-acquired pneumonia. Which \
         antibiotic should be added to the beta-lactam?",
        Some("doxycycline"),
        Some("azithromycin"),
    );
}

#[test]
fn a_population_fronted_at_the_head_of_a_paragraph_scopes_the_sentences_after_it() {
    let question = "A 66-year-old man with diabetes has hypertension and bilateral renal \
                    artery stenosis. Which antihypertensive should be started?";
    let general = "In hypertensive adults with diabetes, an ACE inhibitor such as ramipril is \
                   the preferred first agent.";
    let exception = "In bilateral renal artery stenosis, filtration depends on efferent \
                     constriction. ACE inhibitors can cause acute kidney injury and are \
                     contraindicated; a calcium channel blocker such as nifedipine is preferred.";
    check(
        &[general, exception],
        question,
        Some("nifedipine"),
        Some("ramipril"),
    );
    // A new paragraph is out of its scope: the population fronted above it is not the
    // population of the sentences below it.
    let apart = "In bilateral renal artery stenosis, filtration depends on efferent \
                 constriction.\n\nA calcium channel blocker such as nifedipine is an \
                 alternative.";
    check(
        &[general, apart],
        question,
        Some("ramipril"),
        Some("ramipril"),
    );
}

#[test]
fn people_named_by_a_medicine_the_patient_takes_are_the_patients_population() {
    let question = "Which analgesic should be recommended for a sprained ankle in a man who \
                    takes lithium for bipolar disorder?";
    let patient = Patient::read(question);
    let words = stems("takes lithium for bipolar disorder");
    let names = |text: &str| names_condition_of(text, &patient, &words);
    assert!(names(
        "Patients taking lithium should avoid regular NSAID use."
    ));
    assert!(!names(
        "Patients taking warfarin should avoid regular NSAID use."
    ));
    // A condition had before: past the perfect's participle and its article.
    let question = "A 71-year-old woman had a myocardial infarction 5 months ago. Which anabolic \
                    agent should be used for her osteoporosis?";
    let patient = Patient::read(question);
    let words = stems("had a myocardial infarction 5 months ago");
    let names = |text: &str| names_condition_of(text, &patient, &words);
    assert!(names(
        "It should not be initiated in patients who have had a myocardial infarction."
    ));
    assert!(names("Patients having had a myocardial infarction"));
    assert!(!names(
        "It should not be initiated in patients who have had a stroke."
    ));
    // An article after "in" is not passed: "in the hospital" is a setting as often as a
    // population.
    let words = stems("spent seven weeks in the NICU");
    assert!(!names_condition_of(
        "For infants who do not pass testing in the NICU, refer to an audiologist.",
        &patient,
        &words
    ));
}

#[test]
fn what_is_said_of_everyone_of_a_sex_or_every_adult_says_nothing_of_the_patient() {
    let question = "Which hypnotic for sleep-maintenance insomnia in an 84-year-old woman?";
    let patient = Patient::read(question);
    let words = BTreeSet::new();
    let truth = |text: &str| applies_to(&patient, text, &words);
    assert_eq!(truth("Women clear zolpidem more slowly."), Truth::Unknown);
    assert_eq!(truth("In adults, zolpidem is preferred."), Truth::Unknown);
    // … though it still rules out the other sex, and a condition beside it counts.
    assert_eq!(truth("In men, a higher dose may be used."), Truth::False);
    assert_eq!(
        truth("In women aged 65 years and older, avoid zolpidem."),
        Truth::True
    );
    assert_eq!(truth("In older adults, avoid zolpidem."), Truth::True);
}

#[test]
fn a_noun_phrase_naming_the_other_answer_as_its_head_is_the_fuller_answer() {
    let candidate = |text: &str, typed: Typed| Candidate {
        text: text.to_string(),
        score: 5.0,
        support: Vec::new(),
        blocked_by: None,
        first: 0,
        for_patient: true,
        typed,
        context: rank::Context::default(),
        in_class: None,
    };
    let reading = Reading {
        asked: Asked::Thing {
            head: "test".to_string(),
            plural: false,
        },
        candidates: vec![candidate("Gluten challenge", Typed::Phrase)],
        headings: BTreeSet::new(),
        ranked: true,
    };
    let given = |text: &str| {
        reading
            .instead_of(
                shipped(),
                Some(Other {
                    text,
                    for_patient: true,
                }),
                false,
            )
            .map(|c| c.text.clone())
    };
    assert_eq!(given("challenge").as_deref(), Some("Gluten challenge"));
    // Not where it holds the other answer elsewhere than as its head.
    assert_eq!(given("gluten").as_deref(), None);
}

#[test]
fn the_examples_of_a_warned_kind_are_warned_and_the_populations_medicine_is_no_answer() {
    let general = "Hypotension after spinal anaesthesia is common. Ephedrine is a traditional \
                   first choice; phenylephrine is preferred when tachycardia is undesirable.";
    let warning = "Indirect-acting sympathomimetics such as ephedrine can provoke a \
                   hypertensive crisis in patients taking MAOIs such as phenelzine or \
                   tranylcypromine.";
    check(
        &[general, warning],
        "A woman taking phenelzine becomes hypotensive after spinal anaesthesia. Which \
         vasopressor should be used?",
        Some("phenylephrine"),
        Some("Ephedrine"),
    );
    // Named as an example of the kind a later clause warns against.
    let text = "Indirect-acting sympathomimetics such as ephedrine or pseudoephedrine \
                release noradrenaline; they can provoke a hypertensive crisis.";
    let analysis = shipped().analyse(text);
    let clauses = warning_clauses_of(list_clauses(text, &analysis), text);
    let keys: Vec<String> = ["ephedrine", "pseudoephedrine", "norepinephrine"]
        .iter()
        .map(|k| k.to_string())
        .collect();
    assert_eq!(
        kinds_warned(shipped(), &analysis, text, &clauses, keys.iter()),
        ["ephedrine", "pseudoephedrine"]
    );
    let patients = |text: &str, name: &str| {
        let analysis = shipped().analyse(text);
        let tokens = analysis.lower(text);
        let at = tokens.iter().position(|t| t == name).expect("the name");
        in_population(&tokens, &analysis.tags, at)
    };
    assert!(patients(
        "In patients taking MAOIs such as phenelzine or tranylcypromine, avoid ephedrine.",
        "tranylcypromine"
    ));
    // A comma or a verb closes the population's phrase.
    assert!(!patients(
        "In patients taking warfarin, apixaban is preferred.",
        "apixaban"
    ));
    assert!(!patients(
        "Patients taking warfarin should receive apixaban.",
        "apixaban"
    ));
}

#[test]
fn a_warning_against_a_medicine_the_patient_takes_holds_for_them() {
    let question = "A man who takes clopidogrel after a coronary stent needs gastroprotection. \
                    Which proton pump inhibitor should be chosen?";
    check(
        &[
            "Omeprazole is the proton pump inhibitor most often used for gastroprotection; \
             pantoprazole is an alternative.",
            "Concomitant use of clopidogrel and omeprazole should be avoided because it \
             reduces the effect of clopidogrel.",
        ],
        question,
        Some("pantoprazole"),
        Some("Omeprazole"),
    );
    // A list after a colon completes the warning before it.
    check(
        &[
            "Omeprazole is the proton pump inhibitor most often used for gastroprotection; \
             pantoprazole is an alternative.",
            "Drugs that should be avoided with clopidogrel include: omeprazole (Prilosec), \
             esomeprazole (Nexium) and fluconazole.",
        ],
        question,
        Some("pantoprazole"),
        Some("Omeprazole"),
    );
    let taken = taken_by_patient(
        shipped(),
        "A woman on long-term warfarin who has never taken aspirin starts amiodarone.",
        true,
    );
    assert_eq!(
        taken.into_iter().collect::<Vec<_>>(),
        ["warfarin".to_string()]
    );
    // In the asking sentence, a bare "take" asks; "on" still says what she takes.
    let taken = |text: &str, bare: bool| {
        taken_by_patient(shipped(), text, bare)
            .into_iter()
            .collect::<Vec<_>>()
    };
    assert_eq!(
        taken(
            "What dose of atorvastatin should he take while on clarithromycin?",
            false
        ),
        ["clarithromycin".to_string()]
    );
    assert!(taken("Can she take ibuprofen for the pain?", false).is_empty());
    // The verb of taking reaches no further than its clause.
    assert_eq!(
        taken(
            "A woman with rheumatoid arthritis who takes probenecid is starting baricitinib.",
            true
        ),
        ["probenecid".to_string()]
    );
    // A drug joined to one she takes is taken with it.
    assert_eq!(
        taken(
            "A woman with HIV, suppressed on a darunavir boosted with ritonavir regimen, has \
             overactive bladder.",
            true
        ),
        ["darunavir".to_string(), "ritonavir".to_string()]
    );
    assert_eq!(
        taken(
            "A man on warfarin for atrial fibrillation with a rash after amoxicillin.",
            true
        ),
        ["warfarin".to_string()]
    );
    assert_eq!(
        taken("She and her sister take ibuprofen.", true),
        ["ibuprofen".to_string()]
    );
}

#[test]
fn a_dose_said_to_be_a_drugs_is_its_own_after_the_drugs_it_is_given_with() {
    let label = "Atorvastatin dosing\n\nThe usual dose of atorvastatin is 80 mg once a day. In \
                 cases where coadministration of clarithromycin with atorvastatin is necessary, \
                 the maintenance dose of atorvastatin should not exceed 20 mg per day.";
    check(
        &[label],
        "A man takes atorvastatin 80 mg daily. What maintenance dose of atorvastatin should he \
         take while on clarithromycin?",
        Some("20 mg per day"),
        Some("20 mg per day"),
    );
}

#[test]
fn of_two_statements_about_the_patient_the_one_about_what_is_asked_counts_more() {
    check_gated(
        &[
            "For comedonal acne, a topical retinoid such as adapalene is first line. Benzoyl \
             peroxide is added when inflammatory papules are present.",
            "Acne in pregnancy. Topical retinoids should be avoided during pregnancy. Azelaic \
             acid is the preferred substitute for a retinoid; benzoyl peroxide may be used for \
             inflammatory lesions.",
        ],
        "A woman who is 10 weeks pregnant has comedonal acne; before conception she used \
         adapalene. Which topical agent should replace the retinoid?",
        "Azelaic acid",
    );
}

#[test]
fn a_test_is_named_without_the_result_it_gave() {
    check(
        &["In suspected measles, a positive RT-qPCR test confirms the diagnosis."],
        "A child with fever and a rash is suspected of having measles. Which test should be \
         used to confirm the diagnosis?",
        Some("RT-qPCR test"),
        Some("RT-qPCR test"),
    );
}

#[test]
fn a_fallback_and_the_usual_risk_are_not_for_a_patient_the_documents_set_apart() {
    // What is named for when another choice is unavailable is a fallback, unless the
    // question says that choice is unavailable.
    // … or inappropriate.
    for unusable in ["unavailable", "inappropriate"] {
        let fallback = [
            "Statins\n\nAtorvastatin is the usual statin for primary prevention.".to_string(),
            format!(
                "For people with HIV, atorvastatin or rosuvastatin can be used if pitavastatin \
                 is {unusable}."
            ),
        ];
        let fallback = fallback.each_ref().map(String::as_str);
        check_gated(
            &fallback,
            "A 50-year-old man with HIV needs a statin for primary prevention. Which statin \
             should he take?",
            "pitavastatin",
        );
        check_gated(
            &fallback,
            &format!(
                "A 50-year-old man with HIV needs a statin for primary prevention, and \
                 pitavastatin is {unusable}. Which statin should he take?"
            ),
            "atorvastatin",
        );
    }
    // A patient among those at high risk is not among those at average risk.
    let screening = [
        "Breast screening\n\nMammography is the recommended screening test for average-risk \
         women.",
        "High-risk screening\n\nWomen with a BRCA1 variant may also have annual breast MRI.",
    ];
    check_gated(
        &screening,
        "A 35-year-old woman with a BRCA1 variant asks about screening. Which imaging test \
         should she have?",
        "breast MRI",
    );
}

#[test]
fn a_time_is_for_the_drugs_its_clause_names() {
    let intervals = [
        "Neuraxial anaesthesia\n\nFor prophylactic doses of enoxaparin, needle placement should \
         occur at least 12 hours after the last dose. Clopidogrel requires an interval of 5–7 \
         days.",
        "Direct oral anticoagulants\n\nGuidance recommends stopping rivaroxaban, apixaban or \
         edoxaban at least 72 hours before neuraxial puncture.",
    ];
    for (drug, time) in [
        ("apixaban", "at least 72 hours"),
        ("enoxaparin 40 mg daily", "at least 12 hours"),
        ("clopidogrel", "5–7 days"),
    ] {
        check_gated(
            &intervals,
            &format!(
                "How long after the last dose should a spinal anaesthetic be delayed in a \
                 patient on {drug}?"
            ),
            time,
        );
    }
}

#[test]
fn an_age_is_not_how_long() {
    let duration = [
        "Duration of therapy\n\nA 10-day course of exemplicillin is recommended for children \
         younger than 2 years. For children 6 years and older with mild symptoms, treatment for \
         5 to 7 days is adequate.",
    ];
    check_gated(
        &duration,
        "How long should exemplicillin be given to an 8-year-old girl with mild symptoms?",
        "5 to 7 days",
    );
}

#[test]
fn a_drug_that_names_the_population_does_not_own_its_amount() {
    let dosing = [
        "DOSAGE\n\n• Monotherapy: 1 mg once daily\n• Patients with mild hepatic impairment: \
         0.5 mg once daily should not be exceeded.\n• Patients taking ciprofloxacin or other \
         CYP1A2 inhibitors: 0.5 mg once daily should not be exceeded.",
    ];
    check_gated(
        &dosing,
        "A 70-year-old man with Parkinson's disease takes rasagiline 1 mg daily as monotherapy \
         and is prescribed ciprofloxacin for prostatitis. What is the maximum rasagiline dose \
         while he takes ciprofloxacin?",
        "0.5 mg once daily",
    );
}

#[test]
fn a_dose_adjusted_is_a_part_or_a_multiple_of_the_old() {
    for (text, change) in [
        (
            "Interactions\n\nIn patients starting exemplazole, give half of the usual \
             exemplipride dose and monitor.",
            "half of the usual exemplipride dose",
        ),
        (
            "Interactions\n\nExemplazole induces the metabolism of exemplisone: double the \
             dose while both are taken.",
            "double the dose",
        ),
    ] {
        check_gated(
            &[text],
            "A 50-year-old man on exemplipride and exemplisone starts exemplazole. How should \
             the dose be adjusted?",
            change,
        );
    }
}

#[test]
fn a_verb_of_examining_is_answered_by_a_test() {
    check_gated(
        &[
            "Gestational diabetes\n\nA glucose tolerance test is usual in pregnancy. After \
             gastric bypass, a glucometer test of fasting and postprandial values is the \
             practical alternative.",
        ],
        "How should gestational diabetes be screened for in a woman who has had a gastric \
         bypass?",
        "glucometer test",
    );
}

#[test]
fn an_amount_written_longer_is_another_amount() {
    check_gated(
        &[
            "Dosing\n\nThe starting dose is 5 mg once daily, increased weekly by 5 mg.\n\n\
             Special populations\n\nA target dose of 5 mg BID is recommended in patients with \
             severe renal impairment.",
        ],
        "An 82-year-old woman with severe renal impairment takes exemplantine. What target \
         dose should she be titrated to?",
        "5 mg BID",
    );
}

#[test]
fn a_drug_taken_in_the_past_is_not_taken_now() {
    // … and a mild reaction to it is not the severe kind a warning names.
    let text = "Prophylaxis\n\nCefazolin is given for prophylaxis. Cefazolin should be avoided \
                in patients with immediate-type hypersensitivity to penicillin (anaphylaxis, \
                urticaria).";
    check_gated(
        &[text],
        "A woman developed a non-life-threatening rash after taking penicillin years ago. \
         Which antibiotic should be given for prophylaxis?",
        "cefazolin",
    );
}

#[test]
fn what_a_drug_acts_on_and_its_action_name_the_class() {
    check_gated(
        &[
            "Hypertension\n\nIn people of African family origin, a calcium-channel blocker is \
             preferred. In people with diabetes, an angiotensin-converting enzyme (ACE) \
             inhibitor is preferred.",
        ],
        "A 50-year-old man with type 2 diabetes has hypertension. Which antihypertensive \
         should he start?",
        "angiotensin-converting enzyme (ACE) inhibitor",
    );
}

#[test]
fn a_regimen_of_one_drug_is_its_dose() {
    check_gated(
        &[
            "Suppressive therapy\n\nAciclovir 400 mg twice daily is usual. From 36 weeks of \
             pregnancy, aciclovir 400 mg three times daily is recommended.",
        ],
        "What aciclovir regimen is recommended for suppressive therapy in a woman who is 37 \
         weeks pregnant?",
        "400 mg three times daily",
    );
}

#[test]
fn a_threshold_may_be_a_rank_in_the_population() {
    check_gated(
        &[
            "Blood pressure\n\nIn adults, stage 1 hypertension is 130/80 mm Hg or higher. In \
             children aged 1 to 12 years, stage 1 hypertension is a reading at or above the \
             95th percentile for age, sex and height.",
        ],
        "What threshold defines stage 1 hypertension in a child who is 9 years old?",
        "95th percentile",
    );
}

#[test]
fn a_measurement_is_of_a_fraction_of_the_analyte() {
    check_gated(
        &[
            "Monitoring\n\nTotal exemplin levels are usual. In patients with hypoalbuminemia, \
             free exemplin levels should guide dosing.",
        ],
        "A 70-year-old woman with hypoalbuminemia takes exemplin. Which exemplin measurement \
         should guide her dose?",
        "free exemplin levels",
    );
}

#[test]
fn a_warning_against_a_medicine_the_patient_takes_reaches_combinations_lists_and_headings() {
    // Whether the reading of `question` over `docs` warns against `name` for the patient.
    let blocked = |docs: &[&str], question: &str, name: &str| {
        gated_reading(&docs.join("\n\n"), question)
            .and_then(|r| r.candidates.into_iter().find(|c| c.text == name))
            .map(|c| c.blocked_by.is_some())
    };
    let regimens = "COVID-19 outpatient therapy\n\nPreferred: nirmatrelvir/ritonavir 300/100 mg \
                    twice daily for 5 days.\nAlternative: remdesivir 200 mg IV on day 1, then \
                    100 mg IV on days 2 and 3.";
    let question = "Which antiviral would you give a high-risk outpatient with mild COVID-19 who \
                    takes carbamazepine for epilepsy?";
    for (warning, warned) in [
        // A warning against an ingredient warns against the product that holds it.
        ("Nirmatrelvir must not be given with carbamazepine.", true),
        // A statement that names a medicine the patient takes is about them, in a list
        // closing it too.
        (
            "Ritonavir-boosted nirmatrelvir must not be given with potent CYP3A inducers, \
             because nirmatrelvir levels fall, with possible loss of virologic response: \
             carbamazepine, phenytoin and rifampin.",
            true,
        ),
        // … but not a list that closes a statement warning of nothing.
        (
            "Nirmatrelvir levels fall with potent CYP3A inducers: carbamazepine, phenytoin \
             and rifampin.",
            false,
        ),
    ] {
        assert_eq!(
            blocked(&[regimens, warning], question, "nirmatrelvir/ritonavir"),
            Some(warned),
            "{warning}"
        );
        assert_eq!(
            blocked(&[regimens, warning], question, "remdesivir"),
            Some(false)
        );
    }
    // A heading that names a medicine the patient takes scopes the rows under it to
    // them, where the question names it as one word with another.
    let default = "P2Y12 inhibitor selection\n\nTicagrelor 90 mg twice daily with aspirin is the \
                   default after PCI. Prasugrel 10 mg daily is an alternative.";
    let table = "Antiplatelet agents with boosted HIV regimens (ritonavir or cobicistat)\n\
                 | Ticagrelor | Contraindicated, strong CYP3A4 inhibition raises levels |\n\
                 | Prasugrel | Preferred, platelet inhibition remains adequate |";
    let question = "Which P2Y12 inhibitor should accompany aspirin after PCI in a 56-year-old man \
                    who takes darunavir/ritonavir?";
    assert_eq!(
        blocked(&[default, table], question, "Ticagrelor"),
        Some(true)
    );
    check(
        &[default, table],
        question,
        Some("prasugrel"),
        Some("ticagrelor"),
    );
    let question = "Which P2Y12 inhibitor should accompany aspirin after PCI in a 56-year-old man?";
    assert_eq!(
        blocked(&[default, table], question, "Ticagrelor"),
        Some(false)
    );
}

#[test]
fn a_warning_that_names_its_population_narrows_the_heading_over_it() {
    // Under a heading the patient belongs to, "contraindicated in severe uncontrolled
    // hypertension" warns those with it, not every older adult.
    let docs = [
        "Overactive bladder\n\nAn antimuscarinic such as tolterodine or solifenacin may be \
         offered.",
        "Older adults and cognitive impairment\n\nIn people aged 65 years and older with \
         cognitive impairment, mirabegron is preferred. Mirabegron is contraindicated in \
         severe uncontrolled hypertension.",
    ];
    check_gated(
        &docs,
        "What is the preferred drug for overactive bladder in an 86-year-old woman with mild \
         cognitive impairment?",
        "mirabegron",
    );
    // The population holds for her: the warning does too.
    check_gated(
        &docs,
        "What is the preferred drug for overactive bladder in an 86-year-old woman with mild \
         cognitive impairment and severe uncontrolled hypertension?",
        "tolterodine",
    );
}

#[test]
fn a_designator_after_the_head_names_one_of_the_kind() {
    // "Which cardiac troponin …": "troponin I" names one, though the question names the
    // noun and the letter alone is no word.
    let docs = [
        "Troponin T is widely measured. In patients with skeletal muscle disease, \
                 troponin I is preferred.",
    ];
    check_gated(
        &docs,
        "Which cardiac troponin should be measured in a man with skeletal muscle disease?",
        "troponin I",
    );
}

#[test]
fn a_copula_after_and_shares_the_statements_subject() {
    // "X falls less in pregnancy and is the more reliable test": X is the test.
    let docs = [
        "Total serum cobalamin is the first-line test for vitamin B12 deficiency.",
        "In pregnancy, total serum cobalamin falls. Holotranscobalamin falls much less in \
         pregnancy and is the more reliable test.",
    ];
    check_gated(
        &docs,
        "Which test is more reliable for vitamin B12 deficiency in a woman who is 30 weeks \
         pregnant?",
        "holotranscobalamin",
    );
}

#[test]
fn examples_of_the_patients_medicine_name_whom_an_amount_is_for_not_whose_it_is() {
    // "patients taking moderate CYP3A4 inhibitors (e.g. diltiazem, verapamil)": the
    // amount after the bracket is naloxegol's, for them.
    let docs = [
        "Naloxegol: 25 mg once daily. The starting dose for patients taking moderate \
         CYP3A4 inhibitors (e.g. diltiazem, verapamil) is 12.5 mg once daily.",
    ];
    check_gated(
        &docs,
        "A woman with opioid-induced constipation takes diltiazem for angina. What starting \
         dose of naloxegol should she be given?",
        "12.5 mg once daily",
    );
    // … and so do examples after a comma, further from "taking".
    let docs = [
        "The recommended dose of baricitinib is 4 mg once daily. The recommended dose in \
         patients taking OAT3 inhibitors with a strong inhibition potential, such as \
         probenecid, is 2 mg once daily.",
    ];
    check_gated(
        &docs,
        "A patient is about to start baricitinib and takes probenecid for gout. What dose \
         of baricitinib is recommended?",
        "2 mg once daily",
    );
}

#[test]
fn one_amount_written_with_and_without_a_space_is_one_candidate() {
    // "2g" twice and "3 g" once: one amount, shown spaced.
    let docs = [
        "Cefazolin 2g is preferred in most cases. Orthopedic surgery: cefazolin 2g. \
                 Usually use cefazolin 2 g; vancomycin 15 mg/kg. Cefazolin 3 g is an option.",
    ];
    let reading = gated_reading(
        docs[0],
        "What preoperative cefazolin dose should be given for surgical prophylaxis?",
    )
    .and_then(|r| r.best().map(|c| c.text.clone()));
    assert_eq!(reading.as_deref(), Some("2 g"));
}

#[test]
fn a_bracket_without_a_verb_is_an_aside_inside_its_clause() {
    // "the higher dose (7.5 mg) of zopiclone is likely to cause … in the elderly": the
    // warning reaches the amount in the bracket.
    let docs = [
        "The higher dose (7.5 mg) of zopiclone is likely to cause adverse events in \
                 the elderly. The approved adult dose is 7.5 mg. The recommended dose for \
                 elderly patients is 3.75 mg.",
    ];
    check_gated(
        &docs,
        "An 83-year-old woman is to start zopiclone for insomnia. What nightly dose should be \
         prescribed for her?",
        "3.75 mg",
    );
}

#[test]
fn a_warning_in_a_later_subordinate_clause_warns_only_what_it_names() {
    // "X is the main alternative when Y is contraindicated" warns against Y, not X;
    // "recommended unless contraindicated" warns against nothing.
    let docs = [
        "Succinylcholine is used for rapid sequence induction. High-dose rocuronium is the \
         main alternative when succinylcholine is contraindicated.",
        "Succinylcholine should be avoided in patients with pseudocholinesterase \
         deficiency.",
    ];
    check_gated(
        &docs,
        "A man with pseudocholinesterase deficiency needs rapid sequence intubation. Which \
         neuromuscular blocking agent should be used?",
        "rocuronium",
    );
    let docs = [
        "Bisoprolol, carvedilol and metoprolol (and nebivolol in older patients) are \
                 recommended for all stable patients with heart failure unless contraindicated. \
                 In patients with COPD, bisoprolol is preferred.",
    ];
    check_gated(
        &docs,
        "Which beta-blocker is preferred for heart failure in a patient who also has COPD?",
        "bisoprolol",
    );
}

#[test]
fn which_clause_of_a_statement_warns() {
    let clause_texts = |text: &str| -> Vec<String> {
        warning_clauses(text)
            .into_iter()
            .map(|r| text[r].trim().to_string())
            .collect()
    };
    // An exception a recommendation allows for warns of nothing.
    assert!(clause_texts(
        "Bisoprolol is recommended for all stable patients unless contraindicated."
    )
    .is_empty());
    // A warning in a subordinate clause after the main one is that clause's.
    assert_eq!(
        clause_texts("Rocuronium is the main alternative when succinylcholine is contraindicated."),
        vec!["when succinylcholine is contraindicated."]
    );
    // … but a warning in the main clause keeps its subordinate clause.
    assert_eq!(
        clause_texts("Avoid methotrexate when the patient is pregnant."),
        vec!["Avoid methotrexate when the patient is pregnant."]
    );
    // A bracket with no verb stays inside its clause.
    let text = "Medsafe has announced that the higher dose (7.5 mg) of zopiclone (Imovane) is \
                likely to cause adverse events in the elderly.";
    let analysis = shipped().analyse(text);
    let clauses: Vec<&str> = warning_clauses_of(list_clauses(text, &analysis), text)
        .into_iter()
        .map(|r| &text[r])
        .collect();
    assert!(clauses.iter().any(|c| c.contains("7.5 mg")), "{clauses:?}");
}

#[test]
fn a_medicine_that_causes_what_the_patient_has_is_warned_against() {
    let docs = [
        "Spironolactone is the usual aldosterone antagonist for ascites. In men, \
                 spironolactone causes painful gynecomastia; amiloride can be substituted.",
    ];
    check_gated(
        &docs,
        "Which diuretic should be used for ascites in a man who has painful gynecomastia?",
        "amiloride",
    );
}

#[test]
fn a_run_in_label_scopes_the_sentences_of_its_paragraph() {
    // "Dose adjustment, creatinine clearance below 30 mL/min:" opens its paragraph as a
    // heading would, so "Treatment dose: …" after it is for that patient; what the
    // question asks to treat ("for DVT") is no condition of the patient's.
    let usual = "Exemplumab — treatment of DVT or PE: 1 mg/kg every 12 hours by \
                 subcutaneous injection, for at least 5 days.";
    let renal = "Dose adjustment, creatinine clearance below 30 mL/min: exemplumab is \
                 renally cleared and accumulates. Treatment dose: 1 mg/kg once daily.";
    check(
        &[usual, renal],
        "What is the therapeutic exemplumab dose for DVT in a patient with CrCl 22 mL/min?",
        Some("1 mg/kg once daily"),
        Some("1 mg/kg every 12 hours"),
    );
}

#[test]
fn a_list_in_brackets_takes_the_warning_of_its_clause() {
    let general = "Clarithromycin is the standard macrolide for atypical pneumonia.";
    let warning = "Simvastatin is contraindicated with strong CYP3A4 inhibitors \
                   (clarithromycin, erythromycin, itraconazole) because of the risk of \
                   myopathy. Use azithromycin instead.";
    check(
        &[general, warning],
        "Which macrolide is suitable for atypical pneumonia in a patient who takes \
         simvastatin?",
        Some("azithromycin"),
        Some("clarithromycin"),
    );
}

#[test]
fn a_list_between_dashes_takes_the_warning_of_its_clause() {
    let general = "Paroxetine is effective for hot flushes. Venlafaxine is also used.";
    for warning in [
        "Strong CYP2D6 inhibitors — paroxetine and bupropion — should be avoided in women \
         taking tamoxifen. Venlafaxine is an alternative.",
        "Strong CYP2D6 inhibitors – paroxetine, fluoxetine and bupropion – reduce endoxifen \
         levels and should be avoided in women taking tamoxifen. Venlafaxine is an alternative.",
    ] {
        check(
            &[general, warning],
            "In a woman taking tamoxifen, which drug is preferred for hot flushes?",
            Some("venlafaxine"),
            Some("paroxetine"),
        );
    }
}

#[test]
fn a_short_form_the_documents_leave_undefined_names_what_the_question_spells_out() {
    let general = "Delirium: treat the cause first. If a person is distressed, consider \
                   haloperidol 0.5 mg orally.";
    let caution = "Caution — DLB: severe neuroleptic sensitivity reactions occur. \
                   Haloperidol should be avoided. If an antipsychotic is essential, use \
                   quetiapine.";
    check(
        &[general, caution],
        "Which antipsychotic should be used for delirium in a man with dementia with Lewy \
         bodies?",
        Some("quetiapine"),
        Some("haloperidol"),
    );
}

#[test]
fn a_population_is_no_medicine_to_give() {
    // A copied table's cells: the contraindicated populations are not what to give.
    let table = "Available chemoprophylactic options\n\nDoxycycline 100 mg daily\n\
                 Contraindications: pregnancy and lactation; children under 8 years\n\n\
                 Mefloquine 250 mg weekly\nContraindications: epilepsy\n\n\
                 Mefloquine can be used in pregnancy.";
    check_gated(
        &[table],
        "Which malaria chemoprophylaxis should a traveller who is 14 weeks pregnant take?",
        "Mefloquine",
    );
    let reading = gated_reading(
        table,
        "Which malaria chemoprophylaxis should a traveller who is 14 weeks pregnant take?",
    )
    .expect("a reading");
    let texts: Vec<String> = reading
        .candidates
        .iter()
        .map(|c| normalize_term(&c.text))
        .collect();
    assert!(texts.iter().any(|t| t == "mefloquine"), "{texts:?}");
    assert!(
        !texts.iter().any(|t| t == "pregnancy" || t == "lactation"),
        "{texts:?}"
    );
    for (phrase, population) in [
        ("pregnancy", true),
        ("lactation", true),
        ("severe renal impairment", true),
        ("pregnancy test", false),
        ("mefloquine", false),
    ] {
        assert_eq!(
            crate::patient::names_only_population(phrase),
            population,
            "{phrase}"
        );
    }
}

#[test]
fn a_warning_holds_for_every_object_it_lists_and_instead_points_back_to_its_people() {
    let general = "Acute DVT: apixaban or rivaroxaban is recommended.";
    let warning = "Avoid apixaban, rivaroxaban, edoxaban and dabigatran in patients taking \
                   strong inducers — carbamazepine, phenytoin, rifampicin — because plasma \
                   levels fall. Use low-molecular-weight heparin instead.";
    let docs = [Document::new("d0", general), Document::new("d1", warning)];
    let question = "What anticoagulant should treat acute DVT in a patient who takes \
                    carbamazepine for epilepsy?";
    let reading = patient_reading(&docs, question);
    let candidate = |name: &str| {
        reading
            .candidates
            .iter()
            .find(|c| normalize_term(&c.text) == name)
            .unwrap_or_else(|| panic!("{name}: {:?}", reading.candidates))
    };
    for warned in ["apixaban", "rivaroxaban", "edoxaban", "dabigatran"] {
        assert!(candidate(warned).blocked_by.is_some(), "{warned}");
    }
    let heparin = candidate("low molecular weight heparin");
    assert!(heparin.blocked_by.is_none() && heparin.for_patient);
}

#[test]
fn what_a_colon_adds_to_a_whole_clause_is_not_its_warnings_object() {
    // (sentence, a name, whether a warning clause holds it)
    let cases = [
        (
            "Low creatinine overestimates kidney function in older patients: a plea for \
             cystatin C.",
            "cystatin",
            false,
        ),
        (
            "Other drugs that should be avoided with clopidogrel include: esomeprazole, \
             cimetidine and fluconazole.",
            "cimetidine",
            true,
        ),
    ];
    for (text, name, warned) in cases {
        let analysis = shipped().analyse(text);
        let clauses = warning_clauses_of(list_clauses(text, &analysis), text);
        assert_eq!(
            clauses.iter().any(|c| text[c.clone()].contains(name)),
            warned,
            "{text}: {clauses:?}"
        );
    }
}

#[test]
fn imaging_is_answered_by_a_named_method_of_imaging() {
    // "Imaging" asks for a test; a method's noun names one whatever qualifies it
    // ("abdominal ultrasound"), and an instruction's verb is no part of its object.
    check(
        &[
            "Suspected appendicitis in adults: contrast-enhanced CT of the abdomen is the \
             imaging of choice because it is more accurate than ultrasound.",
            "Pregnant women: offer abdominal ultrasound first, avoiding ionising radiation. \
             If it is inconclusive, MRI without gadolinium may be considered.",
        ],
        "What is the first imaging for suspected appendicitis in a woman who is pregnant?",
        Some("abdominal ultrasound"),
        Some("contrast-enhanced CT"),
    );
}

#[test]
fn what_a_choice_is_set_against_is_no_answer() {
    // "A is superior to B", "A is preferred over B": B is the choice not taken.
    for (docs, question, answer) in [
        (
            [
                "Acute exacerbations of asthma in adults are treated with a short course of \
                 oral prednisolone.",
                "In children with croup, oral dexamethasone is superior to prednisolone for \
                 reducing return visits.",
            ],
            "Which corticosteroid should be given for croup in a 3-year-old child?",
            "dexamethasone",
        ),
        (
            [
                "Venous thromboembolism is usually treated with apixaban or rivaroxaban.",
                "For patients with a mechanical heart valve, warfarin is preferred over \
                 apixaban and rivaroxaban.",
            ],
            "Which anticoagulant is used for venous thromboembolism in a patient with a \
             mechanical heart valve?",
            "warfarin",
        ),
        // "would otherwise": what would have been, the one amount its verb takes.
        (
            [
                "Sertraline for depression is usually started at 50 mg once daily.",
                "In hepatic impairment the dose is halved: a patient who would otherwise \
                 start on 50 mg once daily should start on 25 mg once daily.",
            ],
            "What starting dose of sertraline should a woman with hepatic impairment take?",
            "25 mg once daily",
        ),
    ] {
        assert_eq!(
            best(&docs, question, true).as_deref(),
            Some(answer),
            "{question}"
        );
    }
}

#[test]
fn a_name_opens_with_neither_a_length_of_time_nor_how_often() {
    let docs = [
        "Screening of women at average risk uses mammography every two years from age 50.",
        "Women with a BRCA1 variant: annual breast MRI from age 25. From 25 to 29 years MRI \
         is used alone; mammography is added from 30.",
    ];
    let reading = patient_reading(
        &documents(&docs),
        "Which screening examination should a 27-year-old woman with a BRCA1 variant have?",
    );
    let texts: Vec<String> = reading.typed().map(|c| normalize_term(&c.text)).collect();
    assert!(texts.contains(&"breast mri".to_string()), "{texts:?}");
    assert!(
        !texts
            .iter()
            .any(|t| t.starts_with("29") || t.starts_with("annual")),
        "{texts:?}"
    );
}

#[test]
fn a_pronoun_in_a_warning_refers_to_its_own_sentences_subject() {
    // "it" is argatroban, not what the sentence before named.
    let docs = [
        "Heparin-induced thrombocytopenia: stop heparin and start a non-heparin \
         anticoagulant. Bivalirudin is an alternative.",
        "Argatroban is cleared by the liver, so it should be avoided when liver function is \
         severely reduced.",
    ];
    let argatroban = patient_candidate(
        &docs,
        "Which anticoagulant for heparin-induced thrombocytopenia in a patient with severe \
         hepatic impairment?",
        "Argatroban",
    );
    assert!(argatroban.blocked_by.is_some(), "{argatroban:?}");
}

#[test]
fn this_age_group_points_back_past_sentences_that_name_none() {
    // "this age group" is the population named two sentences before; guidance that
    // advises against a thing warns against it.
    let docs = [
        "Uncomplicated cystitis in women: nitrofurantoin for 5 days is the usual choice; \
         fosfomycin is an alternative.",
        "Adults older than 75 years often have slower clearance. Doses are often set by \
         weight. Guidelines advise against nitrofurantoin in this age group.",
    ];
    let warned = patient_candidate(
        &docs,
        "Which antibiotic should an 80-year-old woman with uncomplicated cystitis receive?",
        "nitrofurantoin",
    );
    assert!(warned.blocked_by.is_some(), "{warned:?}");
}

#[test]
fn a_medicine_the_patient_takes_written_as_a_label_says_for_whom_the_amounts_are() {
    // "Valproate:" labels the lamotrigine doses for people taking valproate; they are
    // not valproate's doses.
    let docs = [
        "Lamotrigine titration for focal epilepsy. Monotherapy: 50 mg once daily for 2 \
         weeks, then 100 mg once daily.",
        "Lamotrigine with enzyme inhibitors. Valproate: 25 mg every other day for 2 weeks, \
         then 25 mg once daily.",
    ];
    // The dose under the label is lamotrigine's.
    let dose = patient_candidate(
        &docs,
        "A woman with focal epilepsy who takes valproate is starting lamotrigine. What \
         lamotrigine dose should she start with?",
        "25 mg every other day",
    );
    assert!(dose.for_patient, "{dose:?}");
}

#[test]
fn a_label_that_is_only_a_bound_bounds_what_the_heading_measures() {
    // "30-59:" is a creatinine clearance, as the document's heading says.
    let docs = [
        "Gabapentin for neuropathic pain: start at 300 mg and titrate to a maximum of 3600 \
         mg per day.",
        "Gabapentin in renal impairment (creatinine clearance in mL/min). 60 or more: \
         maximum 3600 mg per day. 30-59: maximum 1400 mg per day. 15-29: maximum 700 mg per \
         day.",
    ];
    check_gated(
        &docs,
        "What is the maximum daily dose of gabapentin for a man whose creatinine clearance \
         is 40 mL/min?",
        "1400 mg per day",
    );
}

#[test]
fn names_given_as_alternatives_beside_a_first_choice_are_second_choices() {
    // Each name's bytes in `text`, as the reader finds them.
    let mentions = |text: &str, names: &[&str]| -> Vec<Mention> {
        names
            .iter()
            .map(|n| {
                let at = text.find(n).unwrap_or_else(|| panic!("{n} in {text}"));
                Mention {
                    key: n.to_string(),
                    bytes: at..at + n.len(),
                }
            })
            .collect()
    };
    for (text, names, second) in [
        (
            "Cryotherapy is the usual choice, with salicylic acid or duct tape occlusion as \
             alternatives.",
            &["Cryotherapy", "salicylic acid", "duct tape occlusion"][..],
            &["salicylic acid", "duct tape occlusion"][..],
        ),
        (
            "Imiquimod cream is better for keratinised lesions, and sinecatechins is an \
             alternative.",
            &["Imiquimod", "sinecatechins"],
            &["sinecatechins"],
        ),
        (
            "Alternatives include doxycycline or clarithromycin, but amoxicillin is the first \
             choice.",
            &["doxycycline", "clarithromycin", "amoxicillin"],
            &["doxycycline", "clarithromycin"],
        ),
        // Each part of the sentence is read alone, and an alternative with no first
        // choice beside it is no second choice.
        (
            "Terbinafine is preferred; griseofulvin is an alternative.",
            &["Terbinafine", "griseofulvin"],
            &[],
        ),
        // "as an alternative" looks back only over the names listed right before it.
        (
            "Give aciclovir, and add valaciclovir as an alternative.",
            &["aciclovir", "valaciclovir"],
            &["valaciclovir"],
        ),
        (
            "Use aciclovir for ten days as an alternative to observation.",
            &["aciclovir"],
            &[],
        ),
    ] {
        let own = mentions(text, names);
        assert_eq!(second_choices(text, &own), second, "{text}");
    }
}

#[test]
fn a_phrase_that_only_says_how_often_names_no_thing() {
    let language = shipped();
    for (text, only) in [
        ("repeated every 1-2 weeks", true),
        ("twice daily", true),
        ("once weekly for 4 weeks", true),
        ("flexible sigmoidoscopy every 5 years", false),
        ("oral amoxicillin", false),
        ("annual breast MRI", false),
        // A name the tagger does not know is still a name.
        ("colonoscopy every 10 years", false),
    ] {
        assert_eq!(asked::only_how_often(language, text), only, "{text}");
    }
}

#[test]
fn a_heading_alone_over_its_text_says_whom_the_text_is_for() {
    let question = "What dose of examplamide should a 78-year-old man with hypertension receive?";
    for docs in [
        // A section heading after the text that opens the document …
        &[
            "Examplamide is given at 10 mg once daily.\n\nOlder adults (65 years and over)\n\
           Start at 5 mg once daily and increase slowly.",
        ][..],
        &[
            "Examplamide is given at 10 mg once daily.\n\nElderly patients\nThe starting dose \
           is 5 mg once daily.",
        ],
        // … or the first line of an excerpt.
        &[
            "Examplamide is given at 10 mg once daily.",
            "Older adults (65 years and over)\nStart at 5 mg once daily and increase slowly.",
        ],
    ] {
        check_gated(docs, question, "5 mg once daily");
    }
    // Under a title, the section's heading is whom it is for, and the title what the
    // text is about.
    check_gated(
        &[
            "Examplamide dosing\nAdults\nThe usual dose is 10 mg once daily.\nOlder adults (65 \
           years and over)\nStart at 5 mg once daily.",
        ],
        question,
        "5 mg once daily",
    );
}

#[test]
fn values_listed_each_for_their_own_people_are_for_those_people() {
    let lyme = "The recommended first-line treatment of erythema migrans is doxycycline for \
                adults, amoxicillin for children under 8 years and azithromycin for pregnant \
                women.";
    check(
        &[lyme],
        "Which antibiotic is first-line for a pregnant woman with erythema migrans?",
        Some("azithromycin"),
        Some("doxycycline"),
    );
    check(
        &[lyme],
        "Which antibiotic is first-line for a 5-year-old with erythema migrans?",
        Some("amoxicillin"),
        Some("doxycycline"),
    );
    check(
        &[
            "Treatment of hypertension: ramipril for non-pregnant adults; labetalol for pregnant \
           women.",
        ],
        "Which drug should a pregnant woman with hypertension take?",
        Some("labetalol"),
        Some("ramipril"),
    );
    // A value's condition ends where the next value with one of its own begins, and
    // "in" brings people in as "for" does; "for 5 days" is no condition.
    let at = |text: &str, name: &str| {
        let start = text.find(name).unwrap_or_else(|| panic!("{name}"));
        start..start + name.len()
    };
    let next = lyme.find("azithromycin").unwrap_or(lyme.len());
    assert_eq!(
        condition_after(lyme, at(lyme, "amoxicillin"), next),
        Some(("for children under 8 years", false))
    );
    let cystitis = "Cystitis is treated with nitrofurantoin in non-pregnant women.";
    assert_eq!(
        condition_after(cystitis, at(cystitis, "nitrofurantoin"), cystitis.len()),
        Some(("in non-pregnant women.", false)).map(|(c, o)| (c.trim_end_matches('.'), o))
    );
    // Letters whose lower case is longer than they are do not move where it ends.
    let travellers = "Give rabies vaccine for İstanbul travellers and tetanus vaccine for \
                      children.";
    let next = travellers.find("tetanus").unwrap_or(travellers.len());
    assert_eq!(
        condition_after(travellers, at(travellers, "rabies vaccine"), next),
        Some(("for İstanbul travellers", false))
    );
    let course = "The usual course is nitrofurantoin for 5 days, cefalexin for 7 days.";
    assert_eq!(
        condition_after(course, at(course, "cefalexin"), course.len()),
        None
    );
}

#[test]
fn a_warning_holds_only_for_the_clause_of_two_joined_ones_that_gives_it() {
    let warned = |text: &str| -> Vec<String> {
        warning_clauses(text)
            .into_iter()
            .map(|r| text[r].trim().to_string())
            .collect()
    };
    assert_eq!(
        warned("In decompensated cirrhosis, tenofovir is used and interferon is contraindicated."),
        ["and interferon is contraindicated."]
    );
    assert_eq!(
        warned("Interferon is contraindicated and tenofovir is used instead."),
        ["Interferon is contraindicated"]
    );
    // Names before one verb share it, and so does a verb with no subject of its own.
    assert_eq!(
        warned("Warfarin and phenytoin are contraindicated."),
        ["Warfarin and phenytoin are contraindicated."]
    );
    assert_eq!(
        warned("Methotrexate should be stopped and is contraindicated in pregnancy."),
        ["Methotrexate should be stopped and is contraindicated in pregnancy."]
    );
    let docs = [
        "In compensated cirrhosis, peginterferon alfa may be used. In decompensated \
                 cirrhosis, tenofovir is used and interferon is contraindicated.",
    ];
    assert_eq!(
        best(
            &docs,
            "Which drug is used for a patient with decompensated cirrhosis?",
            true
        )
        .as_deref(),
        Some("tenofovir")
    );
}

#[test]
fn which_and_what_that_ask_are_followed_by_their_noun() {
    for (question, head) in [
        (
            "Which antibiotic treats cystitis in a pregnant woman?",
            "antibiotic",
        ),
        ("Which test detects chlamydia in a man?", "test"),
        (
            "Which vaccine protects infants against pertussis?",
            "vaccine",
        ),
        (
            "Which drug prevents stroke in a patient with a mechanical valve?",
            "drug",
        ),
    ] {
        match by_tags(shipped(), question) {
            Some(Asked::Thing { head: found, .. }) => {
                assert_eq!(found, asked::stem(head), "{question}")
            }
            other => panic!("{question}: {other:?}"),
        }
    }
}

#[test]
fn a_fronted_condition_is_said_of_the_people_the_subject_names() {
    let docs = [
        "For acute otitis media, adults take 500 mg three times daily. Children \
                 receive 90 mg/kg/day in 2 divided doses.",
    ];
    let question = "What dose of amoxicillin should a child receive for otitis media?";
    let reading = gated_reading(docs[0], question).expect("a reading");
    let adults = reading
        .candidates
        .iter()
        .find(|c| c.text == "500 mg three times daily")
        .expect("the adults' dose");
    assert!(!adults.for_patient, "{adults:?}");
    assert_eq!(best(&docs, question, true).as_deref(), Some("90 mg kg day"));
    let analysed = |text: &str| fronted_people(text, &shipped().analyse(text)).map(str::to_string);
    assert_eq!(analysed(docs[0]).as_deref(), Some("adults"));
    assert_eq!(
        analysed("For acute otitis media, amoxicillin is given."),
        None
    );
}

#[test]
fn a_statement_narrows_its_headings() {
    let table = "PSA thresholds for prostate cancer risk assessment\n\nThe programme recommends \
                 these thresholds for referring men.\n\nRecommended PSA level thresholds\nAge \
                 PSA level threshold\n40–49 years 2.0 nanogram/mL or higher\n60–69 years 4.0 \
                 nanogram/mL or higher\n70–79 years 5.0 nanogram/mL or higher";
    check(
        &[table],
        "By these thresholds, at what PSA level is a 74-year-old man considered to have an \
         elevated PSA?",
        Some("5.0 nanogram/mL"),
        Some("2.0 nanogram/mL"),
    );
}

#[test]
fn one_dose_written_two_ways_is_one_candidate_in_its_plainest_words() {
    let docs = [
        "Dosage\n\n• Monotherapy: 1 mg once daily\n• Patients taking ciprofloxacin: 0.5 mg \
         once daily should not be exceeded.",
        "Usual adult dose\nRecommended dose: 1 mg orally once a day\nMaximum dose: 1 mg \
         orally once a day\nConcomitant CYP1A2 inhibitors (e.g., ciprofloxacin): A dose of \
         0.5 mg orally once a day should not be exceeded.",
    ];
    let reading = patient_reading(
        &documents(&docs),
        "A man taking rasagiline is prescribed ciprofloxacin. What is the maximum rasagiline \
         dose while he takes ciprofloxacin?",
    );
    let texts: Vec<&str> = reading.candidates.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts[..2],
        ["0.5 mg once daily", "1 mg once daily"],
        "{texts:?}"
    );
}

#[test]
fn a_statement_about_people_a_later_lead_in_defines_holds_when_one_of_its_items_does() {
    let doc = "Folic acid before pregnancy\nYou should take 400 micrograms of folic acid every \
               day before you are pregnant.\nHigher dose folic acid\nSome women have a higher \
               chance of a pregnancy affected by a neural tube defect and are advised to take 5 \
               milligrams each day.\nYou may have a higher chance if:\nyou have diabetes\nyou \
               take anti-epilepsy medicine";
    check_gated(
        &[doc],
        "A 28-year-old woman whose epilepsy is controlled on lamotrigine is planning a \
         pregnancy. What daily dose of folic acid should she take?",
        "5 milligrams",
    );
    // A lead-in that says what holds for its people defines none.
    assert!(defines("You may have a higher chance if") && defines("Groups at risk include"));
    assert!(!defines(
        "Who should not be vaccinated with the nasal spray?"
    ));
}

#[test]
fn a_thing_asked_for_in_the_singular_is_given_in_the_singular_where_written_so() {
    let doc = "Urine cultures are not mandatory in women with cystitis. Obtain a urine culture \
               and sensitivity testing before initiating antibiotics in men with suspected \
               cystitis.";
    let reading = gated_reading(
        doc,
        "Which test should be sent before antibiotics are started in a man with cystitis?",
    )
    .expect("a reading");
    assert_eq!(
        reading.best().map(|c| c.text.as_str()),
        Some("urine culture")
    );
    // Asked for in the plural, the first written stands.
    let reading = gated_reading(
        doc,
        "Which tests should be sent before antibiotics are started in a man with cystitis?",
    )
    .expect("a reading");
    assert_eq!(
        reading.best().map(|c| c.text.as_str()),
        Some("Urine cultures")
    );
}

#[test]
fn a_route_is_named_by_its_adverb_too() {
    check_gated(
        &[
            "Vaccines are usually given intramuscularly. If you have a bleeding disorder, all \
           vaccinations should be administered subcutaneously, just under the skin.",
        ],
        "A man with severe haemophilia A needs hepatitis B vaccine. By which route should it be \
         given?",
        "subcutaneously",
    );
}

#[test]
fn each_time_a_medicine_is_given_is_a_dose() {
    // "up to 2 times a day" counts doses, and "2.5 ml" in the question is the measure
    // of each, not a number it already gives.
    let leaflet = "Adults can take the syrup up to 4 times a day. Children aged 2 to 5 years \
                   should only be given 2.5 ml up to 2 times in a day.";
    check(
        &[leaflet],
        "A 3-year-old girl has a cough. How many 2.5 ml doses can she be given in a day?",
        Some("2"),
        Some("4"),
    );
    // A number alone elsewhere ("children under four") counts nothing.
    let advice = "Children under four are given lower doses. Children aged 3 months and over \
                  can be given it up to four times a day. Babies aged 2 to 3 months should \
                  only be given 2.5 ml up to 2 times in a day.";
    check_gated(
        &[advice],
        "A 10-week-old baby has a fever. How many 2.5 ml doses can he be given in a day?",
        "2",
    );
    check(
        &["Children aged 2 to 5 years should be given 2.5 ml twice daily."],
        "A 3-year-old girl has a cough. How many doses can she be given in a day?",
        Some("twice"),
        Some("twice"),
    );
}

#[test]
fn a_strength_and_a_cap_are_no_dose() {
    // A mass per millilitre is the strength of what is given.
    check_gated(
        &["Anaphylaxis in children: give exemplaline 1 mg/mL, 0.01 mg/kg IM into the thigh."],
        "A 4-year-old boy has anaphylaxis. What dose of exemplaline should he receive?",
        "0.01 mg/kg",
    );
    // A maximum after a dose caps it, unless a maximum is asked.
    let dosing = "Children: exemplomol 15 mg/kg every 6 hours (maximum 60 mg/kg daily). \
                  Adults: exemplomol 1 g every 6 hours.";
    check_gated(
        &[dosing],
        "A 6-year-old girl has a fever. What dose of exemplomol should she take?",
        "15 mg/kg every 6 hours",
    );
    check_gated(
        &[dosing],
        "A 6-year-old girl has a fever. What is the maximum daily dose of exemplomol for her?",
        "60 mg/kg daily",
    );
}

#[test]
fn what_is_substituted_for_or_used_in_place_of_is_set_aside() {
    check_gated(
        &[
            "Labetalol is the first-line antihypertensive in pregnancy. In women with asthma, \
           nifedipine can be substituted for labetalol.",
        ],
        "A pregnant woman with asthma has hypertension. Which antihypertensive should she \
         take?",
        "nifedipine",
    );
    check_gated(
        &["In patients with asthma, nifedipine is used in place of labetalol."],
        "A pregnant woman with asthma has hypertension. Which antihypertensive should she \
         take?",
        "nifedipine",
    );
}

#[test]
fn the_dose_a_schedule_settles_on_is_its_maintenance_dose() {
    let titration = "Exemplimod is titrated to limit bradycardia: 0.25 mg on days 1 and 2, \
                     0.5 mg on day 3, then a maintenance dose of 2 mg once daily from day 4.";
    check_gated(
        &[titration],
        "A 45-year-old woman with multiple sclerosis starts exemplimod. What maintenance dose \
         should she take?",
        "2 mg once daily",
    );
    check_gated(
        &[titration],
        "A 45-year-old woman with multiple sclerosis starts exemplimod. What starting dose \
         should she take?",
        "0.25 mg",
    );
}

#[test]
fn a_name_opens_with_no_adverb() {
    // "preferably" is tagged an adjective here; its ending says what it is.
    patient_candidate(
        &[
            "Patients on exemplodoxin who can exercise should have exercise stress imaging, \
           preferably exercise stress echocardiography or exercise myocardial perfusion \
           imaging.",
        ],
        "A man on exemplodoxin can exercise. Which stress test should he have?",
        "exercise stress echocardiography",
    );
}

#[test]
fn a_later_part_that_fronts_its_own_condition_is_for_whom_it_says() {
    // Left bundle branch block is not known of him: what is preferred with it is not
    // said for him.
    let imaging = "Patients on exemplodoxin who can exercise can have an exercise ECG test; \
                   with left bundle branch block, a perfusion imaging test is preferred.";
    let question = "A man on exemplodoxin can exercise. Which test should he have?";
    assert!(!patient_candidate(&[imaging], question, "perfusion imaging test").for_patient);
    assert!(patient_candidate(&[imaging], question, "exercise ECG test").for_patient);
}

#[test]
fn a_drug_a_statement_says_is_of_the_asked_class_is_one() {
    // The lexicon files dexamethasone under corticosteroids only.
    check_gated(
        &[
            "Ondansetron is the usual antiemetic. In patients with long QT syndrome, \
           dexamethasone (4-8 mg), which has no effect on repolarisation, is the preferred \
           antiemetic.",
        ],
        "Which antiemetic is preferred for a man with long QT syndrome?",
        "dexamethasone",
    );
}

#[test]
fn the_time_between_doses_says_when_no_one_dose_is_given() {
    let vaccination = "Adults without immunity should receive two doses of exemplovax 4-8 weeks \
                       apart. Antivirals reduce the response: the first dose can be given 24 \
                       hours after stopping them.";
    let candidates = |question: &str| -> Vec<String> {
        patient_reading(&documents(&[vaccination]), question)
            .candidates
            .into_iter()
            .map(|c| c.text)
            .collect()
    };
    let when = candidates(
        "A 24-year-old woman without immunity takes antivirals. When can she receive the first \
         dose of exemplovax?",
    );
    assert!(!when.iter().any(|c| c == "4-8 weeks"), "{when:?}");
    assert!(when.iter().any(|c| c == "24 hours"), "{when:?}");
    let apart = candidates(
        "A 24-year-old woman without immunity wants exemplovax. How far apart should her doses \
         be?",
    );
    assert!(apart.iter().any(|c| c == "4-8 weeks"), "{apart:?}");
}
