//! The settings a person changes on the settings page, named as their config keys, so a
//! refused setting is explained by which one it is, never by matching its name's text.

use serde::{Deserialize, Serialize};

/// A setting, as `config.json` names it (`timeoutSecs`, `presets`, `channels`…).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum SettingKey {
    TimeoutSecs,
    RemindSecs,
    TypingGraceSecs,
    Port,
    OrphanSecs,
    LateSecs,
    SessionIdleSecs,
    ContinueWaitSecs,
    HistoryDays,
    HistoryMax,
    Presets,
    Channels,
    /// Any other part of the config.
    Other,
}

impl SettingKey {
    /// Every setting with a name of its own.
    const NAMED: [SettingKey; 12] = [
        SettingKey::TimeoutSecs,
        SettingKey::RemindSecs,
        SettingKey::TypingGraceSecs,
        SettingKey::Port,
        SettingKey::OrphanSecs,
        SettingKey::LateSecs,
        SettingKey::SessionIdleSecs,
        SettingKey::ContinueWaitSecs,
        SettingKey::HistoryDays,
        SettingKey::HistoryMax,
        SettingKey::Presets,
        SettingKey::Channels,
    ];

    /// The config key (`timeoutSecs`); empty for `Other`.
    pub fn key(self) -> &'static str {
        match self {
            SettingKey::TimeoutSecs => "timeoutSecs",
            SettingKey::RemindSecs => "remindSecs",
            SettingKey::TypingGraceSecs => "typingGraceSecs",
            SettingKey::Port => "port",
            SettingKey::OrphanSecs => "orphanSecs",
            SettingKey::LateSecs => "lateSecs",
            SettingKey::SessionIdleSecs => "sessionIdleSecs",
            SettingKey::ContinueWaitSecs => "continueWaitSecs",
            SettingKey::HistoryDays => "historyDays",
            SettingKey::HistoryMax => "historyMax",
            SettingKey::Presets => "presets",
            SettingKey::Channels => "channels",
            SettingKey::Other => "",
        }
    }

    /// The setting an error's field belongs to: `presets[2]` is `Presets`,
    /// `channels.publicUrl` is `Channels`.
    pub fn of_field(field: &str) -> SettingKey {
        let top = field.split(['.', '[']).next().unwrap_or_default();
        SettingKey::NAMED
            .into_iter()
            .find(|setting| setting.key() == top)
            .unwrap_or(SettingKey::Other)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_field_belongs_to_its_top_level_setting() {
        assert_eq!(SettingKey::of_field("port"), SettingKey::Port);
        assert_eq!(SettingKey::of_field("presets[3]"), SettingKey::Presets);
        assert_eq!(
            SettingKey::of_field("channels.publicUrl"),
            SettingKey::Channels
        );
        assert_eq!(SettingKey::of_field("portal"), SettingKey::Other);
        assert_eq!(SettingKey::of_field(""), SettingKey::Other);
        for setting in SettingKey::NAMED {
            assert_eq!(SettingKey::of_field(setting.key()), setting);
            let json = serde_json::to_value(setting).unwrap();
            assert_eq!(json, setting.key(), "the wire name is the config key");
        }
    }
}
