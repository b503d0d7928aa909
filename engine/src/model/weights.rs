//! Weights from safetensors bytes. The header is parsed by the `safetensors` crate
//! (bounds and offsets checked there); every tensor a model asks for is converted to
//! f32 with its shape checked, so a truncated, corrupt or mismatched file is an error
//! that names the tensor, never a panic.

use safetensors::tensor::Metadata;
use safetensors::{Dtype, SafeTensors};

use super::ModelError;

/// The tensor directory of a safetensors file, read from its first bytes.
#[derive(Debug, Clone, PartialEq)]
pub struct Header {
    pub tensors: Vec<TensorEntry>,
}

/// One tensor of a [`Header`].
#[derive(Debug, Clone, PartialEq)]
pub struct TensorEntry {
    pub name: String,
    /// `F32`, `F16`, `BF16`, …
    pub dtype: String,
    pub shape: Vec<usize>,
}

impl Header {
    /// Bytes a prefix must hold for [`parse_prefix`](Self::parse_prefix): the 8-byte
    /// length and the JSON it announces; `None` until those 8 bytes are there.
    pub fn needed(prefix: &[u8]) -> Option<u64> {
        let n: [u8; 8] = prefix.get(..8)?.try_into().ok()?;
        u64::from_le_bytes(n).checked_add(8)
    }

    /// Reads the directory from the first bytes of a file of `file_len` bytes, checking
    /// that the tensors' data fills the file exactly (a truncated download or another
    /// kind of file is refused before anything is loaded).
    pub fn parse_prefix(prefix: &[u8], file_len: u64) -> Result<Self, ModelError> {
        let bad = |m: &str| ModelError::Safetensors(m.to_string());
        let needed = Self::needed(prefix).ok_or_else(|| bad("the file is shorter than 8 bytes"))?;
        let json = usize::try_from(needed)
            .ok()
            .and_then(|end| prefix.get(8..end))
            .ok_or_else(|| bad("the header is longer than the bytes read"))?;
        let metadata: Metadata = serde_json::from_slice(json)
            .map_err(|e| ModelError::Safetensors(format!("the header is not valid: {e}")))?;
        let expected = needed + metadata.data_len() as u64;
        if expected != file_len {
            return Err(ModelError::Safetensors(format!(
                "the header describes a {expected}-byte file, but the file has {file_len} bytes"
            )));
        }
        let mut tensors: Vec<TensorEntry> = metadata
            .tensors()
            .into_iter()
            .map(|(name, info)| TensorEntry {
                name,
                dtype: format!("{:?}", info.dtype),
                shape: info.shape.clone(),
            })
            .collect();
        tensors.sort_by(|a, b| a.name.cmp(&b.name));
        Ok(Header { tensors })
    }
}

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

    #[test]
    fn a_header_read_from_a_prefix_lists_tensors_and_refuses_a_file_of_another_length() {
        let bytes = file();
        let needed = Header::needed(&bytes).expect("8 bytes");
        assert_eq!(needed as usize, bytes.len() - 16);
        let header = Header::parse_prefix(&bytes[..needed as usize], bytes.len() as u64)
            .expect("the header alone is enough");
        assert_eq!(header.tensors.len(), 1);
        assert_eq!(
            (
                header.tensors[0].dtype.as_str(),
                header.tensors[0].shape.as_slice()
            ),
            ("F32", &[2, 2][..])
        );
        assert!(Header::parse_prefix(&bytes, bytes.len() as u64 - 1).is_err());
        assert!(Header::parse_prefix(&bytes[..20], bytes.len() as u64).is_err());
        assert!(Header::needed(&bytes[..7]).is_none());
    }
}
