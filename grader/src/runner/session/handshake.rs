//! The handshake every process of a session answers first (`hello`, `specs/protocol.md`): the protocol
//! version it speaks, its language, and its capabilities ([`Handshake`]). Four capabilities change how the
//! session talks to it: [`REFS`] (it resolves references itself, so batches are pipelined), `neighbor_texts`
//! ([`NEIGHBOR_TEXTS`](npuzzle_harness::protocol::NEIGHBOR_TEXTS): a pipelined batch's `neighbors` and the
//! reads of its boards travel as one request), `texts` ([`TEXTS`](npuzzle_harness::protocol::TEXTS): a run of
//! reads of reference boards travels as one request) and `runtime_threads=` (the threads the session may leave
//! uncharged, when it trusts the program to name them).
//! A reply that is too long or speaks another version fails the start, in words for the student.

use std::collections::BTreeSet;

use npuzzle_harness::protocol::VERSION;

/// What the handshake told us about the program.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Handshake {
    /// The submission's language (`rust`, `java`, …).
    pub language: String,
    #[allow(missing_docs)]
    pub capabilities: BTreeSet<String>,
    /// The runtime's own threads (`runtime_threads=T1,T2,…`, Linux thread ids as the program sees them),
    /// whose CPU time is not charged to the student when the session trusts the program to name them.
    pub runtime_threads: Vec<u32>,
}

impl Handshake {
    /// Whether the program resolves references itself ([`REFS`]).
    pub(super) fn resolves_references(&self) -> bool {
        self.capabilities.contains(REFS)
    }

    /// Whether the program answers a fused verb (`capability`: `neighbor_texts`, `texts`), which only a
    /// pipelined batch (with references) sends.
    pub(super) fn answers(&self, capability: &str) -> bool {
        self.resolves_references() && self.capabilities.contains(capability)
    }
}

/// The capability of adapters that resolve [`Handle::Reply`](npuzzle_harness::protocol::Handle::Reply)
/// references themselves.
pub const REFS: &str = "refs";

/// The capability naming the runtime's own threads (`runtime_threads=T1,T2,…`, Linux thread ids).
const RUNTIME_THREADS: &str = "runtime_threads=";

/// The longest handshake reply read (a language and a few capabilities).
const HELLO_BYTES: usize = 4 << 10;

/// The handshake the values of a `hello` reply announce, or why the program cannot be graded.
pub(super) fn parse_hello(values: &str) -> Result<Handshake, String> {
    if values.len() > HELLO_BYTES {
        return Err(format!("the handshake's reply is longer than {HELLO_BYTES} bytes"));
    }
    let mut tokens = values.split(' ').filter(|t| !t.is_empty());
    let version = tokens.next().unwrap_or("");
    if version != VERSION.to_string() {
        return Err(format!("the program speaks protocol version `{version}`, the grader speaks {VERSION}"));
    }
    let language = tokens.next().ok_or("the handshake names no language")?.to_string();
    let capabilities: BTreeSet<String> = tokens.map(str::to_string).collect();
    let runtime_threads = capabilities
        .iter()
        .find_map(|c| c.strip_prefix(RUNTIME_THREADS))
        .map(|ids| ids.split(',').filter_map(|id| id.parse().ok()).collect())
        .unwrap_or_default();
    Ok(Handshake { language, capabilities, runtime_threads })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_handshake_may_name_the_runtime_threads() {
        let hello = parse_hello("1 java refs runtime_threads=4242,17,x,9 memory").unwrap();
        assert_eq!(hello.runtime_threads, [4242, 17, 9]);
        assert!(hello.capabilities.contains("memory"));
        assert!(parse_hello("1 rust refs").unwrap().runtime_threads.is_empty());
        assert!(parse_hello("1 python request_thread=12").unwrap().runtime_threads.is_empty(), "no other token");
    }

    #[test]
    fn a_handshake_is_refused_in_words_when_it_cannot_be_graded() {
        let other = format!("the program speaks protocol version `9`, the grader speaks {VERSION}");
        assert_eq!(parse_hello("9 sh"), Err(other));
        assert_eq!(parse_hello(&format!("{VERSION}  ")), Err("the handshake names no language".into()));
        let long = format!("{VERSION} sh {}", "x".repeat(HELLO_BYTES));
        assert_eq!(parse_hello(&long), Err("the handshake's reply is longer than 4096 bytes".into()));
        let hello = parse_hello(&format!("{VERSION} sh refs counters")).unwrap();
        assert!(
            hello.resolves_references()
                && !parse_hello(&format!("{VERSION} sh counters")).unwrap().resolves_references()
        );
        assert_eq!(hello.language, "sh");
    }
}
