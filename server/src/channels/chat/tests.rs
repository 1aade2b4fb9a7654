//! The engine in process, with a fake `ChatApp` on a paused clock (`fake`): pairing and
//! re-pairing, strangers, steps of the walk into `store.close`, a question answered elsewhere,
//! words that answer, an outage and its pauses, the record across a restart, reminders, `tell`
//! and replies, agents' sessions said in the chat, and the link's schedule.

mod fake;
mod link;
mod notices;
mod outage;
mod pairing;
mod restart;
mod walk;
mod words;
