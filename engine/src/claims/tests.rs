use std::collections::BTreeMap;

use super::summarize::{fitted, kmeans};
use super::*;
use crate::embed::EmbedError;
use crate::graph::{Condition, GraphBuilder, Tuple};

fn claim_between(text: &str, a: u32, b: u32) -> Claim {
    Claim {
        edge: EdgeId(0),
        ends: (NodeId(a), NodeId(b)),
        triple: (a.to_string(), "r".into(), b.to_string()),
        text: text.to_string(),
        sources: Vec::new(),
        relevance: 0.0,
    }
}

fn unit(x: f32, y: f32, z: f32) -> Vec<f32> {
    let n = (x * x + y * y + z * z).sqrt();
    vec![x / n, y / n, z / n]
}

/// Texts to fixed vectors.
struct Table(BTreeMap<String, Vec<f32>>);

impl Embedder for Table {
    fn name(&self) -> &str {
        "table"
    }
    async fn embed(&mut self, texts: &[String]) -> Result<Vec<Vec<f32>>, EmbedError> {
        texts
            .iter()
            .map(|t| {
                self.0
                    .get(t)
                    .cloned()
                    .ok_or_else(|| EmbedError::NotReady(format!("no vector for {t:?}")))
            })
            .collect()
    }
}

/// Records what it was asked; its summary is one word naming the call.
#[derive(Default)]
struct Recorder {
    limit: usize,
    calls: Vec<(Option<usize>, usize)>,
}

impl Summarizer for Recorder {
    fn name(&self) -> &str {
        "recorder"
    }
    fn max_input_words(&self) -> usize {
        self.limit
    }
    async fn summarize(
        &mut self,
        graph: &ClaimGraph,
        _question: &str,
        focus: Option<usize>,
        inputs: &[Summary],
    ) -> Result<Summary, ClaimsError> {
        let focus_words = focus.map_or(0, |f| graph.claims[f].text.split_whitespace().count());
        let words = focus_words + inputs.iter().map(Summary::words).sum::<usize>();
        self.calls.push((focus, words));
        let mut claims: Vec<usize> = focus.into_iter().collect();
        claims.extend(inputs.iter().flat_map(|s| s.claims.iter().copied()));
        Ok(Summary {
            text: format!("s{}", self.calls.len()),
            claims,
        })
    }
}

/// a–b–c–d along a chain from claim 0, with claim 3 off b and claim 4 elsewhere:
/// 0 = (1,2), 1 = (2,3), 2 = (3,4), 3 = (2,5), 4 = (8,9).
fn chain() -> ClaimGraph {
    ClaimGraph::from_claims(vec![
        claim_between("zero", 1, 2),
        claim_between("one", 2, 3),
        claim_between("two", 3, 4),
        claim_between("three", 2, 5),
        claim_between("four", 8, 9),
    ])
}

#[test]
fn claims_sharing_an_entity_are_neighbours() {
    let g = chain();
    assert_eq!(g.neighbours(0), &[1, 3]);
    assert_eq!(g.neighbours(1), &[0, 2, 3]);
    assert_eq!(g.neighbours(4), &[] as &[usize]);
}

#[test]
fn layers_are_hop_distances_from_the_claim_of_interest() {
    let g = chain();
    assert_eq!(layers(&g, 0), vec![vec![0], vec![1, 3], vec![2]]);
    assert_eq!(layers(&g, 2), vec![vec![2], vec![1], vec![0, 3]]);
    assert_eq!(layers(&g, 4), vec![vec![4]]);
    assert!(layers(&g, 9).is_empty());
}

#[test]
fn summaries_are_made_from_the_outermost_layer_inward() {
    let g = chain();
    let mut recorder = Recorder {
        limit: 100,
        ..Recorder::default()
    };
    let layered = pollster::block_on(summarize_layers(&g, "q", 0, &mut recorder)).unwrap();
    // Made in order: layer 2 (claim 2), layer 1 (claims 1 and 3), then the root.
    let order: Vec<(usize, usize)> = layered.nodes.iter().map(|n| (n.claim, n.layer)).collect();
    assert_eq!(order, vec![(2, 2), (1, 1), (3, 1), (0, 0)]);
    // Claims with nothing further out (2 and 3) are their own summaries: no call.
    // Claim 1 is summarised from claim 2 ("one" + "two"), the root from 1 and 3
    // ("zero" + "s1" + "three").
    assert_eq!(recorder.calls, vec![(Some(1), 2), (Some(0), 3)]);
    assert_eq!(layered.node(1).unwrap().children, vec![2]);
    assert_eq!(layered.node(0).unwrap().children, vec![1, 3]);
    assert_eq!(layered.node(3).unwrap().summary.text, "three");
    let root = layered.summary().unwrap();
    assert_eq!(root.text, "s2");
    // The root's summary reaches every claim of its component and none outside it.
    let mut reached = root.claims.clone();
    reached.sort_unstable();
    assert_eq!(reached, vec![0, 1, 2, 3]);
}

#[test]
fn the_extractive_summary_takes_the_focus_then_relevant_claims_that_are_not_repeats() {
    // Question along x. f is the focus (irrelevant itself); x is the most relevant; y
    // nearly repeats x; z is less relevant but says something else.
    let mut g = ClaimGraph::from_claims(vec![
        claim_between("f", 1, 2),
        claim_between("x", 2, 3),
        claim_between("y", 2, 4),
        claim_between("z", 2, 5),
    ]);
    g.vectors = vec![
        unit(0.0, 0.0, 1.0),
        unit(0.9, 0.436, 0.0),
        unit(0.85, 0.527, 0.0),
        unit(0.5, -0.866, 0.0),
    ];
    let inputs: Vec<Summary> = [1, 2, 3].map(|c| Summary::of_claim(&g, c)).to_vec();
    let ex = Extractive::new(unit(1.0, 0.0, 0.0), 3);
    // After f: x scores 0.7·0.9 = 0.63 against y's 0.595 and z's 0.35. Then y scores
    // 0.595 − 0.3·0.995 = 0.297 and z 0.35 − 0.3·0.072 = 0.328: z.
    assert_eq!(ex.select(&g, Some(0), &inputs), vec![0, 1, 3]);
    let mut ex = ex;
    let summary = pollster::block_on(ex.summarize(&g, "q", Some(0), &inputs)).unwrap();
    assert_eq!(summary.text, "f x z");
    // Budget 1: the focus alone.
    assert_eq!(
        Extractive::new(unit(1.0, 0.0, 0.0), 1).select(&g, Some(0), &inputs),
        vec![0]
    );
}

#[test]
fn claims_of_interest_are_reranked_by_test_summaries_and_spread_apart() {
    // 0 = (1,2), 1 = (2,3), 2 = (4,5), 3 = (5,6): 0–1 and 2–3 are neighbours.
    let mut g = ClaimGraph::from_claims(vec![
        claim_between("a", 1, 2),
        claim_between("b", 2, 3),
        claim_between("c", 4, 5),
        claim_between("d", 5, 6),
    ]);
    let q = unit(1.0, 0.0, 0.0);
    let mut table = Table(BTreeMap::from([
        ("a".into(), unit(1.0, 0.0, 0.0)),
        ("b".into(), unit(0.8, 0.6, 0.0)),
        ("c".into(), unit(0.6, 0.8, 0.0)),
        ("d".into(), unit(0.0, 1.0, 0.0)),
        ("question".into(), q.clone()),
        // The test summaries (focus first, then its neighbour; budget 2).
        ("a b".into(), unit(0.6, 0.8, 0.0)),
        ("b a".into(), unit(0.9, 0.436, 0.0)),
        ("c d".into(), unit(0.7, 0.714, 0.0)),
    ]));
    let question_vec = pollster::block_on(g.score("question", &mut table)).unwrap();
    let relevance: Vec<f32> = g
        .claims
        .iter()
        .map(|c| (c.relevance * 10.0).round() / 10.0)
        .collect();
    assert_eq!(relevance, vec![1.0, 0.8, 0.6, 0.0]);
    let config = ClaimsConfig {
        candidates: 3,
        ..ClaimsConfig::default()
    };
    let mut summarizer = Extractive::new(question_vec.clone(), 2);
    let interests = pollster::block_on(claims_of_interest(
        &g,
        "question",
        &question_vec,
        &config,
        &mut summarizer,
        &mut table,
    ))
    .unwrap();
    // Top 3 by relevance: a, b, c. Their test summaries score 0.6, 0.9 and 0.7, so the
    // order is b, c, a; a neighbours b and is dropped.
    let picked: Vec<(usize, &str)> = interests
        .iter()
        .map(|i| (i.claim, i.test_summary.text.as_str()))
        .collect();
    assert_eq!(picked, vec![(1, "b a"), (2, "c d")]);
}

#[test]
fn kmeans_separates_two_directions() {
    let v = vec![
        unit(1.0, 0.1, 0.0),
        unit(0.0, 1.0, 0.1),
        unit(1.0, 0.0, 0.1),
        unit(0.1, 1.0, 0.0),
    ];
    assert_eq!(kmeans(&v, 2), vec![vec![0, 2], vec![1, 3]]);
    assert_eq!(kmeans(&v, 1), vec![vec![0, 1, 2, 3]]);
    assert!(kmeans(&[], 3).is_empty());
}

#[test]
fn the_context_guard_summarises_groups_before_the_claim_when_inputs_are_too_long() {
    // The focus has 2 words; four inputs of 3 words each: 14 words against a limit of 8.
    let mut g = ClaimGraph::from_claims(vec![
        claim_between("focus claim", 1, 2),
        claim_between("p one two", 2, 3),
        claim_between("q one two", 2, 4),
        claim_between("r one two", 2, 5),
        claim_between("s one two", 2, 6),
    ]);
    g.vectors = vec![
        unit(0.0, 0.0, 1.0),
        unit(1.0, 0.1, 0.0),
        unit(0.0, 1.0, 0.1),
        unit(1.0, 0.0, 0.1),
        unit(0.1, 1.0, 0.0),
    ];
    let inputs: Vec<Summary> = (1..5).map(|c| Summary::of_claim(&g, c)).collect();
    let mut recorder = Recorder {
        limit: 8,
        ..Recorder::default()
    };
    let summary = pollster::block_on(fitted(&g, "q", 0, inputs.clone(), &mut recorder)).unwrap();
    let (last, groups) = recorder.calls.split_last().unwrap();
    // Groups were summarised first, without a focus; the claim's own call fits.
    assert!(!groups.is_empty());
    assert!(groups
        .iter()
        .all(|(focus, words)| focus.is_none() && *words <= 8));
    assert_eq!(last.0, Some(0));
    assert!(last.1 <= 8, "the final call took {} words", last.1);
    // Nothing was lost on the way: every input's claim is a source of the summary.
    let mut sources = summary.claims.clone();
    sources.sort_unstable();
    assert_eq!(sources, vec![0, 1, 2, 3, 4]);

    // Inputs that fit go straight in.
    let mut roomy = Recorder {
        limit: 100,
        ..Recorder::default()
    };
    pollster::block_on(fitted(&g, "q", 0, inputs, &mut roomy)).unwrap();
    assert_eq!(roomy.calls, vec![(Some(0), 14)]);
}

#[test]
fn a_claim_says_its_triple_and_conditions_as_a_sentence() {
    let span = crate::text::Span {
        doc: 0,
        range: 0..1,
    };
    let mut b = GraphBuilder::new();
    b.add(Tuple::new(
        "Lyme disease",
        Relation::TreatedBy,
        "doxycycline",
        vec![Condition::excludes("during pregnancy")],
        span.clone(),
    ));
    b.add(Tuple::new(
        "Lyme disease",
        Relation::PreferredTreatment,
        "amoxicillin",
        vec![Condition::holds("during pregnancy")],
        span,
    ));
    b.add(Tuple::new(
        "doxycycline",
        Relation::ContraindicatedIn,
        "during pregnancy",
        vec![Condition::holds("during pregnancy")],
        crate::text::Span {
            doc: 0,
            range: 0..1,
        },
    ));
    let (graph, _) = b.build();
    let g = ClaimGraph::new(&graph, |_| true);
    let texts: Vec<&str> = g.claims.iter().map(|c| c.text.as_str()).collect();
    assert_eq!(
        texts,
        vec![
            "Lyme disease can be treated with doxycycline, not during pregnancy.",
            "Amoxicillin is the preferred treatment for Lyme disease, during pregnancy.",
            "Doxycycline is contraindicated during pregnancy."
        ]
    );
    assert_eq!(g.neighbours(0), &[1, 2]);
    // Gating: a closed edge's claim is left out.
    let first = graph.edges().next().unwrap();
    assert_eq!(ClaimGraph::new(&graph, |e| e != first).claims.len(), 2);
}

#[test]
fn numeric_names_are_those_mostly_digits() {
    assert!(is_numeric("CD4 200"));
    assert!(is_numeric("2024"));
    assert!(is_numeric("500 mg"));
    assert!(!is_numeric("type 2 diabetes"));
    assert!(!is_numeric("H2 blockers"));
    assert!(!is_numeric(""));
}
