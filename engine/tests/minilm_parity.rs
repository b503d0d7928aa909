//! all-MiniLM-L6-v2 natively on the CPU backend against the reference forward pass in
//! `tests/fixtures/minilm-l6-v2.reference.json` (a numpy implementation outside this
//! project): token ids exactly, every embedding within 1e-4 max-abs, the cosine matrix
//! within 1e-4. The weights come from `models/` (`scripts/setup.sh` fetches them).

mod common;

use engine::compute::Compute;
use engine::embed::cosine;
use engine::model::bert::{BertEmbedder, ModelFiles, Pooling, Precision};
use engine::model::ModelError;

struct Model {
    config: Vec<u8>,
    weights: Vec<u8>,
    tokenizer: Vec<u8>,
}

impl Model {
    fn minilm() -> Model {
        let dir = "models/all-minilm-l6-v2";
        Model {
            config: common::read(&format!("{dir}/config.json")),
            weights: common::read(&format!("{dir}/model.safetensors")),
            tokenizer: common::read(&format!("{dir}/tokenizer.json")),
        }
    }

    fn files(&self) -> ModelFiles<'_> {
        ModelFiles {
            config: &self.config,
            weights: &self.weights,
            tokenizer: &self.tokenizer,
        }
    }

    fn load(&self) -> Result<BertEmbedder, ModelError> {
        BertEmbedder::load(
            "all-MiniLM-L6-v2",
            self.files(),
            Pooling::Mean,
            &Compute::cpu(),
        )
    }
}

struct Case {
    text: String,
    ids: Vec<u32>,
    embedding: Vec<f32>,
}

fn reference() -> (Vec<Case>, Vec<Vec<f32>>) {
    let json = common::fixture("minilm-l6-v2.reference.json");
    let floats = |v: &serde_json::Value| -> Vec<f32> {
        v.as_array()
            .expect("array")
            .iter()
            .map(|x| x.as_f64().expect("number") as f32)
            .collect()
    };
    let cases = json["cases"]
        .as_array()
        .expect("cases")
        .iter()
        .map(|c| Case {
            text: c["text"].as_str().expect("text").to_string(),
            ids: c["token_ids"]
                .as_array()
                .expect("ids")
                .iter()
                .map(|x| x.as_u64().expect("id") as u32)
                .collect(),
            embedding: floats(&c["embedding"]),
        })
        .collect();
    let cosine = json["cosine"]
        .as_array()
        .expect("cosine")
        .iter()
        .map(floats)
        .collect();
    (cases, cosine)
}

fn max_abs(a: &[f32], b: &[f32]) -> f32 {
    assert_eq!(a.len(), b.len());
    a.iter()
        .zip(b)
        .map(|(x, y)| (x - y).abs())
        .fold(0.0, f32::max)
}

#[test]
fn minilm_matches_the_reference_on_the_cpu_backend() {
    let model = Model::minilm();
    let mut embedder = model.load().expect("loads");
    let (cases, cosines) = reference();
    assert!(cases.len() >= 8);
    for case in &cases {
        let encoded = embedder.tokenize(&case.text).expect("tokenizes");
        assert_eq!(encoded.ids, case.ids, "token ids of {:?}", case.text);
        assert!(!encoded.truncated);
    }
    // One batch with padding (the texts differ in length).
    let texts: Vec<String> = cases.iter().map(|c| c.text.clone()).collect();
    let out = pollster::block_on(embedder.embed_texts(&texts)).expect("embeds");
    let mut worst = 0.0f32;
    for (case, e) in cases.iter().zip(&out) {
        let d = max_abs(&e.vector, &case.embedding);
        worst = worst.max(d);
        assert!(d <= 1e-4, "{:?}: max abs diff {d}", case.text);
    }
    println!("worst max-abs difference to the reference: {worst:e}");
    for (i, row) in cosines.iter().enumerate() {
        for (j, expected) in row.iter().enumerate() {
            let c = cosine(&out[i].vector, &out[j].vector);
            assert!(
                (c - expected).abs() <= 1e-4,
                "cosine[{i}][{j}] = {c}, reference {expected}"
            );
        }
    }
}

#[test]
fn batching_does_not_change_a_vector_and_repeats_are_reused() {
    let model = Model::minilm();
    let texts: Vec<String> = [
        "Warfarin is a vitamin K antagonist.",
        "Ultrasound is the preferred first-line imaging modality in pediatric patients.",
        "",
        "Warfarin is a vitamin K antagonist.",
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    let mut batched = model.load().expect("loads").with_batch_size(8);
    let together = pollster::block_on(batched.embed_texts(&texts)).expect("embeds");
    let mut single = model.load().expect("loads").with_batch_size(1);
    for (t, e) in texts.iter().zip(&together) {
        let alone =
            pollster::block_on(single.embed_texts(std::slice::from_ref(t))).expect("embeds");
        assert!(max_abs(&alone[0].vector, &e.vector) <= 1e-5, "{t:?}");
        let norm: f32 = e.vector.iter().map(|x| x * x).sum::<f32>().sqrt();
        assert!((norm - 1.0).abs() < 1e-4, "{t:?} norm {norm}");
    }
    assert_eq!(together[0], together[3]);
}

#[test]
fn long_inputs_are_truncated_with_a_flag() {
    let model = Model::minilm();
    let mut embedder = model.load().expect("loads");
    let long = "thrombosis ".repeat(700);
    let encoded = embedder.tokenize(&long).expect("tokenizes");
    assert!(encoded.truncated);
    assert_eq!(encoded.ids.len(), 512);
    assert_eq!(encoded.ids.last(), Some(&102), "ends with [SEP]");
    let out = pollster::block_on(embedder.embed_texts(&[long])).expect("embeds");
    assert!(out[0].truncated);
    assert_eq!(out[0].vector.len(), 384);
}

#[test]
fn broken_files_are_errors() {
    let model = Model::minilm();
    let cut = &model.weights[..model.weights.len() / 2];
    let truncated = BertEmbedder::load(
        "x",
        ModelFiles {
            weights: cut,
            ..model.files()
        },
        Pooling::Mean,
        &Compute::cpu(),
    );
    assert!(
        matches!(truncated, Err(ModelError::Safetensors(_))),
        "{:?}",
        truncated.err()
    );
    let small = String::from_utf8(model.config.clone())
        .unwrap()
        .replace("\"hidden_size\": 384", "\"hidden_size\": 768");
    let wrong = BertEmbedder::load(
        "x",
        ModelFiles {
            config: small.as_bytes(),
            ..model.files()
        },
        Pooling::Mean,
        &Compute::cpu(),
    );
    assert!(
        matches!(wrong, Err(ModelError::Shape { .. })),
        "{:?}",
        wrong.err()
    );
    let no_tokenizer = BertEmbedder::load(
        "x",
        ModelFiles {
            tokenizer: b"{}",
            ..model.files()
        },
        Pooling::Mean,
        &Compute::cpu(),
    );
    assert!(matches!(no_tokenizer, Err(ModelError::Tokenizer(_))));
}

#[test]
fn with_8_bit_block_weights_every_vector_stays_within_cosine_0_995() {
    let model = Model::minilm();
    let mut embedder = BertEmbedder::load_with(
        "all-MiniLM-L6-v2 q8",
        model.files(),
        Pooling::Mean,
        Precision::Q8Block32,
        &Compute::cpu(),
    )
    .expect("loads");
    let (cases, cosines) = reference();
    let texts: Vec<String> = cases.iter().map(|c| c.text.clone()).collect();
    let out = pollster::block_on(embedder.embed_texts(&texts)).expect("embeds");
    let mut worst = 1.0f32;
    for (case, e) in cases.iter().zip(&out) {
        let c = cosine(&e.vector, &case.embedding);
        worst = worst.min(c);
        assert!(c >= 0.995, "{:?}: cosine {c}", case.text);
    }
    let mut matrix = 0.0f32;
    for (i, row) in cosines.iter().enumerate() {
        for (j, expected) in row.iter().enumerate() {
            matrix = matrix.max((cosine(&out[i].vector, &out[j].vector) - expected).abs());
        }
    }
    println!("q8: lowest cosine to the reference {worst}, cosine matrix within {matrix:e}");
    assert!(matrix <= 1e-2, "cosine matrix off by {matrix}");
}
