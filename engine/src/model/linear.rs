//! Linear layers as the models hold them on a device: f32, or 8-bit blocks that burn's
//! quantized matmul kernels read directly (what WebGPU runs best).

use burn::tensor::quantization::{QuantScheme, QuantStore, QuantValue, ScaleDtype};
use burn::tensor::{Device, Tensor, TensorData};

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
    /// [out, in] quantized along `in` (K-contiguous, as the kernels want): `x · Wᵀ`.
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
            bias,
            round_input: false,
        }
    }

    pub(crate) fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let x = match self.round_input {
            true => round_to_q8_blocks(x),
            false => x,
        };
        let y = match &self.weight {
            Weight::Dense(w) => x.matmul(w.clone()),
            Weight::Quantized(w) => x.matmul(w.clone().transpose()),
        };
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
    if n % 32 != 0 {
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
