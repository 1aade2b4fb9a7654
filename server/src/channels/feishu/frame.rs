//! The long connection's frames: Feishu's `pbbp2.Frame` protobuf (proto2, fields 1–4
//! required, so always written, even when 0), declared here with prost's derive as the official
//! SDKs declare it (`ws/pb/pbbp2.proto` in `lark-oapi` and `oapi-sdk-go`); the headers a frame
//! carries (`type`, `message_id`, `sum`, `seq`, `biz_rt`); a ping; an acknowledgement (the frame
//! echoed with `{"code": 200}` as its payload); and putting back together an event Feishu sent
//! in several pieces.

use prost::Message;
use std::collections::HashMap;
use std::time::{Duration, Instant};

/// `method`: a control frame (ping, pong) or a data frame (an event).
pub const CONTROL: i32 = 0;
pub const DATA: i32 = 1;
/// How long the pieces of an event wait for the rest (the SDKs keep them 5–10 s).
const PIECES_KEPT: Duration = Duration::from_secs(10);
/// The most events in pieces at once, and pieces in one event.
const MOST_PIECED: usize = 64;
const MOST_PIECES: usize = 64;

#[derive(Clone, PartialEq, Message)]
pub struct Header {
    #[prost(string, required, tag = "1")]
    pub key: String,
    #[prost(string, required, tag = "2")]
    pub value: String,
}

#[derive(Clone, PartialEq, Message)]
pub struct Frame {
    #[prost(uint64, required, tag = "1")]
    pub seq_id: u64,
    #[prost(uint64, required, tag = "2")]
    pub log_id: u64,
    #[prost(int32, required, tag = "3")]
    pub service: i32,
    #[prost(int32, required, tag = "4")]
    pub method: i32,
    #[prost(message, repeated, tag = "5")]
    pub headers: Vec<Header>,
    #[prost(string, optional, tag = "6")]
    pub payload_encoding: Option<String>,
    #[prost(string, optional, tag = "7")]
    pub payload_type: Option<String>,
    #[prost(bytes = "vec", optional, tag = "8")]
    pub payload: Option<Vec<u8>>,
    #[prost(string, optional, tag = "9")]
    pub log_id_new: Option<String>,
}

impl Frame {
    /// The value of header `key`.
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers
            .iter()
            .find(|header| header.key == key)
            .map(|header| header.value.as_str())
    }

    /// The ping Hark sends every `PingInterval` seconds, for the service the address named.
    pub fn ping(service: i32) -> Frame {
        Frame {
            seq_id: 0,
            log_id: 0,
            service,
            method: CONTROL,
            headers: vec![Header {
                key: "type".into(),
                value: "ping".into(),
            }],
            payload_encoding: None,
            payload_type: None,
            payload: None,
            log_id_new: None,
        }
    }

    /// The acknowledgement of this data frame: the frame itself, with how long Hark took
    /// (`biz_rt`, in ms) and `{"code": 200}` in place of the event.
    pub fn ack(&self, took: Duration) -> Frame {
        let mut ack = self.clone();
        ack.headers.push(Header {
            key: "biz_rt".into(),
            value: took.as_millis().to_string(),
        });
        ack.payload = Some(br#"{"code":200}"#.to_vec());
        ack
    }

    pub fn to_bytes(&self) -> Vec<u8> {
        self.encode_to_vec()
    }

    /// A frame from the bytes of one binary WebSocket message.
    pub fn from_bytes(bytes: &[u8]) -> Option<Frame> {
        Frame::decode(bytes).ok()
    }
}

/// One event's pieces so far, by `seq`, and when its first arrived.
type Arrived = (Instant, Vec<Option<Vec<u8>>>);

/// Events sent in pieces (`sum` > 1), by `message_id`, until every `seq` (0-based) is in.
#[derive(Default)]
pub struct Pieces {
    waiting: HashMap<String, Arrived>,
}

impl Pieces {
    /// The whole payload once `frame` completes it (at once for an event in one piece);
    /// `None` while pieces are missing, or for a frame that does not fit.
    pub fn take(&mut self, frame: &Frame) -> Option<Vec<u8>> {
        let payload = frame.payload.clone().unwrap_or_default();
        let sum: usize = frame
            .header("sum")
            .and_then(|sum| sum.parse().ok())
            .unwrap_or(1);
        if sum <= 1 {
            return Some(payload);
        }
        let seq: usize = frame.header("seq")?.parse().ok()?;
        let id = frame.header("message_id")?.to_string();
        if sum > MOST_PIECES || seq >= sum {
            return None;
        }
        self.waiting
            .retain(|_, (since, _)| since.elapsed() < PIECES_KEPT);
        if !self.waiting.contains_key(&id) && self.waiting.len() >= MOST_PIECED {
            return None;
        }
        let (_, pieces) = self
            .waiting
            .entry(id.clone())
            .or_insert_with(|| (Instant::now(), vec![None; sum]));
        if pieces.len() != sum {
            return None;
        }
        pieces[seq] = Some(payload);
        if pieces.iter().any(Option::is_none) {
            return None;
        }
        let (_, pieces) = self.waiting.remove(&id)?;
        Some(pieces.into_iter().flatten().flatten().collect())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_ping_is_the_bytes_the_official_sdk_writes() {
        // Encoded with the SDK's own protobuf for service 1234: the required zeros are there.
        let expected = [
            0x08, 0x00, 0x10, 0x00, 0x18, 0xd2, 0x09, 0x20, 0x00, 0x2a, 0x0c, 0x0a, 0x04, 0x74,
            0x79, 0x70, 0x65, 0x12, 0x04, 0x70, 0x69, 0x6e, 0x67,
        ];
        assert_eq!(Frame::ping(1234).to_bytes(), expected);
        assert_eq!(Frame::from_bytes(&expected), Some(Frame::ping(1234)));
    }

    fn data(message_id: &str, sum: usize, seq: usize, payload: &[u8]) -> Frame {
        let mut frame = Frame::ping(7);
        frame.method = DATA;
        frame.headers = [
            ("type", "event".to_string()),
            ("message_id", message_id.to_string()),
            ("sum", sum.to_string()),
            ("seq", seq.to_string()),
        ]
        .into_iter()
        .map(|(key, value)| Header {
            key: key.into(),
            value,
        })
        .collect();
        frame.payload = Some(payload.to_vec());
        frame
    }

    #[test]
    fn an_ack_echoes_the_frame_with_code_200() {
        let event = data("m1", 1, 0, b"{\"schema\":\"2.0\"}");
        let ack = event.ack(Duration::from_millis(3));
        assert_eq!(ack.seq_id, event.seq_id);
        assert_eq!(ack.service, 7);
        assert_eq!(ack.header("message_id"), Some("m1"));
        assert_eq!(ack.header("biz_rt"), Some("3"));
        assert_eq!(ack.payload.as_deref(), Some(&br#"{"code":200}"#[..]));
    }

    #[test]
    fn pieces_come_together_in_order_whatever_order_they_arrive_in() {
        let mut pieces = Pieces::default();
        assert_eq!(
            pieces.take(&data("a", 1, 0, b"whole")),
            Some(b"whole".to_vec())
        );
        assert_eq!(pieces.take(&data("b", 3, 2, b"3")), None);
        assert_eq!(pieces.take(&data("b", 3, 0, b"1")), None);
        assert_eq!(pieces.take(&data("b", 3, 1, b"2")), Some(b"123".to_vec()));
        // A piece outside its sum, or a sum changed midway, is not taken.
        assert_eq!(pieces.take(&data("c", 2, 5, b"x")), None);
        assert_eq!(pieces.take(&data("c", 2, 0, b"x")), None);
        assert_eq!(pieces.take(&data("c", 3, 1, b"y")), None);
    }
}
