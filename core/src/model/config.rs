//! The daemon's configuration (SPEC §7): typed keys with defaults, per-key validation that names
//! the key, and unknown keys kept as they were.

use super::ErrorBody;
use super::Lang;
use super::TimeoutAction;
use super::channels::Channels;
use super::session::SessionNotice;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// `$HARK_HOME/config.json`. Every key is optional on disk; unknown keys survive a save.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Config {
    /// Default seconds a question waits before it times out; 0 waits forever.
    pub timeout_secs: u64,
    /// Whether `ask_user` also asks in the client's own dialog (MCP elicitation).
    pub elicitation: Elicitation,
    /// What a time limit does when the request does not say.
    #[serde(skip_serializing_if = "TimeoutAction::is_default")]
    pub timeout_action: TimeoutAction,
    /// Seconds between reminders about a question still pending; 0 turns them off.
    pub remind_secs: u64,
    /// How far past its time limit a question stays open while the person types an answer
    /// (SPEC §18); 0 lets the limit end it mid-sentence.
    pub typing_grace_secs: u64,
    pub notification: bool,
    pub auto_open_browser: bool,
    pub sound: bool,
    pub lan: bool,
    pub port: u16,
    pub orphan_secs: u64,
    /// Seconds a question stays answerable after its agent stopped waiting; 0 withdraws it
    /// at once.
    pub late_secs: u64,
    pub history_days: u64,
    pub history_max: u64,
    /// Seconds an agent session may stay quiet before it leaves the list (SPEC §20).
    pub session_idle_secs: u64,
    /// Seconds `hark hook claude` holds Claude Code at the end of its turn for a message from
    /// the person that continues it; 0 never holds it (a message waiting already still does).
    pub continue_wait_secs: u64,
    /// When the person is told of an agent session: it waits in its own dialog, it finished.
    pub notify_on: Vec<SessionNotice>,
    /// More names this machine answers to in LAN mode (a DNS name, a reverse proxy's), beside
    /// its own host name and addresses.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub hosts: Vec<String>,
    /// The language last picked in a browser; the daemon's desktop notifications use it.
    #[serde(skip_serializing_if = "Option::is_none", with = "language_code")]
    pub language: Option<Lang>,
    /// Quick replies the page offers beside every text box (SPEC §13), in order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub presets: Vec<String>,
    /// Where questions go beyond this machine's page (SPEC §11).
    #[serde(skip_serializing_if = "Channels::is_default")]
    pub channels: Channels,
    // Kept where config.json is written back (the store's); the page only reads the config, and
    // a flattened field gives every reader a buffered second reading (issue 30).
    #[cfg_attr(feature = "store", serde(flatten))]
    #[cfg_attr(not(feature = "store"), serde(skip))]
    pub extra: Map<String, Value>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            timeout_secs: 0,
            timeout_action: TimeoutAction::Timeout,
            elicitation: Elicitation::Race,
            remind_secs: 60,
            typing_grace_secs: 600,
            notification: true,
            auto_open_browser: true,
            sound: true,
            lan: false,
            port: 13390,
            orphan_secs: 60,
            late_secs: 600,
            history_days: 30,
            history_max: 10_000,
            session_idle_secs: 4 * 60 * 60,
            continue_wait_secs: 0,
            notify_on: vec![SessionNotice::Waiting, SessionNotice::Finished],
            hosts: Vec::new(),
            language: None,
            presets: Vec::new(),
            channels: Channels::default(),
            extra: Map::new(),
        }
    }
}

/// What a page needs of the config while the person answers, on the inbox and a question's page:
/// the browser reads this much of `init` and `config:updated`. Every channel's settings are read
/// only where they are shown, on the settings page, whose own module carries their readers; the
/// first view's WebAssembly carried them all for three fields (issue 30).
#[derive(Clone, Debug, PartialEq, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct PageConfig {
    pub notification: bool,
    pub sound: bool,
    pub presets: Vec<String>,
    pub notify_on: Vec<SessionNotice>,
}

impl From<&Config> for PageConfig {
    fn from(config: &Config) -> Self {
        Self {
            notification: config.notification,
            sound: config.sound,
            presets: config.presets.clone(),
            notify_on: config.notify_on.clone(),
        }
    }
}

impl Default for PageConfig {
    fn default() -> Self {
        Self::from(&Config::default())
    }
}

/// `elicitation`: whether a client that can show forms is asked in its own dialog too.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Elicitation {
    /// Asked in the client too; the first answer, there or in Hark, wins.
    #[default]
    Race,
    /// Asked in Hark only.
    Off,
}

/// What loading a config file found wrong: each entry names a key whose default was kept.
pub type ConfigReport = Vec<ErrorBody>;

const DAY: u64 = 24 * 60 * 60;

fn expect_bool(key: &str, value: &Value) -> Result<bool, ErrorBody> {
    value
        .as_bool()
        .ok_or_else(|| ErrorBody::field(key, format!("{key} must be true or false")))
}

fn expect_u64(key: &str, value: &Value, min: u64, max: u64) -> Result<u64, ErrorBody> {
    value
        .as_u64()
        .filter(|n| (min..=max).contains(n))
        .ok_or_else(|| {
            ErrorBody::field(
                key,
                format!("{key} must be a whole number from {min} to {max}"),
            )
        })
}

fn expect_hosts(value: &Value) -> Result<Vec<String>, ErrorBody> {
    let invalid = || {
        ErrorBody::field(
            "hosts",
            "hosts must be a list of host names, like [\"desk.example.lan\"]",
        )
    };
    let names = value.as_array().ok_or_else(invalid)?;
    names
        .iter()
        .map(|name| {
            let name = name
                .as_str()
                .ok_or_else(invalid)?
                .trim()
                .to_ascii_lowercase();
            let valid = !name.is_empty()
                && name.len() <= 253
                && name
                    .chars()
                    .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '[' | ']' | ':'));
            if valid { Ok(name) } else { Err(invalid()) }
        })
        .collect()
}

/// Quick replies: a list of at most 50 texts of 1 to 500 characters (trimmed).
fn expect_presets(value: &Value) -> Result<Vec<String>, ErrorBody> {
    use super::validate::limits::{MAX_PRESET_CHARS, MAX_PRESETS};
    let texts = value.as_array().ok_or_else(|| {
        ErrorBody::field(
            "presets",
            "presets must be a list of texts, like [\"Looks good, go ahead\"]",
        )
    })?;
    if texts.len() > MAX_PRESETS {
        return Err(ErrorBody::field(
            "presets",
            format!("presets holds at most {MAX_PRESETS} quick replies"),
        ));
    }
    texts
        .iter()
        .enumerate()
        .map(|(index, text)| {
            let field = format!("presets[{index}]");
            let text = text.as_str().map(str::trim).unwrap_or_default();
            let length = text.chars().count();
            if length == 0 || length > MAX_PRESET_CHARS {
                return Err(ErrorBody::field(
                    field.clone(),
                    format!("{field} must be a text of 1 to {MAX_PRESET_CHARS} characters"),
                ));
            }
            Ok(text.to_string())
        })
        .collect()
}

fn expect_language(value: &Value) -> Result<Lang, ErrorBody> {
    value
        .as_str()
        .and_then(|code| code.parse::<Lang>().ok())
        .ok_or_else(|| {
            let codes: Vec<_> = Lang::ALL.iter().map(|lang| lang.code()).collect();
            ErrorBody::field(
                "language",
                format!("language must be one of {}", codes.join(", ")),
            )
        })
}

/// `language` on disk and on the wire: the language's code.
mod language_code {
    use super::Lang;
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(lang: &Option<Lang>, serializer: S) -> Result<S::Ok, S::Error> {
        match lang {
            Some(lang) => serializer.serialize_str(lang.code()),
            None => serializer.serialize_none(),
        }
    }

    /// An unknown code reads as unset; `Config::from_json_lenient` reports it.
    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<Lang>, D::Error> {
        let code = Option::<String>::deserialize(deserializer)?;
        Ok(code.and_then(|code| code.parse().ok()))
    }
}

impl Config {
    /// Sets one key from JSON. Unknown keys are stored untouched.
    ///
    /// # Errors
    /// When the value does not fit the key; `self` is then unchanged.
    pub fn set(&mut self, key: &str, value: &Value) -> Result<(), ErrorBody> {
        match key {
            "timeoutSecs" => self.timeout_secs = expect_u64(key, value, 0, 30 * DAY)?,
            "remindSecs" => self.remind_secs = expect_u64(key, value, 0, DAY)?,
            "typingGraceSecs" => self.typing_grace_secs = expect_u64(key, value, 0, DAY)?,
            "elicitation" => {
                self.elicitation = serde_json::from_value(value.clone()).map_err(|_| {
                    ErrorBody::field(key, "elicitation must be \"race\" or \"off\"")
                })?;
            }
            "timeoutAction" => {
                self.timeout_action = serde_json::from_value(value.clone()).map_err(|_| {
                    ErrorBody::field(key, "timeoutAction must be \"timeout\" or \"recommended\"")
                })?;
            }
            "notification" => self.notification = expect_bool(key, value)?,
            "autoOpenBrowser" => self.auto_open_browser = expect_bool(key, value)?,
            "sound" => self.sound = expect_bool(key, value)?,
            "lan" => self.lan = expect_bool(key, value)?,
            "port" => self.port = expect_u64(key, value, 1, u64::from(u16::MAX))? as u16,
            "orphanSecs" => self.orphan_secs = expect_u64(key, value, 1, DAY)?,
            "lateSecs" => self.late_secs = expect_u64(key, value, 0, DAY)?,
            "historyDays" => self.history_days = expect_u64(key, value, 1, 3650)?,
            "historyMax" => self.history_max = expect_u64(key, value, 1, 1_000_000)?,
            "sessionIdleSecs" => self.session_idle_secs = expect_u64(key, value, 60, 7 * DAY)?,
            "continueWaitSecs" => self.continue_wait_secs = expect_u64(key, value, 0, DAY)?,
            "notifyOn" => {
                self.notify_on = serde_json::from_value(value.clone()).map_err(|_| {
                    ErrorBody::field(
                        key,
                        "notifyOn must be a list of \"waiting\" and \"finished\", like [\"finished\"]",
                    )
                })?;
            }
            "language" => self.language = Some(expect_language(value)?),
            "hosts" => self.hosts = expect_hosts(value)?,
            "presets" => self.presets = expect_presets(value)?,
            "channels" => self.channels = Channels::from_json(value)?,
            _ => {
                self.extra.insert(key.to_string(), value.clone());
            }
        }
        Ok(())
    }

    /// Reads a config file's JSON leniently: each bad key is reported and keeps its default.
    pub fn from_json_lenient(value: &Value) -> (Config, ConfigReport) {
        let mut config = Config::default();
        let mut report = Vec::new();
        match value.as_object() {
            Some(object) => {
                for (key, value) in object {
                    if let Err(mut error) = config.set(key, value) {
                        error.error = format!("{}; the default is kept", error.error);
                        report.push(error);
                    }
                }
            }
            None => report.push(ErrorBody::new(
                "the config file is not a JSON object; every default is kept",
            )),
        }
        (config, report)
    }

    /// Applies a partial update strictly: all keys fit, or nothing changes.
    ///
    /// # Errors
    /// The first key that does not fit, by name; the current config stays as it was.
    pub fn patched(&self, patch: &Value) -> Result<Config, ErrorBody> {
        let object = patch
            .as_object()
            .ok_or_else(|| ErrorBody::new("the config must be a JSON object"))?;
        let mut next = self.clone();
        for (key, value) in object {
            next.set(key, value).map_err(|mut error| {
                error.error = format!("{}; the current value is kept", error.error);
                error
            })?;
        }
        Ok(next)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn presets_are_checked_one_by_one() {
        let mut config = Config::default();
        config
            .set("presets", &json!(["  Looks good  ", "Не сейчас"]))
            .unwrap();
        assert_eq!(config.presets, ["Looks good", "Не сейчас"]);
        let field = |value: Value| Config::default().set("presets", &value).unwrap_err().field;
        assert_eq!(field(json!("yes")).as_deref(), Some("presets"));
        assert_eq!(field(json!(["ok", " "])).as_deref(), Some("presets[1]"));
        assert_eq!(field(json!(["ok", 7])).as_deref(), Some("presets[1]"));
        assert_eq!(
            field(json!(["x".repeat(501)])).as_deref(),
            Some("presets[0]")
        );
        assert_eq!(field(json!(vec!["ok"; 51])).as_deref(), Some("presets"));
        assert!(
            Config::default()
                .set("presets", &json!(["é".repeat(500)]))
                .is_ok()
        );
    }

    #[test]
    fn defaults_follow_the_spec() {
        let config = Config::default();
        assert_eq!(config.timeout_secs, 0);
        assert_eq!(config.remind_secs, 60);
        assert_eq!(config.port, 13390);
        assert!(config.notification && config.auto_open_browser && config.sound && !config.lan);
        let json = serde_json::to_value(&config).unwrap();
        assert_eq!(json["autoOpenBrowser"], json!(true));
        assert_eq!(json["historyMax"], json!(10_000));
    }

    #[test]
    fn lenient_load_keeps_defaults_for_bad_keys_and_keeps_unknown_keys() {
        let (config, report) = Config::from_json_lenient(&json!({
            "remindSecs": "soon", "port": 70000, "sound": false, "myOwnKey": [1, 2]
        }));
        assert_eq!(config.remind_secs, 60);
        assert_eq!(config.port, 13390);
        assert!(!config.sound);
        let fields: Vec<_> = report.iter().filter_map(|e| e.field.clone()).collect();
        assert_eq!(fields, vec!["remindSecs".to_string(), "port".to_string()]);
        let saved = serde_json::to_value(&config).unwrap();
        assert_eq!(saved["myOwnKey"], json!([1, 2]));
    }

    #[test]
    fn lenient_load_of_a_non_object_reports_it() {
        let (config, report) = Config::from_json_lenient(&json!([1]));
        assert_eq!(config, Config::default());
        assert_eq!(report.len(), 1);
    }

    #[test]
    fn strict_patch_names_the_key_and_changes_nothing() {
        let current = Config::default();
        let error = current
            .patched(&json!({"sound": false, "timeoutSecs": -1}))
            .unwrap_err();
        assert_eq!(error.field.as_deref(), Some("timeoutSecs"));
        let next = current
            .patched(&json!({"sound": false, "timeoutSecs": 300}))
            .unwrap();
        assert!(!next.sound);
        assert_eq!(next.timeout_secs, 300);
        assert!(current.patched(&json!("nope")).is_err());
        let error = current.patched(&json!({"language": "fr"})).unwrap_err();
        assert_eq!(error.field.as_deref(), Some("language"));
        assert!(error.error.contains("zh-CN"), "{}", error.error);
        let named = current
            .patched(&json!({"hosts": ["Desk.Example.lan", "[fd00::1]"]}))
            .unwrap();
        assert_eq!(named.hosts, ["desk.example.lan", "[fd00::1]"]);
        for bad in [
            json!("desk"),
            json!([1]),
            json!(["evil.example/x"]),
            json!([""]),
        ] {
            let error = current.patched(&json!({ "hosts": bad })).unwrap_err();
            assert_eq!(error.field.as_deref(), Some("hosts"));
        }
        let russian = current.patched(&json!({"language": "ru"})).unwrap();
        assert_eq!(russian.language, Some(Lang::Ru));
        assert_eq!(
            serde_json::to_value(&russian).unwrap()["language"],
            json!("ru")
        );
        assert!(
            serde_json::to_value(&current)
                .unwrap()
                .get("language")
                .is_none()
        );
        assert_eq!(
            current
                .patched(&json!({"notification": 1}))
                .unwrap_err()
                .field
                .as_deref(),
            Some("notification")
        );
    }
}
