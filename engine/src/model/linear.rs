//! Linear layers as the models hold them on a device: f32, or 8-bit blocks that burn's
//! quantized matmul kernels read directly (what WebGPU runs best).

use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use burn::tensor::{Device, Tensor, TensorData};

use super::gguf::IntegerBlocks;
use crate::compute::Backend;

/// How the linear layers' weights are held on the device.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Precision {
    /// f32, as in the file.
    #[default]
    F32,
    /// 8-bit symmetric, one f32 scale per block of 32 weights along the input
    /// dimension (burn's Q8S per-block scheme, which its WebGPU kernels support): a
    /// quarter of the memory, cosine to the f32 vectors ≥ 0.995.
    Q8Block32,
}

impl Precision {
    /// What each backend runs best: 8-bit blocks on WebGPU (a quarter of the GPU memory,
    /// read by burn's quantized matmul kernels), f32 on the CPU (burn-flex expands 8-bit
    /// weights back to f32 for every matmul, so they would only cost time there).
    pub fn for_backend(backend: &Backend) -> Self {
        match backend {
            Backend::WebGpu { .. } => Precision::Q8Block32,
            Backend::Cpu => Precision::F32,
        }
    }

    /// Short name for logs and the page (`"f32"` or `"q8"`).
    pub fn id(self) -> &'static str {
        match self {
            Precision::F32 => "f32",
            Precision::Q8Block32 => "q8",
        }
    }
}

/// `y = x · Wᵀ + b` for `x` of shape [rows, in].
pub(crate) struct Linear {
    weight: Weight,
    /// Per-block offsets [in / 32, out] added as `Σ_block(x) · m` (GGUF Q4_1 weights
    /// held as exact 8-bit blocks).
    offsets: Option<Tensor<2>>,
    bias: Option<Tensor<2>>,
    /// Round the input to 8-bit blocks of 32 first, as llama.cpp does before every dot
    /// product with block-quantized weights: a port that skips it drifts from llama.cpp
    /// by a few tenths of a logit, enough to flip a near tie in greedy decoding.
    pub(crate) round_input: bool,
}

enum Weight {
    /// [in, out], f32, transposed once at load: a transposed view would be copied by
    /// every matmul on the CPU backend.
    Dense(Tensor<2>),
    /// [out, in] quantized along `in` (K-contiguous, as the kernels want): `(W · xᵀ)ᵀ`.
    Quantized(Tensor<2>),
}

impl Linear {
    /// A layer from row-major `weight` [output, input] and an optional `bias` [output].
    /// Blocks of 32 must tile the input dimension; a layer they do not tile stays f32.
    pub(crate) fn new(
        weight: Vec<f32>,
        bias: Option<Vec<f32>>,
        input: usize,
        output: usize,
        precision: Precision,
        device: &Device,
    ) -> Self {
        let bias = bias.map(|b| Tensor::<2>::from_data(TensorData::new(b, [1, output]), device));
        let weight = if precision == Precision::Q8Block32 && input.is_multiple_of(32) {
            Weight::Quantized(
                Tensor::<2>::from_data(TensorData::new(weight, [output, input]), device)
                    .quantize_dynamic(&q8_block32()),
            )
        } else {
            Weight::Dense(Tensor::<2>::from_data(
                TensorData::new(transpose(&weight, output, input), [input, output]),
                device,
            ))
        };
        Linear {
            weight,
            offsets: None,
            bias,
            round_input: false,
        }
    }

    /// A layer from block-quantized weights [output, input]: at 8-bit precision each block
    /// becomes a burn Q8S block (offsets applied separately, exactly); at f32 the blocks
    /// are expanded.
    pub(crate) fn from_blocks(
        blocks: IntegerBlocks,
        bias: Option<Vec<f32>>,
        input: usize,
        output: usize,
        precision: Precision,
        device: &Device,
    ) -> Self {
        let per_row = input / 32;
        if precision == Precision::F32 || !input.is_multiple_of(32) {
            let mut weight = blocks.values;
            if let Some(offsets) = &blocks.offsets {
                for (block, m) in weight.chunks_mut(32).zip(offsets) {
                    block.iter_mut().for_each(|w| *w += m);
                }
            }
            return Linear::new(weight, bias, input, output, Precision::F32, device);
        }
        // Each block re-quantized from its k·d values (burn's `quantize` with given
        // scales returns wrong values on WebGPU in 0.22, so the scales are burn's own:
        // max|k·d| / 127: within d·15/254 of each weight for 4-bit k, exact for a Q8_0 block
        // whose largest |k| is 127); the offsets stay exact.
        let weight = Weight::Quantized(
            Tensor::<2>::from_data(TensorData::new(blocks.values, [output, input]), device)
                .quantize_dynamic(&q8_block32()),
        );
        let offsets = blocks.offsets.map(|m| {
            Tensor::<2>::from_data(
                TensorData::new(transpose(&m, output, per_row), [per_row, output]),
                device,
            )
        });
        Linear {
            weight,
            offsets,
            bias: bias.map(|b| Tensor::<2>::from_data(TensorData::new(b, [1, output]), device)),
            round_input: false,
        }
    }

    pub(crate) fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let x = match self.round_input {
            true => round_to_q8_blocks(x),
            false => x,
        };
        let mut y = match &self.weight {
            Weight::Dense(w) => x.clone().matmul(w.clone()),
            // (W · xᵀ)ᵀ rather than x · Wᵀ: burn-flex 0.22 expands a transposed
            // block-quantized tensor with the blocks' scales misplaced.
            Weight::Quantized(w) => w.clone().matmul(x.clone().transpose()).transpose(),
        };
        if let Some(m) = &self.offsets {
            let [rows, input] = x.dims();
            let sums = x
                .reshape([rows, input / 32, 32])
                .sum_dim(2)
                .reshape([rows, input / 32]);
            y = y + sums.matmul(m.clone());
        }
        match &self.bias {
            Some(b) => y + b.clone(),
            None => y,
        }
    }
}

/// `x` [rows, n] (n a multiple of 32) rounded to 8 bits per block of 32 along each row:
/// d = max|x| / 127, x ↦ round(x / d) · d (ties to even).
pub(crate) fn round_to_q8_blocks(x: Tensor<2>) -> Tensor<2> {
    let [rows, n] = x.dims();
    if !n.is_multiple_of(32) {
        return x;
    }
    let blocks = x.reshape([rows, n / 32, 32]);
    let amax = blocks.clone().abs().max_dim(2).clamp_min(1e-30);
    let q = (blocks * (amax.clone().recip() * 127.0)).round();
    (q * (amax / 127.0)).reshape([rows, n])
}

/// `m` ([rows, cols], row-major) transposed to [cols, rows].
fn transpose(m: &[f32], rows: usize, cols: usize) -> Vec<f32> {
    let mut out = vec![0.0; m.len()];
    for r in 0..rows {
        for c in 0..cols {
            out[c * rows + r] = m[r * cols + c];
        }
    }
    out
}

/// burn's 8-bit symmetric scheme with an f32 scale per 32 consecutive weights of a row,
/// four values packed in each u32: WGSL has no 8-bit type, and burn's WebGPU kernels
/// refuse (panic on) the unpacked store.
fn q8_block32() -> QuantScheme {
    QuantScheme::default()
        .with_value(QuantValue::Q8S)
        .with_store(QuantStore::PackedU32(0))
        .per_block([1, 32], ScaleDtype::F32)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compute::Compute;

    fn values(t: Tensor<2>) -> Vec<f32> {
        t.into_data().try_into_vec::<f32>().unwrap_or_default()
    }

    /// Two rows of Q4_1-like blocks (k in 0..16, scale d, offset m per block).
    fn blocks(output: usize, input: usize) -> (IntegerBlocks, Vec<f32>) {
        let mut b = IntegerBlocks {
            values: Vec::new(),
            scales: Vec::new(),
            offsets: Some(Vec::new()),
        };
        let mut dense = Vec::new();
        for block in 0..output * input / 32 {
            // Scales that differ a lot between blocks, so misplaced scales show.
            let d = 0.01 * (1 + block * 5) as f32;
            let m = -0.05 * block as f32;
            b.scales.push(d);
            b.offsets.as_mut().unwrap().push(m);
            for i in 0..32 {
                let k = ((i * 7 + block) % 16) as f32;
                b.values.push(k * d);
                dense.push(k * d + m);
            }
        }
        (b, dense)
    }

    #[test]
    fn eight_bit_blocks_with_offsets_compute_what_the_f32_weights_do() {
        let device = Compute::cpu().device().clone();
        let (output, input) = (3, 64);
        let (b, dense) = blocks(output, input);
        let b_scales = b.scales.clone();
        let q = Linear::from_blocks(
            b.clone(),
            None,
            input,
            output,
            Precision::Q8Block32,
            &device,
        );
        let f = Linear::new(dense, None, input, output, Precision::F32, &device);
        let expanded = Linear::from_blocks(b, None, input, output, Precision::F32, &device);
        let x: Vec<f32> = (0..2 * input)
            .map(|i| ((i * 13) % 17) as f32 * 0.1 - 0.8)
            .collect();
        let x = Tensor::<2>::from_data(TensorData::new(x, [2, input]), &device);
        let want = values(f.forward(x.clone()));
        for (a, b) in values(expanded.forward(x.clone())).iter().zip(&want) {
            assert!((a - b).abs() < 1e-5, "expanded: {a} vs {b}");
        }
        // Re-quantized blocks: each weight within d·15/254, so each output within
        // Σ |x_i| · d_i · 15/254 of the exact one.
        let xs = values(x.clone());
        let got = values(q.forward(x));
        for row in 0..2 {
            for o in 0..output {
                let bound: f32 = (0..input)
                    .map(|i| {
                        xs[row * input + i].abs() * b_scales[(o * input + i) / 32] * 15.0 / 254.0
                    })
                    .sum();
                let (g, w) = (got[row * output + o], want[row * output + o]);
                assert!((g - w).abs() <= bound + 1e-5, "{g} vs {w} (bound {bound})");
            }
        }
    }

    #[test]
    fn inputs_round_to_eight_bit_blocks_by_hand() {
        let device = Compute::cpu().device().clone();
        // One block: max |x| = 127 → d = 1, so values round to integers (ties to even).
        let mut x = vec![0.0f32; 32];
        x[0] = 127.0;
        x[1] = 2.5;
        x[2] = -3.5;
        x[3] = 0.4;
        let out = values(round_to_q8_blocks(Tensor::<2>::from_data(
            TensorData::new(x, [1, 32]),
            &device,
        )));
        assert_eq!(&out[..4], &[127.0, 2.0, -4.0, 0.0]);
    }
}
