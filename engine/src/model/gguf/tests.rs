use super::*;

/// A GGUF writer for tests: metadata as (key, type id, payload bytes), tensors as
/// (name, GGUF-order dims, type id, data).
struct File {
    version: u32,
    metadata: Vec<(String, u32, Vec<u8>)>,
    tensors: Vec<(String, Vec<u64>, u32, Vec<u8>)>,
}

fn string(s: &str) -> Vec<u8> {
    let mut out = (s.len() as u64).to_le_bytes().to_vec();
    out.extend_from_slice(s.as_bytes());
    out
}

impl File {
    fn new() -> Self {
        File {
            version: 3,
            metadata: Vec::new(),
            tensors: Vec::new(),
        }
    }

    fn meta(mut self, key: &str, kind: u32, payload: Vec<u8>) -> Self {
        self.metadata.push((key.to_string(), kind, payload));
        self
    }

    fn tensor(mut self, name: &str, dims: &[u64], kind: u32, data: Vec<u8>) -> Self {
        self.tensors
            .push((name.to_string(), dims.to_vec(), kind, data));
        self
    }

    fn bytes(&self) -> Vec<u8> {
        let mut out = b"GGUF".to_vec();
        out.extend(self.version.to_le_bytes());
        out.extend((self.tensors.len() as u64).to_le_bytes());
        out.extend((self.metadata.len() as u64).to_le_bytes());
        for (k, kind, payload) in &self.metadata {
            out.extend(string(k));
            out.extend(kind.to_le_bytes());
            out.extend(payload);
        }
        let mut offset = 0u64;
        let mut offsets = Vec::new();
        for (name, dims, kind, data) in &self.tensors {
            out.extend(string(name));
            out.extend((dims.len() as u32).to_le_bytes());
            for d in dims {
                out.extend(d.to_le_bytes());
            }
            out.extend(kind.to_le_bytes());
            out.extend(offset.to_le_bytes());
            offsets.push(offset);
            offset += (data.len() as u64).div_ceil(32) * 32;
        }
        while !out.len().is_multiple_of(32) {
            out.push(0);
        }
        for (_, _, _, data) in &self.tensors {
            out.extend(data);
            while !out.len().is_multiple_of(32) {
                out.push(0);
            }
        }
        out
    }
}

fn f16(x: f32) -> [u8; 2] {
    half::f16::from_f32(x).to_le_bytes()
}

/// One file with every readable tensor type and every metadata type in use.
fn sample() -> Vec<u8> {
    let mut q4_1 = Vec::new();
    q4_1.extend(f16(0.5));
    q4_1.extend(f16(-1.0));
    q4_1.push(0x21); // element 0 = 1, element 16 = 2
    q4_1.extend([0u8; 15]);
    let mut q4_0 = Vec::new();
    q4_0.extend(f16(2.0));
    q4_0.push(0x0f); // element 0 = 15, element 16 = 0
    q4_0.extend([0x88u8; 15]);
    let mut q8_0 = Vec::new();
    q8_0.extend(f16(0.25));
    q8_0.push((-4i8) as u8);
    q8_0.extend([1u8; 31]);
    let f32s: Vec<u8> = [1.5f32, -2.0, 3.25, 0.0, 4.0, 5.0]
        .iter()
        .flat_map(|v| v.to_le_bytes())
        .collect();
    let f16s: Vec<u8> = [0.5f32, -0.25].iter().flat_map(|&v| f16(v)).collect();
    let mut tokens = 8u32.to_le_bytes().to_vec(); // an array of strings
    tokens.extend(2u64.to_le_bytes());
    tokens.extend(string("a"));
    tokens.extend(string("Ġb"));
    File::new()
        .meta("general.architecture", 8, string("llama"))
        .meta("llama.block_count", 4, 2u32.to_le_bytes().to_vec())
        .meta("llama.rope.freq_base", 6, 10000.0f32.to_le_bytes().to_vec())
        .meta("flag", 7, vec![1])
        .meta("big", 10, 7u64.to_le_bytes().to_vec())
        .meta("tokenizer.ggml.tokens", 9, tokens)
        .tensor("w.f32", &[3, 2], 0, f32s)
        .tensor("w.f16", &[2], 1, f16s)
        .tensor("w.q4_1", &[32], 3, q4_1)
        .tensor("w.q4_0", &[32], 2, q4_0)
        .tensor("w.q8_0", &[32], 8, q8_0)
        .tensor("w.q6_k", &[256], 14, vec![0u8; 210])
        .bytes()
}

#[test]
fn reads_metadata_of_every_kind() {
    let bytes = sample();
    let g = Gguf::parse(&bytes).unwrap();
    assert_eq!(g.version, 3);
    assert_eq!(g.str("general.architecture").unwrap(), "llama");
    assert_eq!(g.u64("llama.block_count").unwrap(), 2);
    assert_eq!(g.f64("llama.rope.freq_base").unwrap(), 10000.0);
    assert_eq!(g.get("flag"), Some(&Value::Bool(true)));
    assert_eq!(g.u64("big").unwrap(), 7);
    assert_eq!(g.strings("tokenizer.ggml.tokens").unwrap(), vec!["a", "Ġb"]);
    assert!(matches!(g.u64("missing"), Err(GgufError::MissingKey(_))));
    assert!(matches!(
        g.u64("general.architecture"),
        Err(GgufError::KeyType { .. })
    ));
}

#[test]
fn dequantizes_each_block_type_by_hand() {
    let bytes = sample();
    let g = Gguf::parse(&bytes).unwrap();
    let (shape, v) = g.f32("w.f32").unwrap();
    // GGUF dims [3, 2] (innermost first) are row-major [2, 3].
    assert_eq!(shape, vec![2, 3]);
    assert_eq!(v, vec![1.5, -2.0, 3.25, 0.0, 4.0, 5.0]);
    assert_eq!(g.f32("w.f16").unwrap().1, vec![0.5, -0.25]);

    // Q4_1: q·d + m with d = 0.5, m = -1; low nibbles are elements 0..16.
    let (_, v) = g.f32("w.q4_1").unwrap();
    assert_eq!(v.len(), 32);
    assert_eq!(v[0], -0.5);
    assert_eq!(v[1], -1.0);
    assert_eq!(v[16], 0.0);
    // Q4_0: (q − 8)·d with d = 2.
    let (_, v) = g.f32("w.q4_0").unwrap();
    assert_eq!(v[0], 14.0);
    assert_eq!(v[16], -16.0);
    assert_eq!(v[1], 0.0);
    // Q8_0: q·d with d = 0.25.
    let (_, v) = g.f32("w.q8_0").unwrap();
    assert_eq!(v[0], -1.0);
    assert_eq!(v[31], 0.25);
}

#[test]
fn unreadable_and_missing_tensors_are_named() {
    let bytes = sample();
    let g = Gguf::parse(&bytes).unwrap();
    assert_eq!(g.tensors().len(), 6);
    assert_eq!(g.tensor("w.q6_k").unwrap().kind, GgmlType::Other(14));
    assert!(matches!(
        g.f32("w.q6_k"),
        Err(GgufError::TensorType { ref name, .. }) if name == "w.q6_k"
    ));
    assert!(matches!(g.f32("nope"), Err(GgufError::MissingTensor(_))));
}

#[test]
fn every_truncation_is_an_error() {
    let bytes = sample();
    // The file parses exactly when every readable tensor's data is present: the last one
    // (Q8_0) ends here; the unreadable Q6_K after it is listed, never read.
    let full = Gguf::parse(&bytes).unwrap();
    let (_, last) = full.blocks("w.q8_0").unwrap();
    let needed = last.as_ptr() as usize - bytes.as_ptr() as usize + last.len();
    for cut in 0..bytes.len() {
        match Gguf::parse(&bytes[..cut]) {
            Ok(g) => {
                assert!(cut >= needed, "cut at {cut} parsed");
                for name in ["w.f32", "w.f16", "w.q4_1", "w.q4_0", "w.q8_0"] {
                    assert_eq!(g.f32(name).unwrap(), full.f32(name).unwrap());
                }
            }
            Err(GgufError::Magic) => assert!(cut < 4),
            Err(_) => assert!(cut < needed, "cut at {cut} refused"),
        }
    }
}

#[test]
fn bad_headers_are_errors() {
    let mut bytes = sample();
    bytes[0] = b'X';
    assert_eq!(Gguf::parse(&bytes).err(), Some(GgufError::Magic));

    let mut v1 = File::new();
    v1.version = 1;
    assert_eq!(Gguf::parse(&v1.bytes()).err(), Some(GgufError::Version(1)));

    // A tensor count that the file cannot hold is refused before any allocation.
    let mut huge = sample();
    huge[8..16].copy_from_slice(&u64::MAX.to_le_bytes());
    assert!(matches!(Gguf::parse(&huge), Err(GgufError::Truncated(_))));

    // An array that claims more strings than the file holds.
    let mut many = 8u32.to_le_bytes().to_vec();
    many.extend((1u64 << 40).to_le_bytes());
    let file = File::new().meta("tokens", 9, many).bytes();
    assert!(matches!(Gguf::parse(&file), Err(GgufError::Truncated(_))));

    // Rows that do not fill whole blocks.
    let file = File::new().tensor("t", &[16], 8, vec![0u8; 34]).bytes();
    assert!(matches!(Gguf::parse(&file), Err(GgufError::Malformed(_))));

    // Data beyond the end of the file.
    let file = File::new().tensor("t", &[64], 8, vec![0u8; 34]).bytes();
    assert!(matches!(Gguf::parse(&file), Err(GgufError::Truncated(_))));
}

#[test]
fn integer_blocks_hold_each_weight_exactly() {
    let bytes = sample();
    let g = Gguf::parse(&bytes).unwrap();
    for name in ["w.q4_1", "w.q4_0", "w.q8_0"] {
        let (info, data) = g.blocks(name).unwrap();
        let blocks = integer_blocks(info.kind, data).unwrap();
        let (_, expected) = g.f32(name).unwrap();
        // value = k·d (+ m), with k a small integer.
        for (i, (&v, &e)) in blocks.values.iter().zip(&expected).enumerate() {
            let m = blocks.offsets.as_ref().map_or(0.0, |o| o[i / 32]);
            let d = blocks.scales[i / 32];
            assert_eq!(v + m, e, "{name}[{i}]");
            assert_eq!(
                (v / d).fract(),
                0.0,
                "{name}[{i}] is not an integer multiple"
            );
        }
    }
    // By hand: Q4_1 d = 0.5, m = −1, element 0 has q = 1.
    let (info, data) = g.blocks("w.q4_1").unwrap();
    let blocks = integer_blocks(info.kind, data).unwrap();
    assert_eq!(
        (
            blocks.values[0],
            blocks.scales[0],
            blocks.offsets.unwrap()[0]
        ),
        (0.5, 0.5, -1.0)
    );
    // Q4_0 element 0: q = 15 → k = 7, d = 2.
    let (info, data) = g.blocks("w.q4_0").unwrap();
    let blocks = integer_blocks(info.kind, data).unwrap();
    assert_eq!((blocks.values[0], blocks.offsets), (14.0, None));
    let (info, data) = g.blocks("w.f32").unwrap();
    assert_eq!(integer_blocks(info.kind, data), None);
}

/// A model is inspected from its first bytes before it is downloaded: the directory
/// reads, sizes are known, data past the prefix is refused (never read out of bounds),
/// and a prefix too short for the directory asks for more.
#[test]
fn a_prefix_holding_the_directory_describes_the_whole_file() {
    let bytes = sample();
    let full = Gguf::parse(&bytes).unwrap();
    // The data (each tensor padded to 32 bytes: f32, f16, q4_1, q4_0 one block each,
    // q8_0 34 bytes, q6_k 210) follows the directory.
    let directory_end = bytes.len() - (4 * 32 + 64 + 224);
    let prefix = &bytes[..directory_end];
    let g = Gguf::parse_prefix(prefix, bytes.len() as u64).unwrap();
    assert_eq!(g.tensors().len(), full.tensors().len());
    let q4_1 = g.tensor("w.q4_1").unwrap();
    assert_eq!(q4_1.file_bytes(), Some(20));
    assert_eq!(g.tensor("w.f32").unwrap().file_bytes(), Some(24));
    assert_eq!(g.tensor("w.q6_k").unwrap().file_bytes(), None);
    assert!(matches!(g.blocks("w.q8_0"), Err(GgufError::Truncated(_))));
    assert!(matches!(
        Gguf::parse_prefix(&bytes[..40], bytes.len() as u64),
        Err(GgufError::Truncated(_))
    ));
    // A file shorter than its directory says is refused even from a prefix.
    assert!(matches!(
        Gguf::parse_prefix(prefix, directory_end as u64),
        Err(GgufError::Truncated(_))
    ));
}
