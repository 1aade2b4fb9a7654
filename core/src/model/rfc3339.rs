//! Timestamps read as RFC 3339, the one form Hark writes them in (chrono's `Serialize`), by
//! chrono's strict reader. chrono's own `Deserialize` takes a relaxed form through its general
//! format parser, which the page's WebAssembly carried for forms it is never sent (issue 30).

use chrono::{DateTime, Utc};
use serde::{Deserialize, Deserializer, de};

/// For `#[serde(deserialize_with)]` on a `DateTime<Utc>`.
pub fn deserialize<'de, D: Deserializer<'de>>(deserializer: D) -> Result<DateTime<Utc>, D::Error> {
    parse(&String::deserialize(deserializer)?).map_err(de::Error::custom)
}

/// For `#[serde(default, deserialize_with)]` on an `Option<DateTime<Utc>>`.
pub fn deserialize_option<'de, D: Deserializer<'de>>(
    deserializer: D,
) -> Result<Option<DateTime<Utc>>, D::Error> {
    Option::<String>::deserialize(deserializer)?
        .map(|text| parse(&text))
        .transpose()
        .map_err(de::Error::custom)
}

fn parse(text: &str) -> Result<DateTime<Utc>, String> {
    DateTime::parse_from_rfc3339(text)
        .map(|time| time.with_timezone(&Utc))
        .map_err(|error| format!("`{text}` is not an RFC 3339 time: {error}"))
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde::Serialize;

    #[derive(Debug, PartialEq, Serialize, Deserialize)]
    struct Times {
        #[serde(deserialize_with = "deserialize")]
        at: DateTime<Utc>,
        #[serde(default, deserialize_with = "deserialize_option")]
        until: Option<DateTime<Utc>>,
    }

    #[test]
    fn what_chrono_writes_reads_back_in_every_precision_and_offset() {
        for at in [
            "2026-12-03T10:00:00Z",
            "2026-12-03T10:00:00.5Z",
            "2026-12-03T10:00:00.123456789Z",
        ] {
            let at: DateTime<Utc> = at.parse().unwrap();
            let times = Times {
                at,
                until: Some(at),
            };
            let text = serde_json::to_string(&times).unwrap();
            assert_eq!(serde_json::from_str::<Times>(&text).unwrap(), times);
        }
        let read: Times =
            serde_json::from_str(r#"{"at": "2026-12-03T11:00:00+01:00", "until": null}"#).unwrap();
        assert_eq!(
            read.at,
            "2026-12-03T10:00:00Z".parse::<DateTime<Utc>>().unwrap()
        );
        assert_eq!(read.until, None);
        let read: Times = serde_json::from_str(r#"{"at": "2026-12-03T10:00:00.000Z"}"#).unwrap();
        assert_eq!(read.until, None);
    }

    #[test]
    fn a_time_that_is_not_one_names_itself() {
        let error = serde_json::from_str::<Times>(r#"{"at": "yesterday"}"#).unwrap_err();
        assert!(
            error
                .to_string()
                .contains("`yesterday` is not an RFC 3339 time"),
            "{error}"
        );
        let error = serde_json::from_str::<Times>(r#"{"at": "2026-12-03T10:00:00Z", "until": 5}"#)
            .unwrap_err();
        assert!(error.to_string().contains("invalid type"), "{error}");
    }
}
