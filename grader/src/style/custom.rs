//! Our custom style checks for `Board.java` and `Solver.java`: the design problems the official report's
//! "custom checkstyle checks" cite, checked by the grader itself (no Checkstyle needed) over the tokens of
//! [`lexer`](super::lexer) and an outline of each file's classes and fields.
//!
//! - `Design`: a MinPQ (or MaxPQ, PriorityQueue) field, which keeps the whole search alive after the
//!   constructor; a Comparator instance field; a Solver that calls `hamming()`.
//! - `StaticVariableCount`: non-final static variables, shared by every object of the class.
//! - `NestedClass`, `InterfaceInheritance`: a Board with a nested class, or implementing an interface.
//!
//! The outline is forgiving: a file javac would refuse still gets whatever checks its tokens allow.

use super::lexer::{tokens, Kind, Token};
use crate::results::Finding;

/// Modifiers that may start a field declaration.
const MODIFIERS: &[&str] =
    &["public", "private", "protected", "static", "final", "transient", "volatile", "abstract", "default", "sealed"];
/// Queues that should live only as long as the search.
const QUEUES: &[&str] = &["MinPQ", "MaxPQ", "PriorityQueue"];

/// The custom checks' findings for `file` (`Board.java` or `Solver.java`) with `source`, in line order.
pub fn check(file: &str, source: &str) -> Vec<Finding> {
    let tokens = tokens(source);
    let outline = outline(&tokens);
    let class = file.trim_end_matches(".java");
    let mut findings = Vec::new();
    let finding = |at: &Token<'_>, message: String, check: &str| Finding {
        error: false,
        file: file.to_string(),
        line: at.line,
        column: Some(at.column),
        message,
        check: check.to_string(),
    };
    for field in &outline.fields {
        let kind = if field.is_static { "static" } else { "instance" };
        if QUEUES.contains(&field.ty) {
            findings.push(finding(
                &field.name,
                format!(
                    "'{}' (a {}) is an {kind} variable, yet the queue is needed only while the constructor \
                     searches: make it a local variable of the constructor, so the object does not keep the \
                     whole search alive.",
                    field.name.text, field.ty
                ),
                "Design",
            ));
        } else if field.ty == "Comparator" && !(field.is_static && field.is_final) {
            findings.push(finding(
                &field.name,
                format!(
                    "'{}' (a Comparator) is an {kind} variable: a Comparator holds nothing of the object, so \
                     make it a local variable where the queue is made (or a static final constant).",
                    field.name.text
                ),
                "Design",
            ));
        }
    }
    if class == "Solver" {
        for call in outline.calls.iter().filter(|t| t.text == "hamming") {
            findings.push(finding(
                call,
                "Solver.java calls hamming(): the A* priority is moves + manhattan(), and each hamming() call \
                 only costs time (the timing tests count the Board operations a Solver makes)."
                    .into(),
                "Design",
            ));
        }
    }
    let shared: Vec<&str> = outline.fields.iter().filter(|f| f.is_static && !f.is_final).map(|f| f.name.text).collect();
    if !shared.is_empty() {
        let names: Vec<String> = shared.iter().map(|n| format!("'{n}'")).collect();
        findings.push(Finding {
            column: None,
            line: 1,
            ..finding(
                &outline.first,
                format!(
                    "{} ({}): every {class} shares them, so two {class}s at once interfere (the tests create \
                     two); make them instance variables or constants.",
                    crate::results::plural(shared.len(), "non-final static variable"),
                    names.join(", "),
                ),
                "StaticVariableCount",
            )
        });
    }
    if class == "Board" {
        for nested in outline.classes.iter().filter(|c| c.nested) {
            findings.push(finding(
                &nested.keyword,
                format!(
                    "Board defines the nested {} '{}': a Board needs only its tiles (search nodes belong in \
                     the Solver).",
                    nested.keyword.text, nested.name
                ),
                "NestedClass",
            ));
        }
        for top in outline.classes.iter().filter(|c| !c.nested && c.name == "Board") {
            if let Some(implements) = &top.implements {
                findings.push(finding(
                    implements,
                    format!(
                        "Board implements {}: a Board needs neither Comparable nor Iterable (order search nodes \
                         in the Solver; neighbors() returns an Iterable of its own).",
                        top.interfaces.join(", ")
                    ),
                    "InterfaceInheritance",
                ));
            }
        }
    }
    findings.sort_by_key(|f| (f.line, f.column));
    findings
}

/// A class, interface, enum or record declared in the file.
struct ClassDecl<'a> {
    keyword: Token<'a>,
    name: &'a str,
    /// Declared inside another class.
    nested: bool,
    /// The `implements` keyword, if the class has one.
    implements: Option<Token<'a>>,
    interfaces: Vec<&'a str>,
}

/// A field declaration at class-body level (each declarator of `int a, b;` is one).
struct Field<'a> {
    /// The type's simple name (`MinPQ` of `edu.princeton.cs.algs4.MinPQ<Node>`).
    ty: &'a str,
    name: Token<'a>,
    is_static: bool,
    is_final: bool,
}

/// What the checks look at in a file.
struct Outline<'a> {
    classes: Vec<ClassDecl<'a>>,
    fields: Vec<Field<'a>>,
    /// The names of methods called anywhere (`hamming` of `board.hamming()`).
    calls: Vec<Token<'a>>,
    /// The file's first token (a finding about the whole file points at line 1).
    first: Token<'a>,
}

/// What a `{` opened.
enum Scope {
    /// A class body: its members are read here.
    Class,
    /// A method body, an initializer, an anonymous class: skipped. `in_member` when it is part of a field's
    /// initializer (`= new Comparator<>() { … };`), so the field goes on after it closes.
    Block { in_member: bool },
}

fn outline<'a>(tokens: &[Token<'a>]) -> Outline<'a> {
    let empty = Token { kind: Kind::Symbol, text: "", line: 1, column: 1 };
    let mut outline =
        Outline { classes: vec![], fields: vec![], calls: vec![], first: *tokens.first().unwrap_or(&empty) };
    let mut scopes: Vec<Scope> = Vec::new();
    let mut member: Vec<Token<'a>> = Vec::new();
    let mut pending: Option<ClassDecl<'a>> = None;
    let mut i = 0;
    while i < tokens.len() {
        let t = tokens[i];
        let prev = i.checked_sub(1).map(|p| tokens[p]);
        let next = tokens.get(i + 1).copied();
        if is_class_keyword(&t, prev, next) {
            let nested = scopes.iter().any(|s| matches!(s, Scope::Class));
            let name = next.map_or("", |n| n.text);
            pending = Some(ClassDecl { keyword: t, name, nested, implements: None, interfaces: vec![] });
        } else if let (Some(class), true) = (pending.as_mut(), t.is("implements")) {
            class.implements = Some(t);
            class.interfaces = interface_names(&tokens[i + 1..]);
        }
        if t.kind == Kind::Word && next.is_some_and(|n| n.is("(")) && is_call(prev) {
            outline.calls.push(t);
        }
        let at_class_level = matches!(scopes.last(), Some(Scope::Class));
        match t.text {
            "{" if t.kind == Kind::Symbol => {
                if let Some(class) = pending.take() {
                    outline.classes.push(class);
                    scopes.push(Scope::Class);
                    member.clear();
                } else {
                    let in_member = at_class_level && member.iter().any(|m| m.is("="));
                    if at_class_level && !in_member {
                        member.clear();
                    }
                    scopes.push(Scope::Block { in_member });
                }
            }
            "}" if t.kind == Kind::Symbol => {
                // A field's initializer goes on after its block; anything else ends the member.
                let closed = scopes.pop();
                let initializer = matches!(closed, Some(Scope::Block { in_member: true }));
                if !initializer {
                    member.clear();
                }
            }
            ";" if t.kind == Kind::Symbol && at_class_level => {
                outline.fields.extend(fields(&member));
                member.clear();
            }
            "@" if t.kind == Kind::Symbol && at_class_level && next.is_some_and(|n| !n.is("interface")) => {
                i = skip_annotation(tokens, i);
                continue;
            }
            _ if at_class_level => member.push(t),
            _ => {}
        }
        i += 1;
    }
    outline
}

/// `class Name`, `interface Name`, `enum Name`, `record Name(`: not `Board.class` or a variable named
/// `record`.
fn is_class_keyword(t: &Token<'_>, prev: Option<Token<'_>>, next: Option<Token<'_>>) -> bool {
    let keyword = t.kind == Kind::Word && matches!(t.text, "class" | "interface" | "enum" | "record");
    let named = next.is_some_and(|n| n.kind == Kind::Word);
    let qualified = prev.is_some_and(|p| p.is(".") || p.is("@"));
    // `record` is a keyword only where a declaration starts (a field may be called `record`).
    let starts = prev.is_none_or(|p| p.is("{") || p.is("}") || p.is(";") || MODIFIERS.contains(&p.text));
    keyword && named && !qualified && (t.text != "record" || starts)
}

/// Whether a word followed by `(` is a call rather than a method's declaration (`int hamming(`): a call
/// follows a dot, an operator or a keyword that starts an expression, never a type.
fn is_call(prev: Option<Token<'_>>) -> bool {
    match prev {
        None => false,
        Some(p) if p.kind == Kind::Word => matches!(p.text, "return" | "else" | "throw" | "case" | "yield"),
        Some(p) => !(p.is(">") || p.is("]")),
    }
}

/// The interface names after `implements`, up to the class body.
fn interface_names<'a>(after: &[Token<'a>]) -> Vec<&'a str> {
    let mut names = Vec::new();
    let mut depth = 0;
    for t in after.iter().take_while(|t| !t.is("{")) {
        match t.text {
            "<" => depth += 1,
            ">" => depth -= 1,
            _ if depth == 0 && t.kind == Kind::Word && !t.is("extends") => names.push(t.text),
            _ => {}
        }
    }
    names
}

/// The index after an annotation that starts at `at` (`@Name`, `@a.b.Name`, `@Name(…)`).
fn skip_annotation(tokens: &[Token<'_>], at: usize) -> usize {
    let mut i = at + 1;
    while tokens.get(i).is_some_and(|t| t.kind == Kind::Word) {
        i += 1;
        if tokens.get(i).is_some_and(|t| t.is(".")) {
            i += 1;
        } else {
            break;
        }
    }
    if tokens.get(i).is_some_and(|t| t.is("(")) {
        let mut depth = 0;
        while let Some(t) = tokens.get(i) {
            i += 1;
            if t.is("(") {
                depth += 1;
            } else if t.is(")") {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
        }
    }
    i
}

/// The fields one class-level declaration (the tokens before its `;`) declares: none for a method, an
/// enum's constants or anything else that is not `modifiers Type name [= …] [, name [= …]]…`.
fn fields<'a>(member: &[Token<'a>]) -> Vec<Field<'a>> {
    let mut i = 0;
    let (mut is_static, mut is_final) = (false, false);
    while let Some(t) = member.get(i).filter(|t| t.kind == Kind::Word && MODIFIERS.contains(&t.text)) {
        is_static |= t.text == "static";
        is_final |= t.text == "final";
        i += 1;
    }
    let Some(ty) = type_name(member, &mut i) else { return vec![] };
    let rest = &member[i..];
    let named = rest.first().is_some_and(|t| t.kind == Kind::Word) && !rest.get(1).is_some_and(|t| t.is("("));
    if !named {
        return vec![];
    }
    let mut names = Vec::new();
    let mut expect_name = true;
    let mut depth: i32 = 0;
    for t in rest {
        let symbol = t.kind == Kind::Symbol;
        match t.text {
            "(" | "[" | "<" | "{" if symbol => depth += 1,
            ")" | "]" | ">" | "}" if symbol => depth = (depth - 1).max(0),
            "," if symbol && depth == 0 => expect_name = true,
            _ if expect_name && depth == 0 && t.kind == Kind::Word => {
                names.push(*t);
                expect_name = false;
            }
            _ => expect_name = false,
        }
    }
    names.into_iter().map(|name| Field { ty, name, is_static, is_final }).collect()
}

/// The simple name of the type starting at `member[*i]` (`a.b.MinPQ<Node>[]` gives `MinPQ`), moving `*i`
/// past it; `None` when no type starts there.
fn type_name<'a>(member: &[Token<'a>], i: &mut usize) -> Option<&'a str> {
    let mut name = member.get(*i).filter(|t| t.kind == Kind::Word && !matches!(t.text, "void" | "class"))?.text;
    *i += 1;
    while member.get(*i).is_some_and(|t| t.is(".")) && member.get(*i + 1).is_some_and(|t| t.kind == Kind::Word) {
        name = member[*i + 1].text;
        *i += 2;
    }
    if member.get(*i).is_some_and(|t| t.is("<")) {
        let mut depth = 0;
        while let Some(t) = member.get(*i) {
            *i += 1;
            if t.is("<") {
                depth += 1;
            } else if t.is(">") {
                depth -= 1;
                if depth == 0 {
                    break;
                }
            }
        }
    }
    while member.get(*i).is_some_and(|t| t.is("[")) && member.get(*i + 1).is_some_and(|t| t.is("]")) {
        *i += 2;
    }
    Some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn found(file: &str, source: &str) -> Vec<String> {
        check(file, source)
            .iter()
            .map(|f| {
                format!(
                    "{}:{} {} {}",
                    f.line,
                    f.column.unwrap_or(0),
                    f.check,
                    &f.message[..f.message.find(' ').unwrap_or(0)]
                )
            })
            .collect()
    }

    #[rstest::rstest]
    #[case::queue_field("class Solver {\n    private MinPQ<Node> pq;\n}", &["2:25 Design 'pq'"])]
    #[case::qualified_generic_queue("class Solver { private final edu.princeton.cs.algs4.MinPQ<Node> open = new MinPQ<>(); }", &["1:65 Design 'open'"])]
    #[case::local_queue_is_fine("class Solver {\n  Solver(Board b) {\n    MinPQ<Node> pq = new MinPQ<>();\n  }\n}", &[])]
    #[case::comparator_field("class Solver { private Comparator<Node> order = (a, b) -> 0; }", &["1:41 Design 'order'"])]
    #[case::comparator_constant("class Solver { private static final Comparator<Node> BY = new Comparator<>() { public int compare(Node a, Node b) { return 0; } }; }", &[])]
    #[case::hamming_call("class Solver { Solver(Board b) { int h = b.hamming(); } }", &["1:44 Design Solver.java"])]
    #[case::hamming_in_comment_or_string("class Solver { /* b.hamming() */ String s = \"hamming()\"; }", &[])]
    #[case::annotated_field("class Solver { @SuppressWarnings(\"x\") private MinPQ<Node> pq; }", &["1:59 Design 'pq'"])]
    #[case::shared_statics("class Solver { private static int n; private static final int K = 1; static Board b; }", &["1:0 StaticVariableCount 2"])]
    #[case::method_is_no_field("class Solver { private MinPQ<Node> queue() { return null; } abstract MinPQ<Node> q(); }", &[])]
    fn solver_checks(#[case] source: &str, #[case] expected: &[&str]) {
        assert_eq!(found("Solver.java", source), expected);
    }

    #[test]
    fn board_checks() {
        let board = "public class Board implements Comparable<Board>, Iterable<Board> {\n    private static class Node {}\n    public int hamming() { return 0; }\n    public int manhattan() { return hamming(); }\n}";
        assert_eq!(found("Board.java", board), ["1:20 InterfaceInheritance Board", "2:20 NestedClass Board"]);
        let clean = "public class Board {\n    private final int[] tiles;\n    public Board twin() { return new Board(tiles) { }; }\n    boolean same(Object o) { return o.getClass() == Board.class; }\n}";
        assert_eq!(found("Board.java", clean), Vec::<String>::new());
    }

    #[test]
    fn the_gallery_solvers_keep_their_queues_local() {
        let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../fixtures/submissions/java");
        for entry in ["valid", "valid-alt", "one-queue", "no-manhattan-cache"] {
            for file in ["Board.java", "Solver.java"] {
                let source = std::fs::read_to_string(root.join(entry).join(file)).unwrap();
                let design: Vec<String> =
                    check(file, &source).iter().filter(|f| f.check == "Design").map(Finding::line_text).collect();
                assert!(design.is_empty(), "{entry}/{file}: {design:?}");
            }
        }
    }
}
