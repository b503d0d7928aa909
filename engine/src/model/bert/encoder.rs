//! The BERT encoder on burn: embeddings (word + position + token type, LayerNorm), then
//! post-LayerNorm transformer layers (self-attention with an additive padding mask,
//! exact-erf GELU feed-forward), then mean or [CLS] pooling and L2 normalisation.
//! Weights use Hugging Face names ("encoder.layer.3.attention.self.query.weight", with
//! or without a "bert." prefix); linear weights are stored transposed ([in, out]) once
//! at load so every forward is a plain matmul.

use burn::tensor::{activation, Device, Tensor, TensorData};

use super::config::{BertConfig, Pooling};
use crate::model::linear::{Linear, Precision};
use crate::model::weights::Weights;
use crate::model::ModelError;

struct Norm {
    /// [1, 1, hidden]
    gamma: Tensor<3>,
    beta: Tensor<3>,
}

struct Layer {
    /// Query, key and value in one [hidden, 3·hidden] matmul; the query part is
    /// pre-scaled by 1/√head_dim.
    qkv: Linear,
    attention_out: Linear,
    attention_norm: Norm,
    intermediate: Linear,
    output: Linear,
    output_norm: Norm,
}

/// The network with its weights on one device.
pub struct Encoder {
    config: BertConfig,
    /// The word embedding table stays in host memory: a batch needs only a few of its
    /// rows, gathered here and uploaded, instead of a device-side gather over the
    /// whole table.
    word: Vec<f32>,
    /// Position embeddings with the token-type-0 embedding already added (single
    /// segments only).
    position: Tensor<2>,
    embedding_norm: Norm,
    layers: Vec<Layer>,
    device: Device,
}

/// The Hugging Face name of a tensor, with and without the "bert." prefix.
fn names(name: &str) -> Vec<String> {
    vec![name.to_string(), format!("bert.{name}")]
}

impl Encoder {
    /// Loads every tensor the configuration calls for, checking shapes.
    pub fn load(
        config: &BertConfig,
        weights: &Weights,
        precision: Precision,
        device: &Device,
    ) -> Result<Self, ModelError> {
        let h = config.hidden_size;
        let read = |name: &str, shape: &[usize]| weights.first_of(&names(name), shape);
        let linear = |w: Vec<f32>, b: Vec<f32>, input: usize, output: usize| {
            Linear::new(w, Some(b), input, output, precision, device)
        };
        let dense = |prefix: &str, input: usize, output: usize| -> Result<Linear, ModelError> {
            let w = read(&format!("{prefix}.weight"), &[output, input])?;
            let b = read(&format!("{prefix}.bias"), &[output])?;
            Ok(linear(w, b, input, output))
        };
        let norm = |prefix: &str| -> Result<Norm, ModelError> {
            // Older checkpoints call the LayerNorm parameters gamma and beta.
            let g = read(&format!("{prefix}.weight"), &[h])
                .or_else(|_| read(&format!("{prefix}.gamma"), &[h]))?;
            let b = read(&format!("{prefix}.bias"), &[h])
                .or_else(|_| read(&format!("{prefix}.beta"), &[h]))?;
            Ok(Norm {
                gamma: Tensor::<3>::from_data(TensorData::new(g, [1, 1, h]), device),
                beta: Tensor::<3>::from_data(TensorData::new(b, [1, 1, h]), device),
            })
        };
        let scale = (config.head_dim() as f32).sqrt().recip();
        let mut layers = Vec::with_capacity(config.num_hidden_layers);
        for i in 0..config.num_hidden_layers {
            let p = format!("encoder.layer.{i}");
            let mut w = read(&format!("{p}.attention.self.query.weight"), &[h, h])?;
            let mut b = read(&format!("{p}.attention.self.query.bias"), &[h])?;
            w.iter_mut().for_each(|x| *x *= scale);
            b.iter_mut().for_each(|x| *x *= scale);
            for part in ["key", "value"] {
                w.extend(read(&format!("{p}.attention.self.{part}.weight"), &[h, h])?);
                b.extend(read(&format!("{p}.attention.self.{part}.bias"), &[h])?);
            }
            layers.push(Layer {
                qkv: linear(w, b, h, 3 * h),
                attention_out: dense(&format!("{p}.attention.output.dense"), h, h)?,
                attention_norm: norm(&format!("{p}.attention.output.LayerNorm"))?,
                intermediate: dense(
                    &format!("{p}.intermediate.dense"),
                    h,
                    config.intermediate_size,
                )?,
                output: dense(&format!("{p}.output.dense"), config.intermediate_size, h)?,
                output_norm: norm(&format!("{p}.output.LayerNorm"))?,
            });
        }
        let positions = config.max_position_embeddings;
        let mut position = read("embeddings.position_embeddings.weight", &[positions, h])?;
        let token_type = read(
            "embeddings.token_type_embeddings.weight",
            &[config.type_vocab_size, h],
        )?;
        for row in position.chunks_mut(h) {
            row.iter_mut()
                .zip(&token_type[..h])
                .for_each(|(p, t)| *p += t);
        }
        let word = read("embeddings.word_embeddings.weight", &[config.vocab_size, h])?;
        Ok(Encoder {
            config: config.clone(),
            word,
            position: Tensor::<2>::from_data(TensorData::new(position, [positions, h]), device),
            embedding_norm: norm("embeddings.LayerNorm")?,
            layers,
            device: device.clone(),
        })
    }

    pub fn config(&self) -> &BertConfig {
        &self.config
    }

    /// Sentence vectors for a batch of token-id sequences (each at most
    /// `max_position_embeddings` long, ids below the vocabulary size: the caller
    /// checks), L2-normalised, read back asynchronously.
    pub async fn embed(
        &self,
        batch: &[Vec<u32>],
        pooling: Pooling,
    ) -> Result<Vec<Vec<f32>>, ModelError> {
        let b = batch.len();
        let len = batch.iter().map(Vec::len).max().unwrap_or(0);
        if b == 0 || len == 0 {
            return Ok(vec![Vec::new(); b]);
        }
        let h = self.config.hidden_size;
        let heads = self.config.num_attention_heads;
        let d = self.config.head_dim();
        let device = &self.device;

        let mut rows = Vec::with_capacity(b * len * h);
        let mut mask = Vec::with_capacity(b * len);
        for seq in batch {
            for i in 0..len {
                // Padding (and any id outside the table) reads row 0, [PAD].
                let id = seq.get(i).map_or(0, |&t| t as usize);
                let id = if id < self.config.vocab_size { id } else { 0 };
                rows.extend_from_slice(&self.word[id * h..(id + 1) * h]);
                mask.push(if i < seq.len() { 1.0f32 } else { 0.0 });
            }
        }
        let mask = Tensor::<2>::from_data(TensorData::new(mask, [b, len]), device);

        // Embeddings.
        let words = Tensor::<3>::from_data(TensorData::new(rows, [b, len, h]), device);
        let positions = self.position.clone().narrow(0, 0, len).reshape([1, len, h]);
        let mut x = self.layer_norm(words + positions, &self.embedding_norm);

        // Additive attention mask: 0 for tokens, a large negative for padding (none
        // when every sequence of the batch has the same length).
        let padded = batch.iter().any(|s| s.len() != len);
        let additive = padded.then(|| ((mask.clone() - 1.0) * 1.0e9).reshape([b, 1, 1, len]));
        for layer in &self.layers {
            let flat = x.clone().reshape([b * len, h]);
            let qkv = layer.qkv.forward(flat);
            let split = |i: usize| {
                qkv.clone()
                    .narrow(1, i * h, h)
                    .reshape([b, len, heads, d])
                    .swap_dims(1, 2)
            };
            let (q, k, v) = (split(0), split(1), split(2));
            let mut scores = q.matmul(k.swap_dims(2, 3));
            if let Some(a) = &additive {
                scores = scores + a.clone();
            }
            let context = activation::softmax(scores, 3)
                .matmul(v)
                .swap_dims(1, 2)
                .reshape([b * len, h]);
            let attended = layer.attention_out.forward(context).reshape([b, len, h]);
            x = self.layer_norm(attended + x, &layer.attention_norm);
            let flat = x.clone().reshape([b * len, h]);
            let inner = activation::gelu(layer.intermediate.forward(flat));
            let out = layer.output.forward(inner).reshape([b, len, h]);
            x = self.layer_norm(out + x, &layer.output_norm);
        }

        let pooled: Tensor<2> = match pooling {
            Pooling::Mean => {
                let m = mask.reshape([b, len, 1]);
                let summed = (x * m.clone()).sum_dim(1).reshape([b, h]);
                let counts = m.sum_dim(1).reshape([b, 1]).clamp_min(1.0);
                summed / counts
            }
            Pooling::Cls => x.narrow(1, 0, 1).reshape([b, h]),
        };
        let norms = pooled
            .clone()
            .powi_scalar(2)
            .sum_dim(1)
            .sqrt()
            .clamp_min(1e-12);
        let normalised = pooled / norms;
        let data = normalised
            .into_data_async()
            .await
            .map_err(|e| ModelError::Device(e.to_string()))?;
        let values = data
            .try_into_vec::<f32>()
            .map_err(|e| ModelError::Device(format!("{e:?}")))?;
        Ok(values.chunks(h).map(<[f32]>::to_vec).collect())
    }

    fn layer_norm(&self, x: Tensor<3>, norm: &Norm) -> Tensor<3> {
        let mean = x.clone().mean_dim(2);
        let centred = x - mean;
        let var = centred.clone().powi_scalar(2).mean_dim(2);
        let normalised = centred / (var + self.config.layer_norm_eps).sqrt();
        normalised * norm.gamma.clone() + norm.beta.clone()
    }
}
