//! Writes a [`Weights`] as Rust source in the layout of `params.rs`, so a tuned set can be
//! pasted over `DEFAULT` as it is (a test checks that `DEFAULT` itself comes out verbatim).

use super::params::Weights;
use std::fmt::Write as _;

/// One field's weights: the parts of each name after the field, and the values.
struct Field {
    name: String,
    parts: Vec<String>,
    values: Vec<i32>,
}

/// The weights grouped by field, in declaration order.
fn fields(weights: &Weights) -> Vec<Field> {
    let mut fields: Vec<Field> = Vec::new();
    weights.visit(|name, value| {
        let (field, rest) = name.split_once('.').unwrap_or((name, ""));
        if fields.last().is_none_or(|f| f.name != field) {
            fields.push(Field {
                name: field.to_string(),
                parts: Vec::new(),
                values: Vec::new(),
            });
        }
        if let Some(last) = fields.last_mut() {
            last.parts.push(rest.to_string());
            last.values.push(value);
        }
    });
    fields
}

/// Whether a field's names end in `mg`, `eg`, `mg`, `eg`, …: a pair or an array of pairs.
fn is_pairs(parts: &[String]) -> bool {
    parts.len() % 2 == 0
        && parts
            .chunks(2)
            .all(|c| c[0].ends_with("mg") && c[1].ends_with("eg"))
}

/// rustfmt keeps an array on one line up to this width (its default `array_width`).
const ONE_LINE_ARRAY: usize = 60;

impl Weights {
    /// The weights as a Rust constant named `name`, formatted as rustfmt would.
    pub fn to_rust_literal(&self, name: &str) -> String {
        let mut out = format!("pub const {name}: Weights = Weights {{\n");
        for field in fields(self) {
            let v = &field.values;
            let value = if field.parts == [""] {
                v[0].to_string()
            } else if is_pairs(&field.parts) && field.parts[0] == "mg" && v.len() == 2 {
                format!("pair({}, {})", v[0], v[1])
            } else if is_pairs(&field.parts) {
                let mut text = "[\n".to_string();
                for p in v.chunks(2) {
                    let _ = writeln!(text, "        pair({}, {}),", p[0], p[1]);
                }
                text + "    ]"
            } else {
                let items: Vec<String> = v.iter().map(i32::to_string).collect();
                let line = format!("[{}]", items.join(", "));
                if line.len() <= ONE_LINE_ARRAY {
                    line
                } else {
                    format!("[\n        {},\n    ]", items.join(",\n        "))
                }
            };
            let _ = writeln!(out, "    {}: {value},", field.name);
        }
        out + "};\n"
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::DEFAULT;

    #[test]
    fn default_comes_out_as_written_in_params() {
        let source = include_str!("params.rs");
        let literal = DEFAULT.to_rust_literal("DEFAULT");
        assert!(source.contains(&literal), "{literal}");
    }

    #[test]
    fn changed_values_appear() {
        let mut weights = DEFAULT.clone();
        weights.tempo = -3;
        weights.hanging.eg = 123;
        weights.threat_scale[5] = 77;
        let literal = weights.to_rust_literal("TUNED");
        assert!(literal.starts_with("pub const TUNED: Weights = Weights {\n"));
        assert!(literal.contains("    tempo: -3,\n"));
        let hanging = format!("    hanging: pair({}, 123),\n", weights.hanging.mg);
        assert!(literal.contains(&hanging));
        let scale = weights.threat_scale.map(|w| w.to_string()).join(", ");
        assert!(literal.contains(&format!("    threat_scale: [{scale}],\n")));
        assert!(scale.contains("77"));
    }
}
