//! Evidence drawn as HTML: boards as tables side by side with the differing cells marked, a solution step by
//! step with its first illegal board highlighted, a count row as a small table against the reference.

use std::fmt::Write;

use super::escape::escape;
use crate::evidence::{Count, Evidence, Grid, Panel};

/// The evidence of one test as HTML.
pub fn evidence(out: &mut String, evidence: &Evidence) {
    match evidence {
        Evidence::Boards(panels) => boards(out, panels),
        Evidence::Solution { steps, first_illegal, length } => solution(out, steps, *first_illegal, *length),
        Evidence::Counts(counts) => count_table(out, counts),
    }
}

/// Panels side by side; a later panel's cells that differ from the first panel's are marked.
pub fn boards(out: &mut String, panels: &[Panel]) {
    let Some(first) = panels.first() else { return };
    out.push_str("<div class=\"boards\">");
    for (i, panel) in panels.iter().enumerate() {
        let marked = if i == 0 { vec![] } else { first.grid.differences(&panel.grid) };
        figure(out, &escape(&panel.title), &panel.grid, &marked, "");
    }
    out.push_str("</div>");
    if panels.len() > 1 && panels[1..].iter().any(|p| !first.grid.differences(&p.grid).is_empty()) {
        let _ = write!(
            out,
            "<p class=\"legend\"><span class=\"diff-key\"></span> differs from {}</p>",
            escape(&first.title)
        );
    }
}

/// One board as a captioned table; `marked` cells (row-major positions) get the `diff` class.
fn figure(out: &mut String, caption: &str, grid: &Grid, marked: &[usize], class: &str) {
    let _ = write!(out, "<figure class=\"board{class}\"><figcaption>{caption}</figcaption>");
    grid_table(out, grid, marked);
    out.push_str("</figure>");
}

/// The table of one grid.
pub fn grid_table(out: &mut String, grid: &Grid, marked: &[usize]) {
    let _ = write!(out, "<table class=\"grid\" data-n=\"{}\"><tbody>", grid.n);
    for (r, row) in grid.tiles.chunks(grid.n.max(1)).enumerate() {
        out.push_str("<tr>");
        for (c, &tile) in row.iter().enumerate() {
            let diff = marked.contains(&(r * grid.n + c));
            let class = match (tile == 0, diff) {
                (true, true) => " class=\"blank diff\"",
                (true, false) => " class=\"blank\"",
                (false, true) => " class=\"diff\"",
                (false, false) => "",
            };
            if tile == 0 {
                let _ = write!(out, "<td{class}></td>");
            } else {
                let _ = write!(out, "<td{class}>{tile}</td>");
            }
        }
        out.push_str("</tr>");
    }
    out.push_str("</tbody></table>");
}

/// A solution step by step: each board with the cells that moved since the board before it marked, the first
/// illegal one highlighted, and a gap where boards of a long solution were left out.
fn solution(out: &mut String, steps: &[(usize, Grid)], first_illegal: Option<usize>, length: usize) {
    let _ = write!(out, "<p class=\"legend\">solution(): {length} boards");
    if let Some(k) = first_illegal {
        let _ = write!(out, "; board {k} is not one slide from board {}", k - 1);
    }
    out.push_str("</p><ol class=\"steps\">");
    let mut previous: Option<&(usize, Grid)> = None;
    for step in steps {
        let (i, grid) = step;
        if let Some((j, _)) = previous {
            if i - j > 1 {
                let _ = write!(out, "<li class=\"gap\">… {} boards …</li>", i - j - 1);
            }
        }
        let marked = match previous {
            Some((j, before)) if i - j == 1 => before.differences(grid),
            _ => vec![],
        };
        let illegal = first_illegal == Some(*i);
        out.push_str(if illegal { "<li class=\"illegal\">" } else { "<li>" });
        let caption = if illegal { format!("board {i}: illegal move") } else { format!("board {i}") };
        figure(out, &caption, grid, &marked, if illegal { " illegal" } else { "" });
        out.push_str("</li>");
        previous = Some(step);
    }
    if let Some((last, _)) = previous {
        if last + 1 < length {
            let _ = write!(out, "<li class=\"gap\">… {} boards …</li>", length - last - 1);
        }
    }
    out.push_str("</ol>");
}

/// A count row: each count against the reference's and the official ratio.
fn count_table(out: &mut String, counts: &[Count]) {
    out.push_str(
        "<table class=\"counts\"><thead><tr><th>count</th><th>yours</th><th>reference</th>\
         <th>ratio to the allowed</th><th></th></tr></thead><tbody>",
    );
    for count in counts {
        let _ = write!(
            out,
            "<tr{}><td>{}</td><td>{}</td><td>{}</td><td>{} of {} × reference</td><td>{}</td></tr>",
            if count.fails { " class=\"fails\"" } else { "" },
            escape(&count.what),
            count.value,
            count.reference,
            escape(&count.ratio),
            count.factor,
            if count.fails { "too many" } else { "ok" }
        );
    }
    out.push_str("</tbody></table>");
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(n: usize, tiles: &[usize]) -> Grid {
        Grid { n, tiles: tiles.to_vec() }
    }

    #[test]
    fn boards_mark_the_cells_that_differ_from_the_first() {
        let expected = Panel { title: "expected".into(), grid: grid(2, &[1, 2, 3, 0]) };
        let actual = Panel { title: "actual <b>".into(), grid: grid(2, &[2, 1, 3, 0]) };
        let mut out = String::new();
        boards(&mut out, &[expected, actual]);
        insta::assert_snapshot!(out, @r#"<div class="boards"><figure class="board"><figcaption>expected</figcaption><table class="grid" data-n="2"><tbody><tr><td>1</td><td>2</td></tr><tr><td>3</td><td class="blank"></td></tr></tbody></table></figure><figure class="board"><figcaption>actual &lt;b&gt;</figcaption><table class="grid" data-n="2"><tbody><tr><td class="diff">2</td><td class="diff">1</td></tr><tr><td>3</td><td class="blank"></td></tr></tbody></table></figure></div><p class="legend"><span class="diff-key"></span> differs from expected</p>"#);
    }

    #[test]
    fn a_solution_highlights_its_first_illegal_board_and_the_cells_that_moved() {
        let steps = vec![(0, grid(2, &[1, 2, 0, 3])), (1, grid(2, &[1, 2, 3, 0])), (2, grid(2, &[0, 2, 3, 1]))];
        let mut out = String::new();
        solution(&mut out, &steps, Some(2), 3);
        assert!(out.contains("board 2 is not one slide from board 1"), "{out}");
        assert_eq!(out.matches("<li class=\"illegal\">").count(), 1);
        // board 1: the blank and the 3 exchanged places.
        let second = out.split("<li>").nth(2).unwrap().split("</li>").next().unwrap();
        assert_eq!(second.matches("diff").count(), 2, "{second}");
    }

    #[test]
    fn long_solutions_show_the_gaps() {
        let steps = vec![(0, grid(1, &[0])), (5, grid(1, &[0]))];
        let mut out = String::new();
        solution(&mut out, &steps, None, 9);
        assert!(out.contains("… 4 boards …") && out.contains("… 3 boards …"), "{out}");
    }
}
