//! What a model will cost before it is loaded, read from its file's header alone (the
//! GGUF directory, or safetensors' JSON header with `config.json`), so an app can say
//! whether a model fits this browser before downloading hundreds of megabytes.
//!
//! The numbers follow how the loaders hold weights: linear layers at the backend's
//! [`Precision`] (stacked the way the networks stack them), everything else in f32,
//! a GGUF's token embeddings kept on the host as the file's blocks.

use serde::{Deserialize, Serialize};

use super::bert::BertConfig;
use super::gguf::{GgmlType, Gguf};
use super::llama::{LlamaConfig, LlmError, MAX_CONTEXT};
use super::weights::Header;
use super::{ModelError, Precision};

/// The memory a loaded model takes.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Footprint {
    /// Values in the file's tensors.
    pub parameters: u64,
    /// Bytes of weights (and tables) on the compute device.
    pub device_bytes: u64,
    /// The largest single buffer on the device, and what it holds: a GPU refuses a
    /// buffer over its `maxStorageBufferBindingSize`, however much memory it has.
    pub largest_buffer: u64,
    pub largest_name: String,
    /// Peak bytes of the process's own memory (a browser tab's wasm memory) while the
    /// model loads: the file itself, host-side tables and, on the CPU, the weights.
    pub host_bytes: u64,
    /// Device bytes the key/value cache adds per token of context (0 for encoders).
    pub bytes_per_token: u64,
}

/// Where the weights live: the CPU backend's device memory is the host's.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Placement {
    Cpu,
    Gpu,
}

/// Bytes of a linear layer's `values` weights at `precision`. 8-bit blocks of 32 carry
/// an f32 scale each, and block-quantized files (Q4_1's minimum, Q8_1-style sums) an
/// f32 offset besides.
pub fn linear_bytes(values: u64, precision: Precision, offsets: bool) -> u64 {
    match precision {
        Precision::F32 => values * 4,
        Precision::Q8Block32 => values + values.div_ceil(32) * if offsets { 8 } else { 4 },
    }
}

/// A Llama-family GGUF's footprint, from its parsed directory (see
/// [`Gguf::parse_prefix`]) and length. Fails as loading would on what can be told from
/// the header: an unsupported architecture, inconsistent hyper-parameters, a tensor type
/// this build cannot read.
pub fn llama(
    file: &Gguf<'_>,
    file_len: u64,
    precision: Precision,
    placement: Placement,
) -> Result<(LlamaConfig, Footprint), LlmError> {
    let mut config = LlamaConfig::from_gguf(file)?;
    config.context_length = config.context_length.min(MAX_CONTEXT);
    if let Some(t) = file.tensors().iter().find(|t| t.kind.block().is_none()) {
        return Err(LlmError::Unsupported(format!(
            "tensor `{}` is {}; this build reads GGUF files of F32, F16, Q4_0, Q4_1 and \
             Q8_0 tensors (choose one of those quantizations of the model)",
            t.name, t.kind
        )));
    }
    let (h, kv, ff) = (
        config.hidden_size as u64,
        (config.num_kv_heads * config.head_dim) as u64,
        config.intermediate_size as u64,
    );
    let blocky = |names: &[&str]| {
        names.iter().all(|n| {
            file.tensor(n)
                .is_some_and(|t| matches!(t.kind, GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q8_0))
        })
    };
    let mut device = 0u64;
    let mut largest = (0u64, String::new());
    let mut add = |name: String, values: u64, offsets: bool| {
        let bytes = linear_bytes(values, precision, offsets);
        device += bytes;
        if bytes > largest.0 {
            largest = (bytes, name);
        }
    };
    for layer in 0..config.num_layers {
        let p = |n: &str| format!("blk.{layer}.{n}.weight");
        let (q, k, v, o) = (p("attn_q"), p("attn_k"), p("attn_v"), p("attn_output"));
        let (gate, up, down) = (p("ffn_gate"), p("ffn_up"), p("ffn_down"));
        add(
            format!("blk.{layer} attention q·k·v"),
            (h + 2 * kv) * h,
            blocky(&[&q, &k, &v]),
        );
        add(o.clone(), h * h, blocky(&[&o]));
        add(
            format!("blk.{layer} ffn gate·up"),
            2 * ff * h,
            blocky(&[&gate, &up]),
        );
        add(down.clone(), h * ff, blocky(&[&down]));
    }
    let output = match file.tensor("output.weight") {
        Some(_) => "output.weight",
        None => "token_embd.weight",
    };
    add(
        output.to_string(),
        config.vocab_size as u64 * h,
        blocky(&[output]),
    );
    let layers = config.num_layers as u64;
    // Norms and biases, and the rotary tables (cos and sin, half a head per position).
    let tables = (layers * 2 + 1) * h * 4
        + layers * (h + 2 * kv) * 4
        + config.context_length as u64 * config.head_dim as u64 * 4;
    let device_bytes = device + tables;
    let embedding = file
        .tensor("token_embd.weight")
        .and_then(|t| t.file_bytes())
        .unwrap_or(config.vocab_size as u64 * h * 4);
    let host_bytes = file_len
        + embedding
        + match placement {
            Placement::Cpu => device_bytes,
            // One buffer's values staged on the host on their way to the device.
            Placement::Gpu => largest.0,
        };
    let footprint = Footprint {
        parameters: file.tensors().iter().map(|t| t.len() as u64).sum(),
        device_bytes,
        largest_buffer: largest.0,
        largest_name: largest.1,
        host_bytes,
        bytes_per_token: layers * 2 * kv * 4,
    };
    Ok((config, footprint))
}

/// A BERT-family embedder's footprint from `config.json` and the weights' safetensors
/// header (see [`Header::parse_prefix`]).
pub fn bert(
    config: &[u8],
    header: &Header,
    file_len: u64,
    precision: Precision,
    placement: Placement,
) -> Result<(BertConfig, Footprint), ModelError> {
    let config = BertConfig::from_json(config)?;
    let mut device_bytes = 0u64;
    let mut largest = (0u64, String::new());
    let mut parameters = 0u64;
    for t in &header.tensors {
        // Integer buffers (`position_ids`) are not weights: the encoder never reads them.
        if !matches!(t.dtype.as_str(), "F32" | "F16" | "BF16") {
            continue;
        }
        let values: u64 = t.shape.iter().map(|&d| d as u64).product();
        parameters += values;
        // The encoder's dense layers take the precision; embeddings, norms and biases
        // stay f32.
        let linear = t.shape.len() == 2 && !t.name.contains("embeddings");
        let bytes = match linear {
            true => linear_bytes(values, precision, false),
            false => values * 4,
        };
        device_bytes += bytes;
        if bytes > largest.0 {
            largest = (bytes, t.name.clone());
        }
    }
    if parameters == 0 {
        return Err(ModelError::Safetensors("the file holds no tensors".into()));
    }
    let host_bytes = file_len
        + match placement {
            Placement::Cpu => device_bytes,
            Placement::Gpu => largest.0,
        };
    let footprint = Footprint {
        parameters,
        device_bytes,
        largest_buffer: largest.0,
        largest_name: largest.1,
        host_bytes,
        bytes_per_token: 0,
    };
    Ok((config, footprint))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn eight_bit_blocks_cost_a_scale_per_32_values_and_an_offset_for_gguf_blocks() {
        assert_eq!(linear_bytes(64, Precision::F32, false), 256);
        assert_eq!(linear_bytes(64, Precision::Q8Block32, false), 64 + 2 * 4);
        assert_eq!(linear_bytes(64, Precision::Q8Block32, true), 64 + 2 * 8);
    }

    /// A two-tensor BERT header: the dense weight takes the precision, the embedding
    /// table stays f32 and is the largest buffer.
    #[test]
    fn bert_counts_dense_layers_at_the_precision_and_the_rest_in_f32() {
        let json = br#"{"embeddings.word_embeddings.weight":{"dtype":"F32","shape":[100,8],"data_offsets":[0,3200]},
            "encoder.layer.0.intermediate.dense.weight":{"dtype":"F32","shape":[32,8],"data_offsets":[3200,4224]},
            "embeddings.position_ids":{"dtype":"I64","shape":[1,16],"data_offsets":[4224,4352]}}"#;
        let mut file = (json.len() as u64).to_le_bytes().to_vec();
        file.extend_from_slice(json);
        let data_start = file.len() as u64;
        let header = Header::parse_prefix(&file, data_start + 4352).expect("header");
        let config = br#"{"vocab_size": 100, "hidden_size": 8, "num_hidden_layers": 1,
            "num_attention_heads": 2, "intermediate_size": 32, "max_position_embeddings": 16,
            "type_vocab_size": 2, "layer_norm_eps": 1e-12, "hidden_act": "gelu"}"#;
        let (_, f) = bert(
            config,
            &header,
            data_start + 4352,
            Precision::Q8Block32,
            Placement::Gpu,
        )
        .expect("footprint");
        assert_eq!(f.parameters, 800 + 256);
        assert_eq!(f.device_bytes, 3200 + (256 + 8 * 4));
        assert_eq!(
            (f.largest_buffer, f.largest_name.as_str()),
            (3200, "embeddings.word_embeddings.weight")
        );
        assert_eq!(f.host_bytes, data_start + 4352 + 3200);
        let (_, cpu) = bert(
            config,
            &header,
            data_start + 4352,
            Precision::F32,
            Placement::Cpu,
        )
        .expect("footprint");
        assert_eq!(cpu.device_bytes, 4224);
        assert_eq!(cpu.host_bytes, data_start + 4352 + 4224);
    }
}
