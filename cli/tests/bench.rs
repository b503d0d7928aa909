//! The `bench` command's contract, run as users and tools run it: the last line, the
//! per-question JSON, and clear errors for bad input.

use std::io::Read;
use std::path::PathBuf;
use std::process::Command;

/// The command from the repository's root, as users run it: the default model and
/// language-resource folders (`models/…`) are relative to it.
fn gatepath() -> Command {
    let mut command = Command::new(env!("CARGO_BIN_EXE_gatepath"));
    command.current_dir(PathBuf::from(env!("CARGO_MANIFEST_DIR")).join(".."));
    command
}

fn heldout() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/data/condqa-heldout.jsonl")
}

fn scratch(name: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("gatepath-bench-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir.join(name)
}

/// Runs `command` and fails the test with its stderr unless it succeeds.
fn succeeds(command: &mut Command) -> std::process::Output {
    let run = command.output().expect("runs");
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    run
}

/// Parses "EM <x> F1 <y> N <n>".
fn last_line(stdout: &str) -> (f64, f64, usize) {
    let line = stdout.lines().last().expect("some output");
    let parts: Vec<&str> = line.split(' ').collect();
    assert_eq!(parts.len(), 6, "{line:?}");
    assert_eq!(
        (parts[0], parts[2], parts[4]),
        ("EM", "F1", "N"),
        "{line:?}"
    );
    for value in [parts[1], parts[3]] {
        let decimals = value.split('.').nth(1).map_or(0, str::len);
        assert_eq!(decimals, 1, "one decimal: {line:?}");
    }
    (
        parts[1].parse().expect("EM"),
        parts[3].parse().expect("F1"),
        parts[5].parse().expect("N"),
    )
}

#[test]
fn the_last_line_and_the_results_file_follow_the_contract() {
    let out = scratch("results.json");
    let run = succeeds(
        gatepath()
            .args(["bench", "--data"])
            .arg(heldout())
            .arg("--out")
            .arg(&out),
    );
    let stdout = String::from_utf8_lossy(&run.stdout);
    let (em, f1, n) = last_line(&stdout);
    assert_eq!(n, 48);
    // A floor that catches a broken pipeline, well below the measured numbers.
    assert!(em >= 70.0 && f1 >= em, "{stdout}");
    for category in [
        "comorbidity",
        "diagnostic",
        "interaction",
        "special_population",
    ] {
        assert!(stdout.contains(category), "{stdout}");
    }
    let json: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("written")).expect("JSON");
    assert_eq!(json["schema"], 1);
    assert_eq!(json["strategy"], "cgr");
    let items = json["items"].as_array().expect("items");
    assert_eq!(items.len(), 48);
    for item in items {
        for key in [
            "id",
            "question",
            "gold",
            "prediction",
            "em",
            "f1",
            "paths",
            "blocked",
            "conditions",
            "timings_ms",
        ] {
            assert!(item.get(key).is_some(), "{key} missing in {item}");
        }
    }
    // Some question had an edge blocked, with the condition that blocked it.
    assert!(items
        .iter()
        .any(|i| i["blocked"].as_array().is_some_and(|b| b
            .iter()
            .any(|e| e["blocked_by"].as_str().is_some_and(|c| !c.is_empty())))));
    // Evidence paths carry their snippets.
    assert!(items
        .iter()
        .any(|i| i["paths"][0]["edges"][0]["snippets"][0]["text"].is_string()));
}

#[test]
fn gating_matters() {
    let run = |strategy: &str| {
        let o = gatepath()
            .args(["bench", "--strategy", strategy, "--data"])
            .arg(heldout())
            .output()
            .expect("runs");
        assert!(o.status.success());
        last_line(&String::from_utf8_lossy(&o.stdout)).0
    };
    let (gated, ungated) = (run("cgr"), run("cgr-nogate"));
    assert!(
        gated >= ungated + 10.0,
        "cgr {gated} vs cgr-nogate {ungated}"
    );
}

#[test]
fn a_malformed_line_is_reported_with_its_line_and_skipped() {
    let file = scratch("mixed.jsonl");
    let good = std::fs::read_to_string(heldout()).expect("data");
    let first = good.lines().next().expect("a line");
    std::fs::write(&file, format!("{first}\n{{not json\n{first}\n")).expect("write");
    let run = gatepath()
        .args(["bench", "--data"])
        .arg(&file)
        .output()
        .expect("runs");
    assert!(run.status.success());
    let stderr = String::from_utf8_lossy(&run.stderr);
    assert!(stderr.contains("mixed.jsonl:2:"), "{stderr}");
    assert_eq!(last_line(&String::from_utf8_lossy(&run.stdout)).2, 2);
}

#[test]
fn bad_arguments_are_clear_errors() {
    let missing = gatepath()
        .args(["bench", "--data", "/nonexistent/file.jsonl"])
        .output()
        .expect("runs");
    assert!(!missing.status.success());
    assert!(String::from_utf8_lossy(&missing.stderr).contains("/nonexistent/file.jsonl"));

    let strategy = gatepath()
        .args(["bench", "--strategy", "magic", "--data"])
        .arg(heldout())
        .output()
        .expect("runs");
    assert!(!strategy.status.success());
    let stderr = String::from_utf8_lossy(&strategy.stderr);
    assert!(
        stderr.contains("magic") && stderr.contains("cgr-nogate"),
        "{stderr}"
    );

    let empty = scratch("empty.jsonl");
    std::fs::write(&empty, "").expect("write");
    let none = gatepath()
        .args(["bench", "--data"])
        .arg(&empty)
        .output()
        .expect("runs");
    assert!(!none.status.success());
    assert!(String::from_utf8_lossy(&none.stderr).contains("no items"));
}

/// `bench-all` writes one bundle: its schema, the dataset's sha256, one run per
/// strategy with the same numbers `bench` prints, and categories that add up.
#[test]
fn bench_all_writes_a_versioned_bundle_of_every_run() {
    let out = scratch("bundle.json");
    succeeds(
        gatepath()
            .args(["bench-all", "--data"])
            .arg(heldout())
            .args(["--strategy", "cgr", "--strategy", "cgr-nogate", "--out"])
            .arg(&out),
    );
    let bundle: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("bundle")).expect("JSON");
    assert_eq!(bundle["schema"], "gatepath-bench/1");
    assert_eq!(bundle["engine_version"], env!("CARGO_PKG_VERSION"));
    assert!(bundle["created"].as_str().is_some_and(|d| d.ends_with('Z')));
    let dataset = &bundle["datasets"][0];
    assert_eq!(dataset["n"], 48);
    assert_eq!(dataset["format"], "condqa");
    let sha = dataset["sha256"].as_str().expect("sha256");
    assert!(
        sha.len() == 64 && sha.chars().all(|c| c.is_ascii_hexdigit()),
        "{sha}"
    );
    let runs = bundle["runs"].as_array().expect("runs");
    let strategies: Vec<&str> = runs.iter().filter_map(|r| r["strategy"].as_str()).collect();
    assert_eq!(strategies, ["cgr", "cgr-nogate"]);
    // The same numbers as a single `bench` run of the strategy.
    let single = gatepath()
        .args(["bench", "--strategy", "cgr-nogate", "--data"])
        .arg(heldout())
        .output()
        .expect("runs");
    let (em, f1, n) = last_line(&String::from_utf8_lossy(&single.stdout));
    let r = &runs[1];
    assert_eq!(r["n"], n);
    assert!((r["em"].as_f64().unwrap_or(-1.0) - em).abs() < 0.05);
    assert!((r["f1"].as_f64().unwrap_or(-1.0) - f1).abs() < 0.05);
    for r in runs {
        let categories = r["categories"].as_object().expect("categories");
        let total: u64 = categories.values().filter_map(|c| c["n"].as_u64()).sum();
        assert_eq!(total, 48);
        assert_eq!(r["items"].as_array().map(Vec::len), Some(48));
    }
    // The gated strategy is ahead of the ablation, as `gating_matters` says.
    assert!(runs[0]["em"].as_f64() > runs[1]["em"].as_f64());

    // The viewer reads it: every question's stored view replays its prediction, and the
    // gated run's views show blocked edges where the ablation's show none.
    let text = std::fs::read_to_string(&out).expect("bundle");
    let read = answer_view::bundle::Bundle::parse(&text).expect("the viewer reads the bundle");
    assert_eq!(read.table().len(), 2);
    let mut blocked = [0usize; 2];
    for (r, run) in read.runs.iter().enumerate() {
        for (i, item) in run.items.iter().enumerate() {
            let view = read.view(r, i).expect("a stored view");
            assert_eq!(view.question, item.question);
            assert_eq!(view.answer, item.prediction, "{}", item.id);
            assert!(view.documents > 0 && view.graph_edges > 0, "{}", item.id);
            blocked[r] += view.edges.iter().filter(|e| e.blocked.is_some()).count();
        }
    }
    assert!(
        blocked[0] > 0 && blocked[1] == 0,
        "blocked edges shown: {blocked:?}"
    );
    // What the view holds is not repeated in the record.
    assert!(runs[0]["items"][0].get("paths").is_none());
}

/// The benchmark viewer's browser tests read `tests/data/results/bundle.json.gz`. It must be
/// what `bench-all` makes now — the same runs, scores, predictions and stored views —
/// or those tests check a past release's output. When this fails, make it again from
/// the repository's root:
///
/// ```sh
/// gatepath bench-all --data tests/data/condqa-heldout.jsonl --data tests/data/pubmedqa-mini.json \
///   --strategy cgr --strategy cgr-nogate --strategy claims --embedder lexical --embedder minilm \
///   --limit 14 --out tests/data/results/bundle.json.gz
/// ```
#[test]
fn the_committed_results_bundle_is_current() {
    let root = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..");
    let committed_path = root.join("tests/data/results/bundle.json.gz");
    let mut text = String::new();
    flate2::read::GzDecoder::new(std::fs::File::open(&committed_path).expect("the bundle"))
        .read_to_string(&mut text)
        .expect("gzip");
    let committed: serde_json::Value = serde_json::from_str(&text).expect("JSON");
    let out = scratch("current.json");
    let mut command = gatepath();
    command.current_dir(&root).arg("bench-all");
    for dataset in committed["datasets"].as_array().expect("datasets") {
        command.args(["--data", dataset["path"].as_str().expect("a path")]);
    }
    let mut strategies: Vec<&str> = Vec::new();
    for run in committed["runs"].as_array().expect("runs") {
        let s = run["strategy"].as_str().expect("a strategy");
        if !strategies.contains(&s) {
            strategies.push(s);
        }
    }
    for s in &strategies {
        command.args(["--strategy", s]);
    }
    let mut embedders: Vec<&str> = Vec::new();
    for run in committed["runs"].as_array().expect("runs") {
        let e = match run["embedder"].as_str().expect("an embedder") {
            "lexical" => "lexical",
            _ => "minilm",
        };
        if !embedders.contains(&e) {
            embedders.push(e);
        }
    }
    for e in &embedders {
        command.args(["--embedder", e]);
    }
    command.args(["--model-dir", "models/all-minilm-l6-v2"]);
    command.args(["--limit", "14", "--out"]).arg(&out);
    succeeds(&mut command);
    let current: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&out).expect("bundle")).expect("JSON");
    assert_eq!(committed["schema"], current["schema"]);
    assert_eq!(
        committed["datasets"], current["datasets"],
        "datasets or their sha256 changed"
    );
    let (old, new) = (&committed["runs"], &current["runs"]);
    assert_eq!(old.as_array().map(Vec::len), new.as_array().map(Vec::len));
    let stale = "tests/data/results/bundle.json.gz is stale: make it again (see this test's doc)";
    for (a, b) in old
        .as_array()
        .into_iter()
        .flatten()
        .zip(new.as_array().into_iter().flatten())
    {
        for key in [
            "data",
            "strategy",
            "embedder",
            "em",
            "f1",
            "n",
            "categories",
        ] {
            assert_eq!(a[key], b[key], "{stale}: run {} {key}", a["strategy"]);
        }
        let items = |r: &serde_json::Value| r["items"].as_array().cloned().unwrap_or_default();
        for (x, y) in items(a).iter().zip(items(b).iter()) {
            for key in ["id", "prediction", "em", "f1"] {
                assert_eq!(
                    x[key], y[key],
                    "{stale}: {} {} {key}",
                    a["strategy"], x["id"]
                );
            }
            // Model scores in a view differ in their last digits from CPU to CPU.
            if let Err(at) = same_within(&x["view"], &y["view"], "view") {
                panic!("{stale}: {} {} {at}", a["strategy"], x["id"]);
            }
        }
    }
}

/// Relative tolerance for floats a model computed: SIMD paths of different CPUs sum in
/// other orders, so the 7th significant digit may differ.
const FLOAT_TOLERANCE: f64 = 1e-4;

/// Whether two JSON values are the same, numbers within [`FLOAT_TOLERANCE`] and all
/// else exactly; `Err` names the first place they differ.
fn same_within(a: &serde_json::Value, b: &serde_json::Value, at: &str) -> Result<(), String> {
    use serde_json::Value;
    match (a, b) {
        (Value::Number(x), Value::Number(y)) => {
            let (x, y) = (
                x.as_f64().unwrap_or(f64::NAN),
                y.as_f64().unwrap_or(f64::NAN),
            );
            let scale = x.abs().max(y.abs()).max(1.0);
            if (x - y).abs() <= FLOAT_TOLERANCE * scale {
                Ok(())
            } else {
                Err(format!("{at}: {x} != {y}"))
            }
        }
        (Value::Array(xs), Value::Array(ys)) if xs.len() == ys.len() => xs
            .iter()
            .zip(ys)
            .enumerate()
            .try_for_each(|(i, (x, y))| same_within(x, y, &format!("{at}[{i}]"))),
        (Value::Object(xs), Value::Object(ys)) if xs.len() == ys.len() => {
            xs.iter().try_for_each(|(k, x)| match ys.get(k) {
                Some(y) => same_within(x, y, &format!("{at}.{k}")),
                None => Err(format!("{at}.{k} missing")),
            })
        }
        _ if a == b => Ok(()),
        _ => Err(format!("{at}: {a} != {b}")),
    }
}

#[test]
fn json_comparison_tolerates_only_float_noise() {
    use serde_json::json;
    let a = json!({"s": 1.2656712, "n": [1, "x"], "k": true});
    assert!(same_within(&a, &json!({"s": 1.2656715, "n": [1, "x"], "k": true}), "v").is_ok());
    assert_eq!(
        same_within(&a, &json!({"s": 1.27, "n": [1, "x"], "k": true}), "v"),
        Err("v.s: 1.2656712 != 1.27".to_string())
    );
    assert!(same_within(&a, &json!({"s": 1.2656712, "n": [1, "y"], "k": true}), "v").is_err());
    assert!(same_within(&a, &json!({"s": 1.2656712, "n": [1], "k": true}), "v").is_err());
}
