//! The decoder on burn: token embeddings gathered on the host, then pre-RMSNorm blocks
//! (grouped-query self-attention with rotary positions and a key/value cache, SwiGLU
//! feed-forward), a final RMSNorm and the output projection (the embedding table when
//! the file has no `output.weight`).

use burn::tensor::{activation, DType, Device, Tensor, TensorData};

use super::super::gguf::{dequantize, GgmlType, Gguf};
use super::super::linear::{Linear, Precision};
use super::config::{Architecture, LlamaConfig};
use super::LlmError;

struct Block {
    attn_norm: Tensor<2>,
    /// The query projection is pre-scaled by 1/√head_dim (RoPE is linear, so the scale
    /// commutes with it).
    q: Linear,
    k: Linear,
    v: Linear,
    o: Linear,
    ffn_norm: Tensor<2>,
    gate: Linear,
    up: Linear,
    down: Linear,
}

/// The network with its weights on one device.
pub struct Network {
    pub config: LlamaConfig,
    /// The embedding table stays on the host in the file's own blocks: a step needs only
    /// its tokens' rows.
    embedding: Vec<u8>,
    embedding_kind: GgmlType,
    row_bytes: usize,
    blocks: Vec<Block>,
    norm: Tensor<2>,
    output: Linear,
    /// cos and sin of every position's rotation angles, [context, head_dim / 2].
    cos: Tensor<2>,
    sin: Tensor<2>,
    /// Round queries, keys and values to f16, as llama.cpp's f16 key/value cache and its
    /// f16 query·key products do (the reference this port is checked against). Only
    /// where the backend has f16 (not WebGPU without `shader-f16`).
    half_attention: bool,
    device: Device,
}

/// Keys and values of the positions seen so far, per layer: [kv_heads, capacity, head_dim].
#[derive(Clone)]
pub struct KvCache {
    layers: Vec<(Tensor<3>, Tensor<3>)>,
    len: usize,
    capacity: usize,
}

impl KvCache {
    /// Positions held.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }
}

impl Network {
    pub fn load(
        file: &Gguf,
        config: LlamaConfig,
        precision: Precision,
        half_attention: bool,
        device: &Device,
    ) -> Result<Self, LlmError> {
        let h = config.hidden_size;
        let kv = config.num_kv_heads * config.head_dim;
        let tensor = |name: &str, shape: &[usize]| -> Result<Vec<f32>, LlmError> {
            let (found, values) = file.f32(name)?;
            if found != shape {
                return Err(LlmError::Shape {
                    name: name.to_string(),
                    found,
                    expected: shape.to_vec(),
                });
            }
            Ok(values)
        };
        let row = |name: &str, n: usize| -> Result<Tensor<2>, LlmError> {
            Ok(Tensor::<2>::from_data(
                TensorData::new(tensor(name, &[n])?, [1, n]),
                device,
            ))
        };
        let biased = config.architecture == Architecture::Qwen2;
        let linear =
            |name: &str, input: usize, output: usize, scale: f32| -> Result<Linear, LlmError> {
                let mut w = tensor(&format!("{name}.weight"), &[output, input])?;
                let mut b = match biased && file.tensor(&format!("{name}.bias")).is_some() {
                    true => Some(tensor(&format!("{name}.bias"), &[output])?),
                    false => None,
                };
                if scale != 1.0 {
                    w.iter_mut().for_each(|x| *x *= scale);
                    if let Some(b) = b.as_mut() {
                        b.iter_mut().for_each(|x| *x *= scale);
                    }
                }
                let mut layer = Linear::new(w, b, input, output, precision, device);
                // llama.cpp rounds activations to 8-bit blocks for block-quantized weights.
                layer.round_input = file.tensor(&format!("{name}.weight")).is_some_and(|t| {
                    matches!(t.kind, GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q8_0)
                });
                Ok(layer)
            };
        let scale = (config.head_dim as f32).sqrt().recip();
        let mut blocks = Vec::with_capacity(config.num_layers);
        for i in 0..config.num_layers {
            let p = format!("blk.{i}");
            blocks.push(Block {
                attn_norm: row(&format!("{p}.attn_norm.weight"), h)?,
                q: linear(&format!("{p}.attn_q"), h, h, scale)?,
                k: linear(&format!("{p}.attn_k"), h, kv, 1.0)?,
                v: linear(&format!("{p}.attn_v"), h, kv, 1.0)?,
                o: linear(&format!("{p}.attn_output"), h, h, 1.0)?,
                ffn_norm: row(&format!("{p}.ffn_norm.weight"), h)?,
                gate: linear(&format!("{p}.ffn_gate"), h, config.intermediate_size, 1.0)?,
                up: linear(&format!("{p}.ffn_up"), h, config.intermediate_size, 1.0)?,
                down: linear(&format!("{p}.ffn_down"), config.intermediate_size, h, 1.0)?,
            });
        }
        let (embedding_info, embedding) = file.blocks("token_embd.weight")?;
        if embedding_info.shape != [config.vocab_size, h] {
            return Err(LlmError::Shape {
                name: "token_embd.weight".to_string(),
                found: embedding_info.shape.clone(),
                expected: vec![config.vocab_size, h],
            });
        }
        let embedding_kind = embedding_info.kind;
        let row_bytes = embedding.len() / config.vocab_size;
        // Tied embeddings: the output projection is the embedding table.
        let output_name = match file.tensor("output.weight") {
            Some(_) => "output",
            None => "token_embd",
        };
        let output = linear(output_name, h, config.vocab_size, 1.0)?;
        let norm = row("output_norm.weight", h)?;
        let (cos, sin) = rope_tables(&config, device);
        Ok(Network {
            embedding: embedding.to_vec(),
            embedding_kind,
            row_bytes,
            blocks,
            norm,
            output,
            cos,
            sin,
            half_attention,
            device: device.clone(),
            config,
        })
    }

    /// An empty cache for this network.
    pub fn cache(&self) -> KvCache {
        KvCache {
            layers: Vec::new(),
            len: 0,
            capacity: 0,
        }
    }

    /// Runs `ids` after the positions in `cache` (which grows by `ids.len()`) and returns
    /// the logits [positions, vocab] of every new position, or of the last one only.
    /// The caller checks that the ids are in the vocabulary and fit the context.
    pub fn forward(&self, ids: &[u32], cache: &mut KvCache, every_position: bool) -> Tensor<2> {
        let c = &self.config;
        let (h, d, s) = (c.hidden_size, c.head_dim, ids.len());
        let (heads, kv_heads, group) = (c.num_heads, c.num_kv_heads, c.group_size());
        let start = cache.len;
        let total = start + s;
        self.reserve(cache, total);

        let mut rows = Vec::with_capacity(s * h);
        for &id in ids {
            let at = id as usize * self.row_bytes;
            let bytes = self.embedding.get(at..at + self.row_bytes).unwrap_or(&[]);
            let before = rows.len();
            // The type was checked at load; an id outside the table reads zeros.
            let _ = dequantize(self.embedding_kind, bytes, &mut rows);
            rows.resize(before + h, 0.0);
        }
        let mut x = Tensor::<2>::from_data(TensorData::new(rows, [s, h]), &self.device);

        let cos = self.cos.clone().narrow(0, start, s);
        let sin = self.sin.clone().narrow(0, start, s);
        // Causal mask over [group · s, total]: query row r is position start + r % s.
        let mask = (s > 1).then(|| {
            let mut m = Vec::with_capacity(group * s * total);
            for _ in 0..group {
                for r in 0..s {
                    m.extend((0..total).map(|t| if t <= start + r { 0.0f32 } else { -1.0e9 }));
                }
            }
            Tensor::<3>::from_data(TensorData::new(m, [1, group * s, total]), &self.device)
        });

        for (i, block) in self.blocks.iter().enumerate() {
            let normed = rms_norm(x.clone(), &block.attn_norm, c.rms_norm_eps);
            let split = |t: Tensor<2>, n: usize| t.reshape([s, n, d]).swap_dims(0, 1);
            let q = self.rope(split(block.q.forward(normed.clone()), heads), &cos, &sin);
            let k = self.rope(split(block.k.forward(normed.clone()), kv_heads), &cos, &sin);
            let v = split(block.v.forward(normed), kv_heads);
            let (q, k, v) = (self.half(q), self.half(k), self.half(v));
            let (keys, values) = cache.store(i, k, v, start);
            // The query heads that share a key/value head are stacked along the rows, so
            // one matmul per key/value head serves the whole group.
            let q = q.reshape([kv_heads, group * s, d]);
            let mut scores = q.matmul(keys.swap_dims(1, 2));
            if let Some(m) = &mask {
                scores = scores + m.clone();
            }
            let context = activation::softmax(scores, 2)
                .matmul(values)
                .reshape([heads, s, d])
                .swap_dims(0, 1)
                .reshape([s, h]);
            x = x + block.o.forward(context);
            let normed = rms_norm(x.clone(), &block.ffn_norm, c.rms_norm_eps);
            let gated =
                activation::silu(block.gate.forward(normed.clone())) * block.up.forward(normed);
            x = x + block.down.forward(gated);
        }
        cache.len = total;
        let x = if every_position {
            x
        } else {
            x.narrow(0, s - 1, 1)
        };
        self.output.forward(rms_norm(x, &self.norm, c.rms_norm_eps))
    }

    fn half(&self, t: Tensor<3>) -> Tensor<3> {
        match self.half_attention {
            true => t.cast(DType::F16).cast(DType::F32),
            false => t,
        }
    }

    /// Grows every layer's cache to hold `total` positions (doubling, up to the context).
    fn reserve(&self, cache: &mut KvCache, total: usize) {
        if total <= cache.capacity {
            return;
        }
        let c = &self.config;
        let capacity = total
            .max(cache.capacity * 2)
            .max(64)
            .min(c.context_length.max(total));
        let extra = capacity - cache.capacity;
        let zeros = || Tensor::<3>::zeros([c.num_kv_heads, extra, c.head_dim], &self.device);
        if cache.layers.is_empty() {
            cache.layers = (0..c.num_layers).map(|_| (zeros(), zeros())).collect();
        } else {
            for (k, v) in cache.layers.iter_mut() {
                *k = Tensor::cat(vec![k.clone(), zeros()], 1);
                *v = Tensor::cat(vec![v.clone(), zeros()], 1);
            }
        }
        cache.capacity = capacity;
    }

    /// Rotary position embedding of `x` [heads, s, head_dim] at the positions `cos`/`sin`
    /// hold ([s, head_dim / 2]).
    fn rope(&self, x: Tensor<3>, cos: &Tensor<2>, sin: &Tensor<2>) -> Tensor<3> {
        let [n, s, d] = x.dims();
        let half = d / 2;
        match self.config.architecture {
            // Adjacent pairs (x₀, x₁), (x₂, x₃), …
            Architecture::Llama => {
                let pairs = x.reshape([n, s, half, 2]);
                let a = pairs.clone().narrow(3, 0, 1);
                let b = pairs.narrow(3, 1, 1);
                let cos = cos.clone().reshape([1, s, half, 1]);
                let sin = sin.clone().reshape([1, s, half, 1]);
                let ra = a.clone() * cos.clone() - b.clone() * sin.clone();
                let rb = a * sin + b * cos;
                Tensor::cat(vec![ra, rb], 3).reshape([n, s, d])
            }
            // The two halves (x₀, x_{d/2}), (x₁, x_{d/2+1}), …
            Architecture::Qwen2 => {
                let a = x.clone().narrow(2, 0, half);
                let b = x.narrow(2, half, half);
                let cos = cos.clone().reshape([1, s, half]);
                let sin = sin.clone().reshape([1, s, half]);
                let ra = a.clone() * cos.clone() - b.clone() * sin.clone();
                let rb = a * sin + b * cos;
                Tensor::cat(vec![ra, rb], 2)
            }
        }
    }
}

impl KvCache {
    /// Writes the new keys and values at `start` and returns everything up to them.
    fn store(
        &mut self,
        layer: usize,
        k: Tensor<3>,
        v: Tensor<3>,
        start: usize,
    ) -> (Tensor<3>, Tensor<3>) {
        let [n, s, d] = k.dims();
        let (keys, values) = &mut self.layers[layer];
        let range = [0..n, start..start + s, 0..d];
        *keys = keys.clone().slice_assign(range.clone(), k);
        *values = values.clone().slice_assign(range, v);
        (
            keys.clone().narrow(1, 0, start + s),
            values.clone().narrow(1, 0, start + s),
        )
    }
}

/// `x / √(mean(x²) + ε) · w` over the last dimension.
fn rms_norm(x: Tensor<2>, weight: &Tensor<2>, eps: f32) -> Tensor<2> {
    let scale = (x.clone().powi_scalar(2).mean_dim(1) + eps).sqrt().recip();
    x * scale * weight.clone()
}

/// RoPE angles as llama.cpp computes them: θᵢ = base^(−2i/d), position · θᵢ, in f32.
fn rope_tables(config: &LlamaConfig, device: &Device) -> (Tensor<2>, Tensor<2>) {
    let half = config.head_dim / 2;
    let positions = config.context_length;
    let step = config.rope_theta.powf(-2.0 / config.head_dim as f32);
    let mut cos = Vec::with_capacity(positions * half);
    let mut sin = Vec::with_capacity(positions * half);
    for p in 0..positions {
        let mut theta = p as f32;
        for _ in 0..half {
            cos.push(theta.cos());
            sin.push(theta.sin());
            theta *= step;
        }
    }
    (
        Tensor::<2>::from_data(TensorData::new(cos, [positions, half]), device),
        Tensor::<2>::from_data(TensorData::new(sin, [positions, half]), device),
    )
}
