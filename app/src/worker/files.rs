//! Model files for the worker: from the cache when it holds them and they still match
//! their sha256; otherwise from the network, streamed so the page can show the bytes as
//! they arrive, checked against the size and sha256 recorded for them, then cached.
//! Before a download the model manager asks only for a file's size (`HEAD`) and its
//! first bytes (a `Range` request), to read its header.

use js_sys::{Object, Reflect, Uint8Array};
use std::cell::RefCell;
use std::collections::HashMap;
use wasm_bindgen::{JsCast, JsValue};
use wasm_bindgen_futures::JsFuture;

use web_sys::{
    Blob, File, ReadableStream, ReadableStreamDefaultReader, RequestInit, Response,
    WorkerGlobalScope,
};

use gatepath_app::manifest::{human_size, ModelFile};
use gatepath_app::models::{ModelSource, LOCAL_SCHEME};

use crate::store::{self, FILES};

/// A loaded file and where its bytes came from.
pub struct Loaded {
    pub bytes: Vec<u8>,
    pub origin: Origin,
}

/// Where a file's bytes came from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Origin {
    /// The cache, verified.
    Cache,
    /// The site (nothing was cached).
    Network,
    /// The site, because the cached copy failed its sha256 check and was deleted.
    Repaired,
}

/// What loading a file is doing, for the progress bar.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Event {
    /// Bytes read so far (from the cache or the network).
    Bytes(u64),
    /// Checking the sha256 of what arrived.
    Verifying,
    /// Every file is read and verified; the weights go to the device next.
    Uploading,
}

/// Whether a file missing from the cache may be fetched: the model manager fetches
/// what the user asked for; a query fetches only from this site, so no request leaves
/// it while documents are being read.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Fetch {
    Anywhere,
    ThisSite,
}

/// Loads `file` served at `url`, reporting what it is doing through `report`.
pub async fn load(
    url: &str,
    file: &ModelFile,
    fetch: Fetch,
    report: &dyn Fn(Event),
) -> Result<Loaded, String> {
    let on_bytes = &|n| report(Event::Bytes(n));
    let mut repaired = false;
    if let Some(record) = store::get(FILES, &file.sha256).await {
        match cached_bytes(&record, file, report).await {
            Some(bytes) => {
                return Ok(Loaded {
                    bytes,
                    origin: Origin::Cache,
                });
            }
            None => {
                store::delete(FILES, &file.sha256).await;
                repaired = true;
            }
        }
    }
    if fetch == Fetch::ThisSite && !same_origin(url) {
        return Err(format!(
            "{} is no longer stored in this browser; download it again under Models              (a question never fetches from another site)",
            file.name
        ));
    }
    let bytes = download(url, file.size, on_bytes).await?;
    report(Event::Verifying);
    if u64::from(bytes.length()) != file.size {
        return Err(format!(
            "{url}: {} arrived where the manifest says {}; the download was cut short or \
             the file on the site is not the one the manifest describes",
            human_size(bytes.length().into()),
            human_size(file.size)
        ));
    }
    let hash = store::file_hash(&bytes).await?;
    if hash != file.sha256 {
        return Err(format!(
            "{url} does not match the sha256 recorded for it (it has {hash}, expected {}): \
             the file is damaged or was replaced by another",
            file.sha256
        ));
    }
    put(url, &file.name, &hash, &bytes).await;
    Ok(Loaded {
        bytes: bytes.to_vec(),
        origin: match repaired {
            true => Origin::Repaired,
            false => Origin::Network,
        },
    })
}

/// Downloads a file whose sha256 is not known yet (a model the user points to), hashes
/// it and caches it: its size and sha256 are then recorded, and every later load is
/// verified against them.
pub async fn fetch_new(
    url: &str,
    name: &str,
    expected: Option<u64>,
    report: &dyn Fn(Event),
) -> Result<(Vec<u8>, ModelFile), String> {
    let bytes = download(url, expected.unwrap_or(0), &|n| report(Event::Bytes(n))).await?;
    report(Event::Verifying);
    let size = u64::from(bytes.length());
    if let Some(expected) = expected.filter(|&e| e != size) {
        return Err(format!(
            "{url}: {} arrived where the server announced {}; the download was cut short",
            human_size(size),
            human_size(expected)
        ));
    }
    let sha256 = store::file_hash(&bytes).await?;
    put(url, name, &sha256, &bytes).await;
    let file = ModelFile {
        name: name.to_string(),
        size,
        sha256,
    };
    Ok((bytes.to_vec(), file))
}

/// Whether the cache holds a file with this sha256 (not verified here: loading does).
pub async fn cached(sha256: &str) -> bool {
    store::get(FILES, sha256).await.is_some()
}

/// The first `n` bytes of a file: from the cache when it holds the file (so a model
/// already stored is inspected without the network), else from `url` (see [`prefix`]).
pub async fn head(url: &str, sha256: Option<&str>, n: u64) -> Result<Vec<u8>, String> {
    if let Some(sha256) = sha256 {
        let bytes = store::get(FILES, sha256)
            .await
            .and_then(|record| Reflect::get(&record, &"bytes".into()).ok())
            .and_then(|b| b.dyn_into::<Uint8Array>().ok());
        if let Some(bytes) = bytes {
            let end = u32::try_from(n).unwrap_or(u32::MAX).min(bytes.length());
            return Ok(bytes.subarray(0, end).to_vec());
        }
    }
    prefix(url, n).await
}

/// The file's size as the server announces it (`HEAD`, then a one-byte `Range` request
/// for servers that answer `HEAD` without a length); `None` when it will not say.
pub async fn remote_size(url: &str) -> Result<Option<u64>, String> {
    if let Some(name) = url.strip_prefix(LOCAL_SCHEME) {
        return Ok(Some(local(name)?.size() as u64));
    }
    let head = request(url, "HEAD", None).await?;
    let length = |r: &Response, header: &str| r.headers().get(header).ok().flatten();
    if let Some(n) = length(&head, "content-length").and_then(|v| v.parse::<u64>().ok()) {
        return Ok(Some(n));
    }
    let probe = request(url, "GET", Some(0)).await?;
    let total = length(&probe, "content-range")
        .and_then(|v| v.rsplit('/').next().and_then(|t| t.parse::<u64>().ok()));
    if let Some(body) = probe.body() {
        let _ = body.cancel();
    }
    Ok(total)
}

/// The first `n` bytes of the file at `url` (fewer when it is shorter). Asks for a
/// range; a server that ignores it sends the whole file, of which only `n` bytes are
/// read before the transfer is cancelled.
pub async fn prefix(url: &str, n: u64) -> Result<Vec<u8>, String> {
    let failed = |e: JsValue| format!("could not read {url}: {}", js_text(&e));
    let reader: ReadableStreamDefaultReader = body(url, Some(n.saturating_sub(1)))
        .await?
        .get_reader()
        .unchecked_into();
    let mut out = Vec::with_capacity(n.min(64 << 20) as usize);
    while (out.len() as u64) < n {
        let Some(value) = next_chunk(&reader).await.map_err(failed)? else {
            break;
        };
        out.extend(value.to_vec());
    }
    let _ = reader.cancel();
    out.truncate(n as usize);
    Ok(out)
}

thread_local! {
    /// Files the user chose from their computer, by name: handles, read when needed.
    static LOCAL: RefCell<HashMap<String, File>> = RefCell::new(HashMap::new());
}

/// Takes the files a message from the page carries (chosen with the model manager's
/// file picker), so sources naming them (`local:<name>`) can be read.
pub fn offer(files: Vec<File>) {
    LOCAL.with(|l| {
        let mut l = l.borrow_mut();
        for f in files {
            l.insert(f.name(), f);
        }
    });
}

/// The chosen file called `name`.
fn local(name: &str) -> Result<File, String> {
    LOCAL
        .with(|l| l.borrow().get(name).cloned())
        .ok_or_else(|| {
            format!("{name} from this computer is no longer stored in this browser; choose it again under Models")
        })
}

/// A file's bytes as a stream: a chosen file's own (its first `last + 1` bytes when
/// `last` is given), or a `GET`'s body (asking for that range).
async fn body(url: &str, last: Option<u64>) -> Result<ReadableStream, String> {
    if let Some(name) = url.strip_prefix(LOCAL_SCHEME) {
        let file = local(name)?;
        let blob: Blob = match last {
            Some(last) => file
                .slice_with_f64_and_f64(0.0, (last + 1) as f64)
                .map_err(|e| format!("could not read {name}: {}", js_text(&e)))?,
            None => file.into(),
        };
        return Ok(blob.stream());
    }
    request(url, "GET", last)
        .await?
        .body()
        .ok_or_else(|| format!("could not fetch {url}: the response has no body"))
}

/// `fetch(url)` with `method`, asking for bytes `0..=last` when `last` is given; an
/// HTTP error is an error naming the status.
async fn request(url: &str, method: &str, last: Option<u64>) -> Result<Response, String> {
    let failed = |e: JsValue| {
        format!(
            "could not fetch {url}: {} (the server may be unreachable, refuse other sites' \
             pages (CORS), or not be allowed by this site's Content-Security-Policy)",
            js_text(&e)
        )
    };
    let init = RequestInit::new();
    init.set_method(method);
    if let Some(last) = last {
        let headers = web_sys::Headers::new().map_err(failed)?;
        headers
            .set("Range", &format!("bytes=0-{last}"))
            .map_err(failed)?;
        init.set_headers(&headers);
    }
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let response: Response = JsFuture::from(scope.fetch_with_str_and_init(url, &init))
        .await
        .map_err(failed)?
        .dyn_into()
        .map_err(failed)?;
    if !response.ok() {
        return Err(format!("could not fetch {url}: HTTP {}", response.status()));
    }
    Ok(response)
}

/// Whether `url` is on the site the worker was served from.
pub fn same_origin(url: &str) -> bool {
    let scope: WorkerGlobalScope = js_sys::global().unchecked_into();
    let origin = scope.location().origin();
    !url.contains("://")
        || url
            .strip_prefix(&origin)
            .is_some_and(|r| r.starts_with('/'))
}

/// Caches a verified file under its sha256.
async fn put(url: &str, name: &str, sha256: &str, bytes: &Uint8Array) {
    let record = Object::new();
    let set = |k: &str, v: &JsValue| Reflect::set(&record, &k.into(), v).is_ok();
    let complete = set("name", &name.into())
        && set("url", &url.into())
        && set("size", &f64::from(bytes.length()).into())
        && set("bytes", bytes);
    if complete {
        store::put_many(FILES, vec![(sha256.to_string(), record.into())]).await;
    }
}

/// The cached record's bytes when they have the right size and sha256.
async fn cached_bytes(
    record: &JsValue,
    file: &ModelFile,
    report: &dyn Fn(Event),
) -> Option<Vec<u8>> {
    let bytes: Uint8Array = Reflect::get(record, &"bytes".into())
        .ok()?
        .dyn_into()
        .ok()?;
    if u64::from(bytes.length()) != file.size {
        return None;
    }
    report(Event::Bytes(file.size));
    report(Event::Verifying);
    let hash = store::file_hash(&bytes).await.ok()?;
    (hash == file.sha256).then(|| bytes.to_vec())
}

/// Fetches `url` chunk by chunk into one array (sized from `expected`, grown if the
/// response is longer), calling `on_bytes` with the running total.
async fn download(url: &str, expected: u64, on_bytes: &dyn Fn(u64)) -> Result<Uint8Array, String> {
    let failed = |e: JsValue| format!("could not fetch {url}: {}", js_text(&e));
    let reader: ReadableStreamDefaultReader = body(url, None).await?.get_reader().unchecked_into();
    let capacity = u32::try_from(expected).map_err(|_| {
        format!(
            "{url} is {}; a browser tab cannot hold a file over 4 GB",
            human_size(expected)
        )
    })?;
    let mut buffer = Uint8Array::new_with_length(capacity.max(1 << 16));
    let mut filled: u32 = 0;
    // Progress every megabyte, not every chunk: each report is a message and a redraw.
    let mut reported: u32 = 0;
    while let Some(value) = next_chunk(&reader).await.map_err(failed)? {
        let end = filled
            .checked_add(value.length())
            .ok_or_else(|| format!("{url} is larger than 4 GB"))?;
        if end > buffer.length() {
            let grown = Uint8Array::new_with_length(end.max(buffer.length().saturating_mul(2)));
            grown.set(&buffer.subarray(0, filled), 0);
            buffer = grown;
        }
        buffer.set(&value, filled);
        filled = end;
        if filled - reported >= 1 << 20 {
            reported = filled;
            on_bytes(u64::from(filled));
        }
    }
    on_bytes(u64::from(filled));
    Ok(buffer.subarray(0, filled))
}

/// The next chunk of a response body, `None` at its end.
async fn next_chunk(reader: &ReadableStreamDefaultReader) -> Result<Option<Uint8Array>, JsValue> {
    let chunk = JsFuture::from(reader.read()).await?;
    let done = Reflect::get(&chunk, &"done".into())?
        .as_bool()
        .unwrap_or(true);
    if done {
        return Ok(None);
    }
    Ok(Some(Reflect::get(&chunk, &"value".into())?.dyn_into()?))
}

fn js_text(e: &JsValue) -> String {
    e.as_string()
        .or_else(|| {
            Reflect::get(e, &"message".into())
                .ok()
                .and_then(|m| m.as_string())
        })
        .unwrap_or_else(|| format!("{e:?}"))
}

/// Loads every file of `source` in order (see [`load`]); `report` hears the bytes of
/// all files so far, and the bytes in all. Each file's size and sha256 must be known:
/// shipped, or recorded when the model manager downloaded it.
pub async fn load_all(
    source: &ModelSource,
    fetch: Fetch,
    report: &dyn Fn(Event, u64),
) -> Result<Vec<Loaded>, String> {
    let total = source.size().unwrap_or(0);
    let mut base = 0;
    let mut loaded = Vec::with_capacity(source.files.len());
    for f in &source.files {
        let (Some(size), Some(sha256)) = (f.size, f.sha256.clone()) else {
            return Err(format!(
                "{} has not been downloaded yet; choose it under Models",
                source.name
            ));
        };
        let file = ModelFile {
            name: f.name.clone(),
            size,
            sha256,
        };
        let on = |event| match event {
            Event::Bytes(n) => report(Event::Bytes(base + n), total),
            other => report(other, total),
        };
        loaded.push(load(&f.url, &file, fetch, &on).await?);
        base += size;
    }
    Ok(loaded)
}
