//! How a setup request's secret shows in `Debug` (a log line, a panic, a test's failure): whether
//! one was given, never what it is.

use std::fmt;

/// A secret as `Debug` shows it.
pub struct Hidden<'a>(pub &'a Option<String>);

impl fmt::Debug for Hidden<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        formatter.write_str(if self.0.is_some() {
            "Some(<hidden>)"
        } else {
            "None"
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::discord::DiscordSetup;
    use super::super::feishu::FeishuSetup;
    use super::super::slack::SlackSetup;
    use super::super::telegram::TelegramSetup;

    const SECRET: &str = "xoxb-0123-do-not-show";

    #[test]
    fn no_setup_request_shows_its_secret() {
        let secret = || Some(SECRET.to_string());
        let shown = [
            format!(
                "{:?}",
                SlackSetup {
                    bot_token: secret(),
                    app_token: secret()
                }
            ),
            format!(
                "{:?}",
                FeishuSetup {
                    app_id: Some("cli_a1".into()),
                    app_secret: secret(),
                    api_base: None
                }
            ),
            format!(
                "{:?}",
                DiscordSetup {
                    bot_token: secret()
                }
            ),
            format!(
                "{:?}",
                TelegramSetup {
                    bot_token: secret()
                }
            ),
        ];
        for text in shown {
            assert!(!text.contains(SECRET), "{text}");
            assert!(text.contains("Some(<hidden>)"), "{text}");
        }
        let feishu = format!("{:?}", FeishuSetup::default());
        assert!(feishu.contains("app_secret: None"), "{feishu}");
        assert!(
            format!(
                "{:?}",
                FeishuSetup {
                    app_id: Some("cli_a1".into()),
                    ..Default::default()
                }
            )
            .contains("cli_a1"),
            "the App ID is not a secret"
        );
    }
}
