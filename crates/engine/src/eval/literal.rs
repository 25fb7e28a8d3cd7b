//! Writes a [`Weights`] as Rust source in the layout of `params.rs`, so a tuned set can be
//! pasted over `DEFAULT` as it is (a test checks that `DEFAULT` itself comes out verbatim).
//!
//! The layout follows from the weights' names alone (see [`Weights::visit_mut`]): the parts
//! of a name after the field are the indices into nested arrays, and two last parts `mg` and
//! `eg` are a `pair(…)`.

use super::params::Weights;

/// A field's weights as a tree: a single value, or children in order under their name parts.
enum Node {
    Value(i32),
    Children(Vec<(String, Node)>),
}

impl Node {
    /// Adds `value` under the name parts `path`.
    fn insert(&mut self, path: &[&str], value: i32) {
        let Some((first, rest)) = path.split_first() else {
            *self = Node::Value(value);
            return;
        };
        if let Node::Value(_) = self {
            *self = Node::Children(Vec::new());
        }
        if let Node::Children(children) = self {
            if children.last().is_none_or(|(name, _)| name != first) {
                children.push((first.to_string(), Node::Children(Vec::new())));
            }
            if let Some((_, child)) = children.last_mut() {
                child.insert(rest, value);
            }
        }
    }

    /// The node as a Rust expression formatted as rustfmt would, its lines after the first
    /// indented by `indent` spaces.
    fn to_rust(&self, indent: usize) -> String {
        let children = match self {
            Node::Value(v) => return v.to_string(),
            Node::Children(children) => children,
        };
        if let [(mg, Node::Value(a)), (eg, Node::Value(b))] = children.as_slice() {
            if mg == "mg" && eg == "eg" {
                return format!("pair({a}, {b})");
            }
        }
        let items: Vec<String> = children
            .iter()
            .map(|(_, child)| child.to_rust(indent + 4))
            .collect();
        let line = format!("[{}]", items.join(", "));
        if line.len() <= ONE_LINE_ARRAY && !line.contains('\n') {
            return line;
        }
        let inner = " ".repeat(indent + 4);
        let mut text = "[\n".to_string();
        for item in items {
            text += &format!("{inner}{item},\n");
        }
        text + &" ".repeat(indent) + "]"
    }
}

/// The weights grouped by field, in declaration order, each as a tree.
fn fields(weights: &Weights) -> Vec<(String, Node)> {
    let mut fields: Vec<(String, Node)> = Vec::new();
    weights.visit(|name, value| {
        let mut parts = name.split('.');
        let field = parts.next().unwrap_or(name);
        let rest: Vec<&str> = parts.collect();
        if fields.last().is_none_or(|(f, _)| f != field) {
            fields.push((field.to_string(), Node::Children(Vec::new())));
        }
        if let Some((_, node)) = fields.last_mut() {
            node.insert(&rest, value);
        }
    });
    fields
}

/// rustfmt keeps an array on one line up to this width (its default `array_width`).
const ONE_LINE_ARRAY: usize = 60;

impl Weights {
    /// The weights as a Rust constant named `name`, formatted as rustfmt would.
    pub fn to_rust_literal(&self, name: &str) -> String {
        let mut out = format!("pub const {name}: Weights = Weights {{\n");
        for (field, node) in fields(self) {
            out += &format!("    {field}: {},\n", node.to_rust(4));
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
