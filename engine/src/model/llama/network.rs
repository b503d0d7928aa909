//! The decoder on burn: token embeddings gathered on the host, then pre-RMSNorm blocks
//! (grouped-query self-attention with rotary positions and a key/value cache, SwiGLU
//! feed-forward), a final RMSNorm and the output projection (the embedding table when
//! the file has no `output.weight`).

use burn::tensor::{activation, Device, Tensor, TensorData};

use super::super::gguf::{dequantize, integer_blocks, GgmlType, Gguf, IntegerBlocks};
pub use super::super::linear::F16Rounding;
use super::super::linear::{InputRounding, Linear, Precision};
use super::config::{Architecture, LlamaConfig};
use super::LlmError;

struct Block {
    attn_norm: Tensor<2>,
    /// Query, key and value in one matmul ([hidden] → [heads + 2·kv_heads] · head_dim);
    /// the query part is pre-scaled by 1/√head_dim (RoPE is linear, so the scale
    /// commutes with it).
    qkv: Linear,
    o: Linear,
    ffn_norm: Tensor<2>,
    /// Gate and up projections in one matmul ([hidden] → 2 · intermediate).
    gate_up: Linear,
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
    /// How queries, keys and values are rounded to f16, as llama.cpp's f16 key/value
    /// cache and its f16 query·key products round them: SmolLM2 has near ties that f32
    /// attention decides differently from llama.cpp.
    f16: F16Rounding,
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
        f16: F16Rounding,
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
        // Several projections of the same input stacked into one layer: weights [out, in]
        // row-major one after the other, biases likewise (zeros where a part has none).
        let linear = |parts: &[(&str, usize, f32)], input: usize| -> Result<Linear, LlmError> {
            let mut bias = Vec::new();
            let mut any_bias = false;
            let mut infos = Vec::with_capacity(parts.len());
            for &(name, output, scale) in parts {
                let weight = format!("{name}.weight");
                let (info, data) = file.blocks(&weight)?;
                if info.shape != [output, input] {
                    return Err(LlmError::Shape {
                        name: weight,
                        found: info.shape.clone(),
                        expected: vec![output, input],
                    });
                }
                let b = match biased && file.tensor(&format!("{name}.bias")).is_some() {
                    true => {
                        any_bias = true;
                        tensor(&format!("{name}.bias"), &[output])?
                    }
                    false => vec![0.0; output],
                };
                bias.extend(b.into_iter().map(|x| x * scale));
                infos.push((weight, info.kind, data, scale));
            }
            let output = bias.len();
            let bias = any_bias.then_some(bias);
            // llama.cpp rounds activations to 8-bit blocks for block-quantized weights.
            let block_types = infos.iter().all(|(_, kind, _, _)| {
                matches!(kind, GgmlType::Q4_0 | GgmlType::Q4_1 | GgmlType::Q8_0)
            });
            let mut layer = if block_types {
                // Stacked block by block; offsets zero where a part has none.
                let mut all = IntegerBlocks {
                    values: Vec::new(),
                    scales: Vec::new(),
                    offsets: None,
                };
                let with_offsets = infos.iter().any(|(_, kind, _, _)| *kind == GgmlType::Q4_1);
                let mut offsets = Vec::new();
                for (_, kind, data, scale) in &infos {
                    let Some(part) = integer_blocks(*kind, data) else {
                        continue;
                    };
                    let blocks = part.scales.len();
                    all.values
                        .extend(part.values.into_iter().map(|v| v * scale));
                    all.scales
                        .extend(part.scales.into_iter().map(|d| d * scale));
                    match part.offsets {
                        Some(m) => offsets.extend(m.into_iter().map(|m| m * scale)),
                        None => offsets.extend(std::iter::repeat_n(0.0, blocks)),
                    }
                }
                all.offsets = with_offsets.then_some(offsets);
                Linear::from_blocks(all, bias, input, output, precision, device)
            } else {
                let mut weight = Vec::with_capacity(output * input);
                for (name, _, _, scale) in &infos {
                    let (_, values) = file.f32(name)?;
                    weight.extend(values.into_iter().map(|v| v * scale));
                }
                Linear::new(weight, bias, input, output, precision, device)
            };
            // The 8-bit path holds llama.cpp's block integers and scales exactly, so it
            // also takes llama.cpp's f16 activation scales and block sums; with f32
            // weights (sums of products in another order) the f32 scales stay closer to
            // llama.cpp's logits (measured on the shipped file).
            layer.round_input = block_types.then_some(match precision {
                Precision::Q8Block32 => InputRounding::HalfScales(f16),
                Precision::F32 => InputRounding::Blocks,
            });
            Ok(layer)
        };
        let scale = (config.head_dim as f32).sqrt().recip();
        let ff = config.intermediate_size;
        // Never more room than the file has tensors: the layer count is the file's word.
        let mut blocks = Vec::with_capacity(config.num_layers.min(file.tensors().len()));
        for i in 0..config.num_layers {
            let p = |part: &str| format!("blk.{i}.{part}");
            blocks.push(Block {
                attn_norm: row(&p("attn_norm.weight"), h)?,
                qkv: linear(
                    &[
                        (&p("attn_q"), h, scale),
                        (&p("attn_k"), kv, 1.0),
                        (&p("attn_v"), kv, 1.0),
                    ],
                    h,
                )?,
                o: linear(&[(&p("attn_output"), h, 1.0)], h)?,
                ffn_norm: row(&p("ffn_norm.weight"), h)?,
                gate_up: linear(&[(&p("ffn_gate"), ff, 1.0), (&p("ffn_up"), ff, 1.0)], h)?,
                down: linear(&[(&p("ffn_down"), h, 1.0)], ff)?,
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
        let output = linear(&[(output_name, config.vocab_size, 1.0)], h)?;
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
            f16,
            device: device.clone(),
            config,
        })
    }

    /// The largest difference, relative to the largest value, between the first layer's
    /// query/key/value projection of a fixed input on this network's device and the same
    /// product computed on the host from the file's weights: a device whose kernels
    /// return wrong values shows here before it answers anything.
    pub async fn first_layer_error(&self, file: &Gguf<'_>) -> Result<f32, LlmError> {
        let c = &self.config;
        let (h, kv) = (c.hidden_size, c.num_kv_heads * c.head_dim);
        let rows = 2;
        let x: Vec<f32> = (0..rows * h)
            .map(|i| ((i * 7919 % 1000) as f32 / 500.0 - 1.0) * 0.7)
            .collect();
        let block = self
            .blocks
            .first()
            .ok_or_else(|| LlmError::Config("no layers".into()))?;
        let input = match block.qkv.round_input {
            Some(rounding) => round_rows_to_q8_blocks(&x, h, rounding),
            None => x.clone(),
        };
        let scale = (c.head_dim as f32).sqrt().recip();
        let mut expected = vec![0f32; rows * (h + 2 * kv)];
        let mut column = 0;
        for (part, n, s) in [
            ("attn_q", h, scale),
            ("attn_k", kv, 1.0),
            ("attn_v", kv, 1.0),
        ] {
            let (_, w) = file.f32(&format!("blk.0.{part}.weight"))?;
            let bias = match file.tensor(&format!("blk.0.{part}.bias")) {
                Some(_) if c.architecture == Architecture::Qwen2 => {
                    Some(file.f32(&format!("blk.0.{part}.bias"))?.1)
                }
                _ => None,
            };
            for r in 0..rows {
                for o in 0..n {
                    let dot: f32 = w[o * h..(o + 1) * h]
                        .iter()
                        .zip(&input[r * h..(r + 1) * h])
                        .map(|(a, b)| a * b)
                        .sum();
                    let b = bias.as_ref().map_or(0.0, |b| b[o]);
                    expected[r * (h + 2 * kv) + column + o] = (dot + b) * s;
                }
            }
            column += n;
        }
        let x = Tensor::<2>::from_data(TensorData::new(x, [rows, h]), &self.device);
        let got = block
            .qkv
            .forward(x)
            .into_data_async()
            .await
            .map_err(|e| LlmError::Device(e.to_string()))?
            .try_into_vec::<f32>()
            .map_err(|e| LlmError::Device(format!("{e:?}")))?;
        let largest = expected.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-6);
        let worst = expected
            .iter()
            .zip(&got)
            .map(|(e, g)| (e - g).abs())
            .fold(
                0f32,
                |m, d| if d.is_nan() { f32::INFINITY } else { m.max(d) },
            );
        Ok(if got.len() == expected.len() {
            worst / largest
        } else {
            f32::INFINITY
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
            let qkv = block.qkv.forward(normed);
            let kv = kv_heads * d;
            let split = |from: usize, n: usize| {
                qkv.clone()
                    .narrow(1, from, n * d)
                    .reshape([s, n, d])
                    .swap_dims(0, 1)
            };
            let q = self.rope(split(0, heads), &cos, &sin);
            let k = self.rope(split(h, kv_heads), &cos, &sin);
            let v = split(h + kv, kv_heads);
            let (q, k, v) = (self.half(q), self.half(k), self.half(v));
            let (keys, values) = cache.store(i, k, v, start);
            // The query heads that share a key/value head are stacked along the rows, so
            // one matmul per key/value head serves the whole group.
            let q = q.reshape([kv_heads, group * s, d]);
            let mut scores = q.matmul(keys.swap_dims(1, 2));
            if let Some(m) = &mask {
                scores = scores + m.clone();
            }
            // llama.cpp multiplies the f16 values by the probabilities rounded to f16.
            let context = self
                .half(activation::softmax(scores, 2))
                .matmul(values)
                .reshape([heads, s, d])
                .swap_dims(0, 1)
                .reshape([s, h]);
            x = x + block.o.forward(context);
            let normed = rms_norm(x.clone(), &block.ffn_norm, c.rms_norm_eps);
            let gate_up = block.gate_up.forward(normed);
            let ff = c.intermediate_size;
            let gated =
                activation::silu(gate_up.clone().narrow(1, 0, ff)) * gate_up.narrow(1, ff, ff);
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
        self.f16.apply(t)
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

/// Host twin of the device rounding in `linear::round_to_q8_blocks`, for the self-check.
fn round_rows_to_q8_blocks(x: &[f32], n: usize, rounding: InputRounding) -> Vec<f32> {
    let mut out = x.to_vec();
    if !n.is_multiple_of(32) {
        return out;
    }
    for block in out.chunks_mut(32) {
        let amax = block.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-30);
        let up = 127.0 / amax;
        let down = match rounding {
            InputRounding::Blocks => amax / 127.0,
            InputRounding::HalfScales(_) => half::f16::from_f32(amax / 127.0).to_f32(),
        };
        block
            .iter_mut()
            .for_each(|v| *v = (*v * up).round_ties_even() * down);
    }
    out
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
