//! Linear layers as the models hold them on a device: f32, or 8-bit blocks that burn's
//! quantized matmul kernels read directly (what WebGPU runs best).

use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use burn::tensor::{DType, Device, Tensor, TensorData};

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
    pub(crate) round_input: Option<InputRounding>,
}

/// How the input of a layer with block-quantized weights is rounded (llama.cpp's Q8_0 /
/// Q8_1 activations: per block of 32, d = max|x| / 127 and q = round(x / d)).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum InputRounding {
    /// q · d with d in f32.
    Blocks,
    /// q · d with d rounded to f16, and Q8_1's block sum s = d · Σq rounded to f16 for
    /// the offset term, exactly as llama.cpp stores them.
    HalfScales(F16Rounding),
}

/// How a backend rounds values to f16.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum F16Rounding {
    /// A cast to f16 and back (backends with f16: the CPU).
    Cast,
    /// The same rounding in f32 arithmetic, for WebGPU without `shader-f16`.
    Arithmetic,
}

impl F16Rounding {
    /// Each value of `t` rounded to the nearest f16.
    pub(crate) fn apply<const D: usize>(self, t: Tensor<D>) -> Tensor<D> {
        match self {
            F16Rounding::Cast => t.cast(DType::F16).cast(DType::F32),
            F16Rounding::Arithmetic => round_to_f16(t),
        }
    }
}

/// Each value rounded to 11 significant bits, f16's precision, by Veltkamp splitting in
/// f32: c = x · (2¹³ + 1), x ↦ c − (c − x). Three element-wise kernels, where a
/// rounding through the exponent takes a dozen; each runs separately, so no compiler
/// can fuse the subtractions away. It agrees with a cast to f16 except on exact ties
/// (which it may round away from even) and below 2⁻¹⁴, where f16 is subnormal and
/// keeps fewer bits: values there are too small to move a logit.
fn round_to_f16<const D: usize>(t: Tensor<D>) -> Tensor<D> {
    let c = t.clone().mul_scalar(8193.0);
    c.clone() - (c - t)
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
            round_input: None,
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
        // Q4_1's k·d + m held as d·(k − 8) + (m + 8d): the same weights, but the integers
        // centred on zero and the offset small, so the separate offset term Σx·m' does
        // not cancel most of the product (measured natively: top-10 logits within 0.46 of
        // llama.cpp centred, argmax off in one case of five uncentred).
        let mut blocks = blocks;
        if let Some(offsets) = blocks.offsets.as_mut() {
            let blocks_of = blocks.values.chunks_mut(32).zip(offsets.iter_mut());
            for ((block, m), d) in blocks_of.zip(&blocks.scales) {
                block.iter_mut().for_each(|w| *w -= 8.0 * d);
                *m += 8.0 * d;
            }
        }
        let weight = Weight::Quantized(match exact_q8(&blocks) {
            // The file's integers and scales as they are: the weights exactly.
            Some((ks, scales)) => Tensor::<2>::from_data(
                TensorData::quantized(ks, [output, input], q8_block32(), &scales, None),
                device,
            ),
            // Not integer blocks: burn's own per-block scales.
            None => Tensor::<2>::from_data(TensorData::new(blocks.values, [output, input]), device)
                .quantize_dynamic(&q8_block32()),
        });
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
            round_input: None,
        }
    }

    pub(crate) fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let (x, block_sums) = match self.round_input {
            Some(rounding) => round_to_q8_blocks(x, rounding),
            None => (x, None),
        };
        let mut y = match &self.weight {
            Weight::Dense(w) => x.clone().matmul(w.clone()),
            // (W · xᵀ)ᵀ rather than x · Wᵀ: burn-flex 0.22 expands a transposed
            // block-quantized tensor with the blocks' scales misplaced.
            Weight::Quantized(w) => w.clone().matmul(x.clone().transpose()).transpose(),
        };
        if let Some(m) = &self.offsets {
            let [rows, input] = x.dims();
            let sums = block_sums.unwrap_or_else(|| {
                x.reshape([rows, input / 32, 32])
                    .sum_dim(2)
                    .reshape([rows, input / 32])
            });
            y = y + sums.matmul(m.clone());
        }
        match &self.bias {
            Some(b) => y + b.clone(),
            None => y,
        }
    }
}

/// The blocks' integers k (values / scale) as i8 and their scales. A block whose
/// integers leave Q8S's symmetric range [−127, 127] (a Q8_0 block holding −128) is
/// re-quantized on its own with scale max|k·d| / 127, within half a step of each weight;
/// every other block is copied exactly. `None` when the values are not whole multiples
/// of their block's scale (not integer blocks at all).
fn exact_q8(blocks: &IntegerBlocks) -> Option<(Vec<i8>, Vec<f32>)> {
    if blocks.values.len() != blocks.scales.len() * 32 {
        return None;
    }
    let mut ks = Vec::with_capacity(blocks.values.len());
    let mut scales = Vec::with_capacity(blocks.scales.len());
    for (block, &d) in blocks.values.chunks(32).zip(&blocks.scales) {
        if d <= 0.0 {
            // An all-zero block (k is 0 whatever the scale).
            ks.extend(std::iter::repeat_n(0i8, 32));
            scales.push(1.0);
            continue;
        }
        let mut wide = [0f32; 32];
        for (w, &v) in wide.iter_mut().zip(block) {
            let k = v / d;
            if (k - k.round()).abs() > 1e-3 {
                return None;
            }
            *w = k.round();
        }
        let largest = wide.iter().fold(0f32, |m, k| m.max(k.abs()));
        if largest <= 127.0 {
            ks.extend(wide.iter().map(|&k| k as i8));
            scales.push(d);
        } else {
            let step = d * largest / 127.0;
            ks.extend(
                block
                    .iter()
                    .map(|&v| (v / step).round().clamp(-127.0, 127.0) as i8),
            );
            scales.push(step);
        }
    }
    Some((ks, scales))
}

/// `x` [rows, n] (n a multiple of 32) rounded to 8 bits per block of 32 along each row:
/// d = max|x| / 127, x ↦ round(x · 127 / max|x|) · d (ties to even), with each block's
/// d · Σq [rows, n / 32] for the offset term. `x` unchanged (and no sums) when blocks
/// do not tile it.
pub(crate) fn round_to_q8_blocks(
    x: Tensor<2>,
    rounding: InputRounding,
) -> (Tensor<2>, Option<Tensor<2>>) {
    let [rows, n] = x.dims();
    if !n.is_multiple_of(32) {
        return (x, None);
    }
    let blocks = x.reshape([rows, n / 32, 32]);
    let amax = blocks.clone().abs().max_dim(2).clamp_min(1e-30);
    let up = amax.ones_like().mul_scalar(127.0).div(amax.clone());
    let q = (blocks * up).round();
    let d = amax / 127.0;
    let sums = d.clone() * q.clone().sum_dim(2);
    let (d, sums) = match rounding {
        InputRounding::Blocks => (d, sums),
        InputRounding::HalfScales(half) => (half.apply(d), half.apply(sums)),
    };
    (
        (q * d).reshape([rows, n]),
        Some(sums.reshape([rows, n / 32])),
    )
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
        // The blocks' integers and scales are kept as they are: the same products.
        for (g, w) in values(q.forward(x)).iter().zip(&want) {
            assert!((g - w).abs() < 1e-5, "8-bit blocks: {g} vs {w}");
        }
    }

    #[test]
    fn a_block_outside_the_symmetric_range_is_requantized_within_half_a_step() {
        let device = Compute::cpu().device().clone();
        let (output, input) = (2, 32);
        // A Q8_0-like block holding k = −128 (Q8S holds −127..127) and a plain one.
        let d = [0.02f32, 0.5];
        let mut b = IntegerBlocks {
            values: Vec::new(),
            scales: d.to_vec(),
            offsets: None,
        };
        for (row, &d) in d.iter().enumerate() {
            for i in 0..32 {
                let k = if row == 0 && i == 0 {
                    -128.0
                } else {
                    (i as f32) - 16.0
                };
                b.values.push(k * d);
            }
        }
        let (ks, scales) = exact_q8(&b).expect("integer blocks");
        // The first block re-quantized alone, the second copied exactly.
        assert_eq!(ks[0], -127);
        assert!((scales[0] - 0.02 * 128.0 / 127.0).abs() < 1e-7);
        assert_eq!((ks[32], scales[1]), (-16, 0.5));
        let dense = b.values.clone();
        let q = Linear::from_blocks(b, None, input, output, Precision::Q8Block32, &device);
        let f = Linear::new(dense, None, input, output, Precision::F32, &device);
        let x = Tensor::<2>::from_data(TensorData::new(vec![1.0f32; input], [1, input]), &device);
        for ((g, w), d) in values(q.forward(x.clone()))
            .iter()
            .zip(values(f.forward(x)))
            .zip(d)
        {
            // 32 weights, each within half of the re-quantized step (≤ d·128/127 / 2).
            assert!(
                (g - w).abs() <= 32.0 * d * 128.0 / 127.0 / 2.0,
                "{g} vs {w}"
            );
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
        let (out, sums) = round_to_q8_blocks(
            Tensor::<2>::from_data(TensorData::new(x, [1, 32]), &device),
            InputRounding::Blocks,
        );
        assert_eq!(&values(out)[..4], &[127.0, 2.0, -4.0, 0.0]);
        // Q8_1's block sum d · Σq = 127 + 2 − 4.
        assert_eq!(sums.map(values), Some(vec![125.0]));
    }

    #[test]
    fn half_scales_are_rounded_as_llama_cpp_stores_them() {
        let device = Compute::cpu().device().clone();
        // max |x| = 100 → d = 100 / 127 = 0.7874016, which f16 holds as 1613 · 2⁻¹¹
        // = 0.78759765625; q = 127, 65 (50.8 · 127 / 100 = 64.516), 0.
        let mut x = vec![0.0f32; 32];
        x[0] = 100.0;
        x[1] = 50.8;
        for half in [F16Rounding::Cast, F16Rounding::Arithmetic] {
            let (out, sums) = round_to_q8_blocks(
                Tensor::<2>::from_data(TensorData::new(x.clone(), [1, 32]), &device),
                InputRounding::HalfScales(half),
            );
            let d = 1613.0f32 / 2048.0;
            let out = values(out);
            assert_eq!(&out[..3], &[127.0 * d, 65.0 * d, 0.0], "{half:?}");
            // s = f16(0.7874016 · 192) = f16(151.18110) = 151.125 (spacing 1/8 there).
            assert_eq!(sums.map(values), Some(vec![151.125]), "{half:?}");
        }
    }

    #[test]
    fn arithmetic_f16_rounding_agrees_with_a_cast_off_ties() {
        let device = Compute::cpu().device().clone();
        // Values across f16's normal range (2⁻¹⁴ to 3.3e4), both signs, from a fixed LCG.
        let mut state = 0x2545_f491_u32;
        let mut xs = Vec::new();
        while xs.len() < 4096 {
            state = state.wrapping_mul(1_664_525).wrapping_add(1_013_904_223);
            let mantissa = 1.0 + (state >> 8) as f32 / (1u32 << 24) as f32;
            let exponent = (state % 29) as i32 - 14;
            let sign = if state & 0x80 == 0 { 1.0 } else { -1.0 };
            let x = sign * mantissa * 2f32.powi(exponent);
            // An exact tie sits halfway between two f16 values: its low 13 bits are 0x1000.
            if x.to_bits() & 0x1fff != 0x1000 {
                xs.push(x);
            }
        }
        let n = xs.len();
        let rounded = values(F16Rounding::Arithmetic.apply(Tensor::<2>::from_data(
            TensorData::new(xs.clone(), [1, n]),
            &device,
        )));
        for (x, r) in xs.iter().zip(rounded) {
            assert_eq!(r, half::f16::from_f32(*x).to_f32(), "x = {x:e}");
        }
    }
}
