//! The paper's worked examples end to end: Table 1's four questions and Figure 2's
//! gating example, plus the outcomes that are not answers.

use super::*;
use crate::embed::LexicalEmbedder;
use crate::extract::RuleExtractor;

fn prepare(docs: &[&str]) -> Prepared {
    let docs = docs
        .iter()
        .enumerate()
        .map(|(i, d)| Document::new(format!("doc {}", i + 1), *d))
        .collect();
    Prepared::new(docs, &RuleExtractor)
}

fn ask(docs: &[&str], question: &str, strategy: Strategy) -> Answer {
    let prepared = prepare(docs);
    pollster::block_on(answer(
        &prepared,
        question,
        &strategy.config(),
        &mut LexicalEmbedder::default(),
    ))
    .expect("answers")
}

/// The Lyme question of Table 1 explored with the lexical embedder: the documents, the
/// memo, the first answer (amoxicillin, checked) and the exploration to re-gate.
fn explore_lyme() -> (
    Prepared,
    crate::embed::Memo<LexicalEmbedder>,
    Answer,
    Exploration,
) {
    explore_lyme_in(prepare(TABLE_1[2].0))
}

/// [`explore_lyme`] over documents prepared as given (with the linguistic base, say).
fn explore_lyme_in(
    prepared: Prepared,
) -> (
    Prepared,
    crate::embed::Memo<LexicalEmbedder>,
    Answer,
    Exploration,
) {
    let question = TABLE_1[2].1;
    let mut memo = crate::embed::Memo::new(LexicalEmbedder::default());
    let (first, exploration) = pollster::block_on(explore(
        &prepared,
        question,
        &Strategy::Cgr.config(),
        &mut memo,
        &mut RuleSteps,
    ))
    .expect("answers");
    assert_eq!(
        first.text().map(str::to_lowercase).as_deref(),
        Some("amoxicillin")
    );
    (prepared, memo, first, exploration)
}

/// Table 1 of the CGR paper: documents, question, answer.
const TABLE_1: [(&[&str], &str, &str); 4] = [
    (
        &[
            "Treatment for major depressive disorder includes antidepressants such as bupropion, sertraline, and fluoxetine. Bupropion acts as a norepinephrine-dopamine reuptake inhibitor.",
            "Bupropion lowers the seizure threshold and is contraindicated in patients with bulimia nervosa or other eating disorders due to elevated seizure risk.",
        ],
        "Which antidepressant for MDD is contraindicated in patients with bulimia?",
        "Bupropion",
    ),
    (
        &[
            "For suspected appendicitis, diagnostic imaging options include CT scan, ultrasound, and MRI. CT scan has the highest sensitivity in adult populations.",
            "In pediatric patients, ultrasound is the preferred first-line imaging modality to avoid ionizing radiation exposure, with CT reserved for inconclusive cases.",
        ],
        "What imaging test is preferred for suspected appendicitis in children?",
        "ultrasound",
    ),
    (
        &[
            "First-line antibiotics for Lyme disease include doxycycline, amoxicillin, and cefuroxime. Doxycycline is preferred in adults due to co-coverage of Anaplasma co-infection.",
            "Doxycycline is contraindicated during pregnancy due to risks to fetal bone and teeth development. Amoxicillin is considered safe across all trimesters.",
        ],
        "What antibiotic is recommended for Lyme disease in a pregnant patient?",
        "Amoxicillin",
    ),
    (
        &[
            "Standard therapy for tuberculosis includes rifampin, isoniazid, pyrazinamide, and ethambutol. Rifabutin is an alternative rifamycin with a similar mechanism.",
            "Rifampin is a potent inducer of CYP3A4 and is contraindicated with HIV protease inhibitors. Rifabutin has fewer CYP3A4 interactions and is preferred in patients on antiretroviral therapy.",
        ],
        "Which drug replaces rifampin in TB treatment for HIV patients on protease inhibitors?",
        "Rifabutin",
    ),
];

#[test]
fn table_1_questions_are_answered_with_evidence() {
    for (docs, question, expected) in TABLE_1 {
        let a = ask(docs, question, Strategy::Cgr);
        assert_eq!(
            a.text().map(str::to_lowercase),
            Some(expected.to_lowercase()),
            "{question}: {:?}",
            a.candidates
        );
        assert!(
            !a.evidence.is_empty() && a.evidence.len() <= 3,
            "{question}"
        );
        // Every evidence edge cites a sentence of the documents.
        for path in &a.evidence {
            for edge in &path.edges {
                assert!(!edge.citations.is_empty(), "{question}: {edge:?}");
                for c in &edge.citations {
                    assert!(docs[c.doc].contains(&c.text));
                }
            }
        }
    }
}

#[test]
fn table_1_without_gating_gives_the_general_answer_for_the_lyme_question() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::CgrNoGate);
    assert_eq!(a.text(), Some("Doxycycline"));
    assert!(a.blocked.is_empty());
}

/// Figure 2: ACE inhibitors and ARBs are contraindicated in bilateral renal artery
/// stenosis; the gate blocks lisinopril and losartan and the answer is amlodipine.
#[test]
fn figure_2_blocks_lisinopril_and_losartan_and_answers_amlodipine() {
    let docs = [
        "First-line medications for hypertension include lisinopril, losartan and amlodipine. Lisinopril is the most widely prescribed.",
        "ACE inhibitors such as lisinopril and angiotensin receptor blockers such as losartan are contraindicated in bilateral renal artery stenosis (BRAS) because they can precipitate acute kidney injury. Lisinopril is also contraindicated in pregnancy.",
    ];
    let question = "What medication for hypertension in a 68-year-old patient with bilateral renal artery stenosis (BRAS)?";
    let a = ask(&docs, question, Strategy::Cgr);
    assert_eq!(a.text(), Some("amlodipine"), "{:?}", a.candidates);
    let blocked: Vec<(&str, &str, &str)> = a
        .blocked
        .iter()
        .map(|b| {
            (
                b.edge.subject.as_str(),
                b.edge.object.as_str(),
                b.condition.as_str(),
            )
        })
        .collect();
    for drug in ["lisinopril", "losartan"] {
        assert!(
            blocked.iter().any(|(s, o, c)| *s == "hypertension"
                && *o == drug
                && c.contains("bilateral renal artery stenosis")),
            "{drug}: {blocked:?}"
        );
    }
    assert!(
        !blocked.iter().any(|(_, o, _)| *o == "amlodipine"),
        "{blocked:?}"
    );
    // The lisinopril edge carries both negated conditions, as in the figure.
    let lisinopril = a
        .blocked
        .iter()
        .find(|b| b.edge.object == "lisinopril")
        .unwrap();
    let negated: Vec<&str> = lisinopril
        .edge
        .conditions
        .iter()
        .filter(|c| c.negated)
        .map(|c| c.phrase.as_str())
        .collect();
    assert_eq!(negated.len(), 2, "{negated:?}");
}

#[test]
fn nothing_relevant_is_insufficient_evidence_not_a_guess() {
    let a = ask(
        &["The hospital opened in 1910. Its library holds old maps."],
        "Which antibiotic is preferred for cellulitis in pregnancy?",
        Strategy::Cgr,
    );
    assert_eq!(a.outcome, Outcome::InsufficientEvidence);
    assert!(a.text().is_none());
}

#[test]
fn when_the_condition_blocks_every_option_the_answer_is_insufficient_evidence() {
    let a = ask(
        &["Zolmitriptan is the preferred treatment for cluster headache. Zolmitriptan is contraindicated in pregnancy."],
        "Which drug is preferred for cluster headache in a pregnant woman?",
        Strategy::Cgr,
    );
    assert_eq!(
        a.outcome,
        Outcome::InsufficientEvidence,
        "{:?}",
        a.candidates
    );
    assert_eq!(a.blocked.len(), 1);
    assert_eq!(a.blocked[0].condition, "in pregnancy");
}

#[test]
fn empty_and_overlong_questions_are_errors() {
    let prepared = prepare(&["Amoxicillin is preferred for otitis media."]);
    let mut e = LexicalEmbedder::default();
    let config = PipelineConfig::default();
    assert_eq!(
        pollster::block_on(answer(&prepared, "  ", &config, &mut e)).err(),
        Some(AnswerError::EmptyQuestion)
    );
    let long = "why ".repeat(2_000);
    assert!(matches!(
        pollster::block_on(answer(&prepared, &long, &config, &mut e)),
        Err(AnswerError::QuestionTooLong(_))
    ));
}

#[test]
fn strategies_round_trip_by_name() {
    for s in Strategy::ALL {
        assert_eq!(Strategy::from_name(s.name()), Some(s));
    }
    assert_eq!(Strategy::from_name("cgr-typo"), None);
}

/// The Lyme question explored, its pregnancy condition flipped: the answer changes
/// from amoxicillin to the general answer, doxycycline's edge opens, and no text has
/// to be embedded for it; flipping back restores the first answer.
#[test]
fn flipping_pregnancy_regates_the_lyme_question_without_a_model() {
    let (prepared, mut memo, first, exploration) = explore_lyme();
    let pregnancy = first
        .conditions
        .iter()
        .find(|(_, t)| *t == Truth::True)
        .map(|(p, _)| p.clone())
        .expect("a condition the patient has");
    assert!(pregnancy.contains("pregnan"), "{pregnancy}");
    assert_eq!(exploration.evaluated(&pregnancy), Truth::True);
    assert!(first
        .blocked
        .iter()
        .any(|b| b.edge.subject.to_lowercase().contains("doxycycline")
            || b.edge.object.to_lowercase().contains("doxycycline")));

    let flipped = pollster::block_on(exploration.regate(
        &prepared,
        &[(pregnancy.clone(), Truth::False)],
        &mut memo,
    ))
    .expect("re-gates");
    assert_eq!(flipped.embedded, 0);
    assert_eq!(
        flipped.answer.text().map(str::to_lowercase).as_deref(),
        Some("doxycycline")
    );
    // Now only the statements that hold in pregnancy are closed.
    assert!(!flipped.answer.blocked.is_empty());
    assert!(
        flipped
            .answer
            .blocked
            .iter()
            .all(|b| b.condition == pregnancy && !b.negated),
        "{:?}",
        flipped.answer.blocked
    );
    assert!(flipped
        .answer
        .conditions
        .iter()
        .any(|(p, t)| *p == pregnancy && *t == Truth::False));

    let back =
        pollster::block_on(exploration.regate(&prepared, &[(pregnancy, Truth::True)], &mut memo))
            .expect("re-gates");
    assert_eq!(back.embedded, 0);
    assert_eq!(back.answer.text(), first.text());
    assert_eq!(back.answer.blocked.len(), first.blocked.len());
}

/// The gated-path view's layers for the Lyme question, checked by hand: Lyme disease
/// is the entry (layer 0), the three antibiotics one hop away (layer 1), amoxicillin
/// the answer; doxycycline's recommendation is drawn blocked by pregnancy.
#[test]
fn the_lyme_question_is_laid_out_from_entry_to_answer() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::Cgr);
    let view = around(&a);
    let label = |i: usize| view.nodes[i].label.to_lowercase();
    let find = |name: &str| {
        view.nodes
            .iter()
            .position(|n| n.label.to_lowercase() == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", view.nodes))
    };
    let lyme = find("lyme disease");
    assert_eq!(view.nodes[lyme].role, NodeRole::Entry);
    assert_eq!(view.nodes[lyme].layer, 0);
    let amoxicillin = find("amoxicillin");
    assert_eq!(view.nodes[amoxicillin].role, NodeRole::Answer);
    assert_eq!(view.nodes[amoxicillin].layer, 1);
    let doxycycline = find("doxycycline");
    assert_eq!(view.nodes[doxycycline].layer, 1);
    let blocked: Vec<(String, String, String)> = view
        .edges
        .iter()
        .filter_map(|e| match &e.state {
            EdgeState::Blocked { condition, .. } => {
                Some((label(e.from), label(e.to), condition.clone()))
            }
            EdgeState::Kept => None,
        })
        .collect();
    assert!(
        blocked
            .iter()
            .any(|(u, v, c)| (u == "doxycycline" || v == "doxycycline") && c.contains("pregnan")),
        "{blocked:?}"
    );
    // Every edge joins nodes of adjacent or equal layers, and orders are dense.
    for e in &view.edges {
        assert!(view.nodes[e.from].layer.abs_diff(view.nodes[e.to].layer) <= 1);
    }
    for l in 0..view.layers {
        let mut orders: Vec<usize> = view
            .nodes
            .iter()
            .filter(|n| n.layer == l)
            .map(|n| n.order)
            .collect();
        orders.sort();
        assert_eq!(orders, (0..orders.len()).collect::<Vec<_>>());
    }
}

/// An extraction kept as JSON and read back gives the same graph and the same answer;
/// one whose spans do not fit the documents (another document set's, or damaged) is
/// refused rather than trusted.
#[test]
fn a_kept_extraction_rebuilds_the_same_graph_and_refuses_other_documents() {
    let (docs, question, expected) = TABLE_1[2];
    let prepared = prepare(docs);
    let json = serde_json::to_string(&prepared.extraction).expect("serialises");
    let kept: crate::extract::Extraction = serde_json::from_str(&json).expect("reads back");
    assert_eq!(kept, prepared.extraction);
    let rebuilt = Prepared::from_extraction(prepared.docs.clone(), kept.clone()).expect("fits");
    assert_eq!(rebuilt.graph.edge_count(), prepared.graph.edge_count());
    let answer = pollster::block_on(super::answer(
        &rebuilt,
        question,
        &Strategy::Cgr.config(),
        &mut LexicalEmbedder::default(),
    ))
    .expect("answers");
    assert_eq!(
        answer.text().map(str::to_lowercase),
        Some(expected.to_lowercase())
    );

    let short = vec![Document::new("doc 1", "Amoxicillin.")];
    assert!(Prepared::from_extraction(short, kept).is_none());
}

/// A patient described apart from the question overrides what the question implied:
/// "not pregnant" opens doxycycline's edge for the Lyme question asked about a pregnant
/// patient; a description that says nothing about pregnancy changes nothing.
#[test]
fn a_separate_patient_description_regates_the_question() {
    let (prepared, mut memo, first, exploration) = explore_lyme();

    let overrides = described(&first, "The patient is not pregnant.");
    assert!(
        overrides
            .iter()
            .any(|(p, t)| p.contains("pregnan") && *t == Truth::False),
        "{overrides:?}"
    );
    let regated =
        pollster::block_on(exploration.regate(&prepared, &overrides, &mut memo)).expect("re-gates");
    assert_eq!(
        regated.answer.text().map(str::to_lowercase).as_deref(),
        Some("doxycycline")
    );
    assert!(described(&first, "A 40-year-old with a rash.")
        .iter()
        .all(|(p, _)| !p.contains("pregnan")));
}

/// With the linguistic base loaded the passage reader reads the documents too, and it
/// sees the conditions the user flips as the gate does: the Lyme question asked of a
/// pregnant patient answers amoxicillin, and re-gated as not pregnant, doxycycline —
/// the reader no longer warns against it for her.
#[test]
fn the_passage_reader_follows_a_flipped_condition() {
    let language = crate::language::tests::shipped_shared().clone();
    let (prepared, mut memo, first, exploration) =
        explore_lyme_in(prepare(TABLE_1[2].0).with_language(language));
    let overrides = described(&first, "The patient is not pregnant.");
    let regated =
        pollster::block_on(exploration.regate(&prepared, &overrides, &mut memo)).expect("re-gates");
    assert_eq!(
        regated.answer.text().map(str::to_lowercase).as_deref(),
        Some("doxycycline"),
        "{overrides:?}"
    );
}

/// The explanation prompt carries the answer, the sentence behind it and the blocked
/// option with its condition — and nothing the answer does not show.
#[test]
fn the_explanation_prompt_lists_the_answer_its_evidence_and_what_was_blocked() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::Cgr);
    let messages = explanation_messages(question, &a);
    assert_eq!(messages.len(), 2);
    let user = &messages[1].content;
    assert!(
        user.contains("Answer: amoxicillin") || user.contains("Answer: Amoxicillin"),
        "{user}"
    );
    assert!(user.contains("Facts:\n- "), "{user}");
    let blocked = user
        .split("Blocked for this patient:")
        .nth(1)
        .expect("a blocked section");
    assert!(
        blocked.to_lowercase().contains("doxycycline") && blocked.contains("pregnan"),
        "{user}"
    );
    // Every quoted sentence is a sentence of the documents.
    for quoted in user.split('"').skip(1).step_by(2) {
        assert!(
            docs.iter().any(|d| d.contains(quoted)),
            "{quoted:?} is not in the documents"
        );
    }
}

/// A neural embedder matches the question's "antibiotic" to every drug, so the drugs
/// are entries too; the layout still starts from the disease and the answer keeps its
/// role.
#[test]
fn drugs_that_are_also_entries_do_not_flatten_the_layout() {
    let (docs, question, _) = TABLE_1[2];
    let mut a = ask(docs, question, Strategy::Cgr);
    let base = around(&a);
    a.entries = base.nodes.iter().map(|n| n.label.clone()).collect();
    let view = around(&a);
    let node = |name: &str| {
        view.nodes
            .iter()
            .find(|n| n.label.to_lowercase() == name)
            .unwrap_or_else(|| panic!("{name} in {:?}", view.nodes))
    };
    assert_eq!(node("lyme disease").layer, 0);
    assert_eq!(node("amoxicillin").layer, 1);
    assert_eq!(node("amoxicillin").role, NodeRole::Answer);
    assert_eq!(node("doxycycline").layer, 1);
    assert_eq!(node("doxycycline").role, NodeRole::Entry);
    assert_eq!(view.layers, 2);
}

/// ReGraM's region on Table 1's Lyme question: a drug question (DRUG_THERAPY weights),
/// its few walked edges all fit K = 15, so the mode is HYBRID (1–9 facts) and the answer
/// is CGR's; built from gated edges the region has no doxycycline edge that pregnancy
/// closes, built ungated (as the paper does) it answers doxycycline.
#[test]
fn regram_builds_a_region_names_its_mode_and_gating_inside_it_keeps_the_lyme_answer() {
    let (docs, question, _) = TABLE_1[2];
    let gated = ask(docs, question, Strategy::Regram);
    assert_eq!(gated.text(), Some("Amoxicillin"));
    let region = gated.region.as_ref().expect("a region");
    assert_eq!(region.domain, crate::regram::Domain::DrugTherapy);
    assert_eq!(region.mode, crate::regram::Mode::Hybrid);
    assert!(!region.edges.is_empty() && region.edges.len() < 10);
    let blocked: BTreeSet<EdgeId> = gated.blocked.iter().map(|b| EdgeId(b.edge.id)).collect();
    assert!(!blocked.is_empty());
    assert!(region.edges.iter().all(|e| !blocked.contains(e)));
    let ungated = ask(docs, question, Strategy::RegramNoGate);
    assert_eq!(ungated.text(), Some("Doxycycline"));
    assert_eq!(
        ungated.region.as_ref().map(|r| r.mode),
        Some(crate::regram::Mode::Hybrid)
    );
    assert!(ask(docs, question, Strategy::Cgr).region.is_none());

    // The Evidence Map: the topic, then the patient, then the kind asked for; the
    // patient hop starts from what the topic hop reached and finds amoxicillin's
    // safety in pregnancy; without a model no hop has hypotheses or a guess.
    let kinds: Vec<crate::regram::HopKind> = region.hops.iter().map(|h| h.question.kind).collect();
    use crate::regram::HopKind;
    assert_eq!(kinds, [HopKind::Topic, HopKind::Patient, HopKind::Kind]);
    assert_eq!(
        region.hops[0].question.text,
        "What antibiotic is recommended for Lyme disease?"
    );
    let mut union: Vec<EdgeId> = Vec::new();
    for e in region.hops.iter().flat_map(|h| h.edges.clone()) {
        if !union.contains(&e) {
            union.push(e);
        }
    }
    assert_eq!(region.edges, union);
    let patient_facts: Vec<String> = region.hops[1]
        .edges
        .iter()
        .filter_map(|&e| prepare(docs).graph.describe(e))
        .collect();
    assert!(
        patient_facts
            .iter()
            .any(|f| f.contains("safe_in, amoxicillin") && f.contains("pregnancy")),
        "{patient_facts:?}"
    );
    assert!(region
        .hops
        .iter()
        .all(|h| h.hypotheses.is_empty() && h.guess.is_none()));
    // The patient hop answers with amoxicillin, safe in pregnancy, first.
    assert_eq!(
        region.hops[1].answers.first().map(|a| a.to_lowercase()),
        Some("amoxicillin".to_string()),
        "{:?}",
        region.hops
    );
    assert!(region.hops[0].answers.len() >= 2, "{:?}", region.hops);
}

/// Question-side steps with a scripted model: fixed hypotheses, no revision of its own,
/// a fixed guess; everything else by the rules.
struct Scripted {
    hypotheses: Vec<crate::regram::Triple>,
    guesses: Vec<String>,
}

impl QuestionSteps for Scripted {
    async fn parse(&mut self, question: &str) -> Result<ParsedQuery, AnswerError> {
        RuleSteps.parse(question).await
    }

    async fn evaluate(
        &mut self,
        query: &ParsedQuery,
        phrases: &[String],
    ) -> Result<ConditionTable, AnswerError> {
        RuleSteps.evaluate(query, phrases).await
    }

    async fn hypothesize(
        &mut self,
        _: &str,
        _: &[String],
        _: &[String],
        _: &[String],
    ) -> Result<Vec<crate::regram::Triple>, AnswerError> {
        Ok(std::mem::take(&mut self.hypotheses))
    }

    async fn guess(&mut self, hop: &str) -> Result<Option<String>, AnswerError> {
        self.guesses.push(hop.to_string());
        Ok(Some(format!(
            "Based on general knowledge, something about {hop}"
        )))
    }
}

/// ReGraM's answer with the scripted steps.
fn regram_with(prepared: &Prepared, question: &str, steps: &mut Scripted) -> Answer {
    pollster::block_on(answer_with(
        prepared,
        question,
        &Strategy::Regram.config(),
        &mut LexicalEmbedder::default(),
        steps,
    ))
    .expect("answers")
}

/// HYBRID's hypotheses go through the Reviewer: one that reverses the documents'
/// direction is revised from the graph and accepted; one that names an entity outside
/// the region is rejected and, with no revision on offer, stays rejected. Neither
/// changes the answer.
#[test]
fn hybrid_hypotheses_are_reviewed_and_revised_inside_the_answer() {
    use crate::regram::Triple;
    let (docs, question, _) = TABLE_1[2];
    let prepared = prepare(docs);
    let mut steps = Scripted {
        hypotheses: vec![
            Triple::new("amoxicillin", "safe_in", "Lyme disease"),
            Triple::new("Lyme disease", "treated_by", "ceftriaxone"),
        ],
        guesses: Vec::new(),
    };
    let a = regram_with(&prepared, question, &mut steps);
    assert_eq!(a.text(), Some("Amoxicillin"));
    let region = a.region.expect("a region");
    let reviewed = &region.hops[0].hypotheses;
    assert_eq!(reviewed.len(), 2, "{reviewed:?}");
    assert!(reviewed[0].review.accepted, "{reviewed:?}");
    assert_eq!(reviewed[0].revisions, 1);
    assert_eq!(reviewed[0].triple.head, "Lyme disease");
    assert_eq!(reviewed[0].triple.tail.to_lowercase(), "amoxicillin");
    assert!(!reviewed[1].review.accepted);
    assert!(
        reviewed[1].review.reason.contains("not in the region"),
        "{reviewed:?}"
    );
    assert_eq!(reviewed[1].revisions, 0);
    assert!(steps.guesses.is_empty());
}

/// A document set that states nothing: every hop is LLM-GUESS, each gets the model's
/// guess, and the answer is still "insufficient evidence", not the guess.
#[test]
fn llm_guess_hops_say_so_and_never_become_the_answer() {
    let prepared = prepare(&["The clinic opens at nine."]);
    let mut steps = Scripted {
        hypotheses: Vec::new(),
        guesses: Vec::new(),
    };
    let question = "What antibiotic is recommended for Lyme disease in a pregnant patient?";
    let a = regram_with(&prepared, question, &mut steps);
    let region = a.region.expect("a region");
    assert_eq!(region.mode, crate::regram::Mode::LlmGuess);
    assert!(region
        .hops
        .iter()
        .all(|h| h.mode == crate::regram::Mode::LlmGuess
            && h.guess
                .as_deref()
                .is_some_and(|g| g.starts_with("Based on general knowledge"))));
    assert_eq!(steps.guesses.len(), region.hops.len());
    assert_eq!(a.outcome, Outcome::InsufficientEvidence);
}

/// A region of K = 1 keeps one triple: the evidence paths are the ones inside it.
#[test]
fn a_region_restricts_the_evidence_to_its_triples() {
    let (docs, question, _) = TABLE_1[2];
    let prepared = prepare(docs);
    let config = PipelineConfig {
        region: Some(RegionConfig { k: 1, lambda: 0.7 }),
        ..Strategy::Regram.config()
    };
    let a = pollster::block_on(answer(
        &prepared,
        question,
        &config,
        &mut LexicalEmbedder::default(),
    ))
    .expect("answers");
    let region = a.region.expect("a region");
    assert!(
        region.hops.iter().all(|h| h.edges.len() <= 1),
        "{:?}",
        region.hops
    );
    let mut union: Vec<EdgeId> = Vec::new();
    for e in region.hops.iter().flat_map(|h| h.edges.clone()) {
        if !union.contains(&e) {
            union.push(e);
        }
    }
    assert_eq!(region.edges, union);
    assert!(region.edges.len() <= region.hops.len());
    assert!(
        a.evidence
            .iter()
            .flat_map(|p| p.edges.iter())
            .all(|e| region.edges.contains(&EdgeId(e.id))),
        "{:?}",
        a.evidence
    );
}

/// AMG on the Lyme question: every walked relation is stated plainly (scores 8–10), so
/// no path falls below τ = 0.5 and the answer is CGR's; each entry node has a trace that
/// starts with itself at confidence 1 and lists what it reaches at ≥ τ, most confident
/// first. With τ above what a listed option scores (0.95), only the preferred-treatment
/// and safety statements (10) remain.
#[test]
fn amg_traces_each_entry_and_drops_paths_below_tau() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::Amg);
    assert_eq!(a.text(), Some("Amoxicillin"));
    assert!(!a.traces.is_empty());
    for t in &a.traces {
        assert_eq!(
            t.reached.first().map(|r| (r.0.as_str(), r.1)),
            Some((t.term.as_str(), 1.0))
        );
        assert!(t.reached.iter().all(|r| r.1 >= amg::DEFAULT_TAU));
        assert!(t.reached.windows(2).all(|w| w[0].1 >= w[1].1));
    }
    let prepared = prepare(docs);
    let strict = PipelineConfig {
        confidence_tau: Some(0.95),
        ..Strategy::Amg.config()
    };
    let s = pollster::block_on(answer(
        &prepared,
        question,
        &strict,
        &mut LexicalEmbedder::default(),
    ))
    .expect("answers");
    for path in &s.evidence {
        for e in &path.edges {
            assert!(
                [
                    "preferred_treatment",
                    "safe_in",
                    "contraindicated_in",
                    "preferred_test"
                ]
                .contains(&e.relation.as_str()),
                "{e:?}"
            );
        }
    }
    assert!(ask(docs, question, Strategy::Cgr).traces.is_empty());
}

/// IKR on the Lyme question: the subgraph grown from the top entity already holds a
/// walked path that supports a candidate (one entity used), the answer is CGR's, and the readout starts at the
/// top entity with its neighbours indexed "1.", "2." … and their children "1.1." ….
#[test]
fn ikr_grows_the_subgraph_until_it_holds_a_path_and_reads_it_out() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::Ikr);
    assert_eq!(a.text(), Some("Amoxicillin"));
    assert_eq!(a.entities_used, 1);
    let root = a.entries.first().expect("an entry");
    assert_eq!(a.readout.first(), Some(root));
    assert!(
        a.readout.iter().skip(1).all(|l| {
            let index = l.split(' ').next().unwrap_or_default();
            index.ends_with('.')
                && index
                    .trim_end_matches('.')
                    .split('.')
                    .all(|p| p.parse::<u32>().is_ok())
        }),
        "{:?}",
        a.readout
    );
    assert!(a.readout.iter().any(|l| l.starts_with("1. ")));
    assert!(
        a.readout
            .iter()
            .any(|l| l.to_lowercase().contains("amoxicillin")),
        "{:?}",
        a.readout
    );
    assert!(ask(docs, question, Strategy::Cgr).readout.is_empty());
}

/// CLAIMS on the Lyme question: claims come from open edges only (doxycycline's
/// treatment edge is closed by pregnancy, so no claim says it), the claims of interest
/// are spread apart (none neighbours a better one), each has a layered summary whose
/// last node is the claim itself, and the answer is CGR's.
#[test]
fn claims_summarise_the_open_graph_around_spread_out_claims_of_interest() {
    let (docs, question, _) = TABLE_1[2];
    let a = ask(docs, question, Strategy::Claims);
    assert_eq!(a.text(), Some("Amoxicillin"));
    let c = a.claims.as_ref().expect("claims");
    assert!(!c.interests.is_empty());
    assert!(c.interests.len() <= 10);
    assert!(!a.blocked.is_empty());
    for b in &a.blocked {
        assert!(
            c.claims.iter().all(|x| x.edge.0 != b.edge.id),
            "the closed edge {:?} became a claim",
            b.edge
        );
    }
    // Every open edge is a claim.
    assert_eq!(
        c.claims.len() + a.blocked.len(),
        prepare(docs).graph.edge_count()
    );
    let graph = crate::claims::ClaimGraph::from_claims(c.claims.clone());
    for (k, i) in c.interests.iter().enumerate() {
        for better in &c.interests[..k] {
            assert!(!graph.neighbours(better.claim).contains(&i.claim));
        }
    }
    for (i, layered) in c.interests.iter().zip(&c.summaries) {
        let last = layered.nodes.last().expect("a node");
        assert_eq!((last.claim, last.layer), (i.claim, 0));
        // Outermost first: layers never increase along the order of making.
        assert!(layered.nodes.windows(2).all(|w| w[0].layer >= w[1].layer));
        let summary = layered.summary().expect("a summary");
        assert_eq!(summary.claims.first(), Some(&i.claim));
        assert!(summary.claims.len() <= ClaimsConfig::default().summary_claims);
    }
    // Test relevance orders the claims of interest.
    assert!(c
        .interests
        .windows(2)
        .all(|w| w[0].test_relevance >= w[1].test_relevance));
}

/// Every strategy's knobs name it back (the app reads the strategy of a re-gated answer
/// from its exploration), and no two strategies share knobs.
#[test]
fn each_strategy_is_known_by_its_knobs() {
    for s in Strategy::ALL {
        assert_eq!(Strategy::of(&s.config()), Some(s));
        assert_eq!(Strategy::from_name(s.name()), Some(s));
    }
}

#[test]
fn an_answer_names_the_drug_without_its_route() {
    let language = crate::language::tests::shipped();
    let cases: &[(&str, &str)] = &[
        ("oral prednisone", "prednisone"),
        (
            "Intravenous unfractionated heparin",
            "unfractionated heparin",
        ),
        // A vaccine's route names which vaccine it is.
        ("oral typhoid vaccine", "oral typhoid vaccine"),
        // Not a drug the lexicon knows: the phrase stays as written.
        ("oral rehydration", "oral rehydration"),
        ("prednisone", "prednisone"),
    ];
    for &(phrase, expected) in cases {
        assert_eq!(without_route(language, phrase), expected, "{phrase}");
    }
}

#[test]
fn an_option_label_is_no_part_of_an_answer() {
    for (phrase, expected) in [
        ("B) Losartan", "Losartan"),
        ("(ii) rifampicin", "rifampicin"),
        ("3) MRI scan", "MRI scan"),
        ("B. pertussis", "B. pertussis"),
        ("Losartan", "Losartan"),
        ("a)", "a)"),
    ] {
        assert_eq!(without_label(phrase), expected, "{phrase}");
    }
}

#[test]
fn a_read_tests_name_loses_its_result_and_an_acronyms_plural_answers_for_one() {
    for (phrase, head, expected) in [
        ("negative RT-qPCR", "test", "RT-qPCR"),
        ("positive throat culture", "culture", "throat culture"),
        // Only where a test is asked: "positive airway pressure" is a treatment's name.
        (
            "positive airway pressure",
            "treatment",
            "positive airway pressure",
        ),
        ("RT-qPCR", "test", "RT-qPCR"),
    ] {
        assert_eq!(without_result(phrase, head), expected, "{phrase}");
    }
    for (phrase, expected) in [
        ("IGRAs", "IGRA"),
        ("oral NSAIDs", "oral NSAID"),
        // Not a word in the plural, nor letters that are a name of their own.
        ("assays", "assays"),
        ("Engerix-Bs", "Engerix-Bs"),
        ("HIV", "HIV"),
    ] {
        assert_eq!(one_of_acronym(phrase), expected, "{phrase}");
    }
}

#[test]
fn an_entity_answers_as_one_name() {
    let language = crate::language::tests::shipped_shared().clone();
    let prepared = prepare(&["Ticagrelor is preferred."]).with_language(language);
    for (label, expected) in [
        // A drug's strength is no part of its name.
        ("Ticagrelor 90", "Ticagrelor"),
        (
            "trimethoprim-sulfamethoxazole 160/800",
            "trimethoprim-sulfamethoxazole",
        ),
        // … nor is its use alone.
        ("memantine monotherapy", "memantine"),
        ("Metformin alone", "Metformin"),
        // … nor an adverb of the clause it was read from.
        ("azithromycin instead", "azithromycin"),
        ("Pravastatin also", "Pravastatin"),
        // … nor how often it is done.
        (
            "annual contrast-enhanced breast MRI",
            "contrast-enhanced breast MRI",
        ),
        // A number after what is not a drug may name it, and so may "alone".
        ("stage 3", "stage 3"),
        ("exercise alone", "exercise alone"),
        // A heading run into the sentence under it.
        (
            "Intrauterine Devices The copper intrauterine device",
            "copper intrauterine device",
        ),
        ("Ticagrelor", "Ticagrelor"),
    ] {
        assert_eq!(whole_name(&prepared, label), expected, "{label}");
    }
}

#[test]
fn the_means_of_examining_is_the_test() {
    for (phrase, expected) in [
        ("with CO-oximetry", "CO-oximetry"),
        ("by pulse oximetry", "pulse oximetry"),
        ("CO-oximetry", "CO-oximetry"),
        ("with", "with"),
    ] {
        assert_eq!(without_means(phrase), expected, "{phrase}");
    }
}

#[test]
fn a_class_answers_with_its_one_member_found_for_the_patient() {
    use crate::passage::{Asked, Candidate, Reading, Typed};
    let language = crate::language::tests::shipped_shared();
    let candidate = |text: &str, for_patient: bool| Candidate {
        text: text.to_string(),
        score: 5.0,
        support: Vec::new(),
        blocked_by: None,
        first: 0,
        for_patient,
        typed: Typed::Drug,
        context: Default::default(),
        in_class: None,
    };
    let reading = |candidates: Vec<Candidate>| Reading {
        asked: Asked::Thing {
            head: "anticoagulant".to_string(),
            plural: false,
        },
        candidates,
        headings: Default::default(),
        ranked: false,
    };
    let one = reading(vec![
        candidate("warfarin", false),
        candidate("rivaroxaban", true),
    ]);
    assert_eq!(
        member_for_patient(language, &one, "direct oral anticoagulants").as_deref(),
        Some("rivaroxaban")
    );
    // A name that is not a class stands, and so does a class with two members found.
    assert_eq!(member_for_patient(language, &one, "rivaroxaban"), None);
    let two = reading(vec![
        candidate("apixaban", true),
        candidate("rivaroxaban", true),
    ]);
    assert_eq!(
        member_for_patient(language, &two, "direct oral anticoagulants"),
        None
    );
}

/// A recommendation for a population the patient is not in says nothing against its
/// option: only a condition that excludes people like the patient ("who are not
/// pregnant") rules an option out for the passage reader.
#[test]
fn a_recommendation_for_other_people_rules_nothing_out() {
    let language = crate::language::tests::shipped_shared().clone();
    let prepared = prepare(&[
        "In pregnancy, azithromycin 1 g orally in a single dose is the recommended \
         treatment for chlamydia. Amoxicillin 500 mg three times daily for 7 days is an \
         alternative.",
        "Treatment of rectal infection in men who have sex with men: doxycycline is \
         preferred; azithromycin is an alternative.",
    ])
    .with_language(language);
    let question =
        "What antibiotic should be used for chlamydia in a woman who is 20 weeks pregnant?";
    let answer = pollster::block_on(answer(
        &prepared,
        question,
        &Strategy::Cgr.config(),
        &mut LexicalEmbedder::default(),
    ))
    .expect("answers");
    assert_eq!(
        answer.text().map(str::to_lowercase).as_deref(),
        Some("azithromycin")
    );
}

#[test]
fn a_word_of_grammar_names_nothing() {
    for (label, names) in [
        ("How", false),
        ("these", false),
        ("with it", false),
        ("heterophile test", true),
        ("How test", true),
    ] {
        assert_eq!(names_something(label), names, "{label}");
    }
}

#[test]
fn a_graph_answer_is_given_as_the_documents_write_it() {
    let prepared = prepare(&[
        "Medicines Q&A: which contraceptive suits a woman taking rifampicin?\n\
         The HLA-B*1502 allele predicts serious skin reactions.",
        "Screening alternatives include flexible sigmoidoscopy every 5 years. \
         Fluoroquinolones and a fluoroquinolone eye drop are listed.",
    ]);
    for (label, written) in [
        // Symbols inside a name keep their spacing.
        ("Medicines Q & A", Some("Medicines Q&A")),
        ("HLA - B * 1502 allele", Some("HLA-B*1502 allele")),
        // A label's singular finds the plural the text has …
        (
            "flexible sigmoidoscopy every 5 year",
            Some("flexible sigmoidoscopy every 5 years"),
        ),
        // … but a form written as the label has it comes first.
        ("fluoroquinolone", Some("fluoroquinolone")),
        ("fluoroquinolones", Some("Fluoroquinolones")),
        // A run across a line break is two lines, not one name.
        ("rifampicin ? The", None),
        ("ceftriaxone", None),
    ] {
        assert_eq!(as_written(&prepared, label).as_deref(), written, "{label}");
    }
}

#[test]
fn an_answer_drops_the_footnote_marker_it_ends_with() {
    for (answer, clean) in [
        ("4000 mg[6,7]", "4000 mg"),
        ("4000 mg [6–8]", "4000 mg"),
        ("Fluzone High-Dose†", "Fluzone High-Dose"),
        ("30 mg twice daily‡*", "30 mg twice daily"),
        ("labetalol¹", "labetalol"),
        // Inside a name, or what the answer is, it stays.
        ("HLA-B*1502", "HLA-B*1502"),
        ("factor [VIII]", "factor [VIII]"),
        ("†", "†"),
    ] {
        assert_eq!(without_footnote(answer), clean, "{answer}");
    }
}
