//! What commands print: one record shape in three formats.
//!
//! Every result is a [`Record`]: its 1-based `number` in the run (across all
//! sources), the line's `id`, the `puzzle` as read (its cell text), the `box`
//! shape, a `status` word, then the command's own fields, and `error` for a
//! line that could not be read (`status` is then `invalid`). `--format
//! jsonl` prints one JSON object per record; `--format csv` a header line and
//! one row per record, with the same columns for every record of a command;
//! `--format text` is each command's plain output. Text never carries raw
//! control bytes: those in ids and errors are escaped.

use std::borrow::Cow;

use serde::ser::{Serialize, SerializeMap, Serializer};
use serde_json::Value;
use sudokit::grid::Shape;

/// `--format`, the same for every command that prints results.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct OutputArgs {
    /// Output format: text, jsonl (one JSON object per record) or csv (a
    /// header line, then one row per record). Every record has number, id,
    /// puzzle, box and status, then the command's own fields.
    #[arg(long = "format", value_enum, default_value_t = OutputFormat::Text, value_name = "FORMAT")]
    pub format: OutputFormat,
}

/// The three output formats.
#[derive(clap::ValueEnum, Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OutputFormat {
    /// The command's plain text.
    #[default]
    Text,
    /// One JSON object per line.
    Jsonl,
    /// Comma-separated values with a header line.
    Csv,
}

/// The status of a line that could not be read.
pub const INVALID: &str = "invalid";

/// The columns every record starts with.
pub const COMMON_COLUMNS: [&str; 5] = ["number", "id", "puzzle", "box", "status"];

/// One result, in the shape every command shares.
#[derive(Clone, Debug, Default)]
pub struct Record<'a> {
    /// 1-based position among the run's records.
    pub number: u64,
    /// The line's id (`id:puzzle`), if any.
    pub id: Option<&'a str>,
    /// The puzzle's cell text as read.
    pub puzzle: Option<Cow<'a, str>>,
    /// The grid's box shape, once known.
    pub shape: Option<Shape>,
    /// The command's status word (`unique`, `none`, `multiple`, `solved`,
    /// `invalid` …).
    pub status: &'static str,
    /// The command's own fields, in its column order; `null` ones are left
    /// out of JSON and empty in CSV.
    pub fields: Vec<(&'static str, Value)>,
    /// Why the line could not be read (status `invalid`).
    pub error: Option<String>,
}

impl<'a> Record<'a> {
    /// An `invalid` record for a line that could not be read (`puzzle` is
    /// its cell text, left out when none was kept, as for a line too long).
    pub fn invalid(
        number: u64,
        id: Option<&'a str>,
        puzzle: Option<&'a [u8]>,
        error: String,
    ) -> Self {
        Record {
            number,
            id,
            puzzle: puzzle
                .filter(|p| !p.is_empty())
                .map(String::from_utf8_lossy),
            status: INVALID,
            error: Some(error),
            ..Record::default()
        }
    }

    /// Appends the record as one JSON line.
    pub fn write_json(&self, out: &mut Vec<u8>) {
        serde_json::to_writer(&mut *out, self).expect("a record always serialises");
        out.push(b'\n');
    }

    /// Appends the record as one CSV row of `columns` (the header's).
    pub fn write_csv(&self, columns: &[&str], out: &mut Vec<u8>) {
        for (i, column) in columns.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            let text: Cow<'_, str> = match *column {
                "number" => self.number.to_string().into(),
                "id" => self.id.unwrap_or_default().into(),
                "puzzle" => self.puzzle.clone().unwrap_or_default(),
                "box" => self.shape.map(|s| s.to_string()).unwrap_or_default().into(),
                "status" => self.status.into(),
                "error" => self.error.as_deref().unwrap_or_default().into(),
                field => match self.fields.iter().find(|(name, _)| *name == field) {
                    Some((_, Value::String(s))) => s.as_str().into(),
                    Some((_, Value::Null)) | None => "".into(),
                    Some((_, value)) => value.to_string().into(),
                },
            };
            push_csv_field(out, &text);
        }
        out.push(b'\n');
    }
}

impl Serialize for Record<'_> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let mut map = serializer.serialize_map(None)?;
        map.serialize_entry("number", &self.number)?;
        map.serialize_entry("id", &self.id)?;
        map.serialize_entry("puzzle", &self.puzzle)?;
        map.serialize_entry("box", &self.shape.map(|s| s.to_string()))?;
        map.serialize_entry("status", self.status)?;
        for (name, value) in &self.fields {
            if !value.is_null() {
                map.serialize_entry(name, value)?;
            }
        }
        if let Some(error) = &self.error {
            map.serialize_entry("error", error)?;
        }
        map.end()
    }
}

/// The CSV header: the common columns, the command's, then `error`.
pub fn csv_columns(fields: &[&'static str]) -> Vec<&'static str> {
    let mut columns = COMMON_COLUMNS.to_vec();
    columns.extend_from_slice(fields);
    columns.push("error");
    columns
}

/// Appends the CSV header line for `columns`.
pub fn write_csv_header(columns: &[&str], out: &mut Vec<u8>) {
    out.extend_from_slice(columns.join(",").as_bytes());
    out.push(b'\n');
}

/// One CSV field, quoted when it holds a comma, a quote or a line break.
fn push_csv_field(out: &mut Vec<u8>, text: &str) {
    if text.contains([',', '"', '\n', '\r']) {
        out.push(b'"');
        out.extend_from_slice(text.replace('"', "\"\"").as_bytes());
        out.push(b'"');
    } else {
        out.extend_from_slice(text.as_bytes());
    }
}

/// `text` with control characters escaped (`\0`, `\u{1b}` …), so that an id
/// or an error echoed into text output cannot carry raw control bytes.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(char::is_control) {
        return Cow::Borrowed(text);
    }
    let mut escaped = String::with_capacity(text.len() + 8);
    for ch in text.chars() {
        if ch.is_control() {
            escaped.extend(ch.escape_default());
        } else {
            escaped.push(ch);
        }
    }
    Cow::Owned(escaped)
}

/// Appends `id:` (escaped) when the line had an id.
#[inline]
pub fn push_id(out: &mut Vec<u8>, id: Option<&str>) {
    if let Some(id) = id {
        out.extend_from_slice(escape_controls(id).as_bytes());
        out.push(b':');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_and_csv_carry_the_same_fields() {
        let record = Record {
            number: 3,
            id: Some("a,b"),
            puzzle: Some("1.2.".into()),
            shape: Shape::new(1, 2).ok(),
            status: "unique",
            fields: vec![("solution", Value::from("1221")), ("minimal", Value::Null)],
            error: None,
        };
        let mut json = Vec::new();
        record.write_json(&mut json);
        assert_eq!(
            String::from_utf8(json).unwrap(),
            "{\"number\":3,\"id\":\"a,b\",\"puzzle\":\"1.2.\",\"box\":\"1x2\",\"status\":\"unique\",\"solution\":\"1221\"}\n"
        );
        let columns = csv_columns(&["solution", "minimal"]);
        let mut csv = Vec::new();
        record.write_csv(&columns, &mut csv);
        assert_eq!(
            String::from_utf8(csv).unwrap(),
            "3,\"a,b\",1.2.,1x2,unique,1221,,\n"
        );
    }

    #[test]
    fn control_bytes_are_escaped() {
        assert_eq!(escape_controls("a\0b\x1b"), "a\\u{0}b\\u{1b}");
        assert!(matches!(escape_controls("plain"), Cow::Borrowed(_)));
    }
}
