//! Weights from safetensors bytes. The header is parsed by the `safetensors` crate
//! (bounds and offsets checked there); every tensor a model asks for is converted to
//! f32 with its shape checked, so a truncated, corrupt or mismatched file is an error
//! that names the tensor, never a panic.

use safetensors::{Dtype, SafeTensors};

use super::ModelError;

/// A parsed safetensors file borrowing its bytes.
pub struct Weights<'a> {
    file: SafeTensors<'a>,
}

impl<'a> Weights<'a> {
    pub fn from_safetensors(bytes: &'a [u8]) -> Result<Self, ModelError> {
        let file =
            SafeTensors::deserialize(bytes).map_err(|e| ModelError::Safetensors(e.to_string()))?;
        Ok(Weights { file })
    }

    /// Names of all tensors in the file.
    pub fn names(&self) -> Vec<String> {
        let mut names: Vec<String> = self.file.names().into_iter().map(str::to_string).collect();
        names.sort();
        names
    }

    /// The shape the file declares for `name`.
    pub fn shape(&self, name: &str) -> Option<Vec<usize>> {
        self.file.tensor(name).ok().map(|t| t.shape().to_vec())
    }

    /// Whether the file has a tensor of this name.
    pub fn contains(&self, name: &str) -> bool {
        self.file.tensor(name).is_ok()
    }

    /// The tensor `name` as f32 values (row-major), checked to have `shape`.
    pub fn f32(&self, name: &str, shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        let view = self
            .file
            .tensor(name)
            .map_err(|_| ModelError::MissingTensor(name.to_string()))?;
        if view.shape() != shape {
            return Err(ModelError::Shape {
                name: name.to_string(),
                found: view.shape().to_vec(),
                expected: shape.to_vec(),
            });
        }
        let data = view.data();
        let values: Vec<f32> = match view.dtype() {
            Dtype::F32 => data
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]]))
                .collect(),
            Dtype::F16 => data
                .chunks_exact(2)
                .map(|b| half::f16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            Dtype::BF16 => data
                .chunks_exact(2)
                .map(|b| half::bf16::from_le_bytes([b[0], b[1]]).to_f32())
                .collect(),
            other => {
                return Err(ModelError::DType {
                    name: name.to_string(),
                    dtype: format!("{other:?}"),
                })
            }
        };
        let expected: usize = shape.iter().product();
        if values.len() != expected {
            return Err(ModelError::Shape {
                name: name.to_string(),
                found: vec![values.len()],
                expected: vec![expected],
            });
        }
        Ok(values)
    }

    /// The first of `names` present in the file (checkpoints name things with or without
    /// a model prefix, "bert.embeddings…" or "embeddings…").
    pub fn first_of(&self, names: &[String], shape: &[usize]) -> Result<Vec<f32>, ModelError> {
        for name in names {
            if self.contains(name) {
                return self.f32(name, shape);
            }
        }
        Err(ModelError::MissingTensor(
            names.first().cloned().unwrap_or_default(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A safetensors file with one F32 tensor "w" of shape [2, 2].
    fn file() -> Vec<u8> {
        let header = br#"{"w":{"dtype":"F32","shape":[2,2],"data_offsets":[0,16]}}"#;
        let mut out = (header.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(header);
        for v in [1.0f32, 2.0, 3.0, 4.0] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out
    }

    #[test]
    fn reads_a_tensor_with_its_shape() {
        let bytes = file();
        let w = Weights::from_safetensors(&bytes).unwrap();
        assert_eq!(w.f32("w", &[2, 2]).unwrap(), vec![1.0, 2.0, 3.0, 4.0]);
        assert_eq!(w.names(), vec!["w".to_string()]);
    }

    #[test]
    fn wrong_shape_missing_tensor_and_truncation_are_errors() {
        let bytes = file();
        let w = Weights::from_safetensors(&bytes).unwrap();
        assert!(matches!(w.f32("w", &[4]), Err(ModelError::Shape { .. })));
        assert!(matches!(
            w.f32("v", &[2, 2]),
            Err(ModelError::MissingTensor(_))
        ));
        for cut in [0, 4, 8, 20, bytes.len() - 1] {
            assert!(
                Weights::from_safetensors(&bytes[..cut]).is_err(),
                "cut at {cut}"
            );
        }
        let mut corrupt = bytes.clone();
        corrupt[8] = b'!';
        assert!(Weights::from_safetensors(&corrupt).is_err());
    }
}
