//! Every weight of [`Weights`] by name, in a fixed order, so tools (the tuner, the literal
//! writer) can treat the weights as a flat list and pick up a new field without changes.
//!
//! Names are the field, then the kind for per-kind arrays, then `mg`/`eg` for pairs:
//! `material.horse.mg`, `chariot_mobility.eg`, `threat_scale.cannon`, `tempo`.

use super::params::{Pair, Weights};
use xiangqi::PieceKind;

/// Hands each weight to a callback under its full name.
struct Visitor<'f, F: FnMut(&str, &mut i32)> {
    f: &'f mut F,
}

impl<F: FnMut(&str, &mut i32)> Visitor<'_, F> {
    fn int(&mut self, name: &str, value: &mut i32) {
        (self.f)(name, value);
    }

    fn pair(&mut self, name: &str, value: &mut Pair) {
        (self.f)(&format!("{name}.mg"), &mut value.mg);
        (self.f)(&format!("{name}.eg"), &mut value.eg);
    }

    fn ints(&mut self, name: &str, values: &mut [i32; 7]) {
        for (kind, value) in PieceKind::ALL.iter().zip(values) {
            self.int(&format!("{name}.{}", kind.name()), value);
        }
    }

    fn pairs(&mut self, name: &str, values: &mut [Pair; 7]) {
        for (kind, value) in PieceKind::ALL.iter().zip(values) {
            self.pair(&format!("{name}.{}", kind.name()), value);
        }
    }
}

impl Weights {
    /// Calls `f` with the name and a mutable reference of every weight, in declaration order.
    /// A new field must be added here; a test checks that every field is visited.
    pub fn visit_mut(&mut self, mut f: impl FnMut(&str, &mut i32)) {
        let mut v = Visitor { f: &mut f };
        v.pairs("material", &mut self.material);
        v.pair("chariot_mobility", &mut self.chariot_mobility);
        v.pair("horse_mobility", &mut self.horse_mobility);
        v.pair("horse_trapped", &mut self.horse_trapped);
        v.pair("cannon_mobility", &mut self.cannon_mobility);
        v.pair("missing_advisor", &mut self.missing_advisor);
        v.pair("missing_elephant", &mut self.missing_elephant);
        v.pair("hollow_cannon", &mut self.hollow_cannon);
        v.pair("central_cannon", &mut self.central_cannon);
        v.pair("chariot_on_general_line", &mut self.chariot_on_general_line);
        v.pair("palace_attack", &mut self.palace_attack);
        v.pair("king_danger", &mut self.king_danger);
        v.pair("hanging", &mut self.hanging);
        v.ints("threat_scale", &mut self.threat_scale);
        v.pair("connected_soldiers", &mut self.connected_soldiers);
        v.int("tempo", &mut self.tempo);
        v.pairs("pst_scale", &mut self.pst_scale);
        for (kind, delta) in PieceKind::ALL.iter().zip(&mut self.pst_delta) {
            for (phase, table) in ["mg", "eg"].iter().zip(delta) {
                for (row, values) in table.iter_mut().enumerate() {
                    for (file, value) in values.iter_mut().enumerate() {
                        let name = format!("pst_delta.{}.{phase}.{row}.{file}", kind.name());
                        v.int(&name, value);
                    }
                }
            }
        }
    }

    /// Calls `f` with the name and value of every weight, in the order of [`Weights::visit_mut`].
    pub fn visit(&self, mut f: impl FnMut(&str, i32)) {
        // Visiting a copy keeps one list of fields; the copy is a few hundred bytes.
        self.clone().visit_mut(|name, value| f(name, *value));
    }

    /// The names of all weights, in visiting order.
    pub fn names() -> Vec<String> {
        let mut names = Vec::new();
        super::params::DEFAULT.visit(|name, _| names.push(name.to_string()));
        names
    }

    /// All values in visiting order.
    pub fn values(&self) -> Vec<i32> {
        let mut values = Vec::new();
        self.visit(|_, value| values.push(value));
        values
    }

    /// A copy of `self` with the values of `values` in visiting order; `None` if the length is
    /// not the number of weights.
    pub fn with_values(&self, values: &[i32]) -> Option<Weights> {
        if values.len() != self.values().len() {
            return None;
        }
        let mut weights = self.clone();
        let mut next = values.iter();
        weights.visit_mut(|_, value| {
            if let Some(&v) = next.next() {
                *value = v;
            }
        });
        Some(weights)
    }
}

#[cfg(test)]
mod tests {
    use super::super::params::DEFAULT;
    use super::*;
    use std::collections::HashSet;

    #[test]
    fn names_are_unique() {
        let names = Weights::names();
        let unique: HashSet<&String> = names.iter().collect();
        assert_eq!(unique.len(), names.len());
        assert!(names.contains(&"material.chariot.mg".to_string()));
        assert!(names.contains(&"threat_scale.cannon".to_string()));
        assert!(names.contains(&"tempo".to_string()));
    }

    #[test]
    fn every_field_is_visited_once() {
        // `Weights` holds only i32s (directly, in pairs and arrays): visiting each exactly once
        // means as many distinct addresses as the struct has i32s.
        let mut weights = DEFAULT.clone();
        let mut addresses = HashSet::new();
        let mut visits = 0;
        weights.visit_mut(|_, value| {
            addresses.insert(std::ptr::from_mut(value) as usize);
            visits += 1;
        });
        let ints = std::mem::size_of::<Weights>() / std::mem::size_of::<i32>();
        assert_eq!(visits, ints);
        assert_eq!(addresses.len(), ints);
    }

    #[test]
    fn values_round_trip() {
        let values: Vec<i32> = (0..DEFAULT.values().len() as i32)
            .map(|i| i * 3 - 7)
            .collect();
        let weights = DEFAULT.with_values(&values).unwrap();
        assert_eq!(weights.values(), values);
        let chariot_threat = Weights::names()
            .iter()
            .position(|n| n == "threat_scale.chariot")
            .unwrap();
        assert_eq!(
            weights.threat_scale[PieceKind::Chariot.index()],
            values[chariot_threat]
        );
        assert_eq!(DEFAULT.with_values(&DEFAULT.values()).unwrap(), DEFAULT);
        assert_eq!(DEFAULT.with_values(&values[1..]), None);
    }
}
