//! The textbook collections beyond `Stack`, `Queue` and `Bag` (`adapters/java/algs4/`): a student may keep a
//! solution in `ResizingArrayStack`, `LinkedStack`, `ResizingArrayQueue`, `LinkedQueue`, `ResizingArrayBag`
//! or `LinkedBag`, which the course's jar has, and a grader that lacked them failed such a submission's
//! compilation (0 points where the official grader gives full marks). Checked here: each keeps the order
//! its textbook namesake keeps (a stack's iteration last in first out, a queue's first in first out, a
//! linked bag's most recent first, an array bag's in the order added) across its arrays' growing and
//! shrinking, and fails on underflow as the textbook's does; and a Solver that returns its solution in one
//! compiles and answers through the server.

use super::super::conversation::Conversation;
use super::class_check;
use super::tests::{build, java_available, valid_with_solver};

/// Pushes and pops each collection through several resizes against a plain list, and prints `ok` or the
/// first disagreement.
const CHECK: &str = r#"
package edu.princeton.cs.algs4;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.NoSuchElementException;

final class TextbookCheck {
    static final List<String> wrong = new ArrayList<>();

    static void same(String what, Iterable<Integer> got, List<Integer> expected) {
        List<Integer> seen = new ArrayList<>();
        for (int x : got) seen.add(x);
        if (!seen.equals(expected)) wrong.add(what + ": " + seen + " instead of " + expected);
    }

    static void underflows(String what, Runnable call) {
        try {
            call.run();
            wrong.add(what + ": no exception on an empty collection");
        } catch (NoSuchElementException e) {
            // as the textbook's
        }
    }

    public static void main(String[] args) {
        ResizingArrayStack<Integer> arrayStack = new ResizingArrayStack<>();
        LinkedStack<Integer> linkedStack = new LinkedStack<>();
        ResizingArrayQueue<Integer> arrayQueue = new ResizingArrayQueue<>();
        LinkedQueue<Integer> linkedQueue = new LinkedQueue<>();
        ResizingArrayBag<Integer> arrayBag = new ResizingArrayBag<>();
        LinkedBag<Integer> linkedBag = new LinkedBag<>();
        List<Integer> stack = new ArrayList<>();
        List<Integer> queue = new ArrayList<>();
        List<Integer> added = new ArrayList<>();
        int next = 0;
        // grow past several doublings, shrink past several halvings, and grow again, the queues wrapping
        for (int[] round : new int[][] {{100, 90}, {40, 45}, {3, 1}, {70, 0}}) {
            for (int i = 0; i < round[0]; i++, next++) {
                arrayStack.push(next);
                linkedStack.push(next);
                arrayQueue.enqueue(next);
                linkedQueue.enqueue(next);
                arrayBag.add(next);
                linkedBag.add(next);
                stack.add(next);
                queue.add(next);
                added.add(next);
            }
            for (int i = 0; i < round[1]; i++) {
                int top = stack.remove(stack.size() - 1);
                int head = queue.remove(0);
                if (arrayStack.peek() != top || arrayStack.pop() != top) wrong.add("ResizingArrayStack.pop");
                if (linkedStack.peek() != top || linkedStack.pop() != top) wrong.add("LinkedStack.pop");
                if (arrayQueue.peek() != head || arrayQueue.dequeue() != head) wrong.add("ResizingArrayQueue.dequeue");
                if (linkedQueue.peek() != head || linkedQueue.dequeue() != head) wrong.add("LinkedQueue.dequeue");
            }
            List<Integer> lifo = new ArrayList<>(stack);
            Collections.reverse(lifo);
            same("ResizingArrayStack", arrayStack, lifo);
            same("LinkedStack", linkedStack, lifo);
            same("ResizingArrayQueue", arrayQueue, queue);
            same("LinkedQueue", linkedQueue, queue);
            same("ResizingArrayBag", arrayBag, added);
            List<Integer> newestFirst = new ArrayList<>(added);
            Collections.reverse(newestFirst);
            same("LinkedBag", linkedBag, newestFirst);
            if (arrayStack.size() != stack.size() || linkedStack.size() != stack.size()) wrong.add("a stack's size");
            if (arrayQueue.size() != queue.size() || linkedQueue.size() != queue.size()) wrong.add("a queue's size");
            if (arrayBag.size() != added.size() || linkedBag.size() != added.size()) wrong.add("a bag's size");
        }
        while (!stack.isEmpty()) {
            stack.remove(stack.size() - 1);
            arrayStack.pop();
            linkedStack.pop();
        }
        while (!queue.isEmpty()) {
            queue.remove(0);
            arrayQueue.dequeue();
            linkedQueue.dequeue();
        }
        if (!arrayStack.isEmpty() || !linkedStack.isEmpty() || !arrayQueue.isEmpty() || !linkedQueue.isEmpty()) {
            wrong.add("emptied collections are not empty");
        }
        underflows("ResizingArrayStack.pop", arrayStack::pop);
        underflows("LinkedStack.peek", linkedStack::peek);
        underflows("ResizingArrayQueue.dequeue", arrayQueue::dequeue);
        underflows("LinkedQueue.peek", linkedQueue::peek);
        System.out.println(wrong.isEmpty() ? "ok" : String.join("\n", wrong));
    }
}
"#;

#[test]
fn the_textbook_collections_keep_their_namesakes_orders() {
    if !java_available() {
        return;
    }
    let classes = [
        "ResizingArrayStack.java",
        "LinkedStack.java",
        "ResizingArrayQueue.java",
        "LinkedQueue.java",
        "ResizingArrayBag.java",
        "LinkedBag.java",
    ];
    let said =
        class_check::run_in("edu.princeton.cs.algs4", "algs4/edu/princeton/cs/algs4", &classes, "TextbookCheck", CHECK);
    assert_eq!(said, "ok");
}

/// A Solver whose solution() is a `ResizingArrayStack` filled from the goal back (initial board first, as
/// the textbook's `Stack`), and that also fills a `LinkedQueue` with it: it compiles against the grader's
/// classes and its solution reads as valid's does.
#[test]
fn a_solution_kept_in_another_textbook_collection_compiles_and_reads_back() {
    if !java_available() {
        return;
    }
    let dir = valid_with_solver(|solver| {
        solver
            .replace("import edu.princeton.cs.algs4.Stack;", "import edu.princeton.cs.algs4.*;")
            .replace(
                "        Stack<Board> path = new Stack<Board>();",
                "        ResizingArrayStack<Board> path = new ResizingArrayStack<Board>();\n        \
                 LinkedQueue<Board> fromGoal = new LinkedQueue<Board>();",
            )
            .replace(
                "            path.push(node.board);",
                "            path.push(node.board);\n            fromGoal.enqueue(node.board);",
            )
            .replace(
                "        return path;",
                "        if (fromGoal.size() != path.size()) throw new IllegalStateException();\n        return path;",
            )
    });
    let mut c = Conversation::start_ref(build(dir.path()));
    assert!(c.ask("hello 1").starts_with("ok "));
    assert_eq!(c.ask("board ref 3 0 1 3 4 2 5 7 8 6"), "ok b1");
    assert_eq!(c.ask("solver b1"), "ok s2");
    assert_eq!(c.ask("moves s2"), "ok 4");
    assert_eq!(c.ask("solution s2"), "ok 5 b3 b4 b5 b6 b7");
    assert_eq!(c.ask("to_string b3"), r"ok 3\n 0  1  3 \n 4  2  5 \n 7  8  6 \n");
    assert_eq!(c.ask("to_string b7"), r"ok 3\n 1  2  3 \n 4  5  6 \n 7  8  0 \n");
    c.finish();
}
