//! GGUF files from bytes: the metadata (hyper-parameters, tokenizer, chat template) and
//! the tensors, read without copying the file. Every length and offset is checked
//! against the bytes before it is used, so a truncated or corrupt file is a
//! [`GgufError`], never a panic or an allocation the file's numbers ask for.
//!
//! Tensors come out as f32 ([`Gguf::f32`]) whatever their block type (F32, F16, Q8_0,
//! Q4_0, Q4_1), or as raw blocks ([`Gguf::blocks`]) for a caller that re-packs them.
//! Shapes are given row-major (`[rows, cols]`); GGUF lists dimensions innermost first,
//! so a linear weight `[out, in]` is stored `in`-contiguous.

use std::collections::BTreeMap;
use std::fmt;

/// Why a GGUF file could not be read.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum GgufError {
    #[error("not a GGUF file (the first bytes are not `GGUF`)")]
    Magic,
    #[error("GGUF version {0} is not supported (versions 2 and 3 are)")]
    Version(u32),
    #[error("the file ends early: {0}")]
    Truncated(String),
    #[error("the file is malformed: {0}")]
    Malformed(String),
    #[error("metadata key `{0}` is missing")]
    MissingKey(String),
    #[error("metadata key `{key}` holds {found}, expected {expected}")]
    KeyType {
        key: String,
        found: String,
        expected: &'static str,
    },
    #[error("tensor `{0}` is missing from the file")]
    MissingTensor(String),
    #[error(
        "tensor `{name}` has type {kind}, which cannot be read (F32, F16, Q8_0, Q4_0, Q4_1 can)"
    )]
    TensorType { name: String, kind: GgmlType },
}

/// The element or block type of a tensor (`ggml_type`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum GgmlType {
    F32,
    F16,
    /// 32 values: an f16 scale and 16 bytes of 4-bit values, `(q - 8) · d`.
    Q4_0,
    /// 32 values: f16 scale and minimum, 16 bytes of 4-bit values, `q · d + m`.
    Q4_1,
    /// 32 values: an f16 scale and 32 signed bytes, `q · d`.
    Q8_0,
    /// Any other ggml type, by number: listed, not readable.
    Other(u32),
}

impl GgmlType {
    fn from_id(id: u32) -> Self {
        match id {
            0 => GgmlType::F32,
            1 => GgmlType::F16,
            2 => GgmlType::Q4_0,
            3 => GgmlType::Q4_1,
            8 => GgmlType::Q8_0,
            other => GgmlType::Other(other),
        }
    }

    /// Values per block and bytes per block, for the readable types.
    pub fn block(self) -> Option<(usize, usize)> {
        match self {
            GgmlType::F32 => Some((1, 4)),
            GgmlType::F16 => Some((1, 2)),
            GgmlType::Q4_0 => Some((32, 18)),
            GgmlType::Q4_1 => Some((32, 20)),
            GgmlType::Q8_0 => Some((32, 34)),
            GgmlType::Other(_) => None,
        }
    }
}

impl fmt::Display for GgmlType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GgmlType::F32 => f.write_str("F32"),
            GgmlType::F16 => f.write_str("F16"),
            GgmlType::Q4_0 => f.write_str("Q4_0"),
            GgmlType::Q4_1 => f.write_str("Q4_1"),
            GgmlType::Q8_0 => f.write_str("Q8_0"),
            GgmlType::Other(id) => match id {
                6 => f.write_str("Q5_0"),
                7 => f.write_str("Q5_1"),
                10 => f.write_str("Q2_K"),
                11 => f.write_str("Q3_K"),
                12 => f.write_str("Q4_K"),
                13 => f.write_str("Q5_K"),
                14 => f.write_str("Q6_K"),
                15 => f.write_str("Q8_K"),
                30 => f.write_str("BF16"),
                other => write!(f, "ggml type {other}"),
            },
        }
    }
}

/// A metadata value.
#[derive(Debug, Clone, PartialEq)]
pub enum Value {
    U8(u8),
    I8(i8),
    U16(u16),
    I16(i16),
    U32(u32),
    I32(i32),
    U64(u64),
    I64(i64),
    F32(f32),
    F64(f64),
    Bool(bool),
    String(String),
    Array(Vec<Value>),
}

impl Value {
    /// The value as an unsigned integer, if it is a non-negative integer of any width.
    pub fn as_u64(&self) -> Option<u64> {
        match *self {
            Value::U8(v) => Some(v.into()),
            Value::U16(v) => Some(v.into()),
            Value::U32(v) => Some(v.into()),
            Value::U64(v) => Some(v),
            Value::I8(v) => u64::try_from(v).ok(),
            Value::I16(v) => u64::try_from(v).ok(),
            Value::I32(v) => u64::try_from(v).ok(),
            Value::I64(v) => u64::try_from(v).ok(),
            _ => None,
        }
    }

    /// The value as a float, if it is a number.
    pub fn as_f64(&self) -> Option<f64> {
        match *self {
            Value::F32(v) => Some(v.into()),
            Value::F64(v) => Some(v),
            _ => self.as_u64().map(|v| v as f64),
        }
    }

    pub fn as_str(&self) -> Option<&str> {
        match self {
            Value::String(s) => Some(s),
            _ => None,
        }
    }

    fn kind(&self) -> &'static str {
        match self {
            Value::U8(_) => "u8",
            Value::I8(_) => "i8",
            Value::U16(_) => "u16",
            Value::I16(_) => "i16",
            Value::U32(_) => "u32",
            Value::I32(_) => "i32",
            Value::U64(_) => "u64",
            Value::I64(_) => "i64",
            Value::F32(_) => "f32",
            Value::F64(_) => "f64",
            Value::Bool(_) => "bool",
            Value::String(_) => "a string",
            Value::Array(_) => "an array",
        }
    }
}

/// Where a tensor lives in the file and what it holds.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TensorInfo {
    pub name: String,
    /// Row-major shape (GGUF's dimension list reversed).
    pub shape: Vec<usize>,
    pub kind: GgmlType,
    /// Byte range inside the file, checked to lie within it (readable types only).
    range: Option<(usize, usize)>,
}

impl TensorInfo {
    /// Number of values.
    pub fn len(&self) -> usize {
        self.shape.iter().product()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Bytes of the tensor's data in the file (`None` for types this build cannot read).
    pub fn file_bytes(&self) -> Option<u64> {
        self.range.map(|(start, end)| (end - start) as u64)
    }
}

/// A parsed GGUF file borrowing its bytes.
pub struct Gguf<'a> {
    bytes: &'a [u8],
    pub version: u32,
    metadata: BTreeMap<String, Value>,
    tensors: Vec<TensorInfo>,
    by_name: BTreeMap<String, usize>,
}

/// Arrays nest at most this deep (the format allows nesting; files use one level).
const MAX_DEPTH: usize = 4;

impl<'a> Gguf<'a> {
    /// Parses the header, metadata and tensor directory; tensor data is read on demand.
    pub fn parse(bytes: &'a [u8]) -> Result<Self, GgufError> {
        Self::parse_prefix(bytes, bytes.len() as u64)
    }

    /// Parses the first bytes of a file of `file_len` bytes: enough to hold its header,
    /// metadata and tensor directory (a few megabytes, the tokenizer included), so a
    /// model can be inspected before it is downloaded. Tensor ranges are checked against
    /// `file_len`; a tensor whose data lies past the bytes given cannot be read
    /// ([`GgufError::Truncated`]). Too few bytes for the directory is
    /// [`GgufError::Truncated`] too: read more and try again.
    pub fn parse_prefix(bytes: &'a [u8], file_len: u64) -> Result<Self, GgufError> {
        let file_len = usize::try_from(file_len).unwrap_or(usize::MAX);
        let mut r = Reader { bytes, at: 0 };
        if r.take(4, "the magic number")? != b"GGUF" {
            return Err(GgufError::Magic);
        }
        let version = r.u32("the version")?;
        if !(2..=3).contains(&version) {
            return Err(GgufError::Version(version));
        }
        let tensor_count = r.count("the tensor count", 8)?;
        let kv_count = r.count("the metadata count", 13)?;
        let mut metadata = BTreeMap::new();
        for _ in 0..kv_count {
            let key = r.string("a metadata key")?;
            let kind = r.u32("a metadata type")?;
            let value = r.value(kind, 0, &key)?;
            metadata.insert(key, value);
        }
        let mut raw = Vec::with_capacity(tensor_count);
        for _ in 0..tensor_count {
            let name = r.string("a tensor name")?;
            let dims = r.u32("a tensor's dimension count")? as usize;
            if dims > 8 {
                return Err(GgufError::Malformed(format!(
                    "tensor `{name}` has {dims} dimensions"
                )));
            }
            let mut shape = Vec::with_capacity(dims);
            for _ in 0..dims {
                let d = r.u64("a tensor dimension")?;
                shape.push(usize::try_from(d).map_err(|_| {
                    GgufError::Malformed(format!("tensor `{name}` has a dimension of {d}"))
                })?);
            }
            shape.reverse();
            let kind = GgmlType::from_id(r.u32("a tensor type")?);
            let offset = r.u64("a tensor offset")?;
            raw.push((name, shape, kind, offset));
        }
        let alignment = match metadata.get("general.alignment") {
            None => 32,
            Some(v) => match v.as_u64() {
                Some(a) if a > 0 && a.is_power_of_two() && a <= 1 << 16 => a as usize,
                _ => return Err(GgufError::Malformed(format!("general.alignment is {v:?}"))),
            },
        };
        let data_start = r.at.div_ceil(alignment) * alignment;
        let mut tensors = Vec::with_capacity(raw.len());
        let mut by_name = BTreeMap::new();
        for (name, shape, kind, offset) in raw {
            let count = shape
                .iter()
                .try_fold(1usize, |acc, &d| acc.checked_mul(d))
                .ok_or_else(|| GgufError::Malformed(format!("tensor `{name}` is too large")))?;
            let range = match kind.block() {
                None => None,
                Some((per_block, block_bytes)) => {
                    let inner = shape.last().copied().unwrap_or(1);
                    if inner % per_block != 0 {
                        return Err(GgufError::Malformed(format!(
                            "tensor `{name}`: rows of {inner} values do not fill {kind} blocks of {per_block}"
                        )));
                    }
                    let size = (count / per_block)
                        .checked_mul(block_bytes)
                        .ok_or_else(|| {
                            GgufError::Malformed(format!("tensor `{name}` is too large"))
                        })?;
                    let start = usize::try_from(offset)
                        .ok()
                        .and_then(|o| data_start.checked_add(o))
                        .ok_or_else(|| {
                            GgufError::Malformed(format!("tensor `{name}` has offset {offset}"))
                        })?;
                    let end = start
                        .checked_add(size)
                        .filter(|&e| e <= file_len)
                        .ok_or_else(|| {
                            GgufError::Truncated(format!(
                                "tensor `{name}` needs bytes {start}..{} of a {file_len}-byte file",
                                start.saturating_add(size),
                            ))
                        })?;
                    Some((start, end))
                }
            };
            if by_name.insert(name.clone(), tensors.len()).is_some() {
                return Err(GgufError::Malformed(format!(
                    "tensor `{name}` appears twice"
                )));
            }
            tensors.push(TensorInfo {
                name,
                shape,
                kind,
                range,
            });
        }
        Ok(Gguf {
            bytes,
            version,
            metadata,
            tensors,
            by_name,
        })
    }

    /// All metadata, by key.
    pub fn metadata(&self) -> &BTreeMap<String, Value> {
        &self.metadata
    }

    pub fn get(&self, key: &str) -> Option<&Value> {
        self.metadata.get(key)
    }

    /// A required unsigned integer.
    pub fn u64(&self, key: &str) -> Result<u64, GgufError> {
        let v = self.require(key)?;
        v.as_u64()
            .ok_or_else(|| type_error(key, v, "an unsigned integer"))
    }

    /// A required number.
    pub fn f64(&self, key: &str) -> Result<f64, GgufError> {
        let v = self.require(key)?;
        v.as_f64().ok_or_else(|| type_error(key, v, "a number"))
    }

    /// A required string.
    pub fn str(&self, key: &str) -> Result<&str, GgufError> {
        let v = self.require(key)?;
        v.as_str().ok_or_else(|| type_error(key, v, "a string"))
    }

    /// A required array of strings.
    pub fn strings(&self, key: &str) -> Result<Vec<&str>, GgufError> {
        let v = self.require(key)?;
        match v {
            Value::Array(items) => items
                .iter()
                .map(|i| {
                    i.as_str()
                        .ok_or_else(|| type_error(key, v, "an array of strings"))
                })
                .collect(),
            _ => Err(type_error(key, v, "an array of strings")),
        }
    }

    /// A required array of integers.
    pub fn integers(&self, key: &str) -> Result<Vec<i64>, GgufError> {
        let v = self.require(key)?;
        match v {
            Value::Array(items) => items
                .iter()
                .map(|i| match *i {
                    Value::I8(x) => Ok(x.into()),
                    Value::I16(x) => Ok(x.into()),
                    Value::I32(x) => Ok(x.into()),
                    Value::I64(x) => Ok(x),
                    _ => i
                        .as_u64()
                        .and_then(|x| i64::try_from(x).ok())
                        .ok_or_else(|| type_error(key, v, "an array of integers")),
                })
                .collect(),
            _ => Err(type_error(key, v, "an array of integers")),
        }
    }

    /// The tensor directory, in file order.
    pub fn tensors(&self) -> &[TensorInfo] {
        &self.tensors
    }

    pub fn tensor(&self, name: &str) -> Option<&TensorInfo> {
        self.by_name.get(name).map(|&i| &self.tensors[i])
    }

    /// The raw bytes of a tensor with its type, for callers that re-pack blocks.
    pub fn blocks(&self, name: &str) -> Result<(&TensorInfo, &'a [u8]), GgufError> {
        let info = self
            .tensor(name)
            .ok_or_else(|| GgufError::MissingTensor(name.to_string()))?;
        let (start, end) = info.range.ok_or_else(|| GgufError::TensorType {
            name: name.to_string(),
            kind: info.kind,
        })?;
        let data = self.bytes.get(start..end).ok_or_else(|| {
            GgufError::Truncated(format!(
                "tensor `{name}` lies past the {} bytes read",
                self.bytes.len()
            ))
        })?;
        Ok((info, data))
    }

    /// A tensor as f32 values (row-major) with its shape.
    pub fn f32(&self, name: &str) -> Result<(Vec<usize>, Vec<f32>), GgufError> {
        let (info, data) = self.blocks(name)?;
        let mut out = Vec::with_capacity(info.len());
        if !dequantize(info.kind, data, &mut out) {
            return Err(GgufError::TensorType {
                name: name.to_string(),
                kind: info.kind,
            });
        }
        Ok((info.shape.clone(), out))
    }

    fn require(&self, key: &str) -> Result<&Value, GgufError> {
        self.metadata
            .get(key)
            .ok_or_else(|| GgufError::MissingKey(key.to_string()))
    }
}

/// Appends the values of `data` (whole blocks of `kind`) to `out`; `false` (nothing
/// appended) for a type that cannot be read.
pub fn dequantize(kind: GgmlType, data: &[u8], out: &mut Vec<f32>) -> bool {
    let f16 = |b: &[u8]| half::f16::from_le_bytes([b[0], b[1]]).to_f32();
    match kind {
        GgmlType::F32 => out.extend(
            data.chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        ),
        GgmlType::F16 => out.extend(data.chunks_exact(2).map(f16)),
        GgmlType::Q8_0 => {
            for block in data.chunks_exact(34) {
                let d = f16(&block[..2]);
                out.extend(block[2..].iter().map(|&q| f32::from(q as i8) * d));
            }
        }
        GgmlType::Q4_0 => {
            for block in data.chunks_exact(18) {
                let d = f16(&block[..2]);
                let qs = &block[2..];
                out.extend(qs.iter().map(|&q| (f32::from(q & 0x0f) - 8.0) * d));
                out.extend(qs.iter().map(|&q| (f32::from(q >> 4) - 8.0) * d));
            }
        }
        GgmlType::Q4_1 => {
            for block in data.chunks_exact(20) {
                let d = f16(&block[..2]);
                let m = f16(&block[2..4]);
                let qs = &block[4..];
                out.extend(qs.iter().map(|&q| f32::from(q & 0x0f) * d + m));
                out.extend(qs.iter().map(|&q| f32::from(q >> 4) * d + m));
            }
        }
        GgmlType::Other(_) => return false,
    }
    true
}

/// Block-quantized weights taken apart: each weight as `k · d` with `k` a small integer
/// (exact in f32), the scale `d` of each block of 32, and for Q4_1 the offset `m` each
/// block adds. Burn's symmetric 8-bit blocks hold `k` with scale `d` exactly; the offsets
/// are applied separately (`x · (k·d)ᵀ + Σ_block(x) · mᵀ`), so nothing is re-rounded.
#[derive(Debug, Clone, PartialEq)]
pub struct IntegerBlocks {
    pub values: Vec<f32>,
    pub scales: Vec<f32>,
    pub offsets: Option<Vec<f32>>,
}

/// [`IntegerBlocks`] of Q8_0 (k = q), Q4_0 (k = q − 8) and Q4_1 (k = q, offset m)
/// data; `None` for other types. A negative scale is folded into `k`.
pub fn integer_blocks(kind: GgmlType, data: &[u8]) -> Option<IntegerBlocks> {
    let (size, header) = match kind {
        GgmlType::Q8_0 => (34, 2),
        GgmlType::Q4_0 => (18, 2),
        GgmlType::Q4_1 => (20, 4),
        _ => return None,
    };
    let f16 = |b: &[u8]| half::f16::from_le_bytes([b[0], b[1]]).to_f32();
    let blocks = data.len() / size;
    let mut out = IntegerBlocks {
        values: Vec::with_capacity(blocks * 32),
        scales: Vec::with_capacity(blocks),
        offsets: (kind == GgmlType::Q4_1).then(|| Vec::with_capacity(blocks)),
    };
    let mut ks = [0f32; 32];
    for block in data.chunks_exact(size) {
        let d = f16(&block[..2]);
        let qs = &block[header..];
        match kind {
            GgmlType::Q8_0 => ks
                .iter_mut()
                .zip(qs)
                .for_each(|(k, &q)| *k = f32::from(q as i8)),
            _ => {
                let shift = if kind == GgmlType::Q4_0 { 8.0 } else { 0.0 };
                for (i, &q) in qs.iter().enumerate() {
                    ks[i] = f32::from(q & 0x0f) - shift;
                    ks[i + 16] = f32::from(q >> 4) - shift;
                }
            }
        }
        let (sign, d) = if d < 0.0 { (-1.0, -d) } else { (1.0, d) };
        out.values.extend(ks.iter().map(|k| sign * k * d));
        out.scales.push(d);
        if let Some(offsets) = out.offsets.as_mut() {
            offsets.push(f16(&block[2..4]));
        }
    }
    Some(out)
}

fn type_error(key: &str, found: &Value, expected: &'static str) -> GgufError {
    GgufError::KeyType {
        key: key.to_string(),
        found: found.kind().to_string(),
        expected,
    }
}

/// A cursor over the file that checks every read against its end.
struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl<'a> Reader<'a> {
    fn take(&mut self, n: usize, what: &str) -> Result<&'a [u8], GgufError> {
        let end = self
            .at
            .checked_add(n)
            .filter(|&e| e <= self.bytes.len())
            .ok_or_else(|| GgufError::Truncated(format!("{what} at byte {}", self.at)))?;
        let out = &self.bytes[self.at..end];
        self.at = end;
        Ok(out)
    }

    fn array<const N: usize>(&mut self, what: &str) -> Result<[u8; N], GgufError> {
        let b = self.take(N, what)?;
        let mut out = [0u8; N];
        out.copy_from_slice(b);
        Ok(out)
    }

    fn u32(&mut self, what: &str) -> Result<u32, GgufError> {
        Ok(u32::from_le_bytes(self.array(what)?))
    }

    fn u64(&mut self, what: &str) -> Result<u64, GgufError> {
        Ok(u64::from_le_bytes(self.array(what)?))
    }

    /// A count of items that each take at least `min_bytes`: larger than the rest of the
    /// file can hold means a corrupt file, refused before anything is allocated.
    fn count(&mut self, what: &str, min_bytes: usize) -> Result<usize, GgufError> {
        let n = self.u64(what)?;
        let left = (self.bytes.len() - self.at) as u64;
        if n.saturating_mul(min_bytes as u64) > left {
            return Err(GgufError::Truncated(format!(
                "{what} is {n}, more than the {left} bytes left can hold"
            )));
        }
        Ok(n as usize)
    }

    fn string(&mut self, what: &str) -> Result<String, GgufError> {
        let len = self.u64(what)?;
        let len = usize::try_from(len)
            .map_err(|_| GgufError::Truncated(format!("{what} of {len} bytes")))?;
        let bytes = self.take(len, what)?;
        // Vocabularies hold byte-level pieces that are valid UTF-8; anything else is
        // kept readable rather than refused.
        Ok(String::from_utf8_lossy(bytes).into_owned())
    }

    fn value(&mut self, kind: u32, depth: usize, key: &str) -> Result<Value, GgufError> {
        let what = format!("the value of `{key}`");
        Ok(match kind {
            0 => Value::U8(self.array::<1>(&what)?[0]),
            1 => Value::I8(self.array::<1>(&what)?[0] as i8),
            2 => Value::U16(u16::from_le_bytes(self.array(&what)?)),
            3 => Value::I16(i16::from_le_bytes(self.array(&what)?)),
            4 => Value::U32(u32::from_le_bytes(self.array(&what)?)),
            5 => Value::I32(i32::from_le_bytes(self.array(&what)?)),
            6 => Value::F32(f32::from_le_bytes(self.array(&what)?)),
            7 => match self.array::<1>(&what)?[0] {
                0 => Value::Bool(false),
                1 => Value::Bool(true),
                b => return Err(GgufError::Malformed(format!("`{key}`: bool byte {b}"))),
            },
            8 => Value::String(self.string(&what)?),
            9 => {
                if depth >= MAX_DEPTH {
                    return Err(GgufError::Malformed(format!(
                        "`{key}`: arrays nested deeper than {MAX_DEPTH}"
                    )));
                }
                let inner = self.u32(&what)?;
                let min = match inner {
                    0 | 1 | 7 => 1,
                    2 | 3 => 2,
                    4..=6 => 4,
                    10..=12 => 8,
                    8 | 9 => 8,
                    other => {
                        return Err(GgufError::Malformed(format!(
                            "`{key}`: unknown value type {other}"
                        )))
                    }
                };
                let n = self.count(&what, min)?;
                let mut items = Vec::with_capacity(n);
                for _ in 0..n {
                    items.push(self.value(inner, depth + 1, key)?);
                }
                Value::Array(items)
            }
            10 => Value::U64(u64::from_le_bytes(self.array(&what)?)),
            11 => Value::I64(i64::from_le_bytes(self.array(&what)?)),
            12 => Value::F64(f64::from_le_bytes(self.array(&what)?)),
            other => {
                return Err(GgufError::Malformed(format!(
                    "`{key}`: unknown value type {other}"
                )))
            }
        })
    }
}

#[cfg(test)]
mod tests;
