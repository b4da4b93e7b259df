//! Test support for the adapters' builds: a protocol conversation with the server a build prepared, started
//! directly (no sandbox: these tests check what an adapter answers, not how the runner runs it).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, ChildStdout, Command, Stdio};

use super::step::{Launch, Prepared};
use crate::runner::spec::ProcessSpec;

/// A spawned adapter server and the next request ID.
pub struct Conversation {
    pub child: Child,
    stdin: ChildStdin,
    stdout: BufReader<ChildStdout>,
    next_id: u64,
}

impl Conversation {
    /// Starts the server a build prepared for the `own` world, the only one of a build that is `Ready`
    /// (panics on a build that did not compile).
    pub fn start(build: Prepared) -> Conversation {
        Conversation::launch(match build {
            Prepared::Ready(launch) => *launch,
            Prepared::PerWorld(launches) => launches.own,
            Prepared::CompileFailed { .. } => panic!("expected a ready build: {build:?}"),
        })
    }

    /// Starts the server a build prepared for the `ref` world.
    pub fn start_ref(build: Prepared) -> Conversation {
        Conversation::launch(match build {
            Prepared::Ready(launch) => *launch,
            Prepared::PerWorld(launches) => launches.reference,
            Prepared::CompileFailed { .. } => panic!("expected a ready build: {build:?}"),
        })
    }

    fn launch(Launch { process: ProcessSpec { program, args, env, .. }, .. }: Launch) -> Conversation {
        let mut child = Command::new(&program)
            .args(args)
            .envs(env)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .unwrap_or_else(|e| panic!("{} starts: {e}", program.display()));
        let stdin = child.stdin.take().unwrap();
        let stdout = BufReader::new(child.stdout.take().unwrap());
        Conversation { child, stdin, stdout, next_id: 0 }
    }

    /// Sends a request that makes an object (`board …`, `solver …`) and returns the handle it answered;
    /// panics, with the reply, on any other answer.
    pub fn handle(&mut self, request: &str) -> String {
        let reply = self.ask(request);
        reply.strip_prefix("ok ").unwrap_or_else(|| panic!("`{request}`: {reply}")).to_string()
    }

    /// Sends `verb args` and returns the reply without its ID and CPU time: `ok VALUES` (`ok` alone when
    /// there are none) or `err KIND ...`.
    pub fn ask(&mut self, request: &str) -> String {
        self.reply_and_cpu(request).0
    }

    /// [`Conversation::ask`]'s reply, and the CPU the server reports for the request, in microseconds.
    pub fn ask_with_cpu(&mut self, request: &str) -> (String, u64) {
        let (reply, cpu) = self.reply_and_cpu(request);
        (reply, cpu.parse().unwrap_or_else(|_| panic!("reply to `{request}`: a CPU time of `{cpu}`")))
    }

    fn reply_and_cpu(&mut self, request: &str) -> (String, String) {
        let id = self.send_batch(&[request])[0];
        let line = self.read_reply();
        // ID ok CPU VALUES, or ID err KIND CPU REST
        let tokens: Vec<&str> = line.splitn(5, ' ').collect();
        assert_eq!(tokens[0], id.to_string(), "reply to `{request}`: {line}");
        if tokens[1] == "err" {
            let cpu = tokens.get(3).unwrap_or(&"").to_string();
            return (format!("err {} {}", tokens[2], tokens.get(4).unwrap_or(&"")), cpu);
        }
        (format!("ok {}", tokens[3..].join(" ")).trim_end().to_string(), tokens[2].to_string())
    }

    /// Sends `requests` in one write, without reading, and returns their IDs: a pipelined batch.
    pub fn send_batch(&mut self, requests: &[&str]) -> Vec<u64> {
        let first = self.next_id;
        self.next_id += requests.len() as u64;
        let lines: String = requests.iter().zip(first..).map(|(request, id)| format!("{id} {request}\n")).collect();
        self.stdin.write_all(lines.as_bytes()).unwrap();
        self.stdin.flush().unwrap();
        (first..self.next_id).collect()
    }

    /// The next reply line, as written (blocks until one comes).
    pub fn read_reply(&mut self) -> String {
        let mut line = String::new();
        self.stdout.read_line(&mut line).unwrap();
        line.trim_end_matches('\n').to_string()
    }

    /// Kills the server if it is still running after `limit`, unless the returned guard was dropped first: a
    /// test of a server that once stopped answering reads the end of its output and fails, rather than
    /// waiting forever. The kill and the guard's drop take one lock, and the server is reaped only after the
    /// drop, so the kill never reaches a process that took its ID.
    pub fn killed_after(&self, limit: std::time::Duration) -> KillGuard {
        let dropped = std::sync::Arc::new(std::sync::Mutex::new(false));
        let (pid, seen) = (self.child.id() as libc::pid_t, dropped.clone());
        std::thread::spawn(move || {
            std::thread::sleep(limit);
            let dropped = seen.lock().unwrap_or_else(|e| e.into_inner());
            if !*dropped {
                // SAFETY: kill has no memory preconditions; the child is not reaped while the lock is held.
                unsafe { libc::kill(pid, libc::SIGKILL) };
            }
        });
        KillGuard(dropped)
    }

    /// Says hello, then sends `answered` and `ending` in one batch to a server whose student's code ends the
    /// process with status `code` at `ending`: every reply before it comes out, then the end of the output
    /// (the grader charges the end to the request that met it). Fails after a minute rather than waiting.
    pub fn ends_after_answering(mut self, answered: &[&str], ending: &str, ended: Ended) {
        let guard = self.killed_after(std::time::Duration::from_secs(60));
        self.ask("hello 1");
        let ids = self.send_batch(&[answered, &[ending]].concat());
        for (id, request) in ids.iter().zip(answered) {
            let reply = self.read_reply();
            assert!(reply.starts_with(&format!("{id} ok ")), "`{request}`: {reply:?}");
        }
        assert_eq!(self.read_reply(), "", "the output ends at `{ending}`, which ended the process");
        drop(guard);
        let status = self.child.wait().unwrap();
        let seen = match (status.code(), std::os::unix::process::ExitStatusExt::signal(&status)) {
            (Some(code), _) => Ended::Code(code),
            (None, Some(signal)) => Ended::Signal(signal),
            (None, None) => panic!("`{ending}` ended the process neither with a code nor by a signal: {status}"),
        };
        assert_eq!(seen, ended, "how `{ending}` ended the process");
    }

    /// Says goodbye and requires a clean exit.
    pub fn finish(mut self) {
        assert_eq!(self.ask("bye"), "ok");
        let status = self.child.wait().unwrap();
        assert!(status.success(), "{status}");
    }
}

/// How a server's process ended: with an exit code, or by a signal.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ended {
    Code(i32),
    Signal(i32),
}

/// Keeps [`Conversation::killed_after`]'s kill from happening once dropped (drop it before the server is
/// reaped: [`Conversation::finish`] reaps it).
pub struct KillGuard(std::sync::Arc<std::sync::Mutex<bool>>);

impl Drop for KillGuard {
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(|e| e.into_inner()) = true;
    }
}

/// The value of `name=VALUE` in a `counters` reply.
pub fn counter(counters: &str, name: &str) -> u64 {
    counters
        .split(' ')
        .find_map(|pair| pair.strip_prefix(name).and_then(|v| v.strip_prefix('=')))
        .unwrap_or_else(|| panic!("no {name} in {counters}"))
        .parse()
        .unwrap()
}

/// What an adapter announcing `counters_heap` must show, for a Solver whose search nodes change their ordering
/// after insertion and whose moves() answers how many comparisons its nodes have made since its constructor
/// began: `board` (`board ref`'s arguments) solved in the `ref` world after `counters_reset heap`, a plain
/// `counters_reset` and `counters_reset heap` again. The queues' heap order is checked, and found broken, only
/// when asked: after a plain reset the search makes fewer comparisons (no periodic check calls them), reading
/// the counters makes none (no last check), and `pq_heap_violations` is left out of the counters; every other
/// count is the same each time (the checks charge the Solver no Board operation).
pub fn heap_order_checked_only_when_asked(c: &mut Conversation, board: &str) {
    assert!(c.ask("hello 1").contains(" counters_heap "), "the adapter announces counters_heap");
    let handle = c.handle(&format!("board ref {board}"));
    let is_violations = |pair: &str| pair.starts_with("pq_heap_violations=");
    let mut compared = Vec::new();
    let mut others = Vec::new();
    for (reset, asked) in [("counters_reset heap", true), ("counters_reset", false), ("counters_reset heap", true)] {
        assert_eq!(c.ask(reset), "ok");
        let solver = c.handle(&format!("solver {handle}"));
        let compares = |c: &mut Conversation| -> u64 {
            let moves = c.ask(&format!("moves {solver}"));
            moves.strip_prefix("ok ").and_then(|n| n.parse().ok()).unwrap_or_else(|| panic!("{moves}"))
        };
        let in_search = compares(c);
        let counters = c.ask("counters");
        let after_counters = compares(c);
        if asked {
            assert!(counter(&counters, "pq_heap_violations") > 0, "after `{reset}`: {counters}");
        } else {
            assert!(!counters.split(' ').any(is_violations), "after `{reset}`: {counters}");
            assert_eq!(after_counters, in_search, "after `{reset}`, reading the counters compared nothing");
        }
        compared.push(in_search);
        others.push(counters.split(' ').filter(|p| !is_violations(p)).collect::<Vec<_>>().join(" "));
    }
    assert!(
        compared[1] < compared[0] && compared[0] == compared[2],
        "the periodic checks compare only when asked: {compared:?} comparisons (heap, plain, heap)"
    );
    assert!(others.iter().all(|o| *o == others[0]), "the same counts each time: {others:#?}");
}

/// A Solver whose comparison never calls two search nodes equal (`a < b ? -1 : 1`, `<=` for `<`) solves
/// `board` in a span that asks for heap-order checks and shows none: each of two equal nodes compares greater
/// than the other, which is no mutation (a check that read one direction only found one in nearly every
/// search). Its moves() must be the board's `moves`.
pub fn ties_both_ways_are_no_heap_violation(c: &mut Conversation, board: &str, moves: u32) {
    assert!(c.ask("hello 1").contains(" counters_heap "), "the adapter announces counters_heap");
    let handle = c.handle(&format!("board ref {board}"));
    assert_eq!(c.ask("counters_reset heap"), "ok");
    let solver = c.handle(&format!("solver {handle}"));
    assert_eq!(c.ask(&format!("moves {solver}")), format!("ok {moves}"));
    let counters = c.ask("counters");
    assert!(counter(&counters, "pq_inserts") > 1000, "a search large enough for ties: {counters}");
    assert_eq!(counter(&counters, "pq_heap_violations"), 0, "{counters}");
}

/// The three values of a `memory_retained` reply (`ok BYTES KEPT OFF_HEAP`): the deep size, the second reading
/// and its part off the heap, which must all be there.
pub fn retained_readings(reply: &str) -> [u64; 3] {
    let values: Vec<u64> = reply.strip_prefix("ok ").unwrap_or("").split(' ').filter_map(|v| v.parse().ok()).collect();
    values.try_into().unwrap_or_else(|_| panic!("`{reply}`: the deep size, the bytes kept and those off the heap"))
}

/// The samples of `counter` in a `call_sites` reply, over every site.
pub fn samples_of(sites: &npuzzle_harness::protocol::CallSites, counter: &str) -> u64 {
    sites.sites.iter().filter(|s| s.counter == counter).map(|s| s.samples).sum()
}

/// Asks `neighbors_texts BOARD MAX` and checks each text against what a `to_string` of the board it names
/// answers on its own (the same text, or the same exception): the fused request stands for exactly those
/// requests. Returns the request's ID (for references to its handles), the handles and the texts.
pub fn neighbor_texts(
    c: &mut Conversation,
    board: &str,
    max: u32,
) -> (u64, Vec<npuzzle_harness::protocol::Handle>, Vec<npuzzle_harness::protocol::Outcome>) {
    use npuzzle_harness::protocol::{decode_handles, decode_neighbor_texts, Outcome};
    let id = c.next_id;
    let reply = c.ask(&format!("neighbors_texts {board} {max}"));
    let values = reply.strip_prefix("ok ").unwrap_or_else(|| panic!("neighbors_texts {board} {max}: {reply}"));
    let (handles, texts) = decode_neighbor_texts(values).unwrap();
    let handles = decode_handles(handles).unwrap();
    assert_eq!(texts.len(), handles.len().min(max as usize), "{reply}");
    assert!(texts.iter().all(|text| matches!(text, Outcome::Ok(_) | Outcome::Exception { .. })), "{reply}");
    each_as_read_alone(c, &handles, &texts, &reply);
    (id, handles, texts)
}

/// Asks `to_string` of each of `boards` on its own and requires the answer its text in a fused reply
/// (`reply`, for the message) stands for: the same text, the same exception, or the same refusal.
fn each_as_read_alone(
    c: &mut Conversation,
    boards: &[impl std::fmt::Display],
    texts: &[npuzzle_harness::protocol::Outcome],
    reply: &str,
) {
    use npuzzle_harness::protocol::{escape, Outcome};
    for (board, text) in boards.iter().zip(texts) {
        let alone = match text {
            Outcome::Ok(text) => format!("ok {text}"),
            Outcome::Exception { kind, message } => format!("err exception {kind} {}", escape(message)),
            Outcome::Protocol(reason) => format!("err protocol {}", escape(reason)),
            Outcome::Unsupported(reason) => format!("err unsupported {}", escape(reason)),
        };
        assert_eq!(c.ask(&format!("to_string {board}")), alone.trim_end(), "{reply}");
    }
}

/// Asks `texts BOARD…` and checks each text against what a `to_string` of that board answers on its own (the
/// same text, the same exception, or the same protocol error): the request stands for exactly those requests.
/// Returns the texts.
pub fn texts(c: &mut Conversation, boards: &[&str]) -> Vec<npuzzle_harness::protocol::Outcome> {
    use npuzzle_harness::protocol::decode_texts;
    let reply = c.ask(&format!("texts {}", boards.join(" ")));
    let values = reply.strip_prefix("ok ").unwrap_or_else(|| panic!("texts {boards:?}: {reply}"));
    let texts = decode_texts(values).unwrap();
    assert_eq!(texts.len(), boards.len(), "{reply}");
    each_as_read_alone(c, boards, &texts, &reply);
    texts
}

/// A submission whose text fails (`kind`, "no text") for a board with the blank in the top left corner,
/// asked `neighbors_texts` of a board with three neighbors, one of them such: that text alone fails, the
/// others are read, and the handles are recorded for references, as with a `to_string` request each.
pub fn one_text_fails(mut c: Conversation, kind: &str) {
    use npuzzle_harness::protocol::Outcome;
    c.ask("hello 1");
    assert_eq!(c.ask("board own 3 1 0 3 4 2 5 7 8 6"), "ok b1");
    let (id, handles, texts) = neighbor_texts(&mut c, "b1", 3);
    let thrown: Vec<&Outcome> = texts.iter().filter(|t| matches!(t, Outcome::Exception { .. })).collect();
    assert_eq!((handles.len(), texts.len(), thrown.len()), (3, 3, 1), "{texts:?}");
    assert!(
        matches!(thrown[0], Outcome::Exception { kind: thrown, message } if thrown == kind && message.starts_with("no text")),
        "{thrown:?}"
    );
    assert_eq!(c.ask(&format!("hamming @{id}.2")), c.ask(&format!("hamming {}", handles[2])));
    c.finish();
}
