//! The shared data model of SPEC §2: every type that crosses a boundary (REST, WebSocket, server
//! functions, MCP, CLI, channels), its validation, the error body and the languages. Compiles for the
//! server and for wasm.

mod channel_error;
pub mod channels;
mod config;
mod daemon;
mod error;
mod event;
mod lang;
mod login;
mod message;
mod paths;
mod question;
pub(crate) mod rfc3339;
pub mod rule;
pub mod session;
mod setting;
mod tool;
mod validate;

pub use channel_error::{ActionRefusal, ChannelError};
pub use channels::{
    ChannelAction, ChannelName, ChannelStatus, ChannelSummary, ChannelTest, ChannelTestResult,
    Channels, ChannelsReport,
};
pub use config::{Config, ConfigReport, Elicitation, PageConfig};
pub use daemon::{Health, Pairing, Stopping};
pub use error::{ErrorBody, field_of};
pub use event::{Event, InitData, PageSays, RemindData};
pub use lang::{Lang, UnknownLang};
pub use login::{LOGIN_PARAMETER, OneTimeLogin};
pub use message::{
    AgentMessage, AgentRef, MessageBrief, MessageId, MessageList, MessageStatus, NewMessage,
    PersonMessage, client_name, for_the_agent,
};
pub use paths::local_path;
pub use question::{
    AnswerImage, AnswerRequest, AnsweredVia, AskRequest, DaemonNote, DeclineRequest, Question,
    QuestionBrief, QuestionId, QuestionList, QuestionOption, Rendered, Shown, Source, Status,
    SubQuestion, SubQuestionAnswer, TimeoutAction, WAIT_UPGRADE, WaitResult,
};
pub use session::{
    AgentSession, SessionList, SessionNotice, SessionReport, SessionState, validate_report,
};
pub use setting::SettingKey;
pub use tool::{AnsweredQuestion, AskOutcome, GetAnswerRequest};
pub use validate::{
    image_type_of, limits, validate_answers, validate_ask, validate_images, validate_message,
    validate_note,
};
