//! `GRADER_TRANSCRIPTS`: a grade keeps each program's protocol lines, and the floor's tools
//! (`scripts/replay/`, BENCHMARKS.md) replay them as the same Board and Solver calls.

use std::path::PathBuf;
use std::process::Command;
use std::sync::OnceLock;

use crate::support::{grader, reference_submission, release_binary, root};

/// The Rust reference submission's replayer (`adapters/rust/harness/src/bin/reference-replay.rs`).
fn reference_replay() -> PathBuf {
    static BUILT: OnceLock<PathBuf> = OnceLock::new();
    BUILT.get_or_init(|| release_binary("reference-replay")).clone()
}

#[test]
fn a_graded_programs_lines_are_kept_and_replay_as_the_same_calls_with_the_same_answers() {
    let transcripts = tempfile::tempdir().unwrap();
    let output = grader()
        .env("GRADER_TRANSCRIPTS", transcripts.path())
        .arg("grade")
        .arg(reference_submission())
        .args(["--quiet", "--only", "board-5a", "--only", "board-10a", "--only", "solver-2a"])
        .output()
        .unwrap();
    assert!(output.status.success(), "{}", String::from_utf8_lossy(&output.stderr));
    let files: Vec<PathBuf> = std::fs::read_dir(transcripts.path()).unwrap().map(|f| f.unwrap().path()).collect();
    assert_eq!(files.len(), 1, "one program serves both worlds: {files:?}");
    let text = std::fs::read_to_string(&files[0]).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert!(lines[0].starts_with("# program ") && lines[0].ends_with("reference-submission"), "{}", lines[0]);
    assert!(lines.contains(&"> 0 hello 1"), "{}", &text[..text.len().min(500)]);
    assert!(lines.iter().any(|l| l.starts_with("< 0 ok ")), "the handshake's reply");
    let asked = |verb: &str| lines.iter().filter(|l| l.starts_with("> ") && l.split(' ').nth(2) == Some(verb)).count();
    // a Board test's `neighbors()` and the reads of its boards travel fused (capability `neighbor_texts`)
    assert!(asked("neighbors_texts") > 0 && asked("equals") > 0 && asked("solver") > 0 && asked("moves") > 0);
    // references the grader sent speculatively (a fourth neighbor of a board with three) ran nothing
    let refused = lines.iter().filter(|l| l.starts_with("< ") && l.contains(" err protocol ")).count();

    // calls.py keeps every request that ran the submission's code, and the replayer makes each one
    let calls = Command::new("python3").arg(root().join("scripts/replay/calls.py")).arg(&files[0]).output().unwrap();
    assert!(calls.status.success(), "{}", String::from_utf8_lossy(&calls.stderr));
    let file = transcripts.path().join("calls");
    std::fs::write(&file, &calls.stdout).unwrap();
    let replayed = Command::new(reference_replay()).arg(&file).output().unwrap();
    assert!(replayed.status.success(), "{}", String::from_utf8_lossy(&replayed.stderr));
    let said = String::from_utf8(replayed.stdout).unwrap();
    let said_number = |name: &str| -> u64 {
        let word = said.split_whitespace().find_map(|w| w.strip_prefix(name)).unwrap_or_else(|| panic!("{said}"));
        word.parse().unwrap()
    };
    let grader_only = ["hello", "counters", "call_sites", "api", "bye"];
    let requests = lines.iter().filter(|l| l.starts_with("> ") && !grader_only.contains(&l.split(' ').nth(2).unwrap()));
    // a fused request is a `neighbors()` and a `toString()` of each board whose text its reply holds
    let fused_texts: usize =
        lines.iter().filter_map(|l| l.strip_prefix("< ")).map(|reply| texts_in(reply).count()).sum();
    assert!(fused_texts > 0);
    // a program that serves both worlds holds the student's boards: it is never sent `texts`
    assert_eq!(asked("texts"), 0, "{said}");
    assert_eq!(said_number("calls="), (requests.count() + fused_texts - refused) as u64, "{said}");
    // and the same objects answered the same: the replay's sum of what it was answered is the transcript's
    assert_eq!(said_number("sink="), answered_sum(&lines), "{said}");
}

#[test]
fn calls_py_replays_a_texts_request_as_a_to_string_of_each_board_it_read() {
    let dir = tempfile::tempdir().unwrap();
    let transcript = dir.path().join("t.transcript");
    let text = r"3\n 1  2  3 \n";
    std::fs::write(
        &transcript,
        format!(
            "# program /bin/true\n> 0 hello 1\n< 0 ok 0 1 java refs texts\n> 1 board ref 2 1 2 3 0\n< 1 ok 5 b1\n\
             > 2 neighbors b1\n< 2 ok 3 2 b2 b3\n> 3 solver b1\n< 3 ok 9 s4\n> 4 texts b2 s4 b9 b3\n\
             < 4 ok 7 \t={text}\t?s4 is not a board\t?b9 is unknown\t={text}\n"
        ),
    )
    .unwrap();
    let calls = Command::new("python3").arg(root().join("scripts/replay/calls.py")).arg(&transcript).output().unwrap();
    assert!(calls.status.success(), "{}", String::from_utf8_lossy(&calls.stderr));
    let ints: Vec<i32> = calls.stdout.chunks(4).map(|b| i32::from_be_bytes(b.try_into().unwrap())).collect();
    // the board (ref, n = 2, its tiles; one handle, slot 0), neighbors() of it (two handles: slots 1 and 2), a
    // Solver of it (slot 3), then toString() of slots 1 and 2 (the Solver, which is no board, and b9, which the
    // program did not know, ran nothing), and the end
    assert_eq!(ints, [1, 1, 2, 1, 2, 3, 0, 1, 0, 13, 0, 2, 1, 2, 18, 0, 1, 3, 7, 1, 7, 2, 0]);
}

/// What the replayer sums of its answers (`npuzzle_harness::replay`), read from the transcript's replies: the
/// numbers `dimension`, `hamming`, `manhattan` and `moves` answered, one for each `true` of `is_goal`,
/// `is_solvable` and `equals`, and the length of each `toString()` (unescaped), wrapping as a `u64` does.
fn answered_sum(lines: &[&str]) -> u64 {
    let verbs: std::collections::HashMap<&str, &str> = lines
        .iter()
        .filter_map(|l| l.strip_prefix("> "))
        .filter_map(|request| request.split_once(' ').map(|(id, rest)| (id, rest.split(' ').next().unwrap_or(""))))
        .collect();
    let mut sum = 0u64;
    for reply in lines.iter().filter_map(|l| l.strip_prefix("< ")) {
        let words: Vec<&str> = reply.splitn(4, ' ').collect();
        let (verb, value) = match words.as_slice() {
            [id, "ok", _cpu, value] => (verbs[id], *value),
            _ => continue,
        };
        sum = sum.wrapping_add(match verb {
            "dimension" | "hamming" | "manhattan" | "moves" => value.parse::<i64>().unwrap() as u64,
            "is_goal" | "is_solvable" | "equals" | "equals_as_object" => u64::from(value == "true"),
            "to_string" => text_length(value),
            "neighbors_texts" | "texts" => {
                texts_in(reply).map(|text| text.strip_prefix('=').map_or(0, text_length)).sum()
            }
            _ => 0,
        });
    }
    sum
}

/// The texts a `neighbors_texts` reply holds after its handles, or a `texts` reply holds, each after a tab
/// (none in any other reply).
fn texts_in(reply: &str) -> impl Iterator<Item = &str> {
    reply.split('\t').skip(1)
}

/// The length of a `toString()` text as the program wrote it, from its escaped form.
fn text_length(escaped: &str) -> u64 {
    (escaped.len() - escaped.matches("\\n").count()) as u64
}
