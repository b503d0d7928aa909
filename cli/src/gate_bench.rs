//! `gatepath gate-bench`: how long gating (Eq. 1 over every edge) and the breadth-first
//! walk take on a large synthetic graph. Prints numbers; asserts nothing about time.
//!
//! The graph is deterministic (a fixed-seed generator): `--edges` tuples between
//! `--nodes` entities, each edge carrying 0–3 of `--conditions` distinct condition
//! phrases, a quarter of them negated. The condition table makes 10% of phrases true,
//! 10% false and leaves the rest unknown, like a question that speaks to a few of them.

use std::time::Instant;

use engine::gate::{reachable, walk, ConditionTable, Gate, GateConfig, Truth, WalkConfig};
use engine::graph::{Condition, GraphBuilder, NodeId, Relation, Tuple};
use engine::text::Span;

#[derive(clap::Args)]
pub struct Args {
    /// Number of edges.
    #[arg(long, default_value_t = 1_000_000)]
    edges: usize,
    /// Number of entities.
    #[arg(long, default_value_t = 200_000)]
    nodes: usize,
    /// Number of distinct condition phrases.
    #[arg(long, default_value_t = 2_000)]
    conditions: usize,
    /// Entry nodes for the walks.
    #[arg(long, default_value_t = 5)]
    entries: usize,
    /// Repetitions of each timed step (the median is printed).
    #[arg(long, default_value_t = 5)]
    repeat: usize,
}

/// A small fixed-seed generator (splitmix64): the same graph on every run and machine.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }
}

fn median_ms(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn timed<T>(repeat: usize, mut f: impl FnMut() -> T) -> (T, f64) {
    let mut samples = Vec::with_capacity(repeat);
    let mut last = None;
    for _ in 0..repeat.max(1) {
        let start = Instant::now();
        last = Some(f());
        samples.push(start.elapsed().as_secs_f64() * 1e3);
    }
    match last {
        Some(value) => (value, median_ms(samples)),
        None => unreachable!("repeat.max(1) runs at least once"),
    }
}

pub fn run(args: &Args) -> Result<(), String> {
    if args.nodes < 2 || args.edges == 0 || args.conditions == 0 {
        return Err("gate-bench needs at least 2 nodes, 1 edge and 1 condition".into());
    }
    let mut rng = Rng(42);
    let span = Span {
        doc: 0,
        range: 0..0,
    };
    let start = Instant::now();
    let mut builder = GraphBuilder::new();
    for _ in 0..args.edges {
        let u = rng.below(args.nodes);
        let mut v = rng.below(args.nodes);
        if v == u {
            v = (u + 1) % args.nodes;
        }
        let conditions = (0..rng.below(4))
            .map(|_| {
                let phrase = format!("condition {}", rng.below(args.conditions));
                if rng.below(4) == 0 {
                    Condition::excludes(phrase)
                } else {
                    Condition::holds(phrase)
                }
            })
            .collect();
        builder.add(Tuple::new(
            format!("entity {u}"),
            Relation::TreatedBy,
            format!("entity {v}"),
            conditions,
            span.clone(),
        ));
    }
    let (graph, _) = builder.build();
    let build_ms = start.elapsed().as_secs_f64() * 1e3;

    let mut table = ConditionTable::new();
    for c in 0..args.conditions {
        match rng.below(10) {
            0 => table.set(&format!("condition {c}"), Truth::True),
            1 => table.set(&format!("condition {c}"), Truth::False),
            _ => {}
        }
    }
    let entries: Vec<NodeId> = (0..args.entries)
        .filter_map(|i| graph.find(&format!("entity {}", i * 7919 % args.nodes)))
        .collect();

    let (gate, gate_ms) = timed(args.repeat, || {
        Gate::new(&graph, &table, GateConfig::default())
    });
    let (ungated, ungated_ms) = timed(args.repeat, || {
        Gate::new(&graph, &table, GateConfig { enabled: false })
    });
    println!(
        "graph: {} nodes, {} edges, {} distinct conditions (built in {build_ms:.0} ms)",
        graph.node_count(),
        graph.edge_count(),
        graph.condition_phrases().len()
    );
    println!(
        "gate (Eq. 1 over every edge): {gate_ms:.1} ms, {} open / {} blocked; without gating {ungated_ms:.1} ms",
        gate.open_count(),
        graph.edge_count() - gate.open_count()
    );
    for depth in [1, 2, 3] {
        let ((seen, visits), ms) = timed(args.repeat, || reachable(&graph, &gate, &entries, depth));
        let ((seen_all, _), ms_all) =
            timed(args.repeat, || reachable(&graph, &ungated, &entries, depth));
        println!(
            "BFS d_max={depth} from {} entries: {ms:.2} ms, {} nodes reached, {visits} edge visits \
             (ungated {ms_all:.2} ms, {} nodes)",
            entries.len(),
            seen.count_ones(..),
            seen_all.count_ones(..)
        );
    }
    let config = WalkConfig {
        max_depth: 2,
        max_paths: 100_000,
    };
    let (outcome, walk_ms) = timed(args.repeat, || walk(&graph, &gate, &entries, config));
    println!(
        "path walk d_max=2: {walk_ms:.2} ms, {} paths{}",
        outcome.paths.len(),
        if outcome.truncated { " (capped)" } else { "" }
    );
    println!(
        "gate + BFS d_max=2 total: {:.1} ms",
        gate_ms + timed(args.repeat, || reachable(&graph, &gate, &entries, 2)).1
    );
    Ok(())
}
