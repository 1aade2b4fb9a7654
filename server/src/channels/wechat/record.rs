//! What the WeChat poll keeps across restarts in `$HARK_HOME/wechat.json` (0600): the long
//! poll's cursor, once the engine has taken what it read (so no message is read twice or
//! lost), and the conversation's last context token (replies go out in it), for the login and
//! person they belong to. The engine keeps the questions' own record (`wechat-posted.json`).

use crate::channels::kept::Kept;
use serde::{Deserialize, Serialize};
use std::path::Path;

/// The file's name under `HARK_HOME`.
const RECORD_FILE: &str = "wechat.json";

/// The record.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(default, rename_all = "camelCase")]
pub struct Record {
    /// The login and person the rest belongs to (`Line::session`).
    pub session: Option<String>,
    /// `get_updates_buf`: where the long poll goes on.
    pub cursor: String,
    /// The person's last message's `context_token`.
    pub context: Option<String>,
}

/// The record kept in `home`.
pub async fn load(home: Option<&Path>) -> Kept<Record> {
    let lost = "after a restart, WeChat messages may be read again";
    Kept::load(home, RECORD_FILE, lost).await
}

/// Removes the record (a logout): the next login starts afresh.
pub async fn forget(home: Option<&Path>) {
    crate::channels::kept::forget(home, RECORD_FILE).await;
}
