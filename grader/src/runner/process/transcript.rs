//! A copy of the protocol lines a program was sent and sent back, kept only when `GRADER_TRANSCRIPTS` names a
//! directory.
//!
//! Why: the floor under a grade's cost (BENCHMARKS.md, issue 36) is the same Board and Solver calls made by a
//! plain client with no grader, protocol or sandbox. `scripts/bench-overhead.sh -f` records one grade's
//! transcripts and replays them (`scripts/replay/`); a transcript is also what to read when a program and the
//! grader disagree about a conversation. Nothing is written unless the variable is set, and the program never
//! sees it (the sandbox's environment is scrubbed).
//!
//! One file per program started, `<grader pid>-<sequence>.transcript`: `# program PATH`, then `# arg ARG` for
//! each argument, then `> REQUEST` and `< REPLY` lines in the order the grader queued and took them (a
//! pipelined batch's requests come before their replies). A write that fails ends the transcript and says so
//! once on stderr; the grade goes on.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::sync::OnceLock;

use crate::runner::spec::ProcessSpec;

/// The environment variable naming the directory transcripts go to.
pub const TRANSCRIPTS: &str = "GRADER_TRANSCRIPTS";

/// The open transcript of one program.
#[derive(Debug)]
pub(super) struct Transcript {
    out: Option<BufWriter<File>>,
    path: PathBuf,
}

impl Transcript {
    /// A transcript for the program `spec` starts, when [`TRANSCRIPTS`] names a directory.
    pub fn open(spec: &ProcessSpec) -> Option<Transcript> {
        static DIRECTORY: OnceLock<Option<PathBuf>> = OnceLock::new();
        static SEQUENCE: AtomicU32 = AtomicU32::new(0);
        let directory = DIRECTORY.get_or_init(|| std::env::var_os(TRANSCRIPTS).map(PathBuf::from)).as_ref()?;
        let sequence = SEQUENCE.fetch_add(1, Ordering::Relaxed);
        let path = directory.join(format!("{}-{sequence:05}.transcript", std::process::id()));
        let mut transcript = Transcript { out: None, path };
        match File::create(&transcript.path) {
            Ok(file) => transcript.out = Some(BufWriter::with_capacity(1 << 16, file)),
            Err(error) => transcript.failed(&error),
        }
        transcript.write("# program ", &spec.program.to_string_lossy());
        for arg in &spec.args {
            transcript.write("# arg ", &arg.to_string_lossy());
        }
        Some(transcript)
    }

    /// A request line the grader queued.
    pub fn sent(&mut self, line: &str) {
        self.write("> ", line);
    }

    /// A reply line the grader took.
    pub fn received(&mut self, line: &str) {
        self.write("< ", line);
    }

    fn write(&mut self, mark: &str, line: &str) {
        let Some(out) = &mut self.out else { return };
        let written = out.write_all(mark.as_bytes()).and_then(|()| out.write_all(line.as_bytes()));
        if let Err(error) = written.and_then(|()| out.write_all(b"\n")) {
            self.failed(&error);
        }
    }

    fn failed(&mut self, error: &std::io::Error) {
        self.out = None;
        eprintln!("warning: the transcript {} was not written whole ({error}); the grade goes on", self.path.display());
    }
}

impl Drop for Transcript {
    fn drop(&mut self) {
        if let Some(mut out) = self.out.take() {
            if let Err(error) = out.flush() {
                self.failed(&error);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_transcript_keeps_the_command_and_both_directions_in_order() {
        let directory = tempfile::tempdir().unwrap();
        let path = directory.path().join("one.transcript");
        let file = File::create(&path).unwrap();
        let mut transcript = Transcript { out: Some(BufWriter::new(file)), path: path.clone() };
        transcript.write("# program ", "java");
        transcript.sent("1 hello 1");
        transcript.sent("2 board own 2 1 2 3 0");
        transcript.received("1 ok 0 1 java refs");
        drop(transcript);
        let text = std::fs::read_to_string(path).unwrap();
        assert_eq!(text, "# program java\n> 1 hello 1\n> 2 board own 2 1 2 3 0\n< 1 ok 0 1 java refs\n");
    }
}
