//! One key for one dose however a document writes it: "0.5 mg orally once a day",
//! "0.5 mg once daily" and "0.5 mg PO qd" are the same amount taken the same way, so
//! what the statements say of each counts for one candidate. Only the key changes; the
//! answer keeps the words the documents first use.

/// The key of a dose's normalised text (lower case, words apart, as
/// [`crate::text::normalize_term`] gives it): the route by mouth left out, how often
/// written one way ("twice daily" for "twice a day", "bid", "2 times daily"), hours
/// spelled out ("q12h" → "every 12 hours").
pub(super) fn dose_key(key: &str) -> String {
    let words: Vec<&str> = key.split_whitespace().collect();
    let mut out: Vec<String> = Vec::with_capacity(words.len());
    let mut i = 0;
    while i < words.len() {
        let w = words[i];
        let next = words.get(i + 1).copied();
        // By mouth is how a dose is taken unless the documents say otherwise.
        if matches!(w, "orally" | "po" | "oral") {
            i += 1;
            continue;
        }
        if w == "by" && next == Some("mouth") {
            i += 2;
            continue;
        }
        // "a day", "per day", "each day" → "daily".
        if matches!(w, "a" | "per" | "each" | "every") && next == Some("day") {
            out.push("daily".into());
            i += 2;
            continue;
        }
        // "q12h", "q8h": every so many hours.
        if let Some(hours) = w
            .strip_prefix('q')
            .and_then(|r| r.strip_suffix('h'))
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            out.extend(["every".to_string(), hours.to_string(), "hours".to_string()]);
            i += 1;
            continue;
        }
        let times = match w {
            "qd" | "od" => Some("once"),
            "bid" | "bd" => Some("twice"),
            "tid" | "tds" => Some("three times"),
            "qid" | "qds" => Some("four times"),
            _ => None,
        };
        if let Some(times) = times {
            out.extend(times.split(' ').map(String::from));
            out.push("daily".into());
            i += 1;
            continue;
        }
        // "2 times", "two times" → "twice", "three times".
        if next == Some("times") {
            let spelled = match w {
                "1" | "one" => Some("once"),
                "2" | "two" => Some("twice"),
                "3" => Some("three"),
                "4" => Some("four"),
                _ => None,
            };
            if let Some(spelled) = spelled {
                out.push(spelled.into());
                i += if matches!(spelled, "once" | "twice") {
                    2
                } else {
                    1
                };
                continue;
            }
        }
        out.push(match w {
            "h" | "hr" | "hrs" | "hour" => "hours".into(),
            _ => w.to_string(),
        });
        i += 1;
    }
    // "once daily" is "daily".
    let mut key: Vec<String> = Vec::with_capacity(out.len());
    for (k, w) in out.iter().enumerate() {
        if w == "once" && out.get(k + 1).is_some_and(|n| n == "daily") {
            continue;
        }
        key.push(w.clone());
    }
    key.join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::text::normalize_term;

    #[test]
    fn one_dose_written_many_ways_has_one_key() {
        for (a, b) in [
            ("0.5 mg orally once a day", "0.5 mg once daily"),
            ("0.5 mg PO qd", "0.5 mg daily"),
            ("100 mg twice a day", "100 mg bid"),
            ("100 mg 2 times daily", "100 mg twice daily"),
            ("500 mg three times a day", "500 mg TID"),
            ("1 g q8h", "1 g every 8 hours"),
            ("1 g every 8 hrs", "1 g every 8 hours"),
            ("10 mg by mouth per day", "10 mg daily"),
        ] {
            assert_eq!(
                dose_key(&normalize_term(a)),
                dose_key(&normalize_term(b)),
                "{a} / {b}"
            );
        }
        for (a, b) in [
            ("0.5 mg once daily", "0.5 mg twice daily"),
            ("1 g every 8 hours", "1 g every 12 hours"),
            ("1 g intravenously daily", "1 g daily"),
            ("3 times", "three"),
        ] {
            assert_ne!(
                dose_key(&normalize_term(a)),
                dose_key(&normalize_term(b)),
                "{a} / {b}"
            );
        }
    }
}
