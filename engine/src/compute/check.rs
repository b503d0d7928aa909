//! A device self-check: one matmul followed by a row softmax, on inputs anyone can
//! regenerate from a formula, compared with the CPU backend and with a plain f64
//! computation.
//!
//! Why: a GPU driver (or a software rasteriser such as SwiftShader) can be present and
//! still compute wrongly; the app runs this before trusting a device with a model, and
//! the browser tests use it to prove the WebGPU path end to end.

use burn::tensor::{activation::softmax, Tensor, TensorData};

use super::{Backend, Compute, ComputeError};

/// Largest absolute difference accepted between two backends (or a backend and the f64
/// reference) on [`CheckInput::standard`]. Results are probabilities in \[0, 1\].
pub const TOLERANCE: f32 = 1e-4;

/// The operands of the check: `softmax(A · B)` over rows, with `A` of shape `m × k` and
/// `B` of shape `k × n`, both row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct CheckInput {
    /// Rows of `A` and of the result.
    pub m: usize,
    /// Columns of `A`, rows of `B`.
    pub k: usize,
    /// Columns of `B` and of the result.
    pub n: usize,
    /// `A`, row-major: `a[i·k + j] = ((7i + 13j) mod 17) / 8 − 1`.
    pub a: Vec<f32>,
    /// `B`, row-major: `b[j·n + l] = ((5j + 11l) mod 19) / 9 − 1`.
    pub b: Vec<f32>,
}

impl CheckInput {
    /// The shape the app and the browser tests use: big enough to cross GPU workgroup
    /// tiles (64 × 48 · 48 × 32), small enough to run in well under a second.
    pub fn standard() -> Self {
        Self::new(64, 48, 32)
    }

    /// Operands of the given shape, filled by the formulas documented on the fields.
    pub fn new(m: usize, k: usize, n: usize) -> Self {
        let a = (0..m)
            .flat_map(|i| (0..k).map(move |j| ((7 * i + 13 * j) % 17) as f32 / 8.0 - 1.0))
            .collect();
        let b = (0..k)
            .flat_map(|j| (0..n).map(move |l| ((5 * j + 11 * l) % 19) as f32 / 9.0 - 1.0))
            .collect();
        CheckInput { m, k, n, a, b }
    }
}

/// What a device computed for a [`CheckInput`] and how far it is from the references.
#[derive(Debug, Clone, PartialEq)]
pub struct Verification {
    /// The backend that produced `values`.
    pub backend: Backend,
    /// `softmax(A · B)`, row-major `m × n`.
    pub values: Vec<f32>,
    /// Largest |difference| to the same computation on the CPU backend.
    pub cpu_max_abs_diff: f32,
    /// Largest |difference| to the f64 reference ([`reference`]).
    pub reference_max_abs_diff: f32,
}

impl Verification {
    /// Whether both differences are within [`TOLERANCE`].
    pub fn passed(&self) -> bool {
        self.cpu_max_abs_diff <= TOLERANCE && self.reference_max_abs_diff <= TOLERANCE
    }
}

/// Runs the check on `compute` and, unless `compute` already is the CPU, on the CPU
/// backend too, and compares both with the f64 reference. Reads back asynchronously
/// only (synchronous reads panic on WebGPU).
pub async fn verify(compute: &Compute, input: &CheckInput) -> Result<Verification, ComputeError> {
    let values = run(compute, input).await?;
    let reference = reference(input);
    let reference_max_abs_diff =
        max_abs_diff(&values, &reference).ok_or_else(|| ComputeError::Result {
            backend: compute.backend().clone(),
            message: format!("{} values, expected {}", values.len(), reference.len()),
        })?;
    let cpu_max_abs_diff = match compute.backend() {
        Backend::Cpu => 0.0,
        _ => {
            let cpu = Compute::cpu();
            let on_cpu = run(&cpu, input).await?;
            max_abs_diff(&values, &on_cpu).unwrap_or(f32::INFINITY)
        }
    };
    Ok(Verification {
        backend: compute.backend().clone(),
        values,
        cpu_max_abs_diff,
        reference_max_abs_diff,
    })
}

/// `softmax(A · B)` over rows on `compute`, read back as row-major f32.
pub async fn run(compute: &Compute, input: &CheckInput) -> Result<Vec<f32>, ComputeError> {
    let device = compute.device();
    let a = Tensor::<2>::from_data(TensorData::new(input.a.clone(), [input.m, input.k]), device);
    let b = Tensor::<2>::from_data(TensorData::new(input.b.clone(), [input.k, input.n]), device);
    let probabilities = softmax(a.matmul(b), 1);
    let data = probabilities
        .into_data_async()
        .await
        .map_err(|e| ComputeError::Execution {
            backend: compute.backend().clone(),
            message: e.to_string(),
        })?;
    data.try_into_vec::<f32>()
        .map_err(|e| ComputeError::Result {
            backend: compute.backend().clone(),
            message: format!("{e:?}"),
        })
}

/// `softmax(A · B)` computed in f64 without burn: the independent reference.
pub fn reference(input: &CheckInput) -> Vec<f32> {
    let CheckInput { m, k, n, a, b } = input;
    let mut out = Vec::with_capacity(m * n);
    for i in 0..*m {
        let logits: Vec<f64> = (0..*n)
            .map(|l| {
                (0..*k)
                    .map(|j| a[i * k + j] as f64 * b[j * n + l] as f64)
                    .sum()
            })
            .collect();
        let max = logits.iter().copied().fold(f64::NEG_INFINITY, f64::max);
        let exps: Vec<f64> = logits.iter().map(|x| (x - max).exp()).collect();
        let sum: f64 = exps.iter().sum();
        out.extend(exps.iter().map(|e| (e / sum) as f32));
    }
    out
}

/// Largest absolute element-wise difference, or `None` when the lengths differ.
/// A NaN on either side counts as an infinite difference.
pub fn max_abs_diff(a: &[f32], b: &[f32]) -> Option<f32> {
    if a.len() != b.len() {
        return None;
    }
    Some(a.iter().zip(b).fold(0.0f32, |worst, (x, y)| {
        let d = (x - y).abs();
        if d.is_nan() {
            f32::INFINITY
        } else {
            worst.max(d)
        }
    }))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn operands_follow_the_documented_formulas() {
        let input = CheckInput::new(2, 3, 2);
        // a[i][j] = ((7i + 13j) mod 17)/8 − 1: row 0 → 0, 13, 26%17=9; row 1 → 7, 20%17=3, 33%17=16
        assert_eq!(input.a, vec![-1.0, 0.625, 0.125, -0.125, -0.625, 1.0]);
        // b[j][l] = ((5j + 11l) mod 19)/9 − 1: (0,0)=0 (0,1)=11 (1,0)=5 (1,1)=16 (2,0)=10 (2,1)=21%19=2
        let expect: Vec<f32> = [0.0, 11.0, 5.0, 16.0, 10.0, 2.0]
            .iter()
            .map(|v: &f32| v / 9.0 - 1.0)
            .collect();
        assert_eq!(input.b, expect);
    }

    #[test]
    fn reference_matches_a_hand_computed_softmax() {
        // A = [[1, 0], [0, 1]], B = [[ln 3, 0], [0, 0]]:
        // row 0 logits (ln 3, 0) → (3/4, 1/4); row 1 logits (0, 0) → (1/2, 1/2).
        let input = CheckInput {
            m: 2,
            k: 2,
            n: 2,
            a: vec![1.0, 0.0, 0.0, 1.0],
            b: vec![3f32.ln(), 0.0, 0.0, 0.0],
        };
        let out = reference(&input);
        let expect = [0.75, 0.25, 0.5, 0.5];
        assert!(
            max_abs_diff(&out, &expect).is_some_and(|d| d < 1e-7),
            "{out:?}"
        );
    }

    #[test]
    fn max_abs_diff_treats_nan_as_infinite_and_rejects_length_mismatch() {
        assert_eq!(max_abs_diff(&[1.0, 2.0], &[1.5, 1.0]), Some(1.0));
        assert_eq!(max_abs_diff(&[f32::NAN], &[0.0]), Some(f32::INFINITY));
        assert_eq!(max_abs_diff(&[1.0], &[1.0, 2.0]), None);
    }

    #[test]
    fn cpu_backend_matches_the_f64_reference() {
        let input = CheckInput::standard();
        let check = pollster::block_on(verify(&Compute::cpu(), &input)).expect("cpu check runs");
        assert_eq!(check.backend, Backend::Cpu);
        assert_eq!(check.values.len(), 64 * 32);
        assert!(
            check.passed(),
            "max |Δ| to reference {}",
            check.reference_max_abs_diff
        );
        // Every row is a probability distribution.
        for row in check.values.chunks(32) {
            let sum: f32 = row.iter().sum();
            assert!((sum - 1.0).abs() < 1e-5, "row sums to {sum}");
        }
    }

    #[test]
    fn the_standard_check_is_not_trivially_uniform() {
        // A check whose softmax rows were all uniform would pass on a backend that
        // ignored the matmul; make sure the standard operands produce peaked rows.
        let out = reference(&CheckInput::standard());
        let peak = out.iter().copied().fold(0.0f32, f32::max);
        assert!(
            peak > 0.3,
            "largest probability {peak} (uniform would be 1/32)"
        );
    }
}
