//! How a Board test's trials travel, below the checks that write them: each trial is a [`Judge`] written with
//! its requests in a [`Script`] (`checks/board.rs`), and [`run`] sends the trials' scripts in groups of a few
//! thousand requests and judges one group while the program answers the next (the two processes work at once
//! on two cores). A check author writes requests and a judge; nothing here is theirs to call.
//!
//! Judging goes in order and stops at the first trial that does not pass; groups after the one in flight are
//! then never sent, and a group sent but never judged is still read, so whatever it met (a crash, a hang)
//! falls on this test and not the next. A check whose trials write no requests (one that must ask step by
//! step) sends nothing here: its judges ask the session themselves, one trial after another.

use std::collections::VecDeque;

use super::context::{partner_of, trial_by_trial, Ctx, Verdict};
use super::script::{Judge, Replies, Script};
use crate::plan::Trial;
use crate::runner::session::{Answer, Fault, Sent};

/// How much script a group holds before it is sent (see [`Script::weight`]).
pub const GROUP_WEIGHT: usize = 4096;

/// Consecutive trials sent as one batch, with their judges.
#[derive(Default)]
struct Group<'a> {
    script: Script,
    judges: VecDeque<Judge<'a>>,
}

/// Runs a test's `trials`: `write` writes one trial's requests (given the trial and its partner,
/// [`partner_of`], for checks about two boards) and returns its judge.
pub fn run<'a>(
    ctx: &mut Ctx<'_>,
    trials: &'a [Trial],
    mut write: impl FnMut(&'a Trial, &'a Trial, &mut Script) -> Judge<'a>,
) -> Verdict {
    let total = trials.len();
    if total == 0 {
        return Verdict::passed(vec![]);
    }
    let mut groups = Vec::new();
    let mut group = Group::default();
    for (k, trial) in trials.iter().enumerate() {
        group.judges.push_back(write(trial, partner_of(trials, k), &mut group.script));
        if group.script.weight() >= GROUP_WEIGHT || k + 1 == total {
            groups.push(std::mem::take(&mut group));
        }
    }
    let mut unsent = groups.into_iter();
    let mut in_flight: VecDeque<(Option<Sent>, Group<'a>)> = VecDeque::new();
    let mut judging: Option<(Group<'a>, Vec<Result<Answer, Fault>>)> = None;
    let results = std::iter::from_fn(|| loop {
        if let Some((group, answers)) = &mut judging {
            if let Some(judge) = group.judges.pop_front() {
                let result = judge(ctx, &Replies::new(&group.script, answers));
                if !group.script.requests().is_empty() {
                    // The next group is in flight: keep its requests going in and its replies coming out.
                    ctx.session.pump();
                }
                return Some(result);
            }
        }
        // Keep one group ahead: it runs in the program while this one is judged.
        while in_flight.len() < 2 {
            let Some(next) = unsent.next() else { break };
            in_flight.push_back((send(ctx, &next.script), next));
        }
        let (sent, group) = in_flight.pop_front()?;
        let answers = sent.map_or_else(Vec::new, |sent| ctx.session.receive_each(sent));
        judging = Some((group, answers));
    });
    let verdict = trial_by_trial(trials, results);
    for (sent, _) in in_flight {
        if let Some(sent) = sent {
            ctx.session.receive_each(sent);
        }
    }
    verdict
}

/// Sends a group's requests, if it has any (a check that asks step by step writes none, and its trials
/// touch the session only through their judges).
fn send(ctx: &mut Ctx<'_>, script: &Script) -> Option<Sent> {
    (!script.requests().is_empty()).then(|| ctx.session.send_each(script.requests()))
}
