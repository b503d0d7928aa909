//! The page's two views, named in the URL's fragment so links to each work on any
//! static host (no server routes): `#/` (or nothing) asks your documents, `#/results`
//! shows the benchmark results, `#/results?bundle=<relative URL>` another bundle the
//! site publishes.

/// Where the page is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Route {
    Ask,
    /// The benchmark viewer on the bundle at this URL, relative to the page.
    Results {
        bundle: String,
    },
}

/// The bundle the viewer opens when the URL names none.
pub const DEFAULT_BUNDLE: &str = "results/bundle.json.gz";

impl Route {
    /// The route a URL fragment (`location.hash`, with or without its `#`) names.
    /// A bundle URL that is not relative to the site (a scheme, `//host`, or a leading
    /// `/` that would leave a sub-path) is not followed: the default bundle is shown.
    pub fn parse(hash: &str) -> Route {
        let hash = hash.trim_start_matches('#').trim_start_matches('/');
        let (path, query) = hash.split_once('?').unwrap_or((hash, ""));
        if path.trim_end_matches('/') != "results" {
            return Route::Ask;
        }
        let bundle = query
            .split('&')
            .filter_map(|kv| kv.strip_prefix("bundle="))
            .map(decode)
            .find(|url| is_relative(url))
            .unwrap_or_else(|| DEFAULT_BUNDLE.to_string());
        Route::Results { bundle }
    }

    pub fn is_results(&self) -> bool {
        matches!(self, Route::Results { .. })
    }
}

fn is_relative(url: &str) -> bool {
    !url.is_empty() && !url.starts_with('/') && !url.contains(':') && !url.contains('\\')
}

/// `%2F` → `/`; anything that is not a valid escape stays as it is.
fn decode(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (
            bytes[i],
            bytes.get(i + 1).copied().and_then(hex),
            bytes.get(i + 2).copied().and_then(hex),
        ) {
            (b'%', Some(h), Some(l)) => {
                out.push((h * 16 + l) as u8);
                i += 3;
            }
            (b, _, _) => {
                out.push(b);
                i += 1;
            }
        }
    }
    String::from_utf8_lossy(&out).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn results(bundle: &str) -> Route {
        Route::Results {
            bundle: bundle.to_string(),
        }
    }

    #[test]
    fn fragments_name_the_two_views() {
        assert_eq!(Route::parse(""), Route::Ask);
        assert_eq!(Route::parse("#/"), Route::Ask);
        assert_eq!(Route::parse("#/elsewhere"), Route::Ask);
        assert_eq!(Route::parse("#/results"), results(DEFAULT_BUNDLE));
        assert_eq!(Route::parse("#results/"), results(DEFAULT_BUNDLE));
        assert_eq!(
            Route::parse("#/results?bundle=results%2Fv0.1.json"),
            results("results/v0.1.json")
        );
        assert_eq!(
            Route::parse("#/results?x=1&bundle=results/all.json.gz"),
            results("results/all.json.gz")
        );
    }

    #[test]
    fn a_bundle_off_the_site_is_not_followed() {
        for hash in [
            "#/results?bundle=https://example.org/b.json",
            "#/results?bundle=//example.org/b.json",
            "#/results?bundle=/b.json",
            "#/results?bundle=",
            "#/results?bundle=%2F%2Fexample.org",
        ] {
            assert_eq!(Route::parse(hash), results(DEFAULT_BUNDLE), "{hash}");
        }
        assert_eq!(
            Route::parse("#/results?bundle=%zz.json"),
            results("%zz.json")
        );
    }
}
