//! Wire types of the submission protocol (`specs/protocol.md`), shared by the Rust harness (which decodes
//! requests and encodes replies) and the grader (which does the reverse).
//!
//! These are the protocol's messages and nothing more: no domain types, no I/O. Keeping them apart from
//! `Board` lets the grader speak to Java and other adapters with exactly the code it uses for Rust.
//!
//! The requests ([`Request`], and the one table of verbs that both encodes and decodes them) are in
//! `request.rs`; handles, replies and the encodings of reply values are here.

use std::fmt;
use std::str::FromStr;

mod request;

pub use request::{Request, Tiles};

/// The protocol version this crate speaks.
pub const VERSION: u32 = 1;

/// The capability of programs that answer `neighbors_texts` ([`Request::NeighborsTexts`]).
pub const NEIGHBOR_TEXTS: &str = "neighbor_texts";

/// The capability of programs that answer `texts` ([`Request::Texts`]).
pub const TEXTS: &str = "texts";

/// Which board type a board handle belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum World {
    /// The submission's own `Board`.
    Own,
    /// The instrumented reference board, substituted under the submission's `Solver`.
    Ref,
}

impl World {
    /// The world's name on the wire.
    pub fn name(self) -> &'static str {
        match self {
            World::Own => "own",
            World::Ref => "ref",
        }
    }
}

/// A line that does not follow specs/protocol.md; the text says what is wrong, for the other side's log.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct WireError(pub String);

pub(crate) fn wire_error(message: impl Into<String>) -> WireError {
    WireError(message.into())
}

impl FromStr for World {
    type Err = WireError;
    fn from_str(s: &str) -> Result<World, WireError> {
        match s {
            "own" => Ok(World::Own),
            "ref" => Ok(World::Ref),
            _ => Err(wire_error(format!("unknown world `{s}` (expected own or ref)"))),
        }
    }
}

/// A handle naming a board (`b7`) or a solver (`s3`) inside the submission program, or a reference to a
/// handle an earlier request returned (`@12.0`: the first handle in the reply to request 12).
///
/// References let the grader send a request before the reply it depends on has come back (the adapter
/// resolves them; adapters that announce the `refs` capability support them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Handle {
    /// `b<n>`: the n-th board the program handed out.
    Board(u64),
    /// `s<n>`: the n-th solver the program handed out.
    Solver(u64),
    /// The `index`-th handle (from 0) in the reply to request `request`.
    Reply {
        /// The earlier request's ID.
        request: u64,
        /// Which of its reply's handles.
        index: u32,
    },
}

impl Handle {
    /// Appends the handle's wire form to `line`: what [`fmt::Display`] writes, without the formatting
    /// machinery (a grade encodes about 300,000 requests, most of them handles alone).
    pub fn push_to(&self, line: &mut String) {
        let (prefix, number) = match *self {
            Handle::Board(n) => ('b', n),
            Handle::Solver(n) => ('s', n),
            Handle::Reply { request, index } => {
                line.push('@');
                reference::decimal::push(line, request);
                ('.', u64::from(index))
            }
        };
        line.push(prefix);
        reference::decimal::push(line, number);
    }
}

impl fmt::Display for Handle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = String::with_capacity(24);
        self.push_to(&mut text);
        f.write_str(&text)
    }
}

impl FromStr for Handle {
    type Err = WireError;
    fn from_str(s: &str) -> Result<Handle, WireError> {
        let bad = || wire_error(format!("`{s}` is not a handle (expected b<number>, s<number> or @<id>.<index>)"));
        let number = |rest: &str| rest.parse::<u64>().map_err(|_| bad());
        match s.split_at_checked(1) {
            Some(("b", rest)) => Ok(Handle::Board(number(rest)?)),
            Some(("s", rest)) => Ok(Handle::Solver(number(rest)?)),
            Some(("@", rest)) => {
                let (request, index) = rest.split_once('.').ok_or_else(bad)?;
                Ok(Handle::Reply { request: number(request)?, index: index.parse().map_err(|_| bad())? })
            }
            _ => Err(bad()),
        }
    }
}

/// The handles in the replies to recent requests, so that an adapter can resolve [`Handle::Reply`].
///
/// Only the latest [`ReplyHandles::WINDOW`] request IDs are kept: a grader pipelines one test at a time, far fewer.
#[derive(Debug, Default)]
pub struct ReplyHandles {
    by_request: std::collections::HashMap<u64, Vec<Handle>>,
    /// The keys of `by_request` in the order they were recorded (increasing), for eviction.
    recorded: std::collections::VecDeque<u64>,
}

impl ReplyHandles {
    /// How many request IDs back a reference may reach.
    pub const WINDOW: u64 = 1 << 16;

    /// Records the handles in `values`, the successful reply to request `id` (call it for the requests whose
    /// reply holds handles: [`Request::returns_handles`]).
    pub fn record(&mut self, id: u64, values: &str) {
        // A `neighbors_texts` reply's texts follow its handles, each after a tab: no text is read as a handle.
        let handles = neighbor_texts_handles(values);
        let handles = handles.split(' ').filter_map(|token| token.parse::<Handle>().ok()).collect();
        self.by_request.insert(id, handles);
        self.recorded.push_back(id);
        // Every ID at least a window old, not just `id - WINDOW`: IDs without handles leave gaps, and an
        // entry skipped over would stay for good.
        while let Some(&old) = self.recorded.front().filter(|&&old| old.saturating_add(Self::WINDOW) <= id) {
            self.by_request.remove(&old);
            self.recorded.pop_front();
        }
    }

    /// The handle `handle` stands for: itself, or the one a [`Handle::Reply`] refers to.
    pub fn resolve(&self, handle: Handle) -> Result<Handle, WireError> {
        let Handle::Reply { request, index } = handle else { return Ok(handle) };
        let handles = self.by_request.get(&request).ok_or_else(|| unresolved(request, index, None))?;
        handles.get(index as usize).copied().ok_or_else(|| unresolved(request, index, Some(handles.len())))
    }
}

/// Why the reference `@REQUEST.INDEX` names no handle: the request returned `returned` handles, or none
/// (`None`: it failed, returned no handles, or is too old). The grader says the same of a read it fused
/// with a request that could not answer it.
pub fn unresolved(request: u64, index: u32, returned: Option<usize>) -> WireError {
    let reference = Handle::Reply { request, index };
    wire_error(match returned {
        Some(count) => format!("{reference} refers to handle {index} of request {request}, which returned {count}"),
        None => format!("{reference} refers to request {request}, which returned no handles (or is too old)"),
    })
}

/// How a request ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Outcome {
    /// Success; the values (verb-specific, still encoded) follow.
    Ok(String),
    /// The submission's code threw or panicked.
    Exception {
        /// One token: a Java class name, or `panic`.
        kind: String,
        /// The message, unescaped.
        message: String,
    },
    /// The language cannot express the request.
    Unsupported(String),
    /// The request was malformed or named an unknown handle.
    Protocol(String),
}

/// One reply line: `ID ok CPU VALUES…`, or `ID err KIND CPU …` (specs/protocol.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Reply {
    /// The ID of the request answered.
    pub id: u64,
    /// CPU microseconds the program spent on the request.
    pub cpu_micros: u64,
    #[allow(missing_docs)]
    pub outcome: Outcome,
}

impl Reply {
    /// Encodes the reply as one line (without the newline).
    pub fn encode(&self) -> String {
        let Reply { id, cpu_micros: cpu, outcome } = self;
        match outcome {
            Outcome::Ok(values) if values.is_empty() => format!("{id} ok {cpu}"),
            Outcome::Ok(values) => format!("{id} ok {cpu} {values}"),
            Outcome::Exception { kind, message } => format!("{id} err exception {cpu} {kind} {}", escape(message)),
            Outcome::Unsupported(reason) => format!("{id} err unsupported {cpu} {}", escape(reason)),
            Outcome::Protocol(reason) => format!("{id} err protocol {cpu} {}", escape(reason)),
        }
    }

    /// Decodes a reply line.
    pub fn decode(line: &str) -> Result<Reply, WireError> {
        let garbage = || wire_error("not a protocol reply");
        let (id, rest) = line.split_once(' ').ok_or_else(garbage)?;
        let id = id.parse::<u64>().map_err(|_| garbage())?;
        let (status, rest) = rest.split_once(' ').ok_or_else(garbage)?;
        let (kind, rest) = if status == "err" { rest.split_once(' ').ok_or_else(garbage)? } else { ("", rest) };
        let (cpu, values) = rest.split_once(' ').unwrap_or((rest, ""));
        let cpu_micros = cpu.parse::<u64>().map_err(|_| wire_error(format!("bad CPU time `{cpu}`")))?;
        let outcome = match (status, kind) {
            ("ok", _) => Outcome::Ok(values.to_string()),
            ("err", "exception") => {
                let (kind, message) = values.split_once(' ').unwrap_or((values, ""));
                Outcome::Exception { kind: kind.to_string(), message: unescape(message) }
            }
            ("err", "unsupported") => Outcome::Unsupported(unescape(values)),
            ("err", "protocol") => Outcome::Protocol(unescape(values)),
            _ => return Err(garbage()),
        };
        Ok(Reply { id, cpu_micros, outcome })
    }
}

/// Escapes text for the rest of a line: `\` `\n` `\r` `\t`.
pub fn escape(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut out = String::with_capacity(text.len() + text.len() / 8);
    // Copy the runs between special characters whole (a 127-by-127 board's text is ~100 KB), found with
    // memchr: a board's text has newlines only, so the two rarer characters are looked for once.
    let mut run = 0;
    let mut escape_at = |at: usize, out: &mut String| {
        // `at` is an ASCII byte, so both slices end on character boundaries.
        out.push_str(&text[run..at]);
        out.push_str(match bytes[at] {
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            _ => "\\t",
        });
        run = at + 1;
    };
    if memchr::memchr2(b'\r', b'\t', bytes).is_none() {
        memchr::memchr2_iter(b'\\', b'\n', bytes).for_each(|at| escape_at(at, &mut out));
    } else {
        (0..bytes.len())
            .filter(|&at| matches!(bytes[at], b'\\' | b'\n' | b'\r' | b'\t'))
            .for_each(|at| escape_at(at, &mut out));
    }
    out.push_str(&text[run..]);
    out
}

/// Reverses [`escape`]; an unknown escape is kept as written.
pub fn unescape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(at) = rest.find('\\') {
        out.push_str(&rest[..at]);
        let mut after = rest[at + 1..].chars();
        match after.next() {
            Some('n') => out.push('\n'),
            Some('r') => out.push('\r'),
            Some('t') => out.push('\t'),
            Some('\\') => out.push('\\'),
            Some(other) => {
                out.push('\\');
                out.push(other);
            }
            None => out.push('\\'),
        }
        rest = after.as_str();
    }
    out.push_str(rest);
    out
}

/// Encodes a list of handles as `COUNT HANDLE…`.
pub fn encode_handles(handles: &[Handle]) -> String {
    let mut out = handles.len().to_string();
    for h in handles {
        out.push_str(&format!(" {h}"));
    }
    out
}

/// Decodes `COUNT HANDLE…`.
pub fn decode_handles(values: &str) -> Result<Vec<Handle>, WireError> {
    let mut tokens = values.split(' ').filter(|t| !t.is_empty());
    let count: usize = tokens.next().and_then(|c| c.parse().ok()).ok_or_else(|| wire_error("missing handle count"))?;
    let handles: Vec<Handle> = tokens.map(str::parse).collect::<Result<_, _>>()?;
    if handles.len() != count {
        return Err(wire_error(format!("expected {count} handles, got {}", handles.len())));
    }
    Ok(handles)
}

/// Decodes consecutive `COUNT HANDLE…` lists (the reply to `neighbors_after` or `neighbors_nested`).
pub fn decode_handle_lists(values: &str) -> Result<Vec<Vec<Handle>>, WireError> {
    let mut tokens = values.split(' ').filter(|t| !t.is_empty()).peekable();
    let mut lists = Vec::new();
    while let Some(count) = tokens.next() {
        let count: usize = count.parse().map_err(|_| wire_error(format!("`{count}` is not a handle count")))?;
        let list: Vec<Handle> = tokens.by_ref().take(count).map(str::parse).collect::<Result<_, _>>()?;
        if list.len() != count {
            return Err(wire_error(format!("expected {count} handles, got {}", list.len())));
        }
        lists.push(list);
    }
    Ok(lists)
}

/// A `neighbors_texts` reply's values: its handles as `neighbors` lists them (`COUNT HANDLE…`), then for
/// each board whose `toString()` was read, a tab and the call's outcome: `=` and the text (escaped, as a
/// `to_string` reply holds it), `!KIND MESSAGE` when it threw (the message escaped), `?REASON` when the
/// adapter could not make the call, `-REASON` when the language cannot express it (the reasons escaped).
/// Escaped text holds no tab, so the fields split unambiguously.
pub fn encode_neighbor_texts(handles: &str, texts: &[Outcome]) -> String {
    let mut out = String::with_capacity(handles.len() + texts.len() * 64);
    out.push_str(handles);
    for text in texts {
        out.push('\t');
        match text {
            Outcome::Ok(text) => {
                out.push('=');
                out.push_str(text);
            }
            Outcome::Exception { kind, message } => {
                out.push('!');
                out.push_str(kind);
                out.push(' ');
                out.push_str(&escape(message));
            }
            Outcome::Protocol(reason) => {
                out.push('?');
                out.push_str(&escape(reason));
            }
            Outcome::Unsupported(reason) => {
                out.push('-');
                out.push_str(&escape(reason));
            }
        }
    }
    out
}

/// A `texts` reply's values: a `neighbors_texts` reply's without its handles, each text's outcome after a tab
/// ([`encode_neighbor_texts`]); [`decode_texts`] reads them back.
pub fn encode_texts(texts: &[Outcome]) -> String {
    encode_neighbor_texts("", texts)
}

/// Reverses [`encode_texts`]: each text's outcome (a text still escaped); values with a handles part are no
/// `texts` reply.
pub fn decode_texts(values: &str) -> Result<Vec<Outcome>, WireError> {
    match decode_neighbor_texts(values)? {
        ("", texts) => Ok(texts),
        (handles, _) => Err(wire_error(format!("a `texts` reply starts with handles: `{handles:.40}`"))),
    }
}

/// The handles part (`COUNT HANDLE…`) of a `neighbors_texts` reply's values ([`encode_neighbor_texts`]); the
/// whole of any other reply's.
pub fn neighbor_texts_handles(values: &str) -> &str {
    values.split_once('\t').map_or(values, |(handles, _)| handles)
}

/// Reverses [`encode_neighbor_texts`]: the handles part, and each text's outcome (a text still escaped).
pub fn decode_neighbor_texts(values: &str) -> Result<(&str, Vec<Outcome>), WireError> {
    let mut fields = values.split('\t');
    let handles = fields.next().unwrap_or_default();
    let texts = fields
        .map(|field| {
            let mut chars = field.chars();
            let marker = chars.next();
            let rest = chars.as_str();
            match marker {
                Some('=') => Ok(Outcome::Ok(rest.to_string())),
                Some('!') => {
                    let (kind, message) = rest.split_once(' ').unwrap_or((rest, ""));
                    Ok(Outcome::Exception { kind: kind.to_string(), message: unescape(message) })
                }
                Some('?') => Ok(Outcome::Protocol(unescape(rest))),
                Some('-') => Ok(Outcome::Unsupported(unescape(rest))),
                _ => Err(wire_error(format!(
                    "a text of a `neighbors_texts` or `texts` reply starts with neither =, !, ? nor -: `{field:.40}`"
                ))),
            }
        })
        .collect::<Result<_, _>>()?;
    Ok((handles, texts))
}

/// Decodes `NAME=INT…` counter pairs.
pub fn decode_counters(values: &str) -> Result<Vec<(String, u64)>, WireError> {
    values
        .split(' ')
        .filter(|t| !t.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').ok_or_else(|| wire_error(format!("bad counter `{pair}`")))?;
            let value = value.parse().map_err(|_| wire_error(format!("bad counter value in `{pair}`")))?;
            Ok((name.to_string(), value))
        })
        .collect()
}

/// One line of the student's code that a sampled operation came from (`call_sites`, specs/protocol.md).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CallSite {
    /// The counter the operation adds to (`board_constructed`, `pq_inserts`, ...).
    pub counter: String,
    /// The student's file and line, `Solver.java:42`.
    pub site: String,
    /// How many of the counter's samples came from this line.
    pub samples: u64,
}

/// What `call_sites` answers: the CPU the adapter spent sampling since `counters_reset`, and the sites.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct CallSites {
    /// Nanoseconds of CPU the sampling itself took (grading overhead, not the student's).
    pub sampling_cpu_ns: u64,
    /// The lines the samples came from, as the adapter found them.
    pub sites: Vec<CallSite>,
}

/// Decodes `sampling_cpu_ns=INT COUNTER@FILE:LINE=INT…`.
pub fn decode_call_sites(values: &str) -> Result<CallSites, WireError> {
    let mut out = CallSites::default();
    for token in values.split(' ').filter(|t| !t.is_empty()) {
        let (key, value) = token.rsplit_once('=').ok_or_else(|| wire_error(format!("bad call site `{token}`")))?;
        let value: u64 = value.parse().map_err(|_| wire_error(format!("bad count in `{token}`")))?;
        if key == "sampling_cpu_ns" {
            out.sampling_cpu_ns = value;
            continue;
        }
        let (counter, site) = key.split_once('@').ok_or_else(|| wire_error(format!("bad call site `{token}`")))?;
        if counter.is_empty() || site.is_empty() {
            return Err(wire_error(format!("bad call site `{token}`")));
        }
        out.sites.push(CallSite { counter: counter.to_string(), site: site.to_string(), samples: value });
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn outcome() -> impl Strategy<Value = Outcome> {
        prop_oneof![
            "[a-z0-9=]{1,8}( [a-z0-9=]{1,8}){0,4}".prop_map(Outcome::Ok),
            Just(Outcome::Ok(String::new())),
            ("[A-Za-z.]{1,20}", "\\PC{0,40}").prop_map(|(kind, message)| Outcome::Exception { kind, message }),
            "\\PC{0,40}".prop_map(Outcome::Unsupported),
            "\\PC{0,40}".prop_map(Outcome::Protocol),
        ]
    }

    proptest! {
        #[test]
        fn replies_round_trip(id in any::<u64>(), cpu_micros in any::<u64>(), outcome in outcome()) {
            let reply = Reply { id, cpu_micros, outcome };
            let line = reply.encode();
            prop_assert!(!line.contains('\n'));
            prop_assert_eq!(Reply::decode(&line), Ok(reply));
        }

        #[test]
        fn handles_print_as_they_parse(n in any::<u64>(), index in any::<u32>()) {
            for (handle, text) in [
                (Handle::Board(n), format!("b{n}")),
                (Handle::Solver(n), format!("s{n}")),
                (Handle::Reply { request: n, index }, format!("@{n}.{index}")),
            ] {
                prop_assert_eq!(handle.to_string(), text.clone());
                prop_assert_eq!(text.parse::<Handle>(), Ok(handle));
            }
        }

        #[test]
        fn text_escaping_round_trips(text in "\\PC*|[\\\\\n\r\t a]*") {
            let escaped = escape(&text);
            prop_assert!(!escaped.contains(['\n', '\r', '\t']), "{escaped:?}");
            prop_assert_eq!(unescape(&escaped), text);
        }

        #[test]
        fn decoding_garbage_never_panics(line in "\\PC{0,80}") {
            let _ = Reply::decode(&line);
        }
    }

    #[test]
    fn worked_examples_decode() {
        let reply = Reply::decode("6 ok 4 3\\n 8  1  3 \\n").unwrap();
        assert_eq!(reply.outcome, Outcome::Ok("3\\n 8  1  3 \\n".into()));
        let reply =
            Reply::decode("5 err exception 0 java.lang.IllegalArgumentException board must not be null").unwrap();
        assert_eq!(
            reply.outcome,
            Outcome::Exception {
                kind: "java.lang.IllegalArgumentException".into(),
                message: "board must not be null".into()
            }
        );
        assert_eq!(decode_handles("4 b2 b3 b4 b5").unwrap().len(), 4);
        assert!(decode_handles("3 b2").is_err());
        assert_eq!(decode_counters("pq_inserts=20 x=1").unwrap()[0], ("pq_inserts".into(), 20));
        let lists = decode_handle_lists("2 b2 b3 0 1 b4").unwrap();
        assert_eq!(lists.iter().map(Vec::len).collect::<Vec<_>>(), [2, 0, 1]);
        assert!(decode_handle_lists("2 b2 1 b3").is_err() && decode_handle_lists("2 b2").is_err());
        assert!(decode_handle_lists("b2").is_err());
        assert!(Reply::decode("hello world").is_err());
    }

    proptest! {
        #[test]
        fn neighbor_texts_round_trip(count in 0usize..5, texts in proptest::collection::vec(outcome(), 0..5)) {
            let handles = encode_handles(&(0..count as u64).map(Handle::Board).collect::<Vec<_>>());
            // a text as a `to_string` reply holds it: escaped
            let texts: Vec<Outcome> = texts
                .into_iter()
                .map(|text| match text {
                    Outcome::Ok(text) => Outcome::Ok(escape(&text)),
                    other => other,
                })
                .collect();
            let values = encode_neighbor_texts(&handles, &texts);
            prop_assert_eq!(decode_neighbor_texts(&values), Ok((handles.as_str(), texts.clone())));
            prop_assert_eq!(neighbor_texts_handles(&values), handles.as_str());
            // a `texts` reply: the same outcomes without the handles, which one that has them is not
            prop_assert_eq!(decode_texts(&encode_texts(&texts)), Ok(texts));
            prop_assert!(decode_texts(&values).is_err(), "{values}");
        }
    }

    #[test]
    fn a_text_that_reads_like_a_handle_is_not_recorded_as_one() {
        let mut replies = ReplyHandles::default();
        let values = encode_neighbor_texts("2 b2 b3", &[Outcome::Ok("b9 b9".into()), Outcome::Ok("2\\n b7".into())]);
        replies.record(4, &values);
        assert_eq!(replies.resolve(Handle::Reply { request: 4, index: 1 }).unwrap(), Handle::Board(3));
        assert!(replies.resolve(Handle::Reply { request: 4, index: 2 }).is_err(), "{values}");
        assert!(decode_neighbor_texts("1 b2\tx").is_err());
    }

    #[test]
    fn references_resolve_to_the_handles_of_earlier_replies() {
        let mut replies = ReplyHandles::default();
        replies.record(7, "3 b2 b3 b4");
        replies.record(8, "s9 1904");
        replies.record(9, "none");
        assert_eq!("@7.2".parse::<Handle>().unwrap(), Handle::Reply { request: 7, index: 2 });
        assert_eq!(replies.resolve(Handle::Reply { request: 7, index: 2 }).unwrap(), Handle::Board(4));
        assert_eq!(replies.resolve(Handle::Reply { request: 8, index: 0 }).unwrap(), Handle::Solver(9));
        assert_eq!(replies.resolve(Handle::Board(5)).unwrap(), Handle::Board(5));
        let past_the_end = replies.resolve(Handle::Reply { request: 7, index: 3 }).unwrap_err();
        assert_eq!(past_the_end.0, "@7.3 refers to handle 3 of request 7, which returned 3");
        assert!(replies.resolve(Handle::Reply { request: 9, index: 0 }).is_err(), "`none` holds no handle");
        assert!(replies.resolve(Handle::Reply { request: 6, index: 0 }).unwrap_err().0.contains("no handles"));
        replies.record(7 + ReplyHandles::WINDOW + 5, "b1");
        assert!(replies.resolve(Handle::Reply { request: 7, index: 0 }).is_err(), "too old, even past a gap");
        assert!(replies.resolve(Handle::Reply { request: 8, index: 0 }).is_err());
        assert_eq!(replies.recorded.len(), 1, "nothing older than the window is kept");
        assert!("@7".parse::<Handle>().is_err() && "@x.1".parse::<Handle>().is_err());
    }

    #[test]
    fn call_sites_decode_with_their_sampling_cpu() {
        let sites =
            decode_call_sites("sampling_cpu_ns=1200 board_constructed@Solver.java:42=81 pq_inserts@x.py:7=3").unwrap();
        assert_eq!(sites.sampling_cpu_ns, 1200);
        assert_eq!(sites.sites.len(), 2);
        assert_eq!(sites.sites[0].site, "Solver.java:42");
        assert_eq!(sites.sites[1], CallSite { counter: "pq_inserts".into(), site: "x.py:7".into(), samples: 3 });
        for bad in ["board_constructed=3", "@x.py:1=2", "a@b=x", "nothing"] {
            assert!(decode_call_sites(bad).is_err(), "{bad}");
        }
    }
}
