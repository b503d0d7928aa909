//! The language resources in the worker: the part-of-speech tagger's data and the drug
//! lexicon that `engine::language` reads, the same files `bench` reads by default.
//! They come from this site (`models/lexicons/`, pinned by size and sha256 in
//! `models/lexicons.json`) or from the cache, and are parsed once per worker. Without
//! them the readers still answer, splitting sentences at punctuation and function
//! words; the page then says why, since real documents are read worse that way.

use std::cell::RefCell;
use std::sync::Arc;

use engine::language::Language;
use gatepath_app::manifest::{fetch_lexicons, Lexicons};

use crate::files::{self, Event, Fetch, Origin};

thread_local! {
    static LOADED: RefCell<Option<Arc<Language>>> = const { RefCell::new(None) };
}

/// The language resources, and where each file came from (empty when they were parsed
/// before in this worker). `report` hears the bytes read, with the files' total size.
pub async fn load(report: &dyn Fn(Event, u64)) -> Result<(Arc<Language>, Vec<Origin>), String> {
    if let Some(language) = LOADED.with(|l| l.borrow().clone()) {
        return Ok((language, Vec::new()));
    }
    let pins = fetch_lexicons().await?;
    let tagger = pins.require_file("tagger.txt")?;
    let drugs = pins.require_file("drugs.tsv")?;
    let total = tagger.size + drugs.size;
    let first = files::load(&Lexicons::url(tagger), tagger, Fetch::ThisSite, &|e| {
        report(e, total)
    })
    .await?;
    let offset = tagger.size;
    let second = files::load(
        &Lexicons::url(drugs),
        drugs,
        Fetch::ThisSite,
        &|e| match e {
            Event::Bytes(n) => report(Event::Bytes(offset + n), total),
            other => report(other, total),
        },
    )
    .await?;
    let language = Language::from_bytes(&first.bytes, &second.bytes)
        .map_err(|e| format!("models/lexicons: {e}"))?;
    let language = Arc::new(language);
    LOADED.with(|l| *l.borrow_mut() = Some(language.clone()));
    Ok((language, vec![first.origin, second.origin]))
}
