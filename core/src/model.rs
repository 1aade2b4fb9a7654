//! The shared data model of SPEC §2: every type that crosses a boundary (REST, WebSocket, server
//! functions, MCP, CLI, channels), its validation, the error body and the languages. Compiles for the
//! server and for wasm.

mod channels;
mod config;
mod error;
mod event;
mod lang;
mod question;
mod tool;
mod validate;

pub use channels::{
    ChannelStatus, ChannelTest, ChannelTestResult, Channels, ChannelsReport, Ntfy, WEBHOOK_EVENTS,
    Webhook,
};
pub use config::{Config, ConfigReport};
pub use error::ErrorBody;
pub use event::{Event, InitData, RemindData};
pub use lang::{Lang, UnknownLang};
pub use question::{
    AnswerRequest, AskRequest, DeclineRequest, Health, Pairing, Question, QuestionId, QuestionList,
    QuestionOption, Source, Status, SubQuestion, SubQuestionAnswer, WaitResult,
};
pub use tool::{AnsweredQuestion, AskOutcome, GetAnswerRequest};
pub use validate::{limits, validate_answers, validate_ask, validate_note};
