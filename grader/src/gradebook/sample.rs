//! A gradebook row for the gradebooks' tests.

use crate::batch::Row;
use crate::identity::StudentId;

/// A row graded at `percent` (of 100), or not graded with `error`.
pub fn row(id: StudentId, name: &str, percent: Option<f64>, error: Option<&str>) -> Row {
    Row {
        report: id.file_stem(),
        id,
        name: name.into(),
        lms: None,
        late: None,
        score: percent,
        max: percent.map(|_| 100.0),
        percent,
        categories: percent.map(|_| vec![("compile".into(), 5.0), ("board".into(), 30.0)]).unwrap_or_default(),
        category_max: percent.map(|_| vec![("compile".into(), 5.0), ("board".into(), 60.0)]).unwrap_or_default(),
        failed: if percent.is_some() { vec!["board-5a".into(), "timing-2/puzzle36".into()] } else { vec![] },
        language: percent.map(|_| "java".into()),
        compiled: percent.map(|_| true),
        root_causes: vec![],
        fix_first: None,
        error: error.map(str::to_string),
        partial: None,
        grader_problem: false,
    }
}

/// What a run `--only 'board-1*'` grades: 9 of the catalog's 229 tests.
pub fn partial() -> crate::results::Partial {
    crate::results::Partial::of(&["board-1*".into()], 9, 229, vec![]).expect("partial")
}
