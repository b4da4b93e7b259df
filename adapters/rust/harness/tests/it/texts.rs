//! `texts` (specs/protocol.md): one request that stands for a `to_string` of each board it names. Drives the
//! real `reference-submission` and holds each text of the reply to what a `to_string` request of that board
//! answers on its own, a handle the program does not know failing its text alone.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

use npuzzle_harness::protocol::{decode_texts, Outcome, Reply};

#[test]
fn a_texts_reply_holds_what_each_to_string_would_answer() {
    let mut child = Command::new(env!("CARGO_BIN_EXE_reference-submission"))
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("the reference submission starts");
    let requests = "0 hello 1\n1 board own 3 8 1 3 4 0 2 7 6 5\n2 neighbors b1\n3 texts b3 b1 b99 b5\n\
                    4 to_string b3\n5 to_string b1\n6 to_string b99\n7 to_string b5\n8 bye\n";
    child.stdin.as_mut().unwrap().write_all(requests.as_bytes()).unwrap();
    let replies: Vec<Reply> = BufReader::new(child.stdout.take().unwrap())
        .lines()
        .map(|line| Reply::decode(&line.unwrap()).unwrap())
        .collect();
    assert!(child.wait().unwrap().success());
    assert_eq!(replies.len(), 9, "{replies:?}");
    let hello = match &replies[0].outcome {
        Outcome::Ok(values) => values.clone(),
        other => panic!("{other:?}"),
    };
    assert!(hello.split(' ').any(|capability| capability == "texts"), "{hello}");
    let Outcome::Ok(values) = &replies[3].outcome else { panic!("{:?}", replies[3]) };
    let texts = decode_texts(values).unwrap();
    assert_eq!(texts.len(), 4, "{values}");
    for (text, alone) in texts.iter().zip(&replies[4..8]) {
        assert_eq!(text, &alone.outcome);
    }
    assert!(matches!(&texts[2], Outcome::Protocol(why) if why.contains("b99")), "{texts:?}");
    assert!(matches!(&texts[0], Outcome::Ok(text) if text.starts_with("3\\n")), "{texts:?}");
}
