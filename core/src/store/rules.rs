//! The rules Hark keeps (SPEC §19), in `$HARK_HOME/rules.json` (0600): read once at start,
//! written whole on each change (a person's act, never a hot path) on the blocking pool, under a
//! lock of their own. A rule answers a matching permission prompt as it is created
//! (`answeredVia: "rule"`); an answer that picked "Always allow" or "Always deny" keeps one.

use super::{Store, StoreError, replace_privately};
use crate::model::rule::{MAX_RULES, NewRule, PermissionAsk, Rule, RuleId, decide};
use crate::model::{ErrorBody, Question};
use std::path::{Path, PathBuf};
use std::sync::{Mutex, MutexGuard};

/// The file's name under `HARK_HOME`.
pub const RULES_FILE: &str = "rules.json";

/// The rules, and their file (none in memory only).
pub(super) struct RuleBook {
    file: Option<PathBuf>,
    rules: Mutex<Vec<Rule>>,
    /// Held while the file is written, so changes reach it one at a time.
    writing: tokio::sync::Mutex<()>,
}

impl RuleBook {
    /// The rules kept in `home`; a file that cannot be read is reported and left as it is
    /// until a rule changes.
    pub(super) fn load(home: Option<&Path>) -> RuleBook {
        let file = home.map(|home| home.join(RULES_FILE));
        let rules = match file.as_deref().map(std::fs::read) {
            None => Vec::new(),
            Some(Err(error)) if error.kind() == std::io::ErrorKind::NotFound => Vec::new(),
            Some(Err(error)) => {
                tracing::warn!(%error, "cannot read {RULES_FILE}; no rule answers for now");
                Vec::new()
            }
            Some(Ok(bytes)) => serde_json::from_slice(&bytes).unwrap_or_else(|error| {
                tracing::warn!(%error, "{RULES_FILE} is not a list of rules; no rule answers for now");
                Vec::new()
            }),
        };
        RuleBook {
            file,
            rules: Mutex::new(rules),
            writing: tokio::sync::Mutex::new(()),
        }
    }

    fn rules(&self) -> MutexGuard<'_, Vec<Rule>> {
        self.rules
            .lock()
            .unwrap_or_else(|poison| poison.into_inner())
    }

    /// The rule that answers `ask`, if one does.
    pub(super) fn decide(&self, ask: &PermissionAsk) -> Option<Rule> {
        decide(&self.rules(), ask).cloned()
    }

    /// Writes `rules` (what `change` made of them) and then makes them the rules.
    async fn change(
        &self,
        change: impl FnOnce(&mut Vec<Rule>) -> Result<Rule, StoreError>,
    ) -> Result<Rule, StoreError> {
        let _writing = self.writing.lock().await;
        let mut next = self.rules().clone();
        let changed = change(&mut next)?;
        if let Some(file) = self.file.clone() {
            let json = serde_json::to_vec_pretty(&next)
                .map_err(|error| StoreError::Storage(error.to_string()))?;
            tokio::task::spawn_blocking(move || replace_privately(&file, &json))
                .await
                .map_err(|error| StoreError::Storage(error.to_string()))?
                .map_err(|error| {
                    StoreError::Storage(format!("{RULES_FILE} could not be written: {error}"))
                })?;
        }
        *self.rules() = next;
        Ok(changed)
    }
}

impl Store {
    /// The rules, oldest first.
    pub fn rules(&self) -> Vec<Rule> {
        self.shared.rules.rules().clone()
    }

    /// Keeps a rule. The same rule again is the one kept; one for the same agent, tool and
    /// pattern with the other decision is replaced (the latest word counts).
    ///
    /// # Errors
    /// `Invalid` naming the field, `TooManyRules`, or `Storage` when the file cannot be written
    /// (nothing changed then).
    pub async fn add_rule(&self, rule: NewRule) -> Result<Rule, StoreError> {
        rule.validate()?;
        self.shared
            .rules
            .change(move |rules| {
                let same = |kept: &Rule| {
                    kept.agent == rule.agent
                        && kept.tool == rule.tool
                        && kept.pattern == rule.pattern
                };
                if let Some(kept) = rules
                    .iter()
                    .find(|kept| same(kept) && kept.decision == rule.decision)
                {
                    return Ok(kept.clone());
                }
                rules.retain(|kept| !same(kept));
                if rules.len() >= MAX_RULES {
                    return Err(ErrorBody::field(
                        "pattern",
                        format!("{MAX_RULES} rules are kept already; take some back first"),
                    )
                    .into());
                }
                let kept = rule.kept();
                rules.push(kept.clone());
                Ok(kept)
            })
            .await
    }

    /// Takes rule `id` back.
    ///
    /// # Errors
    /// `RuleNotFound`, or `Storage` when the file cannot be written.
    pub async fn remove_rule(&self, id: RuleId) -> Result<Rule, StoreError> {
        self.shared
            .rules
            .change(move |rules| {
                let place = rules
                    .iter()
                    .position(|rule| rule.id == id)
                    .ok_or(StoreError::RuleNotFound(id))?;
                Ok(rules.remove(place))
            })
            .await
    }

    /// Keeps the rule a closed permission question's answer asked for, if it did.
    pub(super) async fn keep_rule_of(&self, closed: &Question) {
        let (Some(ask), Some(answers)) = (&closed.permission, &closed.answers) else {
            return;
        };
        let Some(rule) = ask.kept_by(closed, answers) else {
            return;
        };
        if let Err(error) = self.add_rule(rule).await {
            tracing::warn!(%error, "the rule the person asked for could not be kept");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::rule::Decision;
    use crate::model::{AnsweredVia, AskRequest, Event, QuestionOption, Status, SubQuestion};
    use crate::model::{SubQuestionAnswer, WaitResult};
    use tokio_util::sync::CancellationToken;

    const OPTIONS: [&str; 4] = ["Allow", "Always allow", "Deny", "Always deny"];

    fn prompt(agent: &str, command: &str) -> AskRequest {
        AskRequest {
            questions: vec![SubQuestion {
                options: OPTIONS
                    .iter()
                    .map(|label| QuestionOption::new(*label))
                    .collect(),
                ..SubQuestion::text(format!("Allow Bash?\n\n{command}"))
            }],
            permission: Some(PermissionAsk {
                agent: agent.into(),
                tool: "Bash".into(),
                subject: command.into(),
                allow: 0,
                deny: 2,
                always_allow: Some(1),
                always_deny: Some(3),
            }),
            ..AskRequest::default()
        }
    }

    fn pick(label: &str) -> crate::store::Outcome {
        crate::store::Outcome::Answered(vec![SubQuestionAnswer {
            selected: vec![label.into()],
            free_text: None,
            images: Vec::new(),
        }])
    }

    async fn ask(store: &Store, agent: &str, command: &str) -> Question {
        store
            .create(prompt(agent, command))
            .await
            .unwrap()
            .question()
            .clone()
    }

    #[tokio::test]
    async fn always_allow_keeps_a_rule_that_answers_the_same_call_at_once_and_no_other() {
        let home = tempfile::tempdir().unwrap();
        let store = Store::open(Some(home.path()), CancellationToken::new()).0;
        let first = ask(&store, "codex", "npm test").await;
        assert_eq!(first.status, Status::Pending);
        store
            .close(first.id, pick("Always allow"), None)
            .await
            .unwrap();
        let rules = store.rules();
        assert_eq!(rules.len(), 1);
        assert_eq!(
            (rules[0].pattern.as_str(), rules[0].decision),
            ("npm test", Decision::Allow)
        );

        let mut events = store.subscribe();
        let again = ask(&store, "codex", "npm test").await;
        assert_eq!(again.status, Status::Answered);
        assert_eq!(again.answered_via, Some(AnsweredVia::Rule));
        assert_eq!(again.answers.as_ref().unwrap()[0].selected, ["Allow"]);
        assert!(
            matches!(&*events.recv().await.unwrap(), Event::QuestionAnswered(q) if q.id == again.id)
        );
        let waited: WaitResult = again.wait_result();
        assert_eq!(waited.status, Status::Answered);
        assert_eq!(store.pending_count(), 0);

        // Another command, another agent: asked as before.
        assert!(
            ask(&store, "codex", "npm test; rm -rf /")
                .await
                .is_pending()
        );
        assert!(ask(&store, "cursor", "npm test").await.is_pending());

        // Kept across a restart, and taken back.
        let reopened = Store::open(Some(home.path()), CancellationToken::new()).0;
        assert_eq!(reopened.rules(), rules);
        reopened.remove_rule(rules[0].id).await.unwrap();
        assert!(ask(&reopened, "codex", "npm test").await.is_pending());
        assert!(matches!(
            reopened.remove_rule(rules[0].id).await,
            Err(StoreError::RuleNotFound(_))
        ));
    }

    #[tokio::test]
    async fn a_prompt_answered_by_a_rule_is_kept_in_the_log() {
        let home = tempfile::tempdir().unwrap();
        let (store, _) = Store::open_persistent(home.path(), CancellationToken::new())
            .await
            .unwrap();
        let rule = NewRule {
            agent: "codex".into(),
            tool: "Bash".into(),
            pattern: "ls".into(),
            decision: Decision::Allow,
        };
        store.add_rule(rule).await.unwrap();
        let answered = store
            .create(prompt("codex", "ls"))
            .await
            .unwrap()
            .question()
            .clone();
        assert_eq!(answered.answered_via, Some(AnsweredVia::Rule));
        drop(store);
        let (again, _) = Store::open_persistent(home.path(), CancellationToken::new())
            .await
            .unwrap();
        assert_eq!(
            again.get(answered.id).await.unwrap().answered_via,
            Some(AnsweredVia::Rule)
        );
    }

    #[tokio::test]
    async fn a_deny_rule_wins_and_a_prefix_is_only_what_the_person_wrote() {
        let store = Store::open(None, CancellationToken::new()).0;
        let rule = |pattern: &str, decision| NewRule {
            agent: "gemini-cli".into(),
            tool: "Bash".into(),
            pattern: pattern.into(),
            decision,
        };
        store
            .add_rule(rule("git *", Decision::Allow))
            .await
            .unwrap();
        store
            .add_rule(rule("git push*", Decision::Deny))
            .await
            .unwrap();
        let status = ask(&store, "gemini-cli", "git status").await;
        assert_eq!(status.answers.unwrap()[0].selected, ["Allow"]);
        let push = ask(&store, "gemini-cli", "git push --force").await;
        assert_eq!(push.answers.unwrap()[0].selected, ["Deny"]);
        // The same rule again is the one kept; the other decision replaces it.
        store
            .add_rule(rule("git *", Decision::Allow))
            .await
            .unwrap();
        store
            .add_rule(rule("git push*", Decision::Allow))
            .await
            .unwrap();
        assert_eq!(store.rules().len(), 2);
        let error = store
            .add_rule(rule(" * ", Decision::Allow))
            .await
            .unwrap_err();
        assert!(
            matches!(error, StoreError::Invalid(ref body) if body.field.as_deref() == Some("pattern"))
        );
        let error = store.add_rule(rule("", Decision::Allow)).await.unwrap_err();
        assert!(
            matches!(error, StoreError::Invalid(ref body) if body.field.as_deref() == Some("pattern"))
        );
    }

    #[tokio::test]
    async fn a_prompt_naming_an_option_it_lacks_is_refused_naming_the_field() {
        let store = Store::open(None, CancellationToken::new()).0;
        let mut request = prompt("codex", "ls");
        if let Some(permission) = request.permission.as_mut() {
            permission.always_deny = Some(9);
        }
        let error = store.create(request).await.unwrap_err();
        assert!(
            matches!(error, StoreError::Invalid(ref body) if body.field.as_deref() == Some("permission.alwaysDeny")),
            "{error}"
        );
    }
}
